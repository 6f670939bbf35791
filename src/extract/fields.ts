/**
 * Fields by selector (POST /v1/json `fields`): the strings the page gave for a schema
 * (src/capture/page/page-structured.ts reads them, bounded, in the page) typed as the schema
 * says — numbers read in the page's locale, URLs resolved against the page, dates in ISO 8601,
 * booleans — with the schema's defaults. Plain code, no DOM: what crosses CDP is strings.
 */
import type { FieldMap, FieldSpec, FieldValue, FieldValues } from "../../schemas/structured";
import { parseNumber } from "./numbers";

/** What the page read for one field: see `RawFields`. */
export type RawValue = string | null | Array<string | null> | RawFields | RawFields[];
/**
 * What the page read for a schema, by field name: a value field's text or attribute (null:
 * no match, or the attribute is absent), a list's per match; an object's fields (null: no
 * match), a list of objects' per match. A field the read budget left unread is absent.
 */
export type RawFields = { [name: string]: RawValue };

/** The typed values of `fields` from what the page read; relative URLs resolve against `base`. */
export function typeFields(fields: FieldMap, raw: RawFields | null, base: string): FieldValues {
  const out: FieldValues = {};
  for (const [name, spec] of Object.entries(fields)) out[name] = typeField(spec, raw?.[name], base);
  return out;
}

function typeField(spec: FieldSpec, raw: RawValue | undefined, base: string): FieldValue {
  const objects = spec.fields;
  if (objects) {
    if (spec.list) return asList(raw).map((item) => typeFields(objects, asObject(item), base));
    return raw === null || raw === undefined ? null : typeFields(objects, asObject(raw), base);
  }
  if (spec.list) return asList(raw).map((item) => typeValue(spec, asText(item), base));
  return typeValue(spec, asText(raw), base);
}

/** One value of a value field; `text` null when nothing was there to read. */
export function typeValue(spec: FieldSpec, text: string | null, base: string): FieldValue {
  const type = spec.type ?? "string";
  if (type === "boolean") return text !== null && !/^\s*(?:false|no|0|off)\s*$/i.test(text);
  const fallback = spec.default ?? null;
  if (text === null) return fallback;
  switch (type) {
    case "string":
      return text;
    case "number":
      return parseNumber(text, spec.decimal) ?? fallback;
    case "url":
      return resolveUrl(text, base) ?? fallback;
    case "date":
      return parseDate(text) ?? fallback;
  }
}

const asList = (raw: RawValue | undefined): RawValue[] => (Array.isArray(raw) ? raw : []);
const asText = (raw: RawValue | undefined): string | null => (typeof raw === "string" ? raw : null);
const asObject = (raw: RawValue | undefined): RawFields | null =>
  typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : null;

/** `text` as an absolute URL against `base`; null when it is none ("" is not a link). */
export function resolveUrl(text: string, base: string): string | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return null;
  }
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_FIRST = /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})$/;

/**
 * A date as ISO 8601: a date alone stays a date ("2024-05-01"; "1.5.2024", day first, as
 * written in Europe, too), a date and time becomes UTC ("2024-05-01T08:00:00.000Z"). Other
 * forms are what `Date.parse` reads (RFC 2822, "May 1, 2024"); a time without a zone is UTC.
 */
export function parseDate(text: string): string | null {
  const value = text.trim();
  const iso = ISO_DATE.exec(value);
  if (iso) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dayFirst = DAY_FIRST.exec(value);
  if (dayFirst) return validDate(Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1]));
  if (!/\d/.test(value)) return null;
  const hasTime = /\d:\d/.test(value);
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2}|\b(?:GMT|UTC)\b)$/i.test(value);
  const ms = Date.parse(hasTime && !hasZone ? `${value}Z` : hasTime ? value : `${value} UTC`);
  if (Number.isNaN(ms)) return null;
  const date = new Date(ms);
  return hasTime ? date.toISOString() : date.toISOString().slice(0, 10);
}

function validDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}
