/** Shaping a capture result for the wire: the spec's headers, the binary body, the JSON data. */
import type { CaptureJsonData } from "../../schemas/responses";
import { toBase64 } from "../encoding";
import { reportedUrl, type CaptureResult } from "../capture/page/page-capture";
import { GEO_RENDERING_ENGINE } from "../capture/geo/through-provider";
import type { CaptureSpec } from "../capture/capture-spec";

/** The title header carries at most this many characters of the title, percent-encoded (UTF-8). */
const TITLE_HEADER_CHARS = 256;

/**
 * Each URL header (x-screenshot-url, x-service-final-url) carries at most this many characters
 * of the URL (JSON has up to LIMITS.urlChars): the two of them at 8,192 went past the 16 KiB of
 * headers Node's HTTP client accepts by default (HeadersOverflowError), 2,048 is the longest
 * link `/v1/links` returns.
 */
const URL_HEADER_CHARS = 2048;

/** The spec's "always" headers plus the conditional ones. */
export function captureHeaders(
  result: CaptureResult,
  spec: CaptureSpec,
  capturedAt: string,
  loadTimeMs: number,
): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": result.contentType,
    "x-screenshot-url": reportedUrl(result.finalUrl, URL_HEADER_CHARS),
    "x-screenshot-width": String(result.width),
    "x-screenshot-height": String(result.height),
    "x-screenshot-size": String(result.bytes.byteLength),
    "x-screenshot-captured-at": capturedAt,
    "x-service-format": spec.format,
    "x-service-quality": result.quality,
    "x-service-wait-strategy": result.waitStrategy,
    "x-service-load-time-ms": String(loadTimeMs),
  };
  Object.assign(headers, pageHeaders(result));
  if (result.truncated) headers["x-service-truncated"] = "true";
  if (result.autoScrolled) headers["x-service-auto-scrolled"] = "true";
  if (result.completeness) headers["x-service-completeness"] = JSON.stringify(result.completeness);
  if (result.watermarked) headers["x-service-watermarked"] = "true";
  if (spec.geo) {
    headers["x-service-rendering-engine"] = GEO_RENDERING_ENGINE;
    headers["x-service-geo-country"] = spec.geo.country;
  }
  if (spec.format === "pdf") {
    headers["content-disposition"] = 'inline; filename="edgeshot-capture.pdf"';
  } else {
    headers["cache-control"] = "public, max-age=3600, s-maxage=3600";
  }
  return headers;
}

/** What every answer about a loaded page says in headers: where it ended up, status, title. */
export function pageHeaders(
  facts: Pick<CaptureResult, "finalUrl" | "page">,
): Record<string, string> {
  const headers: Record<string, string> = {
    "x-service-final-url": reportedUrl(facts.finalUrl, URL_HEADER_CHARS),
  };
  if (facts.page.targetStatus !== null)
    headers["x-service-target-status"] = String(facts.page.targetStatus);
  if (facts.page.title !== "")
    headers["x-service-page-title"] = encodeURIComponent(
      [...facts.page.title].slice(0, TITLE_HEADER_CHARS).join(""),
    );
  return headers;
}

export type CaptureData = Omit<CaptureJsonData, "extracted" | "extractionError">;

export function captureData(
  result: CaptureResult,
  spec: CaptureSpec,
  capturedAt: string,
  loadTimeMs: number,
): CaptureData {
  const data: CaptureData = {
    image: toBase64(result.bytes),
    contentType: result.contentType,
    url: result.finalUrl,
    width: result.width,
    height: result.height,
    ...(result.pages !== undefined ? { pages: result.pages } : {}),
    format: spec.format,
    bytesSize: result.bytes.byteLength,
    capturedAt,
    quality: result.quality,
    completeness: result.completeness,
    waitStrategy: result.waitStrategy,
    loadTimeMs,
    metadata: {
      title: result.page.title,
      finalUrl: result.finalUrl,
      targetStatus: result.page.targetStatus,
      openGraph: result.page.openGraph,
      ...(result.watermarked ? { watermarked: true as const } : {}),
    },
  };
  return data;
}
