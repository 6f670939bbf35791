/**
 * User-facing messages written in more than one place, each built once here. A leaf module
 * (imports nothing of ours). Capture failures keep their own table (src/capture/failures.ts).
 */

/** What a refused credit reservation reports (sync captures and async admission alike). */
export interface CreditShortfall {
  remaining: number | null;
  limit: number | null;
  resetsAt: string;
}

export const MESSAGES = {
  invalidApiKey: "The API key is not valid.",
  /** Anything unexpected: internals go to the logs, never to the caller. */
  internalError: "An unexpected error occurred.",
  unsafeUrl: "The URL is flagged as unsafe.",
  /** A target the browser cannot reach: capture failures, and the in-browser navigation check. */
  unreachable: "Could not reach the target URL.",
  /** The generic capture failure: failures.ts, and the stuck-job sweep of the Account DO. */
  captureFailed: "Screenshot capture failed.",
  creditsExhausted: (needed: number, usage: CreditShortfall): string =>
    `Monthly credits exhausted: this request needs ${needed}, ${usage.remaining ?? 0} of ` +
    `${usage.limit ?? 0} remain. Credits reset at ${usage.resetsAt}.`,
} as const;
