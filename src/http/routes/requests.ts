/**
 * GET /v1/requests: the account's request log — its last 200 API requests of the last 7 days,
 * newest first, `status` keeping one class (2xx, 4xx, 5xx). Free of credit.
 */
import { LIMITS } from "../../../schemas/limits";
import { requestLogQuery } from "../../../schemas/request-log";
import { requestLogSchema } from "../../../schemas/responses";
import { endpoint, endpoints } from "../endpoint";
import { successBody } from "../envelope";
import {
  envelopeResponse,
  errorResponses,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
} from "../openapi/registry";

export const requestRoutes = endpoints(
  endpoint({
    method: "get",
    path: "/v1/requests",
    auth: "key",
    query: requestLogQuery,
    operation: {
      operationId: "listRequests",
      summary: "List recent API requests",
      description:
        "The account's last 200 API requests of the last 7 days, newest first: time, method, route pattern (never the query), status, error code, credits, duration, request id and key. `status` keeps one class.",
      tags: ["Account"],
      responses: {
        "200": envelopeResponse("The requests.", requestLogSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "VALIDATION_ERROR"]),
      },
    },
    handler: async (c) => {
      const q = c.req.valid("query");
      const items = await c
        .get("auth")
        .account.requests()
        .list({ status: q.status ?? null, limit: q.limit ?? LIMITS.requestLogEntries });
      return c.json(successBody(c.get("requestId"), { items }));
    },
  }),
);
