/**
 * Operations views: webhook deliveries (the log, redelivery, a test send:
 * src/http/routes/webhooks.ts) and the request log (src/http/routes/requests.ts).
 */
import { z } from "zod";
import {
  requestLogSchema,
  listingSchema,
  webhookDeliveryViewSchema,
  webhookTestResultSchema,
} from "../../../schemas/responses";
import { deliveryListQuery, webhookTestRequestSchema } from "../../../schemas/webhooks";
import { requestLogQuery } from "../../../schemas/request-log";
import {
  API_KEY,
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  jsonRequest,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
  type ApiRoute,
} from "../registry";

const deliveryPath = z.object({
  deliveryId: z.string().meta({ description: "The delivery id (a UUID)." }),
});

export const webhookRoutes: ApiRoute[] = [
  {
    method: "get",
    path: "/v1/webhooks/deliveries",
    operation: {
      operationId: "listWebhookDeliveries",
      summary: "List webhook deliveries",
      description:
        "The account's deliveries of the last 7 days, newest first: event, URL, attempts, the last answer, state and the next retry. Follow `nextCursor` with `cursor`.",
      tags: ["Webhooks"],
      security: API_KEY,
      requestParams: { query: deliveryListQuery },
      responses: {
        "200": envelopeResponse(
          "A page of deliveries.",
          listingSchema(webhookDeliveryViewSchema),
          rateLimitHeaders,
        ),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "VALIDATION_ERROR"]),
      },
    },
  },
  {
    method: "post",
    path: "/v1/webhooks/deliveries/{deliveryId}/redeliver",
    operation: {
      operationId: "redeliverWebhook",
      summary: "Redeliver a webhook",
      description:
        "Queues a delivered or failed delivery again (same delivery id and body, freshly signed); one still on its way is left as it is. 202 with the delivery.",
      tags: ["Webhooks"],
      security: API_KEY,
      requestParams: { path: deliveryPath },
      responses: {
        "202": envelopeResponse("Queued.", webhookDeliveryViewSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "NOT_FOUND"]),
      },
    },
  },
  {
    method: "post",
    path: "/v1/webhooks/test",
    operation: {
      operationId: "testWebhook",
      summary: "Send a test webhook",
      description:
        "Sends a signed `test.ping` to `url` now, through the same URL checks and signing as every delivery (one attempt, 10 s), and returns what the receiver answered.",
      tags: ["Webhooks"],
      security: API_KEY,
      requestBody: jsonRequest(webhookTestRequestSchema, { url: "https://example.com/hooks" }),
      responses: {
        "200": envelopeResponse("The attempt's result.", webhookTestResultSchema, rateLimitHeaders),
        ...errorResponses([
          ...KEY_ERRORS,
          ...SERVICE_ERRORS,
          ...BODY_ERRORS,
          "INVALID_WEBHOOK_URL",
        ]),
      },
    },
  },
  {
    method: "get",
    path: "/v1/requests",
    operation: {
      operationId: "listRequests",
      summary: "List recent API requests",
      description:
        "The account's last 200 API requests of the last 7 days, newest first: time, method, route pattern (never the query), status, error code, credits, duration, request id and key. `status` keeps one class.",
      tags: ["Account"],
      security: API_KEY,
      requestParams: { query: requestLogQuery },
      responses: {
        "200": envelopeResponse("The requests.", requestLogSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "VALIDATION_ERROR"]),
      },
    },
  },
];
