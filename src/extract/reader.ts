/**
 * Reading a document's article with Mozilla's Readability (Firefox Reader View). This module
 * runs INSIDE THE PAGE: scripts/page-reader.mjs bundles it (with the installed
 * `@mozilla/readability`) into src/extract/page-reader.generated.ts, and the capture evaluates
 * that bundle in the page's isolated world on a clone of the rendered document (`readPage`).
 * Reading where the DOM already lives costs no serialization, no CDP transfer of the whole page
 * and no re-parse in the Worker, whose single thread every request in the isolate shares; only
 * the (small) article crosses. Unit tests run the same `readDocument` on a linkedom document.
 *
 * Before reading: elements the caller hid (hideSelectors, consent walls) are removed — the
 * clone carries no CSS hiding — the document gets an absolute <base> so Readability makes every
 * link and image URL absolute, and code blocks get a `language-x` class Readability is told to
 * keep.
 *
 * "Article-like" is Firefox's own test for offering Reader View (`isProbablyReaderable`), or,
 * for prose in short paragraphs that test misses, an article with at least MIN_ARTICLE_CHARS of
 * text outside links (a page of links — a menu, a product grid — is not an article).
 *
 * A page with no article still gives back its whole body, as the HTML the Markdown converter
 * needs (`wholePage`): a fresh clone, what the page does not render left out (each element of
 * the clone is checked on its live twin), furniture (forms, scripts, media) removed, links and
 * images made absolute, every attribute but those Markdown uses dropped — so a listing, a home
 * page or a table of prices still reads as Markdown with its headings, lists, links and tables.
 */
import { isProbablyReaderable, Readability } from "@mozilla/readability";
import { languageOf } from "./code";
import { collapse, type DomDocument, type DomElement, selectAll, visibleText } from "./dom";

/** Readability's own "this is a full article" threshold (its default charThreshold). */
export const MIN_ARTICLE_CHARS = 500;

/** What reading a document gives back: only strings and numbers, so it crosses CDP as JSON. */
export type ReadResult =
  | {
      kind: "article";
      title: string;
      byline: string;
      excerpt: string;
      siteName: string;
      lang: string;
      publishedTime: string;
      /** Readability's cleaned article, serialized (its element's innerHTML). */
      html: string;
      /** Characters of article text (Readability's `length`). */
      length: number;
    }
  /** No article-like content: the page's title and its whole visible body (`wholePage`). */
  | { kind: "none"; title: string; html: string; length: number }
  /** Reading threw (a document Readability chokes on). */
  | { kind: "failed"; error: string };

/** What the page gives back: a read, or "over the DOM limit, nothing was read". */
export type PageArticle = ReadResult | { kind: "too-large" };

export interface ReadOptions {
  /** The page's final URL: relative links and sources are resolved against it. */
  pageUrl: string;
  /** Elements removed before reading. */
  removeSelectors: readonly string[];
}

/** Reads `doc`, which it MUTATES (removals, <base>, classes, Readability's own cleaning). */
export function readDocument(doc: DomDocument, options: ReadOptions): ReadResult {
  try {
    const root = doc.documentElement;
    if (!root) return NONE;
    removeMatching(doc, options.removeSelectors);
    setBase(doc, root, options.pageUrl);
    const classesToPreserve = markCodeLanguages(doc);

    const readerable = isProbablyReaderable(doc);
    const result = new Readability<DomElement>(doc, {
      classesToPreserve,
      serializer: (node: DomElement) => node,
    }).parse();
    const content = result?.content;
    if (!result || !content) return NONE;
    if (!readerable && proseLength(content) < MIN_ARTICLE_CHARS) return NONE;
    return {
      kind: "article",
      title: clean(result.title),
      byline: bylineOf(result.byline),
      excerpt: clean(result.excerpt),
      siteName: clean(result.siteName),
      lang: clean(result.lang),
      publishedTime: clean(result.publishedTime),
      html: content.innerHTML,
      length: result.length ?? 0,
    };
  } catch (err) {
    return { kind: "failed", error: String(err) };
  }
}

const NONE = { kind: "none", title: "", html: "", length: 0 } as const;

/** The rendered document copies are checked against: its body, and whether an element shows. */
export interface Rendered {
  body: DomElement;
  shown(el: DomElement): boolean;
}

/**
 * Reads the article of a fresh copy of the document (`copy()`); when there is none, the whole
 * page of another copy (`wholePage`), its elements checked on their twins in `rendered` (null:
 * everything counts as rendered, as in unit tests).
 */
export function readOrWholePage(
  copy: () => DomDocument,
  rendered: Rendered | null,
  options: ReadOptions,
): ReadResult {
  const read = readDocument(copy(), options);
  if (read.kind !== "none") return read;
  try {
    return wholePage(copy(), rendered, options);
  } catch (err) {
    return { kind: "failed", error: String(err) };
  }
}

/** The live document in the page: `document.cloneNode`, never the page itself, is read. */
declare const document: DomDocument & { cloneNode(deep: boolean): DomDocument; URL: string };
declare function getComputedStyle(el: DomElement): { display: string };

