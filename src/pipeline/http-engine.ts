/**
^ * `render` on the page content routes (POST /v1/content, /v1/links; docs/CAPTURE.md, "Without a
 * browser"): an engine that reads the page without one. `never`: the document is fetched
 * through the guarded fetch (src/security/guarded-fetch.ts: the URL guard, DNS and reputation
 * checks on every hop before it is requested, a byte cap) — or taken as given for an html
 * source — parsed in the Worker (linkedom) and read by src/extract/http-document.ts. `auto`:
 * that too, unless the page needs the browser — its document needs scripts to show its content
 * (src/extract/needs-browser.ts), it could not be fetched in time or whole, or the request asks
 * for what only a browser does (`js`, `actions`, `waitForSelector`, visible links) — then the
 * browser engine loads it. The outcome is a capture like the browser's, so the pipeline charges,
 * answers and reports it the same way; `rendered` says which engine read the page.
 */
import { statusMatches, type ContentPlan, type CaptureSpec } from "../capture/capture-spec";
import { failures } from "../capture/failures";
import type { PageCapture } from "../capture/page/page-capture";
import type { PageContent } from "../capture/page/page-content";
import { type DomDocument, selectAll } from "../extract/dom";
import {
  baseOf,
  blockText,
  cutBytes,
  documentLinks,
  metadataOf,
  stripScripts,
} from "../extract/http-document";
import { needsBrowser } from "../extract/needs-browser";
import { parseDocument, serializeDocument } from "../extract/parse";
import { LIMITS } from "../../schemas/limits";
import { fetchHtml, type FetchedHtml } from "../security/guarded-fetch";
import { TUNING } from "../tuning";
import { browserEngine, type CaptureEngine } from "./engine";

export type HttpRender = "auto" | "never";

/** What of a spec only a browser can do: under `auto` it goes to the browser. */
export function needsBrowserFor(spec: CaptureSpec): boolean {
  const content = spec.outputs.content;
  return (
    spec.js !== null ||
    (spec.actions?.length ?? 0) > 0 ||
    spec.waitForSelector !== null ||
    spec.outputs.formats.length > 0 ||
    spec.outputs.article ||
    content === null ||
    content.elements !== null ||
    (content.fields ?? null) !== null ||
    content.markup === true ||
    content.links?.visibleOnly === true
  );
}

export function httpEngine(env: Env, render: HttpRender): CaptureEngine {
  const browser = browserEngine(env);
  return {
    capture: async (spec, accountId, turn) => {
      const content = spec.outputs.content;
      if (render === "auto" && needsBrowserFor(spec)) return browser.capture(spec, accountId, turn);
      if (content === null) throw new Error("the HTTP engine reads page content only");
      const fetched: FetchedHtml =
        spec.source.kind === "html"
          ? {
              kind: "document",
              status: 200,
              finalUrl: "about:blank",
              html: spec.source.html,
              etag: null,
              lastModified: null,
            }
          : await fetchHtml(env, spec.source.url, {
              maxBytes: TUNING.crawlHttpPageBytes,
              timeoutMs: spec.timeoutMs,
              headers: requestHeaders(spec),
            });
      const doc = fetched.kind === "document" ? parsePage(fetched.html) : null;
      // Nothing was asked conditionally: a 304 is an answer without a page, as an error is.
      const unusable = fetched.kind === "error" || fetched.kind === "not_modified";
      const browserWanted = render === "auto" && (unusable || (doc !== null && needsBrowser(doc)));
      if (browserWanted) return browser.capture(spec, accountId, turn);
      switch (fetched.kind) {
        case "blocked":
          return { ok: false, failure: { ...failures.unreachable(), cause: "blocked" } };
        case "error":
        case "not_modified":
          return { ok: false, failure: failures.unreachable() };
        case "not_html":
          return { ok: false, failure: failures.notHtml(fetched.contentType) };
        case "document": {
          if (doc === null) throw new Error("a fetched document is parsed");
          // As in the browser: a target status the caller listed fails the capture.
          const status = spec.source.kind === "url" ? fetched.status : null;
          if (status !== null && spec.failOnStatus && statusMatches(spec.failOnStatus, status))
            return { ok: false, failure: failures.targetStatus(status) };
          return { ok: true, result: pageOf(spec, fetched, doc, content) };
        }
      }
    },
  };
}

/**
 * A page's markup as a document. linkedom leaves markup without `<html>`/`<body>` (an html source
 * like "<h1>Hi</h1>", a server's fragment) outside an empty body, where a browser puts it in
 * the body: such markup is read inside one.
 */
function parsePage(html: string): DomDocument {
  if (/<(html|body)[\s>]/i.test(html)) return parseDocument(html);
  return parseDocument(`<!doctype html><html><head></head><body>${html}</body></html>`);
}

/** The request's headers and cookies, to the target's origin only (as the browser sends them). */
function requestHeaders(spec: CaptureSpec): (hop: URL) => Record<string, string> {
  const target = spec.source.kind === "url" ? new URL(spec.source.url) : null;
  return (hop) => {
    if (target === null || hop.origin !== target.origin) return {};
    const cookies = spec.cookies
      .filter((c) => {
        const domain = c.domain.replace(/^\./, "");
        return hop.hostname === domain || hop.hostname.endsWith(`.${domain}`);
      })
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
    return {
      ...Object.fromEntries(spec.headers),
      ...(cookies !== "" ? { cookie: cookies } : {}),
    };
  };
}

/** A fetched document as the capture of a page: its content read as `plan` asks. */
function pageOf(
  spec: CaptureSpec,
  fetched: Extract<FetchedHtml, { kind: "document" }>,
  doc: DomDocument,
  plan: ContentPlan,
): PageCapture {
  const url = spec.source.kind === "url";
  return {
    content: readContent(doc, fetched.finalUrl, plan, spec.hideSelectors),
    article: null,
    quality: "full",
    completeness: null,
    waitStrategy: "none",
    autoScrolled: false,
    finalUrl: fetched.finalUrl,
    contentType: url ? "text/html" : null,
    page: { ...metadataOf(doc), targetStatus: url ? fetched.status : null },
    outputs: [],
    animation: null,
    rendered: "http",
  };
}

/**
 * The page content of a parsed document: the links, the HTML (scripts stripped when asked), then
 * the text — without what `hideSelectors` hides, as the browser's text leaves it out (its HTML
 * keeps those elements: the browser hides them with a style sheet).
 */
function readContent(
  doc: DomDocument,
  finalUrl: string,
  plan: ContentPlan,
  hideSelectors: readonly string[],
): PageContent {
  const content: PageContent = {
    html: null,
    text: null,
    links: null,
    elements: null,
    fields: null,
    markup: null,
  };
  if (plan.links) {
    const { links, truncated } = documentLinks(doc, baseOf(doc, finalUrl), plan.links);
    content.links = {
      links: links.map(({ url, text, rel, internal }) => ({ url, text, rel, internal })),
      truncated,
    };
  }
  if (plan.html) {
    if (plan.html.stripScripts) stripScripts(doc);
    const { value, cut } = cutBytes(serializeDocument(doc), LIMITS.contentHtmlBytes);
    content.html = { html: value, truncated: cut };
  }
  if (plan.text) {
    for (const selector of hideSelectors) for (const el of selectAll(doc, selector)) el.remove();
    const { value, cut } = cutBytes(doc.body ? blockText(doc.body) : "", LIMITS.contentTextBytes);
    content.text = { text: value, truncated: cut };
  }
  return content;
}
