/** Shaping a capture result for the wire: the spec's headers, the binary body, the JSON data. */
import { toBase64 } from "../encoding";
import type { CaptureResult } from "./capture";
import { GEO_RENDERING_ENGINE } from "./geo/capture";
import type { CaptureSpec } from "./spec";

/** The spec's "always" headers plus the conditional ones. */
export function captureHeaders(
  result: CaptureResult,
  spec: CaptureSpec,
  capturedAt: string,
  loadTimeMs: number,
): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": result.contentType,
    "x-screenshot-url": result.finalUrl,
    "x-screenshot-width": String(result.width),
    "x-screenshot-height": String(result.height),
    "x-screenshot-size": String(result.bytes.byteLength),
    "x-screenshot-captured-at": capturedAt,
    "x-service-format": spec.format,
    "x-service-quality": result.quality,
    "x-service-wait-strategy": result.waitStrategy,
    "x-service-load-time-ms": String(loadTimeMs),
  };
  if (result.truncated) headers["x-service-truncated"] = "true";
  if (result.autoScrolled) headers["x-service-auto-scrolled"] = "true";
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

export interface CaptureData {
  image: string;
  contentType: string;
  url: string;
  width: number;
  height: number;
  format: CaptureSpec["format"];
  bytesSize: number;
  capturedAt: string;
  quality: string;
  waitStrategy: string;
  loadTimeMs: number;
  metadata?: { watermarked: true };
}

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
    format: spec.format,
    bytesSize: result.bytes.byteLength,
    capturedAt,
    quality: result.quality,
    waitStrategy: result.waitStrategy,
    loadTimeMs,
  };
  if (result.watermarked) data.metadata = { watermarked: true };
  return data;
}
