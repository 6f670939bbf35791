/**
 * A crawl page without a browser (`render: "never"`, and `"auto"` when the document does not need
 * one): its document fetched by the crawler's guarded fetch (src/security/guarded-fetch.ts: every hop through the
 * URL guard, DNS and reputation checks before it is requested, the body read up to a cap), parsed
 * in the Worker (linkedom) and converted by the same code the browser path uses — reader mode
 * (src/extract/reader.ts, `readOrWholePage`) and the Markdown converter (`extractArticle`).
 *
 * `auto`'s test is src/extract/needs-browser.ts.
 */
import { LIMITS } from "../../schemas/limits";
import type { DomDocument } from "../extract/dom";
import {
  baseOf,
  blockText,
  cutBytes,
  documentLinks,
  metadataOf,
  stripScripts,
} from "../extract/http-document";
import { extractArticle } from "../extract/extract";
import { parseDocument, serializeDocument } from "../extract/parse";
import { readOrWholePage } from "../extract/reader";
import { log } from "../log";
import { TUNING } from "../tuning";
import type { CrawlConfig } from "./config";
import { fetchHtml, type FetchedHtml } from "../security/guarded-fetch";
import type { PageResult } from "./frontier";
import type { Discovered } from "./links";

export type FetchedPage =
  | FetchedHtml
  /** Answered 4xx/5xx: the page's outcome without reading it. */
  | { kind: "http_error"; status: number };

/** The validators of a page loaded before (./page-cache.ts), sent to the URL it was loaded from. */
export interface Conditional {
  finalUrl: string;
  etag?: string;
  lastModified?: string;
}

/**
 * GETs `url` as a crawl page: the crawler's user agent, the start origin's headers and cookies
 * (as the browser path sends them: to that origin only, each hop checked), the crawl's timeout.
 * With `conditional`, the hop to the URL the page was loaded from before asks `If-None-Match`
 * and `If-Modified-Since` (a 304 is "not_modified").
 */
export async function fetchPage(
  env: Env,
  config: CrawlConfig,
  url: string,
  conditional?: Conditional,
): Promise<FetchedPage> {
  const home = new URL(config.url).origin;
  const { headers, cookies, timeout } = config.options;
  const cookieHeader = (cookies ?? [])
    .filter((c) => c.domain === undefined)
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
  const answer = await fetchHtml(env, url, {
    maxBytes: TUNING.crawlHttpPageBytes,
    timeoutMs: (timeout ?? LIMITS.timeoutSeconds.default) * 1000,
    headers: (hop) => ({
      ...(hop.origin !== home
        ? {}
        : {
            ...Object.fromEntries(headers ?? []),
            ...(cookieHeader !== "" ? { cookie: cookieHeader } : {}),
          }),
      ...(conditional && hop.href === conditional.finalUrl ? validatorHeaders(conditional) : {}),
    }),
  });
  if (answer.kind === "document" && answer.status >= 400)
    return { kind: "http_error", status: answer.status };
  return answer;
}

function validatorHeaders(c: Conditional): Record<string, string> {
  return {
    ...(c.etag ? { "if-none-match": c.etag } : {}),
    ...(c.lastModified ? { "if-modified-since": c.lastModified } : {}),
  };
}

/** A fetched document turned into the page's formats and links, as the browser path gives them. */
export function convertPage(
  config: CrawlConfig,
  page: { status: number; finalUrl: string; html: string },
  doc: DomDocument = parseDocument(page.html),
): { result: PageResult; links: Discovered[]; bodies: Bodies } {
  const formats = new Set(config.formats);
  const found = documentLinks(doc, baseOf(doc, page.finalUrl)).links;
  const result: PageResult = { statusCode: page.status, finalUrl: page.finalUrl, rendered: "http" };
  if (formats.has("links")) result.links = found.map(({ url, text }) => ({ url, text }));
  if (formats.has("metadata")) result.metadata = { ...metadataOf(doc), statusCode: page.status };
  const bodies: Bodies = {};
  if (formats.has("markdown")) {
    // Reader mode mutates the document it reads: the one parsed already, when nothing after the
    // Markdown reads it (html and text do), else a copy — parsing is most of a page's conversion.
    let unread = !formats.has("html") && !formats.has("text");
    const copy = () => {
      if (!unread) return parseDocument(page.html);
      unread = false;
      return doc;
    };
    try {
      const article = readOrWholePage(copy, null, {
        pageUrl: page.finalUrl,
        removeSelectors: [],
      });
      bodies.markdown = extractArticle({
        article,
        pageUrl: page.finalUrl,
        format: "markdown",
        loadTimeMs: 0,
        wholePage: true,
      }).content;
    } catch (err) {
      // As on the browser path: a page whose Markdown fails is still rendered, without it.
      log("info", "crawl: http page markdown failed", { error: String(err) });
    }
  }
  if (formats.has("html") || formats.has("text")) {
    stripScripts(doc);
    if (formats.has("html")) bodies.html = cutBytes(serializeDocument(doc), LIMITS.htmlBytes).value;
    if (formats.has("text"))
      bodies.text = cutBytes(doc.body ? blockText(doc.body) : "", LIMITS.contentTextBytes).value;
  }
  return { result, links: found.map(({ url, nofollow }) => ({ url, nofollow })), bodies };
}

/** A page's bodies, kept inline or together in R2 (`json`: the browser path's json format). */
export type Bodies = Pick<PageResult, "markdown" | "html" | "text" | "json">;
