/**
 * Webhook operations: GET /v1/webhooks/deliveries (the account's deliveries of the last 7 days,
 * newest first, paged like the job listing), POST /v1/webhooks/deliveries/:id/redeliver (a
 * finished delivery queued again; one still on its way is left as it is; another account's id
 * is an unknown one: 404) and POST /v1/webhooks/test (a signed `test.ping` sent now, its result
 * returned). Free of credit.
 */
import {
  listingSchema,
  webhookDeliveryViewSchema,
  webhookTestResultSchema,
  type Listing,
  type WebhookDeliveryView,
  type WebhookTestResult,
} from "../../../schemas/responses";
import { deliveryListQuery, webhookTestRequestSchema } from "../../../schemas/webhooks";
import { ApiError } from "../../errors";
import { redeliverWebhook, sendTestPing } from "../../webhooks/deliver";
import { requireWebhookUrl } from "../../webhooks/url";
import { endpoint, endpoints } from "../endpoint";
import { listing, paging } from "../listing";
import { successBody } from "../envelope";
import {
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  idParam,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
} from "../openapi/registry";

export const webhookRoutes = endpoints(
  endpoint({
    method: "get",
    path: "/v1/webhooks/deliveries",
    auth: "key",
    query: deliveryListQuery,
    operation: {
      operationId: "listWebhookDeliveries",
      summary: "List webhook deliveries",
      description:
        "The account's deliveries of the last 7 days, newest first: event, URL, attempts, the last answer, state and the next retry. Follow `nextCursor` with `cursor`.",
      tags: ["Webhooks"],
      responses: {
        "200": envelopeResponse(
          "A page of deliveries.",
          listingSchema(webhookDeliveryViewSchema),
          rateLimitHeaders,
        ),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "VALIDATION_ERROR"]),
      },
    },
    handler: async (c) => {
      const q = c.req.valid("query");
      const page = await c.get("auth").account.webhooks().list(paging(q));
      const data: Listing<WebhookDeliveryView> = listing("delivery", page);
      return c.json(successBody(c.get("requestId"), data));
    },
  }),
  endpoint({
    method: "post",
    path: "/v1/webhooks/deliveries/{deliveryId}/redeliver",
    auth: "key",
    operation: {
      operationId: "redeliverWebhook",
      summary: "Redeliver a webhook",
      description:
        "Queues a delivered or failed delivery again (same delivery id and body, freshly signed); one still on its way is left as it is. 202 with the delivery.",
      tags: ["Webhooks"],
      requestParams: { path: idParam("deliveryId", "The delivery id (a UUID).") },
      responses: {
        "202": envelopeResponse("Queued.", webhookDeliveryViewSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const deliveryId = c.req.param("deliveryId") ?? "";
      const view = await redeliverWebhook(c.env, c.get("auth").accountId, deliveryId);
      if (!view) throw new ApiError("NOT_FOUND", "No webhook delivery with this id.");
      return c.json(successBody(c.get("requestId"), view), 202);
    },
  }),
  endpoint({
    method: "post",
    path: "/v1/webhooks/test",
    auth: "key",
    body: { schema: webhookTestRequestSchema, example: { url: "https://example.com/hooks" } },
    operation: {
      operationId: "testWebhook",
      summary: "Send a test webhook",
      description:
        "Sends a signed `test.ping` to `url` now, through the same URL checks and signing as every delivery (one attempt, 10 s), and returns what the receiver answered.",
      tags: ["Webhooks"],
      responses: {
        "200": envelopeResponse("The attempt's result.", webhookTestResultSchema, rateLimitHeaders),
        ...errorResponses([
          ...KEY_ERRORS,
          ...SERVICE_ERRORS,
          ...BODY_ERRORS,
          "INVALID_WEBHOOK_URL",
          "URL_CHECK_UNAVAILABLE",
        ]),
      },
    },
    handler: async (c) => {
      const { url } = c.req.valid("json");
      const checked = await requireWebhookUrl(c.env, url, "url");
      const data: WebhookTestResult = await sendTestPing(c.env, c.get("auth").accountId, checked);
      return c.json(successBody(c.get("requestId"), data));
    },
  }),
);
