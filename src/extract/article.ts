/**
 * The rendered DOM → the page's article, with Mozilla's Readability (Firefox Reader View) run
 * in the Worker on a linkedom document. Before reading: elements the caller hid (hideSelectors,
 * consent walls) are removed — CSS hiding does not show in a serialized DOM — the document gets
 * an absolute <base> so Readability makes every link and image URL absolute, and code blocks
 * get a `language-x` class Readability is told to keep.
 *
 * "Article-like" is Firefox's own test for offering Reader View (`isProbablyReaderable`), or,
 * for prose in short paragraphs that test misses, an article with at least MIN_ARTICLE_CHARS of
 * text outside links (a page of links — a menu, a product grid — is not an article).
 */
import { isProbablyReaderable, Readability } from "@mozilla/readability";
import { languageOf } from "./code";
import {
  collapse,
  type DomDocument,
  type DomElement,
  parseDocument,
  selectAll,
  visibleText,
} from "./dom";

/** Readability's own "this is a full article" threshold (its default charThreshold). */
export const MIN_ARTICLE_CHARS = 500;

export interface Article {
  title: string;
  byline: string;
  excerpt: string;
  siteName: string;
  lang: string;
  publishedTime: string;
  /** Readability's cleaned article element. */
  content: DomElement;
  /** Characters of article text (Readability's `length`). */
  length: number;
}

export interface ReadOptions {
  /** The page's final URL: relative links and sources are resolved against it. */
  pageUrl: string;
  /** Elements removed before reading. */
  removeSelectors: readonly string[];
}

/** The article, or null when the page has no article-like content. */
export function readArticle(html: string, options: ReadOptions): Article | null {
  const doc = parseDocument(html);
  const root = doc.documentElement;
  if (!root) return null;
  removeMatching(doc, options.removeSelectors);
  setBase(doc, root, options.pageUrl);
  const classesToPreserve = markCodeLanguages(doc);

  const readerable = isProbablyReaderable(doc);
  const result = new Readability<DomElement>(doc, {
    classesToPreserve,
    serializer: (node: DomElement) => node,
  }).parse();
  const content = result?.content;
  if (!result || !content) return null;
  if (!readerable && proseLength(content) < MIN_ARTICLE_CHARS) return null;
  return {
    title: clean(result.title),
    byline: clean(result.byline),
    excerpt: clean(result.excerpt),
    siteName: clean(result.siteName),
    lang: clean(result.lang),
    publishedTime: clean(result.publishedTime),
    content,
    length: result.length ?? 0,
  };
}

/**
 * Removes every element matching any of the selectors: one pass over the document with the
 * selector list; selector by selector only when linkedom cannot evaluate the list as a whole.
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

/** One <base> with an absolute href: the page's own base resolved against its URL, or the URL. */
function setBase(doc: DomDocument, root: DomElement, pageUrl: string): void {
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
