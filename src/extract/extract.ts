/**
 * Reader-mode extraction: a rendered page's serialized DOM → the spec's Extraction result data,
 * content in one of three formats:
 * - markdown: the article as Markdown (./markdown.ts);
 * - html: Readability's cleaned article HTML;
 * - json: `{title, byline, excerpt, siteName, lang, publishedTime, text, blocks}` serialized.
 * Throws 422 EXTRACTION_FAILED when the page has no article-like content (or cannot be parsed),
 * 413 PAYLOAD_TOO_LARGE when the content is over LIMITS.extractedBytes.
 */
import type { ExtractFormat } from "../../schemas/extract";
import type { ExtractionData } from "../../schemas/responses";
import { ApiError } from "../errors";
import { formatBytes, LIMITS } from "../../schemas/limits";
import { type Article, readArticle } from "./article";
import { blocksText, toBlocks } from "./blocks";
import { toMarkdown } from "./markdown";
import { log } from "../log";

export interface ExtractInput {
  html: string;
  pageUrl: string;
  format: ExtractFormat;
  /** Elements to drop before reading (hideSelectors, consent walls). */
  removeSelectors: readonly string[];
  loadTimeMs: number;
}

export const NO_ARTICLE = "No article-like content was found on the page.";

export function extractArticle(input: ExtractInput): ExtractionData {
  let article: Article | null;
  let content: string;
  try {
    article = readArticle(input.html, {
      pageUrl: input.pageUrl,
      removeSelectors: input.removeSelectors,
    });
    content = article ? render(article, input.format) : "";
  } catch (err) {
    // A page the parser or converter chokes on has, for the caller, no readable article.
    log("error", "extraction failed", { url: input.pageUrl, error: String(err) });
    throw new ApiError("EXTRACTION_FAILED", "The page could not be read as an article.");
  }
  if (!article) throw new ApiError("EXTRACTION_FAILED", NO_ARTICLE);
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

function render(article: Article, format: ExtractFormat): string {
  if (format === "markdown") return toMarkdown(article.content);
  if (format === "html") return article.content.innerHTML;
  const blocks = toBlocks(article.content);
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
