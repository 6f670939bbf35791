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
import { collapse, type DomDocument, selectAll, visibleText } from "../extract/dom";
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
  const base = baseOf(doc, page.finalUrl);
  const found = linksOf(doc, base);
  const result: PageResult = { statusCode: page.status, finalUrl: page.finalUrl, rendered: "http" };
  if (formats.has("links")) result.links = found.map(({ url, text }) => ({ url, text }));
  if (formats.has("metadata")) result.metadata = { ...metadataOf(doc), statusCode: page.status };
  const bodies: Bodies = {};
  if (formats.has("markdown")) {
    try {
      const article = readOrWholePage(() => parseDocument(page.html), null, {
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
    if (formats.has("html")) bodies.html = cut(serializeDocument(doc), LIMITS.htmlBytes);
    if (formats.has("text")) {
      for (const el of selectAll(doc, "style, noscript, template")) el.remove();
      bodies.text = cut(doc.body ? visibleText(doc.body) : "", LIMITS.contentTextBytes);
    }
  }
  return { result, links: found.map(({ url, nofollow }) => ({ url, nofollow })), bodies };
}

/** A page's bodies, kept inline or together in R2 (`json`: the browser path's json format). */
export type Bodies = Pick<PageResult, "markdown" | "html" | "text" | "json">;

/** The document's base URL: its `<base href>` resolved against the final URL, or that URL. */
function baseOf(doc: DomDocument, finalUrl: string): string {
  const href = selectAll(doc, "base[href]")[0]?.getAttribute("href");
  try {
    return new URL(href ?? "", finalUrl).href;
  } catch {
    return finalUrl;
  }
}

/** `<a href>` and `<area href>`: http(s) only, fragments dropped, each URL once (the first). */
function linksOf(
  doc: DomDocument,
  base: string,
): Array<{ url: string; text: string; nofollow: boolean }> {
  const byUrl = new Map<string, { url: string; text: string; nofollow: boolean }>();
  for (const el of selectAll(doc, "a[href], area[href]")) {
    if (byUrl.size >= LIMITS.linksMax) break;
    let url: URL;
    try {
      url = new URL((el.getAttribute("href") ?? "").trim(), base);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    url.hash = "";
    const href = url.href;
    if (href.length > LIMITS.linkUrlChars || byUrl.has(href)) continue;
    const label =
      visibleText(el) || el.getAttribute("aria-label") || el.getAttribute("title") || "";
    byUrl.set(href, {
      url: href,
      text: collapse(label).slice(0, LIMITS.linkTextChars),
      nofollow: /\bnofollow\b/i.test(el.getAttribute("rel") ?? ""),
    });
  }
  return [...byUrl.values()];
}

function metadataOf(doc: DomDocument): {
  title: string;
  openGraph: { title: string; description: string; image: string; siteName: string };
} {
  const text = (v: string | null | undefined) =>
    collapse(v ?? "").slice(0, LIMITS.pageMetadataChars);
  const og = (name: string) =>
    text(
      selectAll(doc, `meta[property="og:${name}"], meta[name="og:${name}"]`)[0]?.getAttribute(
        "content",
      ),
    );
  return {
    title: text(selectAll(doc, "title")[0]?.textContent),
    openGraph: {
      title: og("title"),
      description: og("description"),
      image: og("image"),
      siteName: og("site_name"),
    },
  };
}

const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "xlink:href", "data"]);

/** Scripts, event handlers and `javascript:` URLs removed, as the browser's `stripScripts` does. */
function stripScripts(doc: DomDocument): void {
  for (const s of selectAll(doc, "script")) s.remove();
  for (const el of selectAll(doc, "*")) {
    for (const name of el.getAttributeNames()) {
      const lower = name.toLowerCase();
      const value = el.getAttribute(name) ?? "";
      const scripted =
        lower.startsWith("on") ||
        lower === "srcdoc" ||
        (URL_ATTRIBUTES.has(lower) && /^javascript:/i.test(value.replace(/[\u0000-\u0020]/g, "")));
      if (scripted) el.removeAttribute(name);
    }
  }
}

/** `s` cut to at most `max` bytes of UTF-8 (on a character boundary). */
function cut(s: string, max: number): string {
  const bytes = new TextEncoder().encode(s);
  if (bytes.byteLength <= max) return s;
  return new TextDecoder().decode(bytes.slice(0, max)).replace(/\uFFFD$/, "");
}
