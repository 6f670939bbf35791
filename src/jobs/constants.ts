/**
 * The numbers of async jobs, batches and webhooks (spec: Limits, Events; DESIGN.md: "Async,
 * batches, webhooks"). Queue retry counts must agree with wrangler.toml's `max_retries`.
 */
export const JOBS = {
  /** Batch URLs accepted by the schema; each plan caps lower (plans.ts batchCap). */
  batchMaxUrls: 500,
  /** Credits of a queued job stay held this long if it is never settled. */
  reservationTtlMs: 24 * 60 * 60 * 1000,
  /** Finished jobs and batches are forgotten after this long (results expire by then). */
  retentionMs: 30 * 24 * 60 * 60 * 1000,
  /** Job R2 documents (the CaptureSpec) expire after this long (the sweep deletes them). */
  documentTtlSeconds: 7 * 24 * 60 * 60,
  /** A capture is tried at most this often: the first attempt plus 2 retries (max_retries = 2). */
  captureAttempts: 3,
  /** Backoff before capture retry n (1-based): base × 3^(n−1) seconds. */
  captureRetryBaseSeconds: 5,
  /** Listing page size. */
  listDefault: 20,
  listMax: 100,
  /** Parallel URL checks and R2 writes while admitting a batch. */
  submitConcurrency: 8,
} as const;

export const WEBHOOKS = {
  /** First attempt plus up to 3 retries (max_retries = 3). */
  attempts: 4,
  /** Retry n waits about base × 3^(n−1) s (5, 15, 45), ±20 % jitter, at most capSeconds. */
  retryBaseSeconds: 5,
  retryCapSeconds: 120,
  jitter: 0.2,
  /** Each attempt gives up after this long. */
  timeoutMs: 10_000,
  /** Receivers reject signatures older than this (the verification helper's default). */
  replayWindowSeconds: 300,
  userAgent: "Service-Webhook/1.0",
} as const;
