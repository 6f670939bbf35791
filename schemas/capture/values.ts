/**
 * Single-value capture fields with rules of their own: template data, time zone, locale, clip
 * and the failOnStatus matcher.
 */
import { z } from "zod";
import { LIMITS } from "../limits";
import { intIn, isPlainObject, numberIn } from "../primitives";
import { STATUS_CLASSES } from "./enums";

/** Mustache data: a JSON object of at most 256 KB serialized. */
export const dataSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (!isPlainObject(value)) {
      ctx.addIssue({ code: "custom", message: "Must be a JSON object." });
    } else if (new TextEncoder().encode(JSON.stringify(value)).byteLength > LIMITS.dataBytes) {
      ctx.addIssue({ code: "custom", message: "Must be at most 256 KB serialized." });
    }
  })
  .transform((v) => v as Record<string, unknown>)
  .meta({ override: { type: "object", additionalProperties: true } });

/**
 * An IANA time zone name the runtime knows (its `Intl` list, aliases such as `UTC` included):
 * the browser runs the same ICU data. Offsets (`+01:00`) are not names and are refused.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-]*(?:\/[A-Za-z0-9_+\-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A well-formed BCP 47 language tag (`de-DE`, `pt-BR`, `zh-Hant-TW`) the runtime supports. */
export function isLocale(tag: string): boolean {
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(tag)) return false;
  try {
    return (
      Intl.getCanonicalLocales(tag).length === 1 &&
      Intl.DateTimeFormat.supportedLocalesOf([tag]).length === 1
    );
  } catch {
    return false;
  }
}

/** A rectangle of the page in CSS pixels (page coordinates with fullPage, else the viewport's). */
export const clipSchema = z
  .strictObject({
    x: numberIn(0, LIMITS.fullPageMaxCssPx).describe("Left edge, CSS px."),
    y: numberIn(0, LIMITS.fullPageMaxCssPx).describe("Top edge, CSS px."),
    width: numberIn(1, LIMITS.width.max).describe("Width, CSS px."),
    height: numberIn(1, LIMITS.fullPageMaxCssPx).describe("Height, CSS px."),
  })
  .describe(
    "Capture exactly this rectangle, in CSS px. Without fullPage it must lie inside the viewport; with fullPage the coordinates are page coordinates and it must lie inside the page.",
  );
export type Clip = z.output<typeof clipSchema>;

/** One `failOnStatus` entry: an exact status code or a class such as "4xx". */
export const statusMatcherSchema = z
  .union([intIn(100, 599), z.enum(STATUS_CLASSES)], {
    error: 'Must be a status code (100-599) or a class: "1xx" … "5xx".',
  })
  .describe('An HTTP status code (404) or a class ("4xx", "5xx").');
export type StatusMatcher = z.output<typeof statusMatcherSchema>;
