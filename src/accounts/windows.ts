/**
 * Time windows of the account: the per-minute rate-limit window and the monthly credit period.
 * Pure functions of a clock value (ms since the epoch), so tests can move time freely.
 */

export interface RateWindow {
  /** Start of the window holding `now` (aligned to a multiple of the window size). */
  start: number;
  /** First instant of the next window. */
  resetAt: number;
}

/** Fixed window aligned to the epoch: with 60 s windows, each starts on a minute boundary. */
export function rateWindow(now: number, windowMs: number): RateWindow {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, resetAt: start + windowMs };
}

/** The credit period holding `now`: its UTC month as `YYYY-MM`. */
export function creditPeriod(now: number): string {
  const d = new Date(now);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** The UTC day holding `now` as `YYYY-MM-DD`. */
export function creditDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** When the credit period holding `now` ends: 00:00 UTC on the first day of the next month. */
export function periodResetsAt(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Whole seconds until `at`, at least 1 (the value of a Retry-After header). */
export function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}
