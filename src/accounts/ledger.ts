/**
 * The month's credit ledger, over the Account DO's SQLite storage.
 *
 * Spending is two-phase: `reserve` holds credits (refused when used + held + cost would pass
 * the plan's limit), then `settle` commits them (they become `used`), refunds them, or — for a
 * request of several outputs, some of which failed — commits some and refunds the rest. A
 * reservation never settled expires after its TTL and stops holding credits, so a crashed
 * request cannot leak them. Every function is synchronous: called from a DO method, each runs
 * atomically (the input gate admits no other call mid-way).
 */
import { RpcTarget } from "cloudflare:workers";
import type { CreditUsage } from "../../schemas/responses";
import { TUNING } from "../tuning";
import type { AccountDb } from "./store";
import { creditDay, creditPeriod, periodResetsAt } from "./windows";

export type ReserveResult =
  { ok: true; reservationId: string; remaining: number | null } | { ok: false; usage: CreditUsage };

/** How to settle: commit it all (true), refund it all (false), or commit this many credits. */
export type Settlement = boolean | number;

export interface SettleResult {
  /** False when the reservation was unknown, already settled or expired (nothing changed). */
  settled: boolean;
  /** Credits that became `used`; the rest of the reservation was refunded. */
  committed: number;
  usage: CreditUsage;
}

function purgeExpired(sql: SqlStorage, now: number): void {
  sql.exec("DELETE FROM credit_reservations WHERE expires_at <= ?", now);
}

function usedIn(sql: SqlStorage, period: string): number {
  const row = sql.exec<{ used: number }>(
    "SELECT used FROM credit_periods WHERE period = ?",
    period,
  );
  return row.toArray()[0]?.used ?? 0;
}

function heldIn(sql: SqlStorage, period: string, now: number): number {
  const row = sql
    .exec<{ held: number }>(
      "SELECT COALESCE(SUM(cost), 0) AS held FROM credit_reservations WHERE period = ? AND expires_at > ?",
      period,
      now,
    )
    .one();
  return row.held;
}

export function creditUsage(sql: SqlStorage, limit: number | null, now: number): CreditUsage {
  const period = creditPeriod(now);
  const used = usedIn(sql, period);
  const resetsAt = new Date(periodResetsAt(now)).toISOString();
  if (limit === null) return { used, limit, remaining: null, unlimited: true, resetsAt };
  const remaining = Math.max(0, limit - used - heldIn(sql, period, now));
  return { used, limit, remaining, unlimited: false, resetsAt };
}

export function reserve(
  sql: SqlStorage,
  limit: number | null,
  cost: number,
  ttlMs: number,
  now: number,
): ReserveResult {
  if (!Number.isSafeInteger(cost) || cost < 1) throw new RangeError(`invalid credit cost ${cost}`);
  purgeExpired(sql, now);
  const usage = creditUsage(sql, limit, now);
  if (usage.remaining !== null && usage.remaining < cost) return { ok: false, usage };
  const reservationId = crypto.randomUUID();
  sql.exec(
    "INSERT INTO credit_reservations (id, cost, period, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
    reservationId,
    cost,
    creditPeriod(now),
    now,
    now + ttlMs,
  );
  const remaining = usage.remaining === null ? null : usage.remaining - cost;
  return { ok: true, reservationId, remaining };
}

export function settle(
  sql: SqlStorage,
  limit: number | null,
  reservationId: string,
  commit: Settlement,
  now: number,
): SettleResult {
  if (typeof commit === "number" && (!Number.isSafeInteger(commit) || commit < 0)) {
    throw new RangeError(`invalid credit count ${commit}`);
  }
  purgeExpired(sql, now);
  const rows = sql
    .exec<{ cost: number; period: string }>(
      "DELETE FROM credit_reservations WHERE id = ? RETURNING cost, period",
      reservationId,
    )
    .toArray();
  const held = rows[0];
  const committed = held
    ? commit === true
      ? held.cost
      : commit === false
        ? 0
        : Math.min(commit, held.cost)
    : 0;
  if (held && committed > 0) {
    sql.exec(
      `INSERT INTO credit_periods (period, used) VALUES (?, ?)
       ON CONFLICT (period) DO UPDATE SET used = used + excluded.used`,
      held.period,
      committed,
    );
    // Per UTC day of the commit, for the dashboard's usage chart (not used for limits).
    sql.exec(
      `INSERT INTO credit_days (day, used) VALUES (?, ?)
       ON CONFLICT (day) DO UPDATE SET used = used + excluded.used`,
      creditDay(now),
      committed,
    );
  }
  return { settled: held !== undefined, committed, usage: creditUsage(sql, limit, now) };
}

/** Sets this month's committed credits (admin: e.g. to exhaust an account in a test). */
export function setUsed(sql: SqlStorage, used: number, now: number): void {
  sql.exec(
    `INSERT INTO credit_periods (period, used) VALUES (?, ?)
     ON CONFLICT (period) DO UPDATE SET used = excluded.used`,
    creditPeriod(now),
    used,
  );
}

/** Credits committed per UTC day (`YYYY-MM-DD`) from `fromDay` on, days without use left out. */
export function creditsByDay(sql: SqlStorage, fromDay: string): { day: string; used: number }[] {
  return sql
    .exec<{ day: string; used: number }>(
      "SELECT day, used FROM credit_days WHERE day >= ? ORDER BY day",
      fromDay,
    )
    .toArray();
}

/**
 * The ledger of the Account DO, reached over RPC as `account.credits` — by src/accounts/credits.ts
 * (reserve, settle) and the dashboard's chart only.
 */
export class CreditLedger extends RpcTarget {
  constructor(private readonly db: AccountDb) {
    super();
  }

  /** Holds `cost` credits until settled (or until `ttlMs` passes). */
  reserve(cost: number, ttlMs: number = TUNING.creditReservationTtlMs): ReserveResult {
    return this.db.tx((s) => reserve(s.sql, s.creditLimit, cost, ttlMs, s.now));
  }

  /**
   * Up to `count` reservations of `cost` credits each, as many as the month's credits cover (none:
   * an empty list), in one transaction: a crawl's renderer holds its next pages' credits at once.
   */
  reserveEach(cost: number, count: number): string[] {
    if (!Number.isSafeInteger(count) || count < 0 || count > 100)
      throw new RangeError(`invalid reservation count ${count}`);
    return this.db.tx((s) => {
      const ids: string[] = [];
      while (ids.length < count) {
        const held = reserve(s.sql, s.creditLimit, cost, TUNING.creditReservationTtlMs, s.now);
        if (!held.ok) break;
        ids.push(held.reservationId);
      }
      return ids;
    });
  }

  /** Commits (`commit` true), refunds (false) or partly commits (a count) a reservation. */
  settle(reservationId: string, commit: Settlement): SettleResult {
    return this.db.tx((s) => settle(s.sql, s.creditLimit, reservationId, commit, s.now));
  }

  /** Settles several reservations in one transaction; the credits committed in all. */
  settleEach(settlements: readonly { reservationId: string; commit: Settlement }[]): number {
    return this.db.tx((s) =>
      settlements.reduce(
        (sum, { reservationId, commit }) =>
          sum + settle(s.sql, s.creditLimit, reservationId, commit, s.now).committed,
        0,
      ),
    );
  }

  /** Credits committed per UTC day since `fromDay` (the dashboard's usage chart). */
  byDay(fromDay: string): { day: string; used: number }[] {
    return creditsByDay(this.db.sql, fromDay);
  }
}
