/**
 * Watches: scheduled captures of one URL with change detection (docs/WATCHES.md). The create
 * and update bodies, the listing queries, the watch and run views and the two webhook bodies.
 * `capture` takes exactly the settings batch `defaults` take (same schema), as a PNG: the
 * visual comparison decodes it.
 */
import { z } from "zod";
import { batchDefaultsSchema, type BatchDefaults } from "./batch";
import { listQuery } from "./jobs";
import { causeSchema, listingSchema } from "./responses";
import { LIMITS } from "./limits";
import { cssSelector, intIn, maxChars, NOT_EMPTY, numberIn } from "./primitives";
import { storageOptionSchema } from "./storage";

const L = LIMITS;

export const WATCH_STATUSES = ["active", "paused"] as const;
export const CHANGE_MODES = ["visual", "text", "both"] as const;
export const RUN_STATUSES = ["queued", "processing", "completed", "failed", "skipped"] as const;
export const RUN_OUTCOMES = ["baseline", "unchanged", "changed", "error"] as const;
export const RUN_TRIGGERS = ["schedule", "manual"] as const;
export type WatchStatus = (typeof WATCH_STATUSES)[number];
export type RunStatus = (typeof RUN_STATUSES)[number];
export type RunOutcome = (typeof RUN_OUTCOMES)[number];
export type RunTrigger = (typeof RUN_TRIGGERS)[number];
export type ChangeMode = (typeof CHANGE_MODES)[number];

/** Batch defaults, with the format fixed to PNG (omitted = png). */
export const watchCaptureSchema = batchDefaultsSchema
  .superRefine((value, ctx) => {
    if (value.format !== undefined && value.format !== "png") {
      ctx.addIssue({
        code: "custom",
        path: ["format"],
        message: "Watches capture PNG: the visual comparison decodes it.",
      });
    }
  })
  .describe(
    "Capture settings of every run: those batch `defaults` accept (viewport, fullPage, waits, css/js, …). Output is always PNG.",
  );
export type WatchCapture = BatchDefaults;

export const changeDetectionSchema = z
  .strictObject({
    mode: z
      .enum(CHANGE_MODES)
      .default("visual")
      .describe(
        "visual: share of pixels that differ; text: share of visible-text lines changed; both.",
      ),
    thresholdPercent: numberIn(L.watchThresholdPercent.min, L.watchThresholdPercent.max)
      .default(L.watchThresholdPercent.default)
      .describe("A run is `changed` when the changed share is over this percentage."),
    ignoreSelectors: z
      .array(cssSelector(L.selectorChars))
      .max(L.watchIgnoreSelectors, `At most ${L.watchIgnoreSelectors} selectors.`)
      .default([])
      .describe(
        "Elements hidden (display:none) before every capture, so they never count as a change.",
      ),
  })
  .describe("How a run is compared with the last good one.");
export type ChangeDetection = z.output<typeof changeDetectionSchema>;

export const retentionSchema = z
  .strictObject({
    runs: intIn(L.watchRetentionRuns.min, L.watchRetentionRuns.max)
      .default(L.watchRetentionRuns.default)
      .describe("Runs kept (with their images); older ones are deleted."),
    days: intIn(L.watchRetentionDays.min, L.watchRetentionDays.max, "days")
      .default(L.watchRetentionDays.default)
      .describe("Runs older than this many days are deleted with their images."),
  })
  .describe("History limits; the run holding the current baseline is always kept.");
export type Retention = z.output<typeof retentionSchema>;

const interval = intIn(1, L.watchIntervalMaxMinutes, "minutes").describe(
  `Minutes between scheduled runs: at least the plan's floor (Free 1440, Basic 180, Starter 60, Pro 30, Enterprise 5), at most ${L.watchIntervalMaxMinutes}.`,
);
const name = maxChars(L.watchNameChars).min(1, NOT_EMPTY).describe("A label of your choice.");
const webhookUrl = z
  .string()
  .min(1)
  .max(L.webhookUrlChars)
  .describe("Public HTTPS URL receiving signed watch.changed and watch.failed events.");

/** POST /v1/watches. */
export const watchCreateSchema = z
  .strictObject({
    url: z.string().min(1, NOT_EMPTY).max(L.urlChars).describe("The public URL to watch."),
    name: name.optional(),
    intervalMinutes: interval,
    capture: watchCaptureSchema.optional(),
    changeDetection: changeDetectionSchema.optional(),
    webhookUrl: webhookUrl.optional(),
    retention: retentionSchema.optional(),
    paused: z.boolean().default(false).describe("Create the watch paused."),
    storage: storageOptionSchema
      .optional()
      .describe(
        "Also deliver every run's image to this storage destination ({watchId} in the key).",
      ),
  })
  .describe("POST /v1/watches body.");
