/**
 * The spec's error vocabulary: one table from code to HTTP status, one error type.
 * Every error a client can see is an `ApiError` thrown from anywhere and rendered by the app's
 * `onError`. A leaf: it imports nothing of ours, so every layer may use it.
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_URL: 400,
  INVALID_JSON: 400,
  UNSAFE_URL: 400,
  INVALID_WEBHOOK_URL: 400,
  BATCH_LIMIT_EXCEEDED: 400,
  CAPTURE_FAILED: 500,
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  UNAUTHORIZED: 401,
  KEY_DISABLED: 403,
  FORBIDDEN: 403,
  PLAN_UPGRADE_REQUIRED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  EXTRACTION_FAILED: 422,
  GEO_FEATURE_UNAVAILABLE: 422,
  RATE_LIMITED: 429,
  USAGE_EXCEEDED: 429,
  QUEUE_LIMIT_REACHED: 429,
  INTERNAL_ERROR: 500,
  CONFIGURATION_ERROR: 503,
  /** Every browser slot busy past the wait budget (docs/RELIABILITY.md); sent with Retry-After. */
  SERVICE_BUSY: 503,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_KEY_IN_USE: 409,
  WATCH_NOT_FOUND: 404,
  WATCH_PAUSED: 409,
  WATCH_LIMIT_REACHED: 403,
  WATCH_HOST_LIMIT_REACHED: 403,
  WATCH_INTERVAL_TOO_FAST: 403,
  CRAWL_NOT_FOUND: 404,
  /** The plan's crawls in flight are all running (docs/CRAWL.md). */
  CRAWL_LIMIT_REACHED: 429,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface ApiErrorOptions {
  details?: ErrorDetail[];
  /** Overrides the table's status where the spec allows two (CAPTURE_FAILED: 400 or 500). */
  status?: ContentfulStatusCode;
  headers?: Record<string, string>;
}

export class ApiError extends HTTPException {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly extraHeaders: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(options.status ?? ERROR_STATUS[code], { message });
    this.code = code;
    this.details = options.details;
    this.extraHeaders = options.headers ?? {};
  }
}

/** Shorthand for the most common client error: a named field is wrong. */
export function validationError(path: string, message: string): ApiError {
  return new ApiError("VALIDATION_ERROR", `Invalid request: ${path}: ${message}`, {
    details: [{ path, message }],
  });
}
