/**
 * POST /v1/screenshot/batch (paid plans): the checks and the submit are src/jobs/batch.ts's
 * (the same for POST /v1/animate/batch). 202 with the jobs in `urls` order; 1 credit per URL
 * reserved (meta.usage.credits).
 */
import { batchRequestSchema } from "../../../schemas/batch";
import { batchAcceptedSchema } from "../../../schemas/responses";
import { submitCaptureBatch } from "../../jobs/batch";
import { endpoint, endpoints } from "../endpoint";
import { charged, successBody } from "../envelope";
import { envelopeResponse, errorResponses } from "../openapi/registry";
import { BATCH_ERRORS } from "./capture-contract";

export const batchRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/screenshot/batch",
    auth: "key",
    idempotent: true,
    body: {
      schema: batchRequestSchema,
      example: {
        urls: ["https://example.com", "https://example.org"],
        defaults: { format: "png", width: 1280 },
      },
    },
    operation: {
      operationId: "captureBatch",
      summary: "Queue a batch of captures",
      description:
        "Paid plans. 1 credit per URL; capped per plan (Basic 10, Starter 25, Pro 100, Enterprise 500). One batch.completed webhook when every job finished.",
      tags: ["Async"],
      responses: {
        "202": envelopeResponse("Queued; jobs in `urls` order.", batchAcceptedSchema),
        ...errorResponses(BATCH_ERRORS),
      },
    },
    handler: async (c) => {
      const body = c.req.valid("json");
      const { data, usage } = await submitCaptureBatch(c.env, c.get("auth"), body, c.req.url);
      return c.json(successBody(c.get("requestId"), data, charged(c, usage)), 202);
    },
  }),
);
