/**
 * Sanitized capture failures. The engine throws `CaptureError`; everything else it meets
 * (Chromium, CDP, network) is mapped to one of the spec's user-facing strings, never shown raw.
 * `transient` marks what a retry may cure (browser crash, network), for async jobs.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { formatBytes, LIMITS } from "../../schemas/limits";
import { ApiError } from "../errors";
import { MESSAGES } from "../user-messages";
import { TUNING } from "../tuning";
import { AccountBusy, SlotsBusy } from "./host/slots";

export const FAILURE = {
  timeout: "The page took too long to load.",
  elementNotFound: "The specified element was not found.",
  cookieDomain: "Invalid cookie domain.",
  unreachable: MESSAGES.unreachable,
  storage: "Failed to store capture result.",
  generic: MESSAGES.captureFailed,
  geoUnconfigured: "Geo-targeted capture is not configured on this deployment.",
  geoUnavailable: "Geo-targeted capture is temporarily unavailable.",
  busy: "All browsers are busy. Retry after the time in the Retry-After header.",
  accountBusy:
    "Too many of this account's captures are waiting for a browser. Retry after the time in " +
    "the Retry-After header.",
} as const;

export interface CaptureFailure {
  code:
    | "TIMEOUT"
    | "CAPTURE_FAILED"
    | "PAYLOAD_TOO_LARGE"
    | "UNSAFE_URL"
    | "CONFIGURATION_ERROR"
    | "SERVICE_BUSY"
    | "RATE_LIMITED";
  status: ContentfulStatusCode;
  message: string;
  transient: boolean;
  /** Stable hints for the caller (never page content), as the envelope's `details`. */
  details?: Array<{ path: string; message: string }>;
  /** When the caller may try again (seconds): sent as Retry-After. */
  retryAfterSeconds?: number;
  /**
   * What a crawl tells apart where the answer is the same (src/crawl/page-run.ts): the guard
   * refused where the page went (`blocked`), or it is not a web page (`not_html`).
   */
  cause?: "blocked" | "not_html";
}

/** The `details` hint of a custom-script failure (its own message is not returned). */
export const SCRIPT_ERROR_HINT = "script_error: the custom script threw an exception.";

export class CaptureError extends Error {
  readonly failure: CaptureFailure;
  constructor(failure: CaptureFailure) {
    super(failure.message);
    this.failure = failure;
  }
}

