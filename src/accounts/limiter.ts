/**
 * Per-account fixed-window rate limiter over the Account DO's SQLite storage: one row holding
 * the current window's start and count. Windows are aligned to their size (with 60 s, to the
 * minute boundary). A refused call does not count. Synchronous, so atomic inside a DO method.
 */
import { rateWindow, secondsUntil } from "./windows";

export interface RateState {
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
  limit: number,
  now: number,
  windowMs: number,
): RateState {
  const window = rateWindow(now, windowMs);
  const row = sql
    .exec<{ window_start: number; count: number }>("SELECT window_start, count FROM rate_window")
    .toArray()[0];
  const count = row && row.window_start === window.start ? row.count : 0;
  const base = { limit, resetAt: window.resetAt, retryAfter: secondsUntil(window.resetAt, now) };
  if (count >= limit) return { ...base, remaining: 0, limited: true };
  sql.exec(
    `INSERT INTO rate_window (id, window_start, count) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET window_start = excluded.window_start, count = excluded.count`,
    window.start,
    count + 1,
  );
  return { ...base, remaining: limit - count - 1, limited: false };
}
