/**
 * Watches: scheduled captures of one URL with change detection (docs/WATCHES.md). The create
 * and update bodies, the listing queries, the watch and run views and the two webhook bodies.
 * `capture` takes exactly the settings batch `defaults` take (same schema), as a PNG: the
 * visual comparison decodes it.
 */
import { z } from "zod";
import { batchDefaultsSchema, type BatchDefaults } from "./batch";
import { listQuery } from "./jobs";
import { causeSchema, completenessSchema, listingSchema } from "./responses";
import { LIMITS } from "./limits";
import { cssSelector, intIn, maxChars, NOT_EMPTY, numberIn } from "./primitives";
import { storageOptionSchema } from "./storage";
import { fieldsSchema, type FieldMap } from "./structured";

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

export const ALERT_RULES = [
  "changed",
  "increased",
  "decreased",
  "above",
  "below",
  "becomes",
  "stopsBeing",
] as const;
export type AlertRuleName = (typeof ALERT_RULES)[number];

const alertValue = z.union([z.number(), z.string().max(L.watchAlertValueChars), z.boolean()]);

/** One rule on a field (docs/WATCHES.md "Alerts on a field"). */
export const alertRuleSchema = z
  .strictObject({
    field: z
      .string()
      .min(1, NOT_EMPTY)
      .max(L.structuredFieldNameChars)
      .describe("A field of `fields` (top level) whose value the rule reads."),
    rule: z
      .enum(ALERT_RULES)
      .describe(
        "changed: the value differs from the last good run's; increased / decreased: by at least `byPercent` (numbers); above / below: crosses `value` (numbers); becomes / stopsBeing: turns into, or stops being, `value` (back in stock).",
      ),
    byPercent: numberIn(0, 1_000_000)
      .optional()
      .describe(
        "increased / decreased: the least change, in percent of the last value (default 0).",
      ),
    value: alertValue
      .optional()
      .describe("above / below: a number; becomes / stopsBeing: the value compared with."),
    onFirstRun: z
      .boolean()
      .default(false)
      .describe(
        "Fire on the first run with these fields when the condition already holds (above, below, becomes, stopsBeing).",
      ),
  })
  .superRefine((rule, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: "custom", path: [path], message });
    const numeric = rule.rule === "increased" || rule.rule === "decreased";
    const bound = rule.rule === "above" || rule.rule === "below";
    const equals = rule.rule === "becomes" || rule.rule === "stopsBeing";
    if (rule.byPercent !== undefined && !numeric)
      issue("byPercent", "byPercent applies to increased and decreased.");
    if (bound && typeof rule.value !== "number")
      issue("value", `A number is required for ${rule.rule}.`);
    else if (equals && rule.value === undefined)
      issue("value", `The value is required for ${rule.rule}.`);
    else if (!bound && !equals && rule.value !== undefined)
      issue("value", `value does not apply to ${rule.rule}.`);
  })
  .describe("An alert rule on a field.");
export type AlertRule = z.output<typeof alertRuleSchema>;

/** A field value a rule reads: rules refuse lists and objects. */
const fieldScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
type FieldScalar = z.output<typeof fieldScalar>;

/** A rule that fired on a run: the rule, and the field's value before and now. */
export const firedAlertSchema = z
  .object({
    field: z.string(),
    rule: z.enum(ALERT_RULES),
    byPercent: z.number().optional(),
    value: alertValue.optional(),
    previous: fieldScalar.describe("The value at the last good run (null on the first run)."),
    current: fieldScalar.describe("The value now."),
  })
  .describe("An alert rule that fired.");
export type FiredAlert = z.output<typeof firedAlertSchema>;

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
    fields: fieldsSchema
      .optional()
      .describe(
        "Fields read from the page at every run, as POST /v1/json reads them (selector, type, lists, objects); each run shows them, and `alerts` compare them.",
      ),
    alerts: z
      .array(alertRuleSchema)
      .max(L.watchAlerts, `At most ${L.watchAlerts} rules.`)
      .default([])
      .describe(
        "Rules on `fields`, compared with the last good run; a run where any fires sends watch.alert.",
      ),
  })
  .superRefine((cd, ctx) => {
    const fields: FieldMap = cd.fields ?? {};
    cd.alerts.forEach((alert, i) => {
      if (!Object.hasOwn(fields, alert.field))
        ctx.addIssue({
          code: "custom",
          path: ["alerts", i, "field"],
          message: "Not a field of `fields`.",
        });
      else if (fields[alert.field]?.fields !== undefined || fields[alert.field]?.list === true)
        ctx.addIssue({
          code: "custom",
          path: ["alerts", i, "field"],
          message: "Rules read a single value: not a list or an object.",
        });
    });
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
      fields: z
        .custom<FieldMap>((v) => typeof v === "object" && v !== null)
        .describe("The fields read at every run, as given.")
        .optional(),
      alerts: z.array(alertRuleSchema),
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
    completeness: completenessSchema
      .optional()
      .describe(
        "Completed runs: how complete the run's capture was (docs/CAPTURE.md). None for runs completed before it was recorded.",
      ),
    textDiff: z
      .object({ added: z.array(z.string()), removed: z.array(z.string()) })
      .optional()
      .describe("Text and both modes: lines added and removed."),
    fields: z
      .custom<Record<string, FieldScalar | object>>((v) => typeof v === "object" && v !== null)
      .describe("The watch's `fields` as this run read them.")
      .optional(),
    alerts: z
      .array(firedAlertSchema)
      .optional()
      .describe("The alert rules that fired on this run."),
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

/** `watch.alert` webhook body: the rules on the watch's fields that fired on a run. */
export const watchAlertEventSchema = z.object({
  event: z.literal("watch.alert"),
  watchId: z.string(),
  runId: z.string(),
  url: z.string(),
  alerts: z.array(firedAlertSchema),
  fields: z.record(z.string(), z.unknown()).describe("Every field as this run read it."),
  imageUrl: z.string().nullable(),
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
