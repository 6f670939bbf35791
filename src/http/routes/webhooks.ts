/**
 * Webhook operations: GET /v1/webhooks/deliveries (the account's deliveries of the last 7 days,
 * newest first, paged like the job listing), POST /v1/webhooks/deliveries/:id/redeliver (a
 * finished delivery queued again; one still on its way is left as it is; another account's id
 * is an unknown one: 404) and POST /v1/webhooks/test (a signed `test.ping` sent now, its result
 * returned). Free of credit.
 */
import { Hono } from "hono";
import { encodeCursor } from "../../../schemas/jobs";
import { LIMITS } from "../../../schemas/limits";
import type { Listing, WebhookDeliveryView, WebhookTestResult } from "../../../schemas/responses";
import { deliveryListQuery, webhookTestRequestSchema } from "../../../schemas/webhooks";
import { ApiError } from "../../errors";
import { redeliverWebhook, sendTestPing } from "../../webhooks/deliver";
import { requireWebhookUrl } from "../../webhooks/url";
import { jsonBody, parseWith } from "../body";
import { successBody } from "../envelope";
import { authenticate } from "../middleware/authenticate";
import type { AppEnv } from "../types";

export const webhookRoutes = new Hono<AppEnv>()
  .get("/webhooks/deliveries", authenticate(), async (c) => {
    const q = parseWith(deliveryListQuery, Object.fromEntries(new URL(c.req.url).searchParams));
    const page = await c
      .get("auth")
      .account.webhooks()
      .list({
        status: q.status ?? null,
        limit: q.limit ?? LIMITS.listDefault,
        before: q.cursor ?? null,
      });
    const data: Listing<WebhookDeliveryView> = {
      items: page.items,
      nextCursor: page.nextBefore === null ? null : encodeCursor("delivery", page.nextBefore),
    };
    return c.json(successBody(c.get("requestId"), data));
  })
  .post("/webhooks/deliveries/:deliveryId/redeliver", authenticate(), async (c) => {
    const deliveryId = c.req.param("deliveryId");
    const view = await redeliverWebhook(c.env, c.get("auth").accountId, deliveryId);
    if (!view) throw new ApiError("NOT_FOUND", "No webhook delivery with this id.");
    return c.json(successBody(c.get("requestId"), view), 202);
  })
  .post("/webhooks/test", authenticate(), async (c) => {
    const auth = c.get("auth");
    const { url } = await jsonBody(c, webhookTestRequestSchema);
    const checked = await requireWebhookUrl(c.env, url, "url");
    const data: WebhookTestResult = await sendTestPing(c.env, auth.accountId, checked);
    return c.json(successBody(c.get("requestId"), data));
  });
