/**
 * Per-account fixed-window rate limiter over the Account DO's SQLite storage: per bucket, one row
 * holding the current window's start and count. Windows are aligned to their size (with 60 s, to
 * the minute boundary). A refused call does not count. Synchronous, so atomic inside a DO method.
 *
 * Two buckets, counted apart: `request` (captures and writes, the plan's `rateLimitPerMinute`)
 * and `read` (polling and account reads, `readRateLimitPerMinute`; which calls are reads is
 * decided in src/http/middleware/authenticate.ts).
 */
import type { Plan } from "./plans";
import { rateWindow, secondsUntil } from "./windows";

export type RateBucket = "request" | "read";

/** Each bucket's one-row table (src/account-do/migrations.ts). */
const TABLES: Readonly<Record<RateBucket, string>> = {
  request: "rate_window",
  read: "read_rate_window",
};

/** The plan's per-minute limit for `bucket`. */
export function bucketLimit(plan: Plan, bucket: RateBucket): number {
  return bucket === "read" ? plan.readRateLimitPerMinute : plan.rateLimitPerMinute;
}

export interface RateState {
  /** The bucket counted: the headers and the 429 message describe its limit. */
  bucket: RateBucket;
  limit: number;
  /** Calls left in this window after this one. */
  remaining: number;
  /** When the window resets (ms since the epoch). */
  resetAt: number;
  /** Whole seconds until the reset (at least 1): the Retry-After of a refused call. */
  retryAfter: number;
  /** True when this call was refused. */
  limited: boolean;
}

export function hitRateLimit(
  sql: SqlStorage,
  bucket: RateBucket,
  limit: number,
  now: number,
  windowMs: number,
): RateState {
  const table = TABLES[bucket];
  const window = rateWindow(now, windowMs);
  const row = sql
    .exec<{ window_start: number; count: number }>(`SELECT window_start, count FROM ${table}`)
    .toArray()[0];
  const count = row && row.window_start === window.start ? row.count : 0;
  const base = {
    bucket,
    limit,
    resetAt: window.resetAt,
    retryAfter: secondsUntil(window.resetAt, now),
  };
  if (count >= limit) return { ...base, remaining: 0, limited: true };
  sql.exec(
    `INSERT INTO ${table} (id, window_start, count) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET window_start = excluded.window_start, count = excluded.count`,
    window.start,
    count + 1,
  );
  return { ...base, remaining: limit - count - 1, limited: false };
}
