/**
 * Building blocks of the public contract: bounded numbers, strings counted the way the spec
 * counts them, CSS selectors and lengths validated before any browser sees them.
 */
import { z } from "zod";
import { selectorProblem } from "./css-selector";
import { formatBytes } from "./limits";

/** Validation messages used by more than one field. */
export const NOT_EMPTY = "Must not be empty.";
export const WHOLE_NUMBER = "Must be a whole number.";

/** Length in characters (Unicode code points, so an emoji counts once). */
export const charLength = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

export const byteLength = (s: string): number => new TextEncoder().encode(s).byteLength;

export const maxChars = (max: number) =>
  z
    .string()
    .refine((s) => charLength(s) <= max, { message: `Must be at most ${max} characters.` })
    .meta({ maxLength: max });

export const maxBytes = (max: number) =>
  z
    .string()
    .refine((s) => byteLength(s) <= max, { message: `Must be at most ${formatBytes(max)}.` });

/** A whole number in [min, max]; a `unit` ("seconds", "ms") is named in the refusal. */
export const intIn = (min: number, max: number, unit?: string) => {
  // "1 minute", "60 seconds", "10000 ms"
  const of = (n: number) =>
    unit === undefined
      ? `${n}`
      : `${n} ${n === 1 && unit.length > 2 ? unit.replace(/s$/, "") : unit}`;
  return z
    .number()
    .int(WHOLE_NUMBER)
    .min(min, `Must be at least ${of(min)}.`)
    .max(max, `Must be at most ${of(max)}.`);
};

export const numberIn = (min: number, max: number) =>
  z.number().min(min, `Must be at least ${min}.`).max(max, `Must be at most ${max}.`);

/** A CSS selector Chromium's querySelector accepts (./css-selector), at most `max` characters, not blank. */
export const cssSelector = (max: number) =>
  maxChars(max).superRefine((s, ctx) => {
    if (s.trim() === "") {
      ctx.addIssue({ code: "custom", message: "Must be a non-empty CSS selector." });
      return;
    }
    if (charLength(s) > max) return; // already refused for its length; not worth parsing
    const problem = selectorProblem(s);
    if (problem !== null)
      ctx.addIssue({ code: "custom", message: `Invalid CSS selector: ${problem}.` });
  });

/** A CSS length as Chromium's PDF margins accept it: `0` or a plain positive number with a unit. */
export const cssLength = z
  .string()
  .regex(
    /^(?:0|\d{1,4}(?:\.\d{1,4})?(?:px|in|cm|mm|pt|pc))$/,
    "Must be a CSS length such as 1in, 20mm, 2cm or 72px.",
  );

/** Characters that must never reach an HTTP header or cookie: CR, LF, NUL and other controls. */
export const hasControlChars = (s: string): boolean => /[\u0000-\u0008\u000a-\u001f\u007f]/.test(s);

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** An id as the API shows it (accounts, jobs, batches, webhook deliveries): short and plain. */
export const plainId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
