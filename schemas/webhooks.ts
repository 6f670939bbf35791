/**
 * Webhook event bodies (spec: Events) as zod schemas: what a receiver of job.completed,
 * job.failed and batch.completed gets. `src/webhooks/events.ts` builds them; the OpenAPI
 * document publishes them as `webhooks` (closed objects: a field sent but not listed fails the
 * contract check).
 */
import { z } from "zod";
import { BATCH_OUTCOMES, jobSchema } from "./responses";
import { BATCH_STATUSES } from "./jobs";
import { deliverySchema } from "./storage";

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
    error: z.string().nullable().describe("Sanitized, user-facing reason."),
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
        })
        .meta({ additionalProperties: false }),
    ),
  })
  .meta({
    id: "BatchCompletedEvent",
    additionalProperties: false,
    description: "Every job of a batch finished (one event per batch, none per job).",
  });
