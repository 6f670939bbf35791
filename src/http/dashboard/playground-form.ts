/**
 * The playground's capture fields, generated from the contract: every field of
 * `captureFields` (schemas/capture/fields.ts) but those the playground leaves to the API
 * (PLAYGROUND_REFUSED), each with its control (type, enum, bounds from zod's JSON Schema), its
 * default (src/capture-request/spec.ts, schemas/limits.ts) and its description — the same text as the
 * OpenAPI document, from the same schema. Which actions take a field comes from the page
 * content contract (schemas/page-content.ts), not a list of our own. The recording's own fields
 * (POST /v1/animate's clip options) come from its contract (schemas/animate.ts) the same way.
 */
import { html } from "hono/html";
import { z } from "zod";
import { animateRequestSchema } from "../../../schemas/animate";
import { captureFields } from "../../../schemas/capture";
import { PLAYGROUND_REFUSED } from "../../../schemas/dashboard";
import { LIMITS } from "../../../schemas/limits";
import { CAPTURE_ONLY_FIELDS, IMAGE_ONLY_FIELDS } from "../../../schemas/page-content";
import { LINK_REFUSED } from "../../../schemas/render-link";
import { OPTION_DEFAULTS, REQUEST_DEFAULTS } from "../../capture-request/spec";
import type { Html } from "./layout";

export type FieldName = keyof typeof captureFields;
type Scalar = string | number | boolean;

/** Display order; a field of the contract missing here still shows, under "More options". */
const GROUPS: readonly { title: string; fields: readonly FieldName[] }[] = [
  { title: "What to capture (one of)", fields: ["url", "html", "markdown", "data"] },
  {
    title: "Output",
    fields: [
      "format",
      "quality",
      "width",
      "height",
      "device",
      "deviceScaleFactor",
      "fullPage",
      "selector",
      "clip",
      "omitBackground",
      "resizeWidth",
      "resizeHeight",
    ],
  },
  {
    title: "Page",
    fields: ["darkMode", "mediaType", "reducedMotion", "timezone", "locale", "userAgent"],
  },
  {
    title: "Waiting",
    fields: ["waitUntil", "waitForSelector", "delay", "timeout", "bestAttempt", "failOnStatus"],
  },
  {
    title: "Page controls",
    fields: [
      "actions",
      "blockAds",
      "blockCookieBanners",
      "blockResourceTypes",
      "hideSelectors",
      "css",
      "js",
    ],
  },
  { title: "Requests", fields: ["cookies", "headers", "geo", "geoCity", "geoState"] },
  {
    title: "PDF",
    fields: [
      "pdfFormat",
      "pdfLandscape",
      "pdfPrintBackground",
      "pdfScale",
      "pdfMargin",
      "pdfHeader",
      "pdfFooter",
      "pdfPageRanges",
      "pdfOutline",
      "pdfTagged",
    ],
  },
  { title: "Extraction", fields: ["extract", "extractFormat"] },
];

const refused: ReadonlySet<string> = new Set(PLAYGROUND_REFUSED);
const listed = new Set<string>(GROUPS.flatMap((g) => g.fields));
const more = (Object.keys(captureFields) as FieldName[]).filter(
  (f) => !refused.has(f) && !listed.has(f),
);

/** Every group with its fields, the contract's unlisted fields last. */
export const FIELD_GROUPS =
  more.length > 0 ? [...GROUPS, { title: "More options", fields: more }] : GROUPS;

const DEFAULTS: Partial<Record<FieldName, Scalar>> = {
  ...OPTION_DEFAULTS,
  ...REQUEST_DEFAULTS,
  width: LIMITS.width.default,
  height: LIMITS.height.default,
  quality: LIMITS.quality.default,
  delay: LIMITS.delayMs.default,
  timeout: LIMITS.timeoutSeconds.default,
  device: "desktop",
};

/** Shapes the JSON fields are typed as (placeholders only; the contract checks them). */
const JSON_EXAMPLES: Partial<Record<FieldName, string>> = {
  data: '{"name": "Ada"}',
  actions:
    '[{"click": "#accept"}, {"type": {"selector": "input", "text": "edge"}}, {"press": "Enter"}]',
  cookies: '[{"name": "session", "value": "abc"}]',
  headers: '{"x-preview": "1"}',
};

const TEXTAREAS: ReadonlySet<FieldName> = new Set([
  "html",
  "markdown",
  "css",
  "js",
  "pdfHeader",
  "pdfFooter",
]);

const CAPTURE_ONLY: ReadonlySet<string> = new Set(CAPTURE_ONLY_FIELDS);
/** Fields a render link refuses (its contract): "Create render link" leaves them out. */
const LINK_REFUSED_FIELDS: ReadonlySet<string> = new Set(LINK_REFUSED);
const IMAGE_ONLY: ReadonlySet<string> = new Set(IMAGE_ONLY_FIELDS);

/** Which playground actions take the field: every action, those with an image, or captures only. */
function scopeOf(name: FieldName): "page" | "image" | "capture" {
  return IMAGE_ONLY.has(name) ? "image" : CAPTURE_ONLY.has(name) ? "capture" : "page";
}

