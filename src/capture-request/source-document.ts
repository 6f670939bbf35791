/**
 * html / markdown (+ Mustache data) → the HTML document the browser loads with setContent:
 * the dispatcher. The template engine is ./mustache/ (parse.ts, render.ts); markdown styling
 * is ./markdown-theme.ts.
 *
 * Templates use logic-less Mustache syntax with mustache.js semantics and escaping, but are
 * parsed and rendered here rather than by mustache.js, whose parser allocates one token per
 * character of text (a 5 MB template needs ~600 MB of heap) and whose renderer has no bounds.
 * This engine is bounded in memory (tag count, section depth) and in time and output (a step
 * budget and an output cap checked while rendering, so an exploding template stops early).
 *
 * Decisions:
 * - Without `data` nothing is templated: a literal `{{` in user HTML survives untouched.
 * - Partials (`{{> name}}`) are refused with a 400: there is nothing to include, and a lookup
 *   primitive is better absent than silently empty.
 * - Names resolve through OWN properties only and data functions are never called, so
 *   `{{constructor}}`, `{{__proto__}}` or `{{toString}}` cannot reach prototype members.
 */
import { formatBytes, LIMITS } from "../../schemas/limits";
import { exceedsBytes } from "../encoding";
import { markdownDocument } from "./markdown-theme";
import { payloadTooLarge, type Field } from "./mustache/field";
import { renderTemplate } from "./mustache/render";

export interface ContentInput {
  html?: string;
  markdown?: string;
  data?: Record<string, unknown>;
  darkMode: boolean;
}

/** The HTML document the browser loads with setContent: the template filled from `data`
 *  (logic-less Mustache) and, for markdown, converted to a styled document. */
export function renderContent(input: ContentInput): string {
  if (input.markdown !== undefined) {
    const source = fill(input.markdown, input.data, "markdown");
    const document = markdownDocument(source, input.darkMode);
    if (!exceedsBytes(document, LIMITS.markdownHtmlBytes)) return document;
    throw payloadTooLarge(
      "markdown",
      `the converted document is larger than ${formatBytes(LIMITS.markdownHtmlBytes)}`,
    );
  }
  if (input.html !== undefined) return fill(input.html, input.data, "html");
  throw new Error("renderContent needs html or markdown");
}

function fill(template: string, data: Record<string, unknown> | undefined, field: Field): string {
  return data === undefined ? template : renderTemplate(template, data, field);
}
