/**
 * Extraction on top of the capture engine. POST /v1/extract loads the page as an article-only
 * capture ("text only": images, media and fonts are not fetched); `extract: true` on the JSON
 * capture route asks the same page load for its article next to the image. Either way the page
 * goes through the capture's navigation, URL guard, waits, cookie-banner and hide rules, and the
 * article is read in the page (src/capture/page/page-read.ts, `readArticle`) and converted in the
 * Worker (src/extract/).
 */
import type { CaptureRequest } from "../../schemas/capture";
import type { ExtractFormat, ExtractRequest } from "../../schemas/extract";
import type { CaptureResult } from "../capture/page/page-capture";
import type { CaptureSpec } from "../capture/capture-spec";
import { validationError } from "../errors";
import type { ExtractionData } from "../../schemas/responses";
import { extractArticle } from "../extract/extract";

/** Resource types a DOM-only load skips: they never change the text. */
const TEXT_ONLY_BLOCKED: CaptureSpec["blockResourceTypes"] = ["image", "media", "font"];

/**
 * `spec` loaded text-only, for what is read from the DOM alone (an article, a crawl page's
 * formats but its screenshot): images, media and fonts are not fetched, on top of what it blocks
 * already. They never change the text, and each costs the browser a request, a decode and a
 * paint: on the crawl-peer bench's site (one small image a page) ~4 % of a rendered page's CPU
 * (docs/CRAWL.md).
 */
export function textOnlySpec(spec: CaptureSpec): CaptureSpec {
  return {
    ...spec,
    blockResourceTypes: [...new Set([...spec.blockResourceTypes, ...TEXT_ONLY_BLOCKED])],
  };
}

/** The capture parameters an extraction request carries. */
export function toCaptureRequest(req: ExtractRequest): CaptureRequest {
  const { extractFormat: _format, ...capture } = req;
  return capture;
}

/** A capture spec turned into the article-only, text-only load of POST /v1/extract. */
export function extractOnlySpec(spec: CaptureSpec): CaptureSpec {
  return {
    ...textOnlySpec(spec),
    outputs: { formats: [], article: true, content: null },
    fullPage: false,
  };
}

/**
 * The extraction of a capture that read its article (or, `wholePage`, of a page with none, the
 * whole page); throws the extraction's ApiError.
 */
export function extractFromCapture(
  result: Pick<CaptureResult, "article" | "finalUrl">,
  format: ExtractFormat,
  loadTimeMs: number,
  wholePage = false,
): ExtractionData {
  if (result.article === null) throw new Error("extractFromCapture: the capture read no article");
  return extractArticle({
    article: result.article,
    pageUrl: result.finalUrl,
    format,
    loadTimeMs,
    wholePage,
  });
}

/**
 * The extraction format a JSON capture request asks for, or null when it does not ask (no
 * `extract: true`). `extractFormat` without `extract: true` is refused rather than ignored.
 */
export function requestedExtraction(req: CaptureRequest): ExtractFormat | null {
  if (req.extract !== true) {
    if (req.extractFormat !== undefined)
      throw validationError("extractFormat", "Requires extract: true.");
    return null;
  }
  return req.extractFormat ?? "markdown";
}
