/** The contract of POST/GET /v1/screenshot, POST /v1/screenshot/json and the batch route. */
import { z } from "zod";
import { batchRequestSchema } from "../../../schemas/batch";
import { captureRequestSchema } from "../../../schemas/capture";
import { captureQuerySchema } from "../../../schemas/capture-query";
import {
  batchAcceptedSchema,
  captureJsonSchema,
  hostedCaptureSchema,
  jobAcceptedSchema,
  successEnvelope,
} from "../../../schemas/responses";
import {
  API_KEY,
  API_KEY_OR_QUERY,
  BINARY_SCHEMA,
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  jsonRequest,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
  type ApiRoute,
  type ErrorAt,
  TARGET_ERRORS,
} from "../registry";

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
/** Extra failures of async submission. */
const ASYNC_ERRORS: ErrorAt[] = ["INVALID_WEBHOOK_URL", "QUEUE_LIMIT_REACHED", "NOT_FOUND"];

const example = { url: "https://example.com", format: "png", width: 1280, height: 800 };

const accepted = envelopeResponse(
  "async: true — queued; poll GET /v1/jobs/{jobId}. meta.usage holds the reserved credit.",
  jobAcceptedSchema,
  rateLimitHeaders,
);

export const captureRoutes: ApiRoute[] = [
  {
    method: "post",
    path: "/v1/screenshot",
    operation: {
      operationId: "captureScreenshot",
      summary: "Capture a screenshot or PDF",
      description:
        "Renders a URL, HTML or Markdown and answers with the bytes (Content-Type per format) and the metadata headers. With `hosted: true` the output is stored and the answer is JSON with a signed URL; with `async: true` the capture is queued (202).",
      tags: ["Capture"],
      security: API_KEY,
      requestBody: jsonRequest(captureRequestSchema, example),
      responses: {
        "200": {
          description: "The image or PDF bytes; with `hosted: true`, JSON with a signed URL.",
          headers: z.object(captureHeaders).partial(),
          content: {
            ...bytesContent(),
            "application/json": { schema: successEnvelope(hostedCaptureSchema) },
          },
        },
        "202": accepted,
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS, ...ASYNC_ERRORS]),
      },
    },
  },
  {
    method: "get",
    path: "/v1/screenshot",
    operation: {
      operationId: "captureScreenshotGet",
      summary: "Capture a screenshot (GET)",
      description:
        "The GET subset of the capture parameters as a query string, for image tags; the key may be given as `key`. Same bytes and headers as the POST.",
      tags: ["Capture"],
      security: API_KEY_OR_QUERY,
      requestParams: { query: captureQuerySchema },
      responses: {
        "200": {
          description: "The image or PDF bytes.",
          headers: z.object(captureHeaders),
          content: bytesContent(),
        },
        ...errorResponses(CAPTURE_ERRORS),
      },
    },
  },
  {
    method: "post",
    path: "/v1/screenshot/json",
    operation: {
      operationId: "captureScreenshotJson",
      summary: "Capture as JSON (base64)",
      description:
        "Same parameters as POST /v1/screenshot; the image comes back base64 in the envelope, with the reader-mode article when `extract: true`.",
      tags: ["Capture"],
      security: API_KEY,
      requestBody: jsonRequest(captureRequestSchema, { ...example, extract: true }),
      responses: {
        "200": envelopeResponse("The capture, base64.", captureJsonSchema, rateLimitHeaders),
        "202": accepted,
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS, ...ASYNC_ERRORS]),
      },
    },
  },
  {
    method: "post",
    path: "/v1/screenshot/batch",
    operation: {
      operationId: "captureBatch",
      summary: "Queue a batch of captures",
      description:
        "Paid plans. 1 credit per URL; capped per plan (Basic 10, Starter 25, Pro 100, Enterprise 500). One batch.completed webhook when every job finished.",
      tags: ["Async"],
      security: API_KEY,
      requestBody: jsonRequest(batchRequestSchema, {
        urls: ["https://example.com", "https://example.org"],
        defaults: { format: "png", width: 1280 },
      }),
      responses: {
        "202": envelopeResponse("Queued; jobs in `urls` order.", batchAcceptedSchema),
        ...errorResponses([
          ...BODY_ERRORS,
          ...CAPTURE_ERRORS,
          ...ASYNC_ERRORS,
          "BATCH_LIMIT_EXCEEDED",
        ]),
      },
    },
  },
];
