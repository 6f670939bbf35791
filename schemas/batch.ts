/**
 * POST /v1/screenshot/batch: `{urls, defaults, webhookUrl, cacheTtl, storage}`. `defaults` takes
 * the shared capture settings; the spec's per-job-only parameters are refused by name (400), as
 * are those a batch of URLs has no use for. Each URL is checked later, one by one, through the
 * same path as a single capture (src/jobs/batch.ts). POST /v1/animate/batch's request is built
 * from the same parts (schemas/animate.ts).
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

/** The fields a batch's `defaults` refuse, with their messages (those of its route's shape). */
const REFUSED_KEYS = new Set<string>([...PER_JOB_ONLY, ...Object.keys(NOT_IN_DEFAULTS)]);
type RefusedKey = (typeof PER_JOB_ONLY)[number] | keyof typeof NOT_IN_DEFAULTS;

/** A route's request (captures, recordings) as its batch's `defaults`: the refused keys omitted. */
export type BatchDefaultsOf<R> = Omit<R, RefusedKey>;
export type BatchDefaults = BatchDefaultsOf<CaptureRequest>;

/**
 * `defaults` of a batch of the route whose request has this `shape` and cross-field `rules`
 * (captures, recordings): the shared settings, the per-job-only and top-level ones refused by
 * name, the rules checked with a stand-in url.
 */
export function batchDefaultsOf<R extends { url?: string }>(
  shape: z.core.$ZodLooseShape,
  rules: (value: Partial<R>, ctx: z.RefinementCtx) => void,
  what: string,
) {
  const perJobOnly = PER_JOB_ONLY.filter((key) => Object.hasOwn(shape, key));
  const sharedSettings = z.strictObject(
    Object.fromEntries(Object.entries(shape).filter(([key]) => !REFUSED_KEYS.has(key))),
  );
  return z
    .unknown()
    .transform((value, ctx): BatchDefaultsOf<R> => {
      if (!isPlainObject(value)) {
        ctx.addIssue({ code: "custom", message: `Must be an object of ${what}.` });
        return z.NEVER;
      }
      const shared: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value)) {
        if ((perJobOnly as readonly string[]).includes(key)) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `${key} is per-job only; it is not accepted in batch defaults.`,
          });
        } else if (Object.hasOwn(notInDefaults, key) && Object.hasOwn(shape, key)) {
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
      // Cross-field rules of the request (geoCity needs geo, …), checked with a stand-in url on
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
        // Unknown keys too: the rules read fields of other routes' shapes (a recording's rules
        // are a capture's, which read pdfMargin), never as given.
        const failed = new Set(
          parsed.error.issues.flatMap((issue) =>
            issue.code === "unrecognized_keys" ? issue.keys : [issue.path[0]],
          ),
        );
        const valid = Object.fromEntries(
          Object.entries(shared).filter(([key]) => !failed.has(key)),
        );
        rules({ ...valid, url } as Partial<R>, ctx);
        return z.NEVER;
      }
      rules({ ...parsed.data, url } as Partial<R>, ctx);
      return parsed.data as BatchDefaultsOf<R>;
    })
    .meta({
      description: `${what[0]?.toUpperCase()}${what.slice(1)} shared by every job; per-job-only fields (${perJobOnly.join(", ")}) are refused.`,
      override: { type: "object", additionalProperties: true },
    });
}

export const batchDefaultsSchema = batchDefaultsOf<CaptureRequest>(
  captureShape,
  captureRules,
  "capture settings",
);

/** A batch's URLs, one job each: the same bounds and messages on every batch route. */
export const batchUrlsSchema = z
  .array(z.string().min(1, NOT_EMPTY))
  .min(1, "At least one URL is required.")
  .max(LIMITS.batchMaxUrls, `At most ${LIMITS.batchMaxUrls} URLs.`);

/** What a batch sets once, at its top level, for all its jobs. */
export const batchDeliveryShape = {
  webhookUrl: z.string().min(1).optional(),
  cacheTtl: intIn(LIMITS.cacheTtl.min, LIMITS.cacheTtl.max, "seconds").optional(),
  /** Every job's result goes to this storage destination (schemas/storage.ts). */
  storage: storageOptionSchema.optional(),
};

export const batchRequestSchema = z
  .strictObject({
    urls: batchUrlsSchema,
    defaults: batchDefaultsSchema.optional(),
    ...batchDeliveryShape,
  })
  .meta({ id: "BatchRequest" });
export type BatchRequest = z.output<typeof batchRequestSchema>;
