/**
 * The page reader (src/extract/reader.ts) as unit tests run it: the same `readOrWholePage` the
 * capture evaluates in the page, on linkedom documents of the given HTML (nothing is rendered
 * there: every element counts as shown), then the Worker's
 * rendering of what it returns. Integration tests (test/integration/extract*.test.ts) run it in
 * Chromium.
 */
import { extractArticle } from "../../src/extract/extract";
import { parseDocument } from "../../src/extract/parse";
import { readOrWholePage, type ReadResult } from "../../src/extract/reader";
import type { ExtractFormat } from "../../schemas/extract";

export const PAGE_URL = "https://example.com/dir/page.html";

export function readHtml(
  html: string,
  pageUrl = PAGE_URL,
  removeSelectors: readonly string[] = [],
): ReadResult {
  return readOrWholePage(() => parseDocument(html), null, { pageUrl, removeSelectors });
}

/** The article found, or null for "none" / "failed". */
export function found(result: ReadResult): Extract<ReadResult, { kind: "article" }> | null {
  return result.kind === "article" ? result : null;
}

export function contentOf(
  result: ReadResult,
  format: ExtractFormat = "markdown",
  pageUrl = PAGE_URL,
): string {
  return extractArticle({ article: result, pageUrl, format, loadTimeMs: 0 }).content;
}
