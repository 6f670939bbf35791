/**
 * POST /v1/screenshot/batch: `{urls, defaults, webhookUrl, cacheTtl}`. `defaults` takes the
 * shared capture settings; the spec's per-job-only parameters are refused by name (400), as
 * are those a batch of URLs has no use for. Each URL is checked later, one by one, through the
 * same path as a single capture (src/http/routes/batch.ts).
 */
import { z } from "zod";
import { LIMITS } from "./limits";
import { type CaptureRequest, captureRules, captureShape } from "./capture";
import { issueMessage } from "./issues";
import { intIn, isPlainObject, NOT_EMPTY } from "./primitives";
import { storageOptionSchema } from "./storage";

/** The spec's list: not accepted in `defaults`. */
export const PER_JOB_ONLY = [
  "url",
  "html",
  "async",
  "webhookUrl",
  "cookies",
  "headers",
  "selector",
  "waitForSelector",
  "blockResourceTypes",
  "pdfMargin",
] as const;

/** Not meaningful for a batch of URLs (or set at the top level): refused too. */
const NOT_IN_DEFAULTS = {
  markdown: "A batch captures URLs; markdown is not accepted.",
  data: "A batch captures URLs; template data is not accepted.",
  hosted: "Batch results are always hosted.",
  extract: "Extraction is not available for batches.",
  extractFormat: "Extraction is not available for batches.",
  cacheTtl: "Set cacheTtl at the top level of the batch.",
  storage: "Set storage at the top level of the batch.",
} as const satisfies Record<string, string>;
const notInDefaults: Readonly<Record<string, string>> = NOT_IN_DEFAULTS;

const refused = new Set<string>([...PER_JOB_ONLY, ...Object.keys(NOT_IN_DEFAULTS)]);
const sharedShape = Object.fromEntries(
  Object.entries(captureShape).filter(([key]) => !refused.has(key)),
);
const sharedSettings = z.strictObject(sharedShape);

export type BatchDefaults = Omit<
  CaptureRequest,
  (typeof PER_JOB_ONLY)[number] | keyof typeof NOT_IN_DEFAULTS
>;

export const batchDefaultsSchema = z
  .unknown()
  .transform((value, ctx): BatchDefaults => {
    if (!isPlainObject(value)) {
      ctx.addIssue({ code: "custom", message: "Must be an object of capture settings." });
      return z.NEVER;
    }
    const shared: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if ((PER_JOB_ONLY as readonly string[]).includes(key)) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `${key} is per-job only; it is not accepted in batch defaults.`,
        });
      } else if (Object.hasOwn(notInDefaults, key)) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: notInDefaults[key] ?? "Not accepted in batch defaults.",
        });
      } else {
        Object.defineProperty(shared, key, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    // Cross-field rules of a capture (geoCity needs geo, …), checked with a stand-in url on
    // values that passed their own schema: the rules read fields such as clip.y, never raw input.
    const url = "https://example.com/";
    const parsed = sharedSettings.safeParse(shared, { reportInput: true });
    if (!parsed.success) {
      // In our words here: a transform's ctx.addIssue replaces a missing field's undefined input
      // with the whole object, which would read as a wrong value instead of a missing one.
      for (const issue of parsed.error.issues) {
        if (issue.code === "unrecognized_keys") ctx.addIssue({ ...issue });
        else ctx.addIssue({ code: "custom", path: issue.path, message: issueMessage(issue) });
      }
      const failed = new Set(parsed.error.issues.map((issue) => issue.path[0]));
      const valid = Object.fromEntries(Object.entries(shared).filter(([key]) => !failed.has(key)));
      captureRules({ ...valid, url } as Partial<CaptureRequest>, ctx);
      return z.NEVER;
    }
    captureRules({ ...parsed.data, url } as Partial<CaptureRequest>, ctx);
    return parsed.data as BatchDefaults;
  })
  .meta({
    description: `Capture settings shared by every job; per-job-only fields (${PER_JOB_ONLY.join(", ")}) are refused.`,
    override: { type: "object", additionalProperties: true },
  });

export const batchRequestSchema = z
  .strictObject({
    urls: z
      .array(z.string().min(1, NOT_EMPTY))
      .min(1, "At least one URL is required.")
      .max(LIMITS.batchMaxUrls, `At most ${LIMITS.batchMaxUrls} URLs.`),
    defaults: batchDefaultsSchema.optional(),
    webhookUrl: z.string().min(1).optional(),
    cacheTtl: intIn(LIMITS.cacheTtl.min, LIMITS.cacheTtl.max, "seconds").optional(),
    /** Every job's result goes to this storage destination (schemas/storage.ts). */
    storage: storageOptionSchema.optional(),
  })
  .meta({ id: "BatchRequest" });
export type BatchRequest = z.output<typeof batchRequestSchema>;
