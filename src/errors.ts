/**
 * The spec's error vocabulary: one table from code to HTTP status, whose fault it is, what it
 * means and what to do (served as the page GET /docs/errors, every error body's `docs` link),
 * and one error type. Every error a client can see is an `ApiError` thrown from anywhere and
 * rendered by the app's `onError`. A leaf: it imports nothing of ours, so every layer may use it.
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Whose doing an error is: the request (fix it), the service (retry, or tell us), the target page. */
export type ErrorFault = "request" | "plan" | "service" | "target";

export interface ErrorCodeInfo {
  status: ContentfulStatusCode;
  /** Other statuses the code is sent with (the spec lists two for CAPTURE_FAILED). */
  alsoStatus?: readonly ContentfulStatusCode[];
  fault: ErrorFault;
  /** What it means, one sentence. */
  meaning: string;
  /** What to do about it. */
  action: string;
}

export const ERROR_CODES = {
  VALIDATION_ERROR: {
    status: 400,
    fault: "request",
    meaning: "A parameter is missing, of the wrong type or out of range; `details` names each one.",
    action: "Fix the fields named in `details[].path` (the message says what each must be).",
  },
  INVALID_URL: {
    status: 400,
    fault: "request",
    meaning:
      "The URL is not one the service may fetch: malformed, not http(s), a private or reserved " +
      "address or name, or a host name that does not resolve (or resolves to a private address).",
    action:
      "Send a public http(s) URL. To capture a local app, allowlist its host:port " +
      "(TARGET_ALLOWLIST) on your own deployment.",
  },
  INVALID_JSON: {
    status: 400,
    fault: "request",
    meaning: "The body is not a JSON object (not valid JSON, not UTF-8, or cut short).",
    action: "Send `Content-Type: application/json` with a complete JSON object.",
  },
  UNSAFE_URL: {
    status: 400,
    fault: "request",
    meaning: "The URL is flagged as malware, phishing or unwanted software.",
    action: "Capture another URL. If the flag is wrong, have the site cleared by Safe Browsing.",
  },
  INVALID_WEBHOOK_URL: {
    status: 400,
    fault: "request",
    meaning:
      "The webhook URL is not a public https URL (private address, credentials, plain http, or a " +
      "name that does not resolve publicly).",
    action: "Use a public https endpoint without credentials.",
  },
  BATCH_LIMIT_EXCEEDED: {
    status: 400,
    fault: "plan",
    meaning: "The batch has more URLs than the plan allows.",
    action: "Split the batch, or upgrade the plan.",
  },
  CAPTURE_FAILED: {
    status: 500,
    alsoStatus: [400, 502],
    fault: "target",
    meaning:
      "The capture did not complete. 400: the target page could not be reached or the element " +
      "was not found; 500 or 502: on our side or the provider's.",
    action:
      "On 400, check the page loads in a browser and the selector matches. On 5xx, retry; if it " +
      "persists, contact support with the requestId.",
  },
  MISSING_API_KEY: {
    status: 401,
    fault: "request",
    meaning: "No API key was sent.",
    action: "Send `Authorization: Bearer svc_…` (or `x-api-key`).",
  },
  INVALID_API_KEY: {
    status: 401,
    fault: "request",
    meaning: "The API key is not recognised.",
    action: "Check the key (it starts with `svc_`), or create one in the dashboard.",
  },
  UNAUTHORIZED: {
    status: 401,
    fault: "request",
    meaning: "Missing or invalid credentials.",
    action: "Send a valid API key.",
  },
  KEY_DISABLED: {
    status: 403,
    fault: "request",
    meaning: "The key was revoked, disabled or has expired.",
    action: "Use another key, or create a new one in the dashboard.",
  },
  FORBIDDEN: {
    status: 403,
    fault: "request",
    meaning: "Access denied: an invalid or expired signature, or not yours to read.",
    action: "Mint a fresh link or signed URL; check you use the owning account's key.",
  },
  PLAN_UPGRADE_REQUIRED: {
    status: 403,
    fault: "plan",
    meaning: "The feature needs a higher plan (geo, batches, cookies, headers, URL credentials…).",
    action: "Drop the option, or upgrade the plan.",
  },
  NOT_FOUND: {
    status: 404,
    fault: "request",
    meaning:
      "No such route, or the job, batch, image or delivery does not exist (or is not yours).",
    action: "Check the path and the id.",
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    fault: "request",
    meaning: "The route exists but not with this method; the `Allow` header lists the methods.",
    action: "Use a method from `Allow`.",
  },
  TIMEOUT: {
    status: 408,
    fault: "target",
    meaning: "The page did not load within `timeout`.",
    action: "Raise `timeout` (up to 60 s) or use a lighter `waitUntil`.",
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    fault: "request",
    meaning: "The request body, the rendered output or the render-link URL is over its size cap.",
    action: "Send less (smaller HTML, fewer parameters), or capture a smaller area.",
  },
  EXTRACTION_FAILED: {
    status: 422,
    fault: "target",
    meaning: "The page has no article-like content to extract.",
    action: "Use a page with an article, or capture it as HTML or text instead.",
  },
  GEO_FEATURE_UNAVAILABLE: {
    status: 422,
    fault: "request",
    meaning: "An option cannot be combined with `geo`; `details` names each one.",
    action: "Drop the named options, or the geo targeting.",
  },
  RATE_LIMITED: {
    status: 429,
    fault: "plan",
    meaning:
      "Too many requests this minute for the plan, or too many of the account's captures " +
      "already waiting for a browser at once.",
    action: "Wait `Retry-After` seconds; spread requests out, or upgrade the plan.",
  },
  USAGE_EXCEEDED: {
    status: 429,
    fault: "plan",
    meaning: "The month's credits are used up.",
    action: "Wait for the reset (the message says when), or upgrade the plan.",
  },
  QUEUE_LIMIT_REACHED: {
    status: 429,
    fault: "plan",
    meaning: "Too many async jobs are queued or running at once.",
    action: "Wait for jobs to finish (poll or use webhooks), then submit more.",
  },
  INTERNAL_ERROR: {
    status: 500,
    fault: "service",
    meaning: "Something unexpected failed on our side.",
    action: "Retry; if it persists, contact support with the requestId.",
  },
  CONFIGURATION_ERROR: {
    status: 503,
    fault: "service",
    meaning: "The service is misconfigured, or a feature's provider (geo) is not set up.",
    action: "Contact the operator of this deployment with the requestId.",
  },
  SERVICE_BUSY: {
    status: 503,
    fault: "service",
    meaning: "Every browser is busy; the request waited and was turned away.",
    action: "Retry after `Retry-After` seconds, or use `async: true`.",
  },
  URL_CHECK_UNAVAILABLE: {
    status: 503,
    fault: "service",
    meaning:
      "The URL could not be checked: our DNS resolver did not answer. Nothing is fetched unchecked.",
    action:
      "Retry after `Retry-After` seconds. On a machine without internet, allowlist local targets " +
      "(TARGET_ALLOWLIST) or set DNS_CHECK=off.",
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    fault: "request",
    meaning: "The Idempotency-Key was used before with a different request.",
    action: "Use a new key for a new request.",
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    fault: "request",
    meaning: "A request with this Idempotency-Key is still running.",
    action: "Wait for it, then retry to get its kept response.",
  },
  WATCH_NOT_FOUND: {
    status: 404,
    fault: "request",
    meaning: "No such watch on this account.",
    action: "Check the watch id (GET /v1/watches lists them).",
  },
  WATCH_PAUSED: {
    status: 409,
    fault: "request",
    meaning: "The watch is paused, so it cannot be run.",
    action: "Resume it (PATCH with `paused: false`) first.",
  },
  WATCH_LIMIT_REACHED: {
    status: 403,
    fault: "plan",
    meaning: "The plan's number of watches (active plus paused) is reached.",
    action: "Delete a watch, or upgrade the plan.",
  },
  WATCH_HOST_LIMIT_REACHED: {
    status: 403,
    fault: "plan",
    meaning: "Too many active watches on one website.",
    action: "Pause or delete a watch on that site.",
  },
  WATCH_INTERVAL_TOO_FAST: {
    status: 403,
    fault: "plan",
    meaning: "`intervalMinutes` is below the plan's floor.",
    action: "Use a longer interval, or upgrade the plan.",
  },
  CRAWL_NOT_FOUND: {
    status: 404,
    fault: "request",
    meaning: "No such crawl on this account.",
    action: "Check the crawl id (GET /v1/crawls lists them).",
  },
  CRAWL_LIMIT_REACHED: {
    status: 429,
    fault: "plan",
    meaning: "The plan's crawls in flight are all running.",
    action: "Wait for a crawl to finish (or cancel one), or upgrade the plan.",
  },
  MONITOR_NOT_FOUND: {
    status: 404,
    fault: "request",
    meaning: "No such monitor on this account.",
    action: "Check the monitor id (GET /v1/monitors lists them).",
  },
  CHECK_NOT_FOUND: {
    status: 404,
    fault: "request",
    meaning: "No such check of this monitor (or it is past the plan's retention).",
    action: "Check the check id (GET /v1/monitors/{id}/checks lists them).",
  },
  MONITOR_LIMIT_REACHED: {
    status: 403,
    fault: "plan",
    meaning: "The plan's number of monitors (active plus paused) is reached.",
    action: "Delete a monitor, or upgrade the plan.",
  },
  MONITOR_SCHEDULE_TOO_FAST: {
    status: 403,
    fault: "plan",
    meaning: "The schedule runs checks closer together than the plan's floor.",
    action: "Use a longer interval or a sparser cron expression, or upgrade the plan.",
  },
  CHECK_IN_PROGRESS: {
    status: 409,
    fault: "request",
    meaning: "A check of this monitor is queued or running.",
    action: "Wait for it to finish (GET /v1/monitors/{id}/checks), then ask again.",
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Each code's usual HTTP status. */
export const ERROR_STATUS = Object.fromEntries(
  Object.entries(ERROR_CODES).map(([code, info]) => [code, info.status]),
) as { readonly [C in ErrorCode]: (typeof ERROR_CODES)[C]["status"] };

/** Where a code is explained: the anchor of GET /docs/errors (every error body's `docs`). */
export function errorDocsPath(code: ErrorCode): string {
  return `/docs/errors#${code}`;
}

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
