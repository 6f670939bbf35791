/**
 * Webhook event bodies (spec: Events) as zod schemas: what a receiver of job.completed,
 * job.failed and batch.completed gets. `src/webhooks/events.ts` builds them; the OpenAPI
 * document publishes them as `webhooks` (closed objects: a field sent but not listed fails the
 * contract check).
 */
import { z } from "zod";
import { BATCH_OUTCOMES, causeSchema, jobSchema } from "./responses";
import { BATCH_STATUSES, listQuery } from "./jobs";
import { deliverySchema } from "./storage";
import { LIMITS } from "./limits";

const iso = z.iso.datetime();

export const WEBHOOK_EVENTS = ["job.completed", "job.failed", "batch.completed"] as const;

export const jobCompletedEventSchema = z
  .object({
    event: z.literal("job.completed"),
    jobId: z.string(),
    status: z.literal("completed"),
    resultUrl: z.string().optional().describe("Signed URL of the result (or its bucket URL)."),
    storage: deliverySchema.optional().describe("Where the result went, for storage destinations."),
    metadata: jobSchema.shape.metadata,
    completedAt: iso.nullable(),
  })
  .meta({
    id: "JobCompletedEvent",
    additionalProperties: false,
    description: "An async capture finished.",
  });

export const jobFailedEventSchema = z
  .object({
    event: z.literal("job.failed"),
    jobId: z.string(),
    status: z.literal("failed"),
    error: z.string().nullable().describe("Sanitized, user-facing reason: one of a fixed list."),
    errorDetail: causeSchema,
    completedAt: iso.nullable(),
  })
  .meta({
    id: "JobFailedEvent",
    additionalProperties: false,
    description: "An async capture failed after all retries.",
  });

export const batchCompletedEventSchema = z
  .object({
    event: z.literal("batch.completed"),
    batchId: z.string(),
    status: z.enum(BATCH_STATUSES),
    outcome: z.enum(BATCH_OUTCOMES).nullable(),
    totalJobs: z.number().int(),
    completedJobs: z.number().int(),
    failedJobs: z.number().int(),
    completedAt: iso.nullable(),
    jobs: z.array(
      z
        .strictObject({
          jobId: z.string(),
          url: z.string().nullable(),
          status: z.enum(["completed", "failed"]),
          resultUrl: z.string().optional(),
          storage: deliverySchema.optional(),
          error: z.string().nullable().optional(),
          errorDetail: causeSchema,
        })
        .meta({ additionalProperties: false }),
    ),
  })
  .meta({
    id: "BatchCompletedEvent",
    additionalProperties: false,
    description: "Every job of a batch finished (one event per batch, none per job).",
  });

// ---- Webhook operations: the delivery log, redelivery, a test send -------------------------

export const DELIVERY_STATES = ["pending", "queued", "delivered", "failed"] as const;

/** GET /v1/webhooks/deliveries: `status` (a delivery state), `limit`, `cursor`. */
export const deliveryListQuery = listQuery("delivery", DELIVERY_STATES);

/** POST /v1/webhooks/test: where to send a signed `test.ping`. */
export const webhookTestRequestSchema = z
  .strictObject({
    url: z
      .string()
      .max(LIMITS.webhookUrlChars, `At most ${LIMITS.webhookUrlChars} characters.`)
      .describe("A public https URL (as a job's webhookUrl) to send a signed test.ping to."),
  })
  .meta({ id: "WebhookTestRequest" });
export type WebhookTestRequest = z.output<typeof webhookTestRequestSchema>;

export const testPingEventSchema = z
  .object({
    event: z.literal("test.ping"),
    /** Unique per test send. */
    deliveryId: z.string(),
    accountId: z.string(),
    sentAt: iso,
  })
  .meta({
    id: "TestPingEvent",
    additionalProperties: false,
    description: "Sent by POST /v1/webhooks/test, signed like every event.",
  });
