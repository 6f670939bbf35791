/**
 * Login throttling: failed attempts counted in a sliding window, over a DO's SQLite table
 * `login_failures (at INTEGER)`. Used per email (inside `DashboardUser`) and per client address
 * (the `LoginThrottle` DO, one per address).
 */
import { DurableObject } from "cloudflare:workers";
import { TUNING } from "../tuning";
import { migrate, type Migration } from "./migrate";

export const FAILURES_TABLE = "CREATE TABLE login_failures (at INTEGER NOT NULL)";

/** Seconds until another attempt is allowed, or 0 when one is allowed now. */
export function retryAfterSeconds(
  sql: SqlStorage,
  max: number,
  windowMs: number,
  now: number,
): number {
  sql.exec("DELETE FROM login_failures WHERE at <= ?", now - windowMs);
  const rows = sql
    .exec<{ at: number }>("SELECT at FROM login_failures ORDER BY at DESC LIMIT ?", max)
    .toArray();
  const oldest = rows[max - 1];
  if (!oldest) return 0;
  return Math.max(1, Math.ceil((oldest.at + windowMs - now) / 1000));
}

export function recordFailure(sql: SqlStorage, now: number): void {
  sql.exec("INSERT INTO login_failures (at) VALUES (?)", now);
}

export function clearFailures(sql: SqlStorage): void {
  sql.exec("DELETE FROM login_failures");
}

const THROTTLE_MIGRATIONS: readonly Migration[] = [[FAILURES_TABLE]];

/** One per client address (named by it): failed dashboard logins from that address. */
export class LoginThrottle extends DurableObject<Env> {
  clock: () => number = () => Date.now();
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrate(ctx.storage, THROTTLE_MIGRATIONS);
  }

  retryAfter(): number {
    const { loginFailuresPerAddress: max, loginWindowMs: windowMs } = TUNING;
    return retryAfterSeconds(this.sql, max, windowMs, this.clock());
  }

  fail(): void {
    recordFailure(this.sql, this.clock());
  }
}
