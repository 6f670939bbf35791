/** Responses about async work: accepted jobs and batches, their views, webhook state, listings. */
import { z } from "zod";
import { BATCH_STATUSES, JOB_STATUSES } from "../jobs";
import { deliverySchema } from "../storage";
import { completenessSchema } from "./completeness";

const iso = z.iso.datetime();

/** 202 of an async capture. */
export const jobAcceptedSchema = z
  .object({ jobId: z.string(), status: z.literal("queued") })
  .meta({ id: "JobAccepted" });
export type JobAccepted = z.output<typeof jobAcceptedSchema>;

/** 202 of POST /v1/screenshot/batch, jobs in `urls` order. */
export const batchAcceptedSchema = z
  .object({
    batchId: z.string(),
    status: z.literal("queued"),
    totalJobs: z.number().int(),
    jobs: z.array(
      z.object({ jobId: z.string(), url: z.string().nullable(), status: z.literal("queued") }),
    ),
  })
  .meta({ id: "BatchAccepted" });
export type BatchAccepted = z.output<typeof batchAcceptedSchema>;

export const webhookStateSchema = z
  .object({
    deliveryId: z.string().nullable(),
    /** pending until delivered or given up on (null delivery id: the event is not due yet). */
    status: z.enum(["pending", "delivered", "failed"]),
    delivered: z.boolean(),
    attempts: z.number().int(),
    lastStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    lastAttemptAt: iso.nullable(),
  })
  .meta({ id: "WebhookState" });
export type WebhookView = z.output<typeof webhookStateSchema>;

/** GET /v1/jobs/:jobId, and each item of GET /v1/jobs. */
/** A failed job's or watch run's whole cause, beside its sanitized `error` (src/jobs/errors.ts). */
export const causeSchema = z
  .string()
  .optional()
  .describe(
    "The whole cause, as the same request made synchronously names it (the selector that matched nothing, the status that failed the page), when it says more than `error`.",
  );

export const jobSchema = z
  .object({
    jobId: z.string(),
    batchId: z.string().nullable(),
    status: z.enum(JOB_STATUSES),
    url: z.string().nullable(),
    format: z.string(),
    resultUrl: z.string().optional(),
    /** Where the result went when delivered to a storage destination (resultUrl is then its URL there). */
    storage: deliverySchema.optional(),
    error: z.string().nullable().describe("Sanitized, user-facing reason: one of a fixed list."),
    errorDetail: causeSchema,
    metadata: z
      .object({
        url: z.string().nullable(),
        format: z.string(),
        width: z.number(),
        height: z.number(),
        loadTimeMs: z.number(),
        completeness: completenessSchema.nullable().optional().meta({
          description:
            "How complete the capture is (as in JSON answers); absent for jobs completed before it was recorded.",
        }),
        frames: z
          .number()
          .int()
          .optional()
          .meta({ description: "A recording job's frames (POST /v1/animate)." }),
        durationMs: z
          .number()
          .int()
          .optional()
          .meta({ description: "A recording job's clip length in milliseconds." }),
      })
      .optional(),
    createdAt: iso,
    startedAt: iso.nullable(),
    completedAt: iso.nullable(),
    webhook: webhookStateSchema.optional(),
  })
  .meta({ id: "Job" });
export type JobView = z.output<typeof jobSchema>;

export const BATCH_OUTCOMES = ["succeeded", "partial", "failed"] as const;

/** GET /v1/batches/:batchId (with `jobs`), and each item of GET /v1/batches. */
export const batchSchema = z
  .object({
    batchId: z.string(),
    status: z.enum(BATCH_STATUSES),
    outcome: z.enum(BATCH_OUTCOMES).nullable(),
    totalJobs: z.number().int(),
    completedJobs: z.number().int(),
    failedJobs: z.number().int(),
    createdAt: iso,
    completedAt: iso.nullable(),
    webhook: webhookStateSchema.optional(),
    jobs: z.array(jobSchema).optional(),
  })
  .meta({ id: "Batch" });
export type BatchView = z.output<typeof batchSchema>;

/** GET /v1/jobs and GET /v1/batches: newest first, `nextCursor` null on the last page. */
export function listingSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}
export const jobListingSchema = listingSchema(jobSchema);
export const batchListingSchema = listingSchema(batchSchema);
export type Listing<T> = { items: T[]; nextCursor: string | null };