export type WatchCreate = z.output<typeof watchCreateSchema>;

/** PATCH /v1/watches/:id: any of these, the same rules; `null` clears name and webhookUrl. */
export const watchPatchSchema = z
  .strictObject({
    paused: z.boolean().optional(),
    intervalMinutes: interval.optional(),
    name: name.nullable().optional(),
    capture: watchCaptureSchema.optional(),
    changeDetection: changeDetectionSchema.optional(),
    webhookUrl: webhookUrl.nullable().optional(),
    retention: retentionSchema.optional(),
  })
  .describe("PATCH /v1/watches/:watchId body: the fields to change.");
export type WatchPatch = z.output<typeof watchPatchSchema>;

export const watchListQuery = listQuery("watch", WATCH_STATUSES);
export const runListQuery = listQuery("run", RUN_STATUSES);

const iso = z.string().describe("ISO 8601");

export const watchSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    url: z.string(),
    status: z.enum(WATCH_STATUSES),
    paused: z.boolean(),
    pausedReason: z
      .string()
      .nullable()
      .describe("Why the service paused it (failures, a plan downgrade); null otherwise."),
    intervalMinutes: z.number().int(),
    nextRunAt: iso.nullable().describe("Next scheduled run; null while paused."),
    lastRunAt: iso.nullable(),
    lastChangeAt: iso.nullable(),
    consecutiveFailures: z.number().int(),
    capture: z
      .custom<WatchCapture>((v) => typeof v === "object" && v !== null)
      .describe("The capture settings as given."),
    changeDetection: z.object({
      mode: z.enum(CHANGE_MODES),
      thresholdPercent: z.number(),
      ignoreSelectors: z.array(z.string()),
    }),
    webhookUrl: z.string().nullable(),
    retention: z.object({ runs: z.number().int(), days: z.number().int() }),
    storage: z.object({ destinationId: z.string(), key: z.string().optional() }).nullable(),
    createdAt: iso,
  })
  .describe("A watch.");
export type WatchView = z.output<typeof watchSchema>;

export const watchRunSchema = z
  .object({
    id: z.string(),
    watchId: z.string(),
    jobId: z.string().nullable().describe("The async job of the capture; null when skipped."),
    status: z.enum(RUN_STATUSES),
    outcome: z.enum(RUN_OUTCOMES).nullable(),
    changedPercent: z.number().nullable(),
    imageUrl: z.string().nullable().describe("Signed URL of this run's PNG."),
    diffUrl: z.string().nullable().describe("Signed URL of the diff PNG (changed pixels in red)."),
    previousImageUrl: z.string().nullable().describe("Signed URL of the baseline compared with."),
    textDiff: z
      .object({ added: z.array(z.string()), removed: z.array(z.string()) })
      .optional()
      .describe("Text and both modes: lines added and removed."),
    error: z.string().nullable().describe("Why it failed or was skipped."),
    errorDetail: causeSchema,
    startedAt: iso.nullable(),
    completedAt: iso.nullable(),
    createdAt: iso,
    trigger: z.enum(RUN_TRIGGERS),
  })
  .describe("One run of a watch.");
export type WatchRunView = z.output<typeof watchRunSchema>;

/** GET /v1/watches and GET /v1/watches/:watchId/runs: newest first, `nextCursor` null on the last page. */
export const watchListingSchema = listingSchema(watchSchema).describe("A page of watches.");
export const watchRunListingSchema = listingSchema(watchRunSchema).describe("A page of runs.");

/** DELETE /v1/watches/:watchId → 200. */
export const watchDeletedSchema = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .describe("The watch, its runs and their stored images are deleted.");
export type WatchDeleted = z.output<typeof watchDeletedSchema>;

/** POST /v1/watches/:id/run → 202. */
export const watchRunAcceptedSchema = z
  .object({ runId: z.string(), jobId: z.string(), status: z.literal("queued") })
  .describe("The manual run, queued.");
export type WatchRunAccepted = z.output<typeof watchRunAcceptedSchema>;

/** `watch.changed` webhook body. */
export const watchChangedEventSchema = z.object({
  event: z.literal("watch.changed"),
  watchId: z.string(),
  runId: z.string(),
  url: z.string(),
  changedPercent: z.number(),
  imageUrl: z.string().nullable(),
  previousImageUrl: z.string().nullable(),
  diffUrl: z.string().nullable(),
  detectedAt: iso,
});

/** `watch.failed` webhook body. */
export const watchFailedEventSchema = z.object({
  event: z.literal("watch.failed"),
  watchId: z.string(),
  runId: z.string(),
  error: z.string(),
  errorDetail: causeSchema,
  consecutiveFailures: z.number().int(),
  paused: z.boolean(),
});
