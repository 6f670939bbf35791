/** Responses of the webhook operations: the delivery log, a redelivery, a test send. */
import { z } from "zod";

const iso = z.iso.datetime();

export const webhookDeliveryViewSchema = z
  .object({
    deliveryId: z.string().describe("Unique per delivery; the x-service-delivery-id header."),
    event: z.string().describe("job.completed, job.failed, batch.completed, watch.changed, …"),
    url: z.string().describe("Where it is sent."),
    subject: z
      .object({ kind: z.enum(["job", "batch", "run", "crawl", "monitor"]), id: z.string() })
      .describe("The job, batch or watch run it reports on."),
    state: z
      .enum(["pending", "queued", "delivered", "failed"])
      .describe("pending or queued: on its way (or retrying); delivered and failed are final."),
    attempts: z.number().int(),
    lastStatus: z.number().int().nullable().describe("HTTP status of the last attempt."),
    lastError: z.string().nullable().describe("Why the last attempt failed."),
    lastAttemptAt: iso.nullable(),
    nextAttemptAt: iso.nullable().describe("When the next retry is due, while retrying."),
    createdAt: iso,
  })
  .meta({ id: "WebhookDelivery", additionalProperties: false });
export type WebhookDeliveryView = z.output<typeof webhookDeliveryViewSchema>;

export const webhookTestResultSchema = z
  .object({
    delivered: z.boolean().describe("The receiver answered 2xx."),
    status: z.number().int().nullable().describe("The receiver's HTTP status; null if none."),
    error: z.string().optional().describe("Why it was not delivered."),
  })
  .meta({ id: "WebhookTestResult", additionalProperties: false });
export type WebhookTestResult = z.output<typeof webhookTestResultSchema>;
