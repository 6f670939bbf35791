/**
 * Reader-mode extraction: the article the page reader found (./reader.ts, run in the page) →
 * the spec's Extraction result data, content in one of three formats:
 * - markdown: the article as Markdown (./markdown.ts);
 * - html: Readability's cleaned article HTML, as the page serialized it;
 * - json: `{title, byline, excerpt, siteName, lang, publishedTime, text, blocks}` serialized.
 * Markdown and json parse only the article's HTML (linkedom, ./parse.ts), never the page.
 * Throws 422 EXTRACTION_FAILED when the page has no article-like content (or it cannot be read),
 * unless `wholePage` asks for the whole page instead (the reader's no-article result: the
 * page's visible body, converted like an article — a crawl's Markdown of a listing keeps its
 * headings, lists, links and tables); 413 PAYLOAD_TOO_LARGE when the content is over
 * LIMITS.extractedBytes.
 */
import type { ExtractFormat } from "../../schemas/extract";
import type { ExtractionData } from "../../schemas/responses";
import { ApiError } from "../errors";
import { formatBytes, LIMITS } from "../../schemas/limits";
import type { DomElement } from "./dom";
import { blocksText, toBlocks } from "./blocks";
import { toMarkdown } from "./markdown";
import { parseDocument } from "./parse";
import type { ReadResult } from "./reader";
import { log } from "../log";

export interface ExtractInput {
  /** What the page reader returned. */
  article: ReadResult;
  pageUrl: string;
  format: ExtractFormat;
  loadTimeMs: number;
  /** With no article: the whole page rather than 422 EXTRACTION_FAILED. */
  wholePage?: boolean;
}

type Found = Extract<ReadResult, { kind: "article" }>;

export const NO_ARTICLE = "No article-like content was found on the page.";
const UNREADABLE = "The page could not be read as an article.";

export function extractArticle(input: ExtractInput): ExtractionData {
  const read = input.article;
  if (read.kind === "failed") {
    log("error", "extraction failed", { url: input.pageUrl, error: read.error });
    throw new ApiError("EXTRACTION_FAILED", UNREADABLE);
  }
  if (read.kind === "none" && !(input.wholePage && read.html.trim()))
    throw new ApiError("EXTRACTION_FAILED", NO_ARTICLE);
  const article = read.kind === "none" ? asArticle(read) : read;
  let content: string;
  try {
    content = render(article, input.format);
  } catch (err) {
    // An article the parser or converter chokes on has, for the caller, no readable article.
    log("error", "extraction failed", { url: input.pageUrl, error: String(err) });
    throw new ApiError("EXTRACTION_FAILED", UNREADABLE);
  }
  const limit = LIMITS.extractedBytes;
  if (new TextEncoder().encode(content).byteLength > limit) {
    throw new ApiError(
      "PAYLOAD_TOO_LARGE",
      `The extracted content is larger than the ${formatBytes(limit)} limit.`,
    );
  }
  return {
    url: input.pageUrl,
    format: input.format,
    content,
    title: article.title,
    byline: article.byline,
    excerpt: article.excerpt,
    siteName: article.siteName,
    length: article.length,
    loadTimeMs: input.loadTimeMs,
  };
}

/** The whole page read as an article without metadata beyond its title. */
function asArticle(page: Extract<ReadResult, { kind: "none" }>): Found {
  const { title, html, length } = page;
  const none = { byline: "", excerpt: "", siteName: "", lang: "", publishedTime: "" };
  return { kind: "article", title, ...none, html, length };
}

function render(article: Found, format: ExtractFormat): string {
  if (format === "html") return article.html;
  const content = contentElement(article.html);
  if (format === "markdown") return toMarkdown(content);
  const blocks = toBlocks(content);
  const { title, byline, excerpt, siteName, lang, publishedTime } = article;
  return JSON.stringify({
    title,
    byline,
    excerpt,
    siteName,
    lang,
    publishedTime,
    text: blocksText(blocks),
    blocks,
  });
}

/** The article's HTML as the element Readability returned: a <div> holding it. */
function contentElement(html: string): DomElement {
  const body = parseDocument(`<!doctype html><html><body><div>${html}</div></body></html>`).body;
  const div = body?.firstElementChild;
  if (!div) throw new Error("the article's HTML did not parse");
  return div;
}
