/**
 * Contract pieces shared by the routes that capture a page: the binary capture's response headers
 * and media types, and the errors a synchronous capture or an async submission can answer with.
 * Used by ./screenshot.ts, ./batch.ts, ./extract.ts, ./artifact.ts and the other capturing routes
 * (render links, page content, crawl), so each lists the same codes.
 */
import { z } from "zod";
import {
  BINARY_SCHEMA,
  BODY_ERRORS,
  type ErrorAt,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
  TARGET_ERRORS,
} from "../openapi/registry";

const h = (description: string) => z.string().meta({ description });

/** The spec's binary capture response headers. */
export const captureHeaders = {
  "x-screenshot-url": h("The captured URL (after redirects)."),
  "x-screenshot-width": h("Output width in pixels."),
  "x-screenshot-height": h("Output height in pixels."),
  "x-screenshot-size": h("Output size in bytes."),
  "x-screenshot-captured-at": h("ISO 8601 time of the capture."),
  "x-service-format": h("png, jpeg, webp or pdf."),
  "x-service-quality": h("full, degraded or best_attempt."),
  "x-service-wait-strategy": h("The wait strategy that succeeded."),
  "x-service-load-time-ms": h("Total capture time in milliseconds."),
  "x-service-credits-charged": h("Credits this request spent."),
  "x-service-credits-remaining": h("Credits left this month, or unlimited."),
  "x-service-truncated": h("true when a full-page capture exceeded 16,384 px.").optional(),
  "x-service-auto-scrolled": h("true when auto-scroll was used.").optional(),
  "x-service-completeness": h(
    "How complete the capture is: the Completeness object as compact JSON (absent for geo captures).",
  ).optional(),
  "x-service-watermarked": h("true when a Free-plan watermark was applied.").optional(),
  "x-service-rendering-engine": h("geo-proxy for geo captures.").optional(),
  "x-service-geo-country": h("Country used, for geo captures.").optional(),
  "cache-control": h("Images: public, max-age=3600, s-maxage=3600; PDFs: none.").optional(),
  "content-disposition": h("PDFs: inline with a fixed filename.").optional(),
  ...rateLimitHeaders,
};

/** Image and PDF bytes with the capture headers. */
export function bytesContent() {
  return {
    "image/png": { schema: BINARY_SCHEMA },
    "image/jpeg": { schema: BINARY_SCHEMA },
    "image/webp": { schema: BINARY_SCHEMA },
    "application/pdf": { schema: BINARY_SCHEMA },
  };
}

/** What a capture can fail with, wherever it runs synchronously. */
export const CAPTURE_ERRORS: ErrorAt[] = [
  ...KEY_ERRORS,
  ...SERVICE_ERRORS,
  ...TARGET_ERRORS,
  "PLAN_UPGRADE_REQUIRED",
  "GEO_FEATURE_UNAVAILABLE",
  "TIMEOUT",
  ["CAPTURE_FAILED", 400],
  ["CAPTURE_FAILED", 500],
  // A geo provider's answer that is not a capture (docs/GEO.md).
  ["CAPTURE_FAILED", 502],
  "USAGE_EXCEEDED",
  "PAYLOAD_TOO_LARGE",
  "VALIDATION_ERROR",
  "SERVICE_BUSY",
  // POSTs with an Idempotency-Key (docs/IDEMPOTENCY.md).
  "IDEMPOTENCY_KEY_REUSED",
  "IDEMPOTENCY_KEY_IN_USE",
];

/** Extra failures of async submission (`async: true`, batches). */
export const ASYNC_ERRORS: ErrorAt[] = ["INVALID_WEBHOOK_URL", "QUEUE_LIMIT_REACHED", "NOT_FOUND"];

/** The failures of a batch (of captures or recordings): a body, every URL's, async, the cap. */
export const BATCH_ERRORS: ErrorAt[] = [
  ...BODY_ERRORS,
  ...CAPTURE_ERRORS,
  ...ASYNC_ERRORS,
  "BATCH_LIMIT_EXCEEDED",
];
