/**
 * A page's document read without a browser (linkedom): what the HTTP path of a crawl page
 * (src/crawl/http-page.ts) and of the page content routes (src/pipeline/http-engine.ts) give in
 * place of the in-page reader (src/capture/page/page-content.ts) — the base URL, the links, the
 * title and Open Graph tags, the HTML without scripts, the text block by block. No script ran,
 * nothing is laid out: what only layout knows (visibility by CSS, boxes) is not here.
 */
import { LIMITS } from "../../schemas/limits";
import {
  collapse,
  type DomDocument,
  type DomElement,
  type DomNode,
  isElement,
  selectAll,
} from "./dom";

/** The document's base URL: its `<base href>` resolved against the final URL, or that URL. */
export function baseOf(doc: DomDocument, finalUrl: string): string {
  const href = selectAll(doc, "base[href]")[0]?.getAttribute("href");
  try {
    return new URL(href ?? "", finalUrl).href;
  } catch {
    return finalUrl;
  }
}

export interface DocumentLink {
  /** Absolute; an http(s) URL without its fragment. */
  url: string;
  text: string;
  rel: string;
  /** On the page's own host. */
  internal: boolean;
  nofollow: boolean;
}

/**
 * `<a href>` and `<area href>` in document order, each URL once (its text the first non-empty
 * one), at most LIMITS.linksMax: http(s) ones, and the others too with `includeNonHttp`.
 * `truncated` when some were left out (too many, or a URL over LIMITS.linkUrlChars).
 */
export function documentLinks(
  doc: DomDocument,
  base: string,
  options: { includeNonHttp?: boolean; internalOnly?: boolean } = {},
): { links: DocumentLink[]; truncated: boolean } {
  const host = hostOf(base);
  const byUrl = new Map<string, DocumentLink>();
  let truncated = false;
  for (const el of selectAll(doc, "a[href], area[href]")) {
    let url: URL;
    try {
      url = new URL((el.getAttribute("href") ?? "").trim(), base);
    } catch {
      continue;
    }
    const http = url.protocol === "http:" || url.protocol === "https:";
    if (!http && !options.includeNonHttp) continue;
    if (http) url.hash = "";
    const href = url.href;
    const internal = http && host !== "" && url.hostname === host;
    if (options.internalOnly && !internal) continue;
    if (href.length > LIMITS.linkUrlChars) {
      truncated = true;
      continue;
    }
    const label = blockText(el) || el.getAttribute("aria-label") || el.getAttribute("title") || "";
    const text = Array.from(collapse(label)).slice(0, LIMITS.linkTextChars).join("");
    const seen = byUrl.get(href);
    if (seen) {
      if (seen.text === "") seen.text = text;
      continue;
    }
    if (byUrl.size >= LIMITS.linksMax) {
      truncated = true;
      continue;
    }
    const rel = collapse(el.getAttribute("rel") ?? "").slice(0, LIMITS.linkTextChars);
    byUrl.set(href, { url: href, text, rel, internal, nofollow: /\bnofollow\b/i.test(rel) });
  }
  return { links: [...byUrl.values()], truncated };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

/** The title and Open Graph tags, as the browser path reads them ("" where the page says nothing). */
export function metadataOf(doc: DomDocument): {
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
export function stripScripts(doc: DomDocument): void {
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

/** `s` cut to at most `max` bytes of UTF-8 (on a character boundary), and whether it was. */
export function cutBytes(s: string, max: number): { value: string; cut: boolean } {
  if (s.length * 3 <= max) return { value: s, cut: false };
  const bytes = new TextEncoder().encode(s);
  if (bytes.byteLength <= max) return { value: s, cut: false };
  const value = new TextDecoder().decode(bytes.slice(0, max)).replace(/\uFFFD$/, "");
  return { value, cut: true };
}

/** Elements whose text is never shown. */
const UNSHOWN = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "title",
  "meta",
  "link",
]);
/** Elements a browser lays out as blocks (its default style sheet): a line of their own. */
const BLOCKS = new Set(
  (
    "address article aside blockquote body center dd details dialog dir div dl dt fieldset " +
    "figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend li main menu " +
    "nav ol p pre section summary table tbody thead tfoot tr ul caption option"
  ).split(" "),
);

/**
 * The text of `root` one line per block, as the browser path's visible text gives it from the
 * default style sheet: block elements on lines of their own, table cells apart by a space,
 * `<br>` a line break, whitespace collapsed but in `<pre>`; what the markup hides (`hidden`, an
 * inline `display: none`) and elements never shown (scripts, styles, templates) left out.
 */
export function blockText(root: DomNode): string {
  const parts: string[] = [];
  const walk = (node: DomNode, pre: boolean): void => {
    if (node.nodeType === 3) {
      const data = node.textContent ?? "";
      parts.push(pre ? data : data.replace(/\s+/g, " "));
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const el = isElement(node) ? node : null;
    const name = el ? el.tagName.toLowerCase() : "";
    if (el && (UNSHOWN.has(name) || hidden(el))) return;
    if (name === "br") {
      parts.push("\n");
      return;
    }
    const block = BLOCKS.has(name);
    const cell = name === "td" || name === "th";
    if (block) parts.push("\n");
    for (const child of Array.from(node.childNodes)) walk(child, pre || name === "pre");
    if (cell) parts.push(" ");
    else if (block) parts.push("\n");
  };
  walk(root, false);
  return parts
    .join("")
    .split("\n")
    .map((line) => line.replace(/[ \t\r\f]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

function hidden(el: DomElement): boolean {
  if (el.hasAttribute("hidden")) return true;
  return /(^|;)\s*display\s*:\s*none\b/i.test(el.getAttribute("style") ?? "");
}
