/**
 * The page content outputs in the pipeline: rendered HTML, visible text, links and scraped
 * elements, asked of the same one page load as images, PDFs and extractions. The engine reads
 * them in the page (src/capture/page/page-content.ts, bounded there); this file turns the requested
 * outputs into the load's content plan and the page's content back into per-output results.
 */
import type { PageLinkData, ScrapeResultData } from "../../schemas/responses";
import type { ScrapeElement } from "../../schemas/page-content";
import type { FieldMap } from "../../schemas/structured";
import type { RawFields } from "../extract/fields";
import type { RawMarkup } from "../extract/markup";
import type { PageCapture } from "../capture/page/page-capture";
import type { ContentPlan } from "../capture/capture-spec";

/**
 * A page content output. `billable` when it is what the caller buys (POST /v1/content, /scrape,
 * /links); beside an image (the snapshot's HTML, a watch run's text) it is not.
 */
export type ContentOutput =
  | { kind: "html"; stripScripts: boolean; billable: boolean }
  /** The page's visible text, one line per block (also watch runs' text comparison). */
  | { kind: "text"; billable?: boolean }
  | {
      kind: "links";
      visibleOnly: boolean;
      internalOnly: boolean;
      includeNonHttp: boolean;
      billable: boolean;
    }
  | { kind: "elements"; elements: ScrapeElement[]; billable: boolean }
  /** Fields by selector and/or the page's own markup (POST /v1/json), as the page wrote them. */
  | { kind: "structured"; fields: FieldMap | null; markup: boolean; billable: boolean };

export type ContentResult =
  | { kind: "html"; ok: true; html: string; truncated: boolean }
  | { kind: "text"; ok: true; text: string; truncated: boolean }
  | { kind: "links"; ok: true; links: PageLinkData[]; truncated: boolean }
  | { kind: "elements"; ok: true; results: ScrapeResultData[] }
  | {
      kind: "structured";
      ok: true;
      fields: { values: RawFields; base: string; truncated: boolean } | null;
      markup: RawMarkup | null;
    };

const CONTENT_KINDS: ReadonlySet<string> = new Set([
  "html",
  "text",
  "links",
  "elements",
  "structured",
]);

export function isContentOutput<T extends { kind: string }>(
  output: T,
): output is Extract<T, ContentOutput> {
  return CONTENT_KINDS.has(output.kind);
}

/** What the one load reads in the page for these outputs; null when none is asked for. */
export function contentPlan(outputs: readonly ContentOutput[]): ContentPlan | null {
  if (outputs.length === 0) return null;
  const plan: ContentPlan = {
    html: null,
    text: false,
    links: null,
    elements: null,
    fields: null,
    markup: false,
  };
  for (const o of outputs) {
    if (o.kind === "html") plan.html = { stripScripts: o.stripScripts };
    else if (o.kind === "text") plan.text = true;
    else if (o.kind === "links") {
      const { visibleOnly, internalOnly, includeNonHttp } = o;
      plan.links = { visibleOnly, internalOnly, includeNonHttp };
    } else if (o.kind === "structured") {
      plan.fields = o.fields;
      plan.markup = o.markup;
    } else plan.elements = o.elements;
  }
  return plan;
}

/**
 * One content output of a page that read its plan. A page without content (the geo provider
 * renders pixels only; content routes refuse geo) has no visible text to compare: "".
 */
export function contentResult(
  page: Pick<PageCapture, "content">,
  requested: ContentOutput,
): ContentResult {
  const content = page.content;
  switch (requested.kind) {
    case "text":
      return { kind: "text", ok: true, ...(content?.text ?? { text: "", truncated: false }) };
    case "html":
      return { kind: "html", ok: true, ...read(content?.html, "html") };
    case "links":
      return { kind: "links", ok: true, ...read(content?.links, "links") };
    case "elements":
      return { kind: "elements", ok: true, results: read(content?.elements, "elements") };
    case "structured": {
      const fields = requested.fields ? read(content?.fields, "fields") : null;
      const markup = requested.markup ? read(content?.markup, "markup") : null;
      return { kind: "structured", ok: true, fields, markup };
    }
  }
}

function read<T>(part: T | null | undefined, kind: string): T {
  if (!part) throw new Error(`the capture read no ${kind}`);
  return part;
}
