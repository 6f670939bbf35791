/** Webhook operations: the delivery log (last 7 days), redelivery and a test send. */
import type {
  ListWebhookDeliveriesData,
  WebhookDelivery,
  WebhookTestResult,
} from "../generated/index.js";
import type { Transport } from "../transport.js";

export function webhooksResource(t: Transport) {
  return {
    /** GET /v1/webhooks/deliveries: newest first; follow `nextCursor` with `cursor`. */
    deliveries: (query: NonNullable<ListWebhookDeliveriesData["query"]> = {}) =>
      t.json<{ items: WebhookDelivery[]; nextCursor: string | null }>(
        "GET",
        "/v1/webhooks/deliveries",
        undefined,
        query,
      ),
    /** Queues a delivered or failed delivery again (same id, freshly signed). */
    redeliver: (deliveryId: string) =>
      t.json<WebhookDelivery>(
        "POST",
        `/v1/webhooks/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
      ),
    /** Sends a signed `test.ping` to `url` now; resolves with the receiver's answer. */
    test: (url: string) => t.json<WebhookTestResult>("POST", "/v1/webhooks/test", { url }),
  };
}