/**
 * The page's entry point (the bundle's `read`): reads a deep clone of the live document, so
 * the page a JSON capture with `extract: true` goes on to screenshot is untouched. A clone is
 * inert: its scripts do not run, its images do not load. An element shows when Chromium
 * renders it (`checkVisibility`), or when it is `display: contents` (no box of its own, its
 * children are checked).
 */
export function readPage(removeSelectors: readonly string[]): ReadResult {
  const body = document.body;
  const shown = (el: DomElement) =>
    !el.checkVisibility || el.checkVisibility() || getComputedStyle(el).display === "contents";
  return readOrWholePage(() => document.cloneNode(true), body && { body, shown }, {
    pageUrl: document.URL,
    removeSelectors,
  });
}

/** Elements a page's Markdown leaves out, whatever they hold. */
const FURNITURE = [
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "frame",
  "object",
  "embed",
  "svg",
  "canvas",
  "video",
  "audio",
  "form",
  "button",
  "input",
  "select",
  "textarea",
  "dialog",
].join(",");
/** The attributes the Markdown conversion reads (links, images, tables, lists, code language). */
const KEPT_ATTRIBUTES = new Set(["href", "src", "alt", "title", "colspan", "rowspan", "start"]);

/** `doc`'s body as the no-article result: see the module's comment. MUTATES `doc`. */
function wholePage(doc: DomDocument, rendered: Rendered | null, options: ReadOptions): ReadResult {
  const body = doc.body;
  const root = doc.documentElement;
  if (!body || !root) return NONE;
  if (rendered) removeUnrendered(body, rendered.body, rendered.shown);
  removeMatching(doc, options.removeSelectors);
  removeMatching(doc, [FURNITURE]);
  const base = setBase(doc, root, options.pageUrl);
  markCodeLanguages(doc);
  for (const el of selectAll(body, "*")) {
    for (const name of el.getAttributeNames()) {
      const value = el.getAttribute(name) ?? "";
      if (name === "class" && (el.nodeName === "PRE" || el.nodeName === "CODE")) continue;
      const url = name === "href" || name === "src" ? absolute(value, base) : value;
      if (KEPT_ATTRIBUTES.has(name) && url !== null) el.setAttribute(name, url);
      else el.removeAttribute(name);
    }
  }
  const title = selectAll(doc, "title")[0];
  const html = body.innerHTML;
  return { kind: "none", title: clean(title?.textContent), html, length: visibleText(body).length };
}

/** Removes from `copy` every element whose twin in `live` (same place) is not shown. */
function removeUnrendered(
  copy: DomElement,
  live: DomElement,
  shown: (el: DomElement) => boolean,
): void {
  const copies = Array.from(copy.children);
  const lives = Array.from(live.children);
  copies.forEach((child, i) => {
    const twin = lives[i];
    if (!twin) return;
    if (!shown(twin)) child.remove();
    else removeUnrendered(child, twin, shown);
  });
}

/** `url` resolved against `base`; null for a `javascript:` URL (the link becomes its text). */
function absolute(url: string, base: string): string | null {
  if (/^javascript:/i.test(url.replace(/[\u0000-\u0020]/g, ""))) return null;
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/**
 * Removes every element matching any of the selectors: one pass over the document with the
 * selector list; selector by selector only when the list as a whole cannot be evaluated.
 */
function removeMatching(doc: DomDocument, selectors: readonly string[]): void {
  if (selectors.length === 0) return;
  let matches: DomElement[];
  try {
    matches = Array.from(doc.querySelectorAll(selectors.join(",")));
  } catch {
    matches = selectors.flatMap((selector) => selectAll(doc, selector));
  }
  for (const el of matches) el.remove();
}

/**
 * One <base> with an absolute href: the page's own base resolved against its URL, or the URL.
 * Returns that href.
 */
function setBase(doc: DomDocument, root: DomElement, pageUrl: string): string {
  const bases = selectAll(doc, "base");
  let href = pageUrl;
  try {
    href = new URL(bases.find((b) => b.hasAttribute("href"))?.getAttribute("href") ?? "", pageUrl)
      .href;
  } catch {
    // An unparseable page URL (about:blank): relative URLs stay relative.
  }
  for (const old of bases) old.remove();
  const base = doc.createElement("base");
  base.setAttribute("href", href);
  (doc.head ?? root).appendChild(base);
  return href;
}

/** Puts `language-x` on every code block whose markup names a language; returns those classes. */
function markCodeLanguages(doc: DomDocument): string[] {
  const classes = new Set<string>();
  for (const pre of selectAll(doc, "pre")) {
    const language = languageOf(pre);
    if (language === null) continue;
    const target = pre.querySelector("code") ?? pre;
    target.setAttribute("class", `language-${language}`);
    classes.add(`language-${language}`);
  }
  return [...classes];
}

/** Characters of article text that are not link text. */
function proseLength(content: DomElement): number {
  const links = selectAll(content, "a").reduce((sum, a) => sum + visibleText(a).length, 0);
  return visibleText(content).length - links;
}

function clean(value: string | null | undefined): string {
  return collapse(value ?? "");
}

/** The author, without the "By" a page's byline line starts with ("By Ada Flight" → "Ada Flight"). */
function bylineOf(value: string | null | undefined): string {
  return clean(value).replace(/^by\b[\s:]*/i, "");
}