interface JsonSchema {
  type?: string;
  description?: string;
  default?: unknown;
  enum?: (string | number)[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
}

export function schemaOf(name: FieldName): JsonSchema {
  return z.toJSONSchema(captureFields[name], { unrepresentable: "any", io: "input" }) as JsonSchema;
}

const isScalar = (s: JsonSchema) =>
  s.type === "number" || s.type === "integer" || s.type === "string";
/** A list typed one item per line: its items are plain values. */
const isLines = (s: JsonSchema) =>
  s.type === "array" &&
  s.items !== undefined &&
  s.items.enum === undefined &&
  (isScalar(s.items) || s.items.anyOf?.every(isScalar) === true);

function bounds(s: JsonSchema): string {
  if (s.minimum !== undefined && s.maximum !== undefined) return `${s.minimum}–${s.maximum}`;
  if (s.maxItems !== undefined && s.items?.enum === undefined)
    return isLines(s) ? `up to ${s.maxItems}, one per line` : `up to ${s.maxItems}`;
  return "";
}

function numberInput(id: string, name: string, s: JsonSchema, dflt: Scalar | undefined): Html {
  return html`<input
    type="number"
    id="${id}"
    name="${name}"
    data-kind="number"
    min="${s.minimum ?? ""}"
    max="${s.maximum ?? ""}"
    step="${s.type === "integer" ? 1 : "any"}"
    placeholder="${String(dflt ?? "")}"
  />`;
}

function control(name: FieldName, s: JsonSchema, dflt: Scalar | undefined, id = `f-${name}`): Html {
  if (s.enum) {
    return html`<select
      id="${id}"
      name="${name}"
      data-kind="enum"
      data-default="${String(dflt ?? "")}"
    >
      ${dflt === undefined ? html`<option value="">—</option>` : ""}
      ${s.enum.map((v) => html`<option value="${v}" ${v === dflt ? "selected" : ""}>${v}</option>`)}
    </select>`;
  }
  if (s.type === "boolean") {
    return html`<input
      type="checkbox"
      id="${id}"
      name="${name}"
      data-kind="bool"
      data-default="${String(dflt === true)}"
      ${dflt === true ? "checked" : ""}
    />`;
  }
  if (s.type === "integer" || s.type === "number") return numberInput(id, name, s, dflt);
  if (s.type === "array" && s.items?.enum) {
    return html`<select id="${id}" name="${name}" data-kind="multi" multiple size="4">
      ${s.items.enum.map((v) => html`<option value="${v}">${v}</option>`)}
    </select>`;
  }
  if (isLines(s)) {
    const numeric =
      s.items?.anyOf?.some((i) => i.type === "integer" || i.type === "number") === true;
    return html`<textarea
      id="${id}"
      name="${name}"
      data-kind="lines"
      data-numeric="${String(numeric)}"
      rows="2"
    ></textarea>`;
  }
  if (s.type === "object" && s.properties && Object.values(s.properties).every(isScalar)) {
    return html`<div class="subfields" id="${id}">
      ${Object.entries(s.properties).map(
        ([key, sub]) =>
          html`<label
            >${key}
            ${
              sub.type === "string"
                ? html`<input type="text" name="${name}.${key}" data-kind="text" />`
                : numberInput(`${id}-${key}`, `${name}.${key}`, sub, undefined)
            }</label
          >`,
      )}
    </div>`;
  }
  if (s.type === "array" || s.type === "object" || s.type === undefined) {
    return html`<textarea
      id="${id}"
      name="${name}"
      data-kind="json"
      rows="2"
      placeholder="${JSON_EXAMPLES[name] ?? "JSON"}"
    ></textarea>`;
  }
  if (TEXTAREAS.has(name)) {
    return html`<textarea
      id="${id}"
      name="${name}"
      data-kind="text"
      rows="3"
      maxlength="${s.maxLength ?? ""}"
    ></textarea>`;
  }
  return html`<input
    type="${name === "url" ? "url" : "text"}"
    id="${id}"
    name="${name}"
    data-kind="text"
    maxlength="${s.maxLength ?? ""}"
    ${name === "url" ? html`placeholder="https://example.com"` : ""}
  />`;
}

export function field(name: FieldName): Html {
  return fieldOf(name, schemaOf(name), DEFAULTS[name], scopeOf(name), `f-${name}`);
}

/** POST /v1/animate's own fields (the clip), in its contract's order; the page's are the form's. */
const ANIMATION_SHAPE = animateRequestSchema.shape;
export const ANIMATION_FIELDS = [
  "format",
  "scenario",
  "duration",
  "fps",
  "scrollTillSelector",
  "scrollSpeed",
  "scrollDuration",
  "scrollBack",
  "startDelay",
] as const satisfies ReadonlyArray<keyof typeof ANIMATION_SHAPE>;
export type AnimationFieldName = (typeof ANIMATION_FIELDS)[number];

/** A recording field: scope `animation` (the animate action only), id `f-animate-<name>`. */
export function animationField(name: AnimationFieldName): Html {
  const s = z.toJSONSchema(ANIMATION_SHAPE[name], {
    unrepresentable: "any",
    io: "input",
  }) as JsonSchema;
  const dflt = s.default as Scalar | undefined;
  // The control's `name` is the body's field; FieldName only types the capture fields' lookups.
  return fieldOf(name as FieldName, s, dflt, "animation", `f-animate-${name}`);
}

function fieldOf(
  name: FieldName,
  s: JsonSchema,
  dflt: Scalar | undefined,
  scope: string,
  id: string,
): Html {
  const hint = [dflt !== undefined ? `default ${String(dflt)}` : "", bounds(s)]
    .filter(Boolean)
    .join(", ");
  const wide = s.type === "object" || s.type === "array" || TEXTAREAS.has(name);
  return html`<div
    class="field ${s.type === "boolean" ? "check" : ""} ${wide ? "wide" : ""}"
    data-scope="${scope}"
    data-field="${name}"
    ${LINK_REFUSED_FIELDS.has(name) ? html`data-link="refused"` : ""}
  >
    <label for="${id}"><code>${name}</code></label>
    ${control(name, s, dflt, id)} ${hint ? html`<small>${hint}</small>` : ""}
    ${s.description ? html`<small class="desc">${s.description}</small>` : ""}
  </div>`;
}
