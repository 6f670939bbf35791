/**
 * GET /v1/screenshot: exactly the spec's query subset, coerced strictly — numbers must be plain
 * decimals (no hex, exponents, blanks, NaN or Infinity), booleans true/false/1/0, and every
 * parameter may appear once. Parameters of the POST that GET does not take are named in a 400.
 * Which parameters GET takes, and as what type, is each option's class (./capture/options.ts).
 */
import { z } from "zod";
import { captureFields, captureRules } from "./capture";
import { optionsWhere } from "./capture/options";

const STRINGS = optionsWhere((c) => c.get === "string");
const NUMBERS = optionsWhere((c) => c.get === "number");
const BOOLEANS = optionsWhere((c) => c.get === "boolean");

export const GET_PARAMS = [...STRINGS, ...NUMBERS, ...BOOLEANS];
/** POST-only capture parameters: named in the error when sent on GET. */
export const POST_ONLY = optionsWhere((c) => c.get === false);

const num = z.string().transform((s, ctx) => {
  if (!/^-?\d+(?:\.\d+)?$/.test(s)) {
    ctx.addIssue({ code: "custom", message: "Must be a plain decimal number." });
    return z.NEVER;
  }
  return Number(s);
});
const bool = z.string().transform((s, ctx) => {
  if (s === "true" || s === "1") return true;
  if (s === "false" || s === "0") return false;
  ctx.addIssue({ code: "custom", message: "Must be true, false, 1 or 0." });
  return z.NEVER;
});

const shape: Record<string, z.ZodType> = {};
for (const k of STRINGS) shape[k] = captureFields[k].optional();
// The classification says which fields take numbers and booleans; the types cannot follow it.
for (const k of NUMBERS)
  shape[k] = num.pipe(captureFields[k] as z.ZodType<unknown, number>).optional();
for (const k of BOOLEANS)
  shape[k] = bool.pipe(captureFields[k] as z.ZodType<unknown, boolean>).optional();

export const captureQuerySchema = z.strictObject(shape).superRefine((v, ctx) => {
  if (v.url === undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "Required." });
  captureRules(v, ctx);
});

/**
 * Query → plain record for `captureQuerySchema`, or issues for repeated and POST-only names.
 * `key` (the API key) is consumed by authentication and skipped here.
 */
export function queryRecord(url: URL): {
  record: Record<string, string>;
  issues: Array<{ path: string; message: string }>;
} {
  const record: Record<string, string> = Object.create(null) as Record<string, string>;
  const issues: Array<{ path: string; message: string }> = [];
  const postOnly = new Set<string>(POST_ONLY);
  for (const [name, value] of url.searchParams) {
    if (name === "key") continue;
    if (postOnly.has(name)) {
      issues.push({ path: name, message: "Not available on GET; use POST /v1/screenshot." });
    } else if (name in record) {
      issues.push({ path: name, message: "Must be given once." });
    } else {
      record[name] = value;
    }
  }
  return { record, issues };
}
