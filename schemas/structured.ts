/**
 * The structured data contract (POST /v1/json; docs/STRUCTURED-DATA.md): named fields read by CSS
 * selector and typed, and/or a product, article or organization read from the page's own markup
 * (JSON-LD, microdata, RDFa Lite, Open Graph and Twitter tags, embedded framework state) — from
 * one page load, with the page content routes' options.
 */
import { z } from "zod";
import { captureRules } from "./capture";
import { LIMITS } from "./limits";
import { attributeName, pageOptions } from "./page-content";
import { cssSelector } from "./primitives";

export const FIELD_TYPES = ["string", "number", "url", "date", "boolean"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const MARKUP_KINDS = ["product", "article", "organization", "auto"] as const;
export type MarkupKind = (typeof MARKUP_KINDS)[number];

/** One field of a schema: a value (or a list of values), or an object (or a list of objects). */
export interface FieldSpec {
  selector?: string;
  attribute?: string;
  type?: FieldType;
  decimal?: "." | ",";
  list?: boolean;
  default?: string | number | null;
  fields?: FieldMap;
}
export type FieldMap = { [name: string]: FieldSpec };

/** A field's typed value: a list's are arrays, an object's are `FieldValues`. */
export type FieldValue = string | number | boolean | null | FieldValue[] | FieldValues;
export type FieldValues = { [name: string]: FieldValue };

const FIELD_NAME = new RegExp(`^[A-Za-z_][A-Za-z0-9_-]{0,${LIMITS.structuredFieldNameChars - 1}}$`);
const FIELD_NAME_RULE = `A field name: a letter or _, then letters, digits, _ or -, at most ${LIMITS.structuredFieldNameChars} characters.`;

const fieldObject = z.strictObject({
  selector: cssSelector(LIMITS.selectorChars).optional().meta({
    description:
      "A CSS selector, matched inside the enclosing object's element (the document at the top). Omitted: that element itself.",
  }),
  attribute: attributeName.optional().meta({
    description: "Read this attribute instead of the element's text (whitespace collapsed).",
  }),
  type: z.enum(FIELD_TYPES).optional().meta({
    description:
      "string; number (locale-aware: 1.299,00 € / 1,299.00 / 1 299,00); url (resolved against the page); date (ISO 8601); boolean (the element, and the attribute if named, is there, unless it reads false/no/0/off).",
    default: "string",
  }),
  decimal: z.enum([".", ","]).optional().meta({
    description:
      "number: the decimal separator, when the page's locale is known (1.299 is 1299 with `,`, 1.299 with `.`). Guessed from the value otherwise.",
  }),
  list: z.boolean().optional().meta({
    description: "Every match, as an array (at most 1,000), instead of the first.",
    default: false,
  }),
  default: z.union([z.string(), z.number(), z.null()]).optional().meta({
    description:
      "The value when nothing matches, the attribute is absent or the text does not read as the type (null otherwise). Not on lists, objects or booleans.",
  }),
  get fields() {
    return fieldMap.optional().meta({
      description:
        "An object: these fields, read inside each match of `selector` (with `list`, one object per match).",
    });
  },
});

/** Cross-field rules of one field, at `path` (its `fields` are checked by their own field). */
function fieldRules(value: FieldSpec, ctx: z.RefinementCtx): void {
  const issue = (key: keyof FieldSpec, message: string) =>
    ctx.addIssue({ code: "custom", path: [key], message });
  if (value.fields !== undefined) {
    for (const key of ["attribute", "type", "decimal", "default"] as const)
      if (value[key] !== undefined) issue(key, `${key} does not apply to an object (fields).`);
    return;
  }
  const type = value.type ?? "string";
  if (value.decimal !== undefined && type !== "number")
    issue("decimal", "decimal applies to type number.");
  if (value.default === undefined || value.default === null) return;
  if (value.list === true) issue("default", "default does not apply to a list (it is []).");
  else if (type === "boolean") issue("default", "A boolean field is false when nothing matches.");
  else if (type === "number" && typeof value.default !== "number")
    issue("default", "Must be a number (or null) for a number field.");
  else if (type !== "number" && typeof value.default !== "string")
    issue("default", `Must be a string (or null) for a ${type} field.`);
}

export const fieldSchema: z.ZodType<FieldSpec, FieldSpec> = fieldObject
  .superRefine(fieldRules)
  .meta({ id: "StructuredField" });

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

// Names are checked here rather than by a key schema: a record's key issue would not name why.
const fieldMap: z.ZodType<FieldMap, FieldMap> = z
  .record(z.string(), fieldSchema)
  .superRefine(
    (map, ctx) => {
      for (const name of Object.keys(map))
        if (name === "__proto__" || !FIELD_NAME.test(name))
          ctx.addIssue({ code: "custom", path: [name], message: FIELD_NAME_RULE });
      // Also beside a field's own issues (the map is an object whatever its values are).
    },
    { when: (payload) => isPlainObject(payload.value) },
  )
  .meta({ id: "StructuredFields" });

/** The path (below `fields`) of the first object nested deeper than LIMITS.structuredDepth. */
function tooDeep(map: FieldMap, level = 1): string[] | null {
  for (const [name, spec] of Object.entries(map)) {
    if (!spec.fields) continue;
    if (level >= LIMITS.structuredDepth) return [name, "fields"];
    const below = tooDeep(spec.fields, level + 1);
    if (below) return [name, "fields", ...below];
  }
  return null;
}

/** Counts keys before any field is parsed, so a schema of 10,000 fields is refused cheaply. */
function tooManyFields(raw: unknown): boolean {
  let count = 0;
  const stack: unknown[] = [raw];
  while (stack.length > 0) {
    const map = stack.pop();
    if (typeof map !== "object" || map === null || Array.isArray(map)) continue;
    for (const spec of Object.values(map)) {
      if (++count > LIMITS.structuredFields) return true;
      if (typeof spec === "object" && spec !== null && "fields" in spec) stack.push(spec.fields);
    }
  }
  return false;
}

const TOO_MANY = `At most ${LIMITS.structuredFields} fields in all.`;

// A transform first (not a refinement): an OpenAPI document shows what a transform pipes into.
export const fieldsSchema = z
  .transform((raw: unknown, ctx) => {
    if (!tooManyFields(raw)) return raw as FieldMap;
    ctx.addIssue({ code: "custom", message: TOO_MANY });
    return z.NEVER;
  })
  .pipe(fieldMap)
  .superRefine((fields, ctx) => {
    const path = tooDeep(fields);
    if (path)
      ctx.addIssue({
        code: "custom",
        path,
        message: `Objects nest at most ${LIMITS.structuredDepth} levels deep.`,
      });
  })
  .meta({
    description: `The fields to read, by name (at most ${LIMITS.structuredFields} in all, objects ${LIMITS.structuredDepth} levels deep).`,
  });

export const jsonRequestSchema = z
  .strictObject({
    ...pageOptions,
    fields: fieldsSchema.optional(),
    kind: z.enum(MARKUP_KINDS).optional().meta({
      description:
        "Read a product, an article or an organization from the page's own markup (JSON-LD, microdata, RDFa Lite, Open Graph and Twitter tags, Next.js and Nuxt state); auto: whichever the page describes, in that order.",
    }),
  })
  .superRefine((value, ctx) => {
    captureRules(value, ctx);
    if (value.fields === undefined && value.kind === undefined)
      ctx.addIssue({ code: "custom", path: ["fields"], message: "fields or kind is required." });
    else if (value.fields !== undefined && Object.keys(value.fields).length === 0)
      ctx.addIssue({ code: "custom", path: ["fields"], message: "At least one field." });
  })
  .meta({ id: "JsonRequest" });
export type JsonRequest = z.output<typeof jsonRequestSchema>;