export const failures = {
  timeout: (): CaptureFailure => ({
    code: "TIMEOUT",
    status: 408,
    message: FAILURE.timeout,
    transient: true,
  }),
  /** `failOnStatus` matched the main document's status: the caller's rule, not a retryable fault. */
  targetStatus: (status: number): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 400,
    message: `The target answered with HTTP ${status}.`,
    transient: false,
    details: [{ path: "failOnStatus", message: `HTTP ${status} matches failOnStatus.` }],
  }),
  /**
   * `requireComplete`: the capture is not complete (./page/complete.ts says what is missing).
   * 502 as for an upstream's incomplete answer: the target's page did not finish, the request
   * was fine. Transient: a job tries again, the page may finish then.
   */
  incomplete: (missing: string[]): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 502,
    message: "The page did not finish loading: the capture is incomplete.",
    transient: true,
    details: missing.map((message) => ({ path: "requireComplete", message })),
  }),
  /** `pdfPageRanges` names pages the document does not have. */
  pageRanges: (): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 400,
    message: "The page range is outside the document.",
    transient: false,
    details: [
      { path: "pdfPageRanges", message: "Names pages the printed document does not have." },
    ],
  }),
  /** A fullPage `clip` reaching below the loaded page's height. */
  clipOutside: (pageHeight: number): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 400,
    message: "The clip lies outside the page.",
    transient: false,
    details: [
      {
        path: "clip.height",
        message: `y + height must be at most the page height (${pageHeight}).`,
      },
    ],
  }),
  /** The `selector` element has no part inside the document (e.g. placed at negative offsets). */
  elementOutside: (): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 400,
    message: "The element lies outside the page.",
    transient: false,
    details: [{ path: "selector", message: "No part of the element is inside the page." }],
  }),
  /**
   * `path` names the parameter whose selector found nothing (e.g. an action's index), and the
   * detail quotes the selector: the caller's own text, cut to 200 characters.
   */
  elementNotFound: (path?: string, selector?: string): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 400,
    message: FAILURE.elementNotFound,
    transient: false,
    ...(path
      ? {
          details: [
            {
              path,
              message:
                selector === undefined
                  ? FAILURE.elementNotFound
                  : `No element matches ${JSON.stringify(selector.slice(0, 200))}.`,
            },
          ],
        }
      : {}),
  }),
  /** A scrape selector the schema accepted but Chromium's querySelectorAll refused. */
  selectorRefused: (path: string): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 400,
    message: "The browser refused a CSS selector.",
    transient: false,
    details: [{ path, message: "Invalid CSS selector." }],
  }),
  /**
   * The page replaced its document while it was being captured (its script went to about:blank,
   * a navigation committed between the load and the outputs): the page's doing, not ours.
   * `path` names the source the page was loaded from.
   */
  navigatedAway: (path: "url" | "html"): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 400,
    message: "The page navigated away while it was being captured.",
    transient: false,
    details: [{ path, message: "The page left its document during the capture." }],
  }),
  unreachable: (): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 400,
    message: FAILURE.unreachable,
    transient: true,
  }),
  /** The target is a document Chromium downloads rather than renders (a PDF, an archive). */
  notHtml: (type: string | null): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 400,
    message: `The target is not a web page${type ? ` (${type.slice(0, 100)})` : ""}.`,
    transient: false,
    cause: "not_html",
    details: [{ path: "url", message: "Must point at an HTML page." }],
  }),
  /** The main navigation was redirected to a URL flagged as unsafe (src/security/reputation.ts). */
  unsafe: (): CaptureFailure => ({
    code: "UNSAFE_URL",
    status: 400,
    message: MESSAGES.unsafeUrl,
    transient: false,
  }),
  /**
   * The custom script threw. Its message is never returned: it can carry anything the page can
   * read (a read-back channel). The stable hint in `details` says which part failed.
   */
  script: (): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 400,
    message: FAILURE.generic,
    transient: false,
    details: [{ path: "js", message: SCRIPT_ERROR_HINT }],
  }),
  tooLarge: (
    what = "rendered output",
    limit = formatBytes(LIMITS.outputBytes),
  ): CaptureFailure => ({
    code: "PAYLOAD_TOO_LARGE",
    status: 413,
    message: `The ${what} is larger than the ${limit} limit.`,
    transient: false,
  }),
  storage: (): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 500,
    message: FAILURE.storage,
    transient: true,
  }),
  generic: (): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 500,
    message: FAILURE.generic,
    transient: true,
  }),
  /**
   * The geo provider refused us (key, quota, its own outage): the service, not the target, is
   * at fault. The provider's answer goes to the logs only; `transient` when a retry may cure it.
   */
  geoUnavailable: (transient: boolean): CaptureFailure => ({
    code: "CONFIGURATION_ERROR",
    status: 503,
    message: FAILURE.geoUnavailable,
    transient,
  }),
  /**
   * The geo provider answered 200 with something that is not the capture (an HTML page, a
   * broken or wrong-size image): an upstream fault, 502. The message names no provider and
   * carries nothing of its answer; not in FAILURE, so a job reports the generic string.
   */
  geoBadAnswer: (): CaptureFailure => ({
    code: "CAPTURE_FAILED",
    status: 502,
    message: "The geo-targeting provider returned an invalid screenshot.",
    transient: true,
  }),
  /** No browser slot came free within the wait budget (capture/host/slots.ts): nothing ran. */
  busy: (): CaptureFailure => ({
    code: "SERVICE_BUSY",
    status: 503,
    message: FAILURE.busy,
    transient: true,
    retryAfterSeconds: TUNING.busyRetryAfterSeconds,
  }),
  /**
   * The account already has its share of a browser's line waiting (capture/host/slots.ts): its own
   * excess, refused at once (or pushed out for another account's caller); nothing ran.
   */
  accountBusy: (): CaptureFailure => ({
    code: "RATE_LIMITED",
    status: 429,
    message: FAILURE.accountBusy,
    transient: true,
    retryAfterSeconds: TUNING.busyRetryAfterSeconds,
  }),
};

/** Anything thrown during a capture → a sanitized failure. */
export function toFailure(err: unknown): CaptureFailure {
  if (err instanceof CaptureError) return err.failure;
  if (err instanceof SlotsBusy) return failures.busy();
  if (err instanceof AccountBusy) return failures.accountBusy();
  const name = err instanceof Error ? err.name : "";
  const message = err instanceof Error ? err.message : String(err);
  if (name === "TimeoutError" || /timeout|timed out/i.test(message)) return failures.timeout();
  if (/net::ERR_|Navigation failed|Cannot navigate/i.test(message)) return failures.unreachable();
  return failures.generic();
}

export function failureToApiError(failure: CaptureFailure): ApiError {
  return new ApiError(failure.code, failure.message, {
    status: failure.status,
    ...(failure.details ? { details: failure.details } : {}),
    ...(failure.retryAfterSeconds !== undefined
      ? { headers: { "Retry-After": String(failure.retryAfterSeconds) } }
      : {}),
  });
}
