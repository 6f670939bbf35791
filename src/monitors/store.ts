/**
 * The monitors feature of the Account DO, reached over RPC as `account.monitors()`: the
 * monitors, their checks, the pages of a check that were not unchanged, the baseline index (the
 * pages a monitor knows and the check that last saw each) and the bodies of their webhook events
 * (docs/MONITORS.md). A check is a crawl: its frontier lives in its Crawl DO, which reports to
 * the account's crawls store; that store hands a monitor check's progress here (`checkProgress`,
 * wired in src/account-do/features.ts), in the same transaction.
 */
import { RpcTarget } from "cloudflare:workers";
import type {
  CheckPage,
  CheckPageStatus,
  CheckView,
  MonitorSettings,
} from "../../schemas/monitors";
import { MONITOR } from "../../schemas/limits";
import type { PlanId } from "../accounts/plans";
import type { AccountDb } from "../accounts/store";
import type { ListQuery, Page } from "../jobs/store/read";
import { page } from "../jobs/store/read";
import { nextCheckAt } from "./schedule";
import {
  type CheckedPage,
  checkRow,
  checkView,
  type CheckRow,
  EMPTY,
  FINAL,
  forgetCheck,
  lastCheck,
  recordPage,
} from "./checks";
import type { MonitorCheckMessage } from "./queue-message";

/**
 * A monitor as stored; the view (./views.ts) adds its feed URL. Its settings travel as their
 * JSON (`readSettings`): tuples (headers) do not survive RPC's types.
 */
export interface MonitorRecord {
  monitorId: string;
  name: string | null;
  url: string;
  settings: string;
  origin: string;
  paused: boolean;
  nextCheckAt: number | null;
  createdAt: number;
  updatedAt: number;
  lastCheck: CheckView | null;
}

interface MonitorRow extends Record<string, SqlStorageValue> {
  seq: number;
  monitor_id: string;
  name: string | null;
  url: string;
  settings: string;
  origin: string;
  paused: number;
  next_check_at: number | null;
  created_at: number;
  updated_at: number;
}

function record(sql: SqlStorage, row: MonitorRow): MonitorRecord {
  return {
    monitorId: row.monitor_id,
    name: row.name,
    url: row.url,
    settings: row.settings,
    origin: row.origin,
    paused: row.paused === 1,
    nextCheckAt: row.next_check_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastCheck: lastCheck(sql, row.monitor_id),
  };
}

/** A monitor's settings from their stored JSON (written from a validated request). */
export function readSettings(json: string): MonitorSettings {
  return JSON.parse(json) as MonitorSettings;
}

function monitorRow(sql: SqlStorage, monitorId: string): MonitorRow | undefined {
  return sql
    .exec<MonitorRow>("SELECT * FROM monitors WHERE monitor_id = ?", monitorId)
    .toArray()[0];
}

export interface NewMonitor {
  monitorId: string;
  name: string | null;
  url: string;
  /** JSON of the settings (as MonitorRecord's). */
  settings: string;
  origin: string;
  paused: boolean;
}

export type CheckAdmission =
  | { ok: true; monitor: MonitorRecord; baseline: boolean; plan: PlanId }
  | { ok: false; reason: "not_found" | "busy" };

export class MonitorsStore extends RpcTarget {
  constructor(private readonly db: AccountDb) {
    super();
  }

  /**
   * A new monitor, unless the plan's monitors are all taken. Its first check is due now: the
   * alarm starts it.
   */
  async create(
    input: NewMonitor,
  ): Promise<{ ok: true; monitor: MonitorRecord } | { ok: false; cap: number }> {
    const { plan } = this.db.account();
    const created = this.db.tx(({ sql, now }) => {
      const n = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM monitors").one().n;
      if (n >= plan.monitorCount) return { ok: false as const, cap: plan.monitorCount };
      sql.exec(
        `INSERT INTO monitors (monitor_id, name, url, settings, origin, paused, next_check_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        input.monitorId,
        input.name,
        input.url,
        input.settings,
        input.origin,
        input.paused ? 1 : 0,
        input.paused ? null : now,
        now,
        now,
      );
      return {
        ok: true as const,
        monitor: record(sql, monitorRow(sql, input.monitorId) as MonitorRow),
      };
    });
    if (created.ok) await this.db.rearm();
    return created;
  }

  get(monitorId: string): MonitorRecord | null {
    const row = monitorRow(this.db.sql, monitorId);
    return row ? record(this.db.sql, row) : null;
  }

  list(query: ListQuery): Page<MonitorRecord> {
    const where: string[] = [];
    const args: SqlStorageValue[] = [];
    if (query.status !== null) where.push(query.status === "paused" ? "paused = 1" : "paused = 0");
    if (query.before !== null) {
      where.push("seq < ?");
      args.push(query.before);
    }
    const clause = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
    const rows = this.db.sql
      .exec<MonitorRow>(
        `SELECT * FROM monitors ${clause} ORDER BY seq DESC LIMIT ?`,
        ...args,
        query.limit + 1,
      )
      .toArray();
    return page(rows, query.limit, (row) => record(this.db.sql, row));
  }

  /**
   * New settings, name or paused state. Resuming (or a new schedule) sets the next check from
   * now by the schedule; pausing clears it.
   */
  async update(
    monitorId: string,
    change: { name?: string | null; settings?: string; paused?: boolean },
  ): Promise<MonitorRecord | null> {
    const updated = this.db.tx(({ sql, now }) => {
      const row = monitorRow(sql, monitorId);
      if (!row) return null;
      const settings = readSettings(change.settings ?? row.settings);
      const paused = change.paused ?? row.paused === 1;
      const rescheduled = change.settings !== undefined || (row.paused === 1 && !paused);
      const next = paused
        ? null
        : rescheduled || row.next_check_at === null
          ? nextCheckAt(
              settings.schedule ?? { intervalMinutes: MONITOR.intervalMinutes.default },
              now,
            )
          : row.next_check_at;
      sql.exec(
        "UPDATE monitors SET name = ?, settings = ?, paused = ?, next_check_at = ?, updated_at = ? WHERE monitor_id = ?",
        change.name !== undefined ? change.name : row.name,
        JSON.stringify(settings),
        paused ? 1 : 0,
        next,
        now,
        monitorId,
      );
      return record(sql, monitorRow(sql, monitorId) as MonitorRow);
    });
    await this.db.rearm();
    return updated;
  }

  /**
   * Deletes the monitor and everything the account keeps of it; its checks' Crawl DOs expire
   * alone. Returns the checks still queued or running (the caller cancels their crawls), or
   * null when there is no such monitor.
   */
  remove(monitorId: string): string[] | null {
    return this.db.tx(({ sql }) => {
      if (!monitorRow(sql, monitorId)) return null;
      const checks = sql
        .exec<{ check_id: string; status: string }>(
          "SELECT check_id, status FROM monitor_checks WHERE monitor_id = ?",
          monitorId,
        )
        .toArray();
      for (const { check_id } of checks) forgetCheck(sql, check_id);
      sql.exec("DELETE FROM monitor_pages WHERE monitor_id = ?", monitorId);
      sql.exec("DELETE FROM monitors WHERE monitor_id = ?", monitorId);
      return checks.filter((c) => !FINAL.has(c.status)).map((c) => c.check_id);
    });
  }

  /** A check about to start: one at a time per monitor. `baseline`: no check completed before. */
  beginCheck(monitorId: string, checkId: string, trigger: CheckView["trigger"]): CheckAdmission {
    const { plan } = this.db.account();
    return this.db.tx(({ sql, now }): CheckAdmission => {
      const row = monitorRow(sql, monitorId);
      if (!row) return { ok: false, reason: "not_found" };
      const busy = sql
        .exec<{ n: number }>(
          "SELECT COUNT(*) AS n FROM monitor_checks WHERE monitor_id = ? AND status IN ('queued', 'running')",
          monitorId,
        )
        .one().n;
      if (busy > 0) return { ok: false, reason: "busy" };
      const before = sql
        .exec<{ n: number }>(
          "SELECT COUNT(*) AS n FROM monitor_checks WHERE monitor_id = ? AND status = 'completed'",
          monitorId,
        )
        .one().n;
      sql.exec(
        `INSERT INTO monitor_checks (check_id, monitor_id, trigger, status, counts, baseline, created_at)
         VALUES (?, ?, ?, 'queued', ?, ?, ?)`,
        checkId,
        monitorId,
        trigger,
        JSON.stringify(EMPTY),
        before === 0 ? 1 : 0,
        now,
      );
      return { ok: true, monitor: record(sql, row), baseline: before === 0, plan: plan.id };
    });
  }

  /** A check that could not start after all (its crawl was not admitted): as if never begun. */
  dropCheck(checkId: string): void {
    this.db.tx(({ sql }) => forgetCheck(sql, checkId));
  }

  /**
   * A page of a running check, once (a duplicate report changes nothing): counted, kept unless
   * unchanged, its event emitted, and the baseline index told the page was seen (or, removed,
   * forgotten). Returns the webhook deliveries to queue.
   */
  pageChecked(checkId: string, checked: CheckedPage, removed: boolean): string[] {
    return this.db.tx((tx) => recordPage(tx, checkId, checked, removed));
  }

  checks(monitorId: string, query: ListQuery): Page<CheckView> | null {
    if (!monitorRow(this.db.sql, monitorId)) return null;
    const where = ["monitor_id = ?"];
    const args: SqlStorageValue[] = [monitorId];
    if (query.status !== null) {
      where.push("status = ?");
      args.push(query.status);
    }
    if (query.before !== null) {
      where.push("seq < ?");
      args.push(query.before);
    }
    const rows = this.db.sql
      .exec<CheckRow>(
        `SELECT * FROM monitor_checks WHERE ${where.join(" AND ")} ORDER BY seq DESC LIMIT ?`,
        ...args,
        query.limit + 1,
      )
      .toArray();
    return page(rows, query.limit, checkView);
  }

  check(monitorId: string, checkId: string): CheckView | null {
    const row = checkRow(this.db.sql, checkId);
    return row && row.monitor_id === monitorId ? checkView(row) : null;
  }

  /** A check's pages that were not unchanged, in the order they were checked (`after`: a seq). */
  checkPages(
    checkId: string,
    query: { status: CheckPageStatus | null; after: number; limit: number },
  ): { pages: CheckPage[]; next: number | null } {
    const args: SqlStorageValue[] = [checkId, query.after];
    let filter = "";
    if (query.status !== null) {
      filter = " AND status = ?";
      args.push(query.status);
    }
    const rows = this.db.sql
      .exec<{ seq: number; body: string }>(
        `SELECT seq, body FROM monitor_check_pages WHERE check_id = ? AND seq > ?${filter} ORDER BY seq LIMIT ?`,
        ...args,
        query.limit + 1,
      )
      .toArray();
    const more = rows.length > query.limit;
    const kept = rows.slice(0, query.limit);
    return {
      pages: kept.map((r) => JSON.parse(r.body) as CheckPage),
      next: more ? (kept[kept.length - 1]?.seq ?? null) : null,
    };
  }

  /** The newest pages that were not unchanged across the monitor's checks, for its feed. */
  feed(monitorId: string): Array<{ checkId: string; checkedAt: number; page: CheckPage }> | null {
    if (!monitorRow(this.db.sql, monitorId)) return null;
    return this.db.sql
      .exec<{ check_id: string; created_at: number; body: string }>(
        `SELECT p.check_id, c.created_at, p.body FROM monitor_check_pages p
         JOIN monitor_checks c ON c.check_id = p.check_id
         WHERE c.monitor_id = ? AND c.baseline = 0 ORDER BY p.seq DESC LIMIT ?`,
        monitorId,
        MONITOR.feedEntries,
      )
      .toArray()
      .map((r) => ({
        checkId: r.check_id,
        checkedAt: r.created_at,
        page: JSON.parse(r.body) as CheckPage,
      }));
  }

  /**
   * The alarm's part: every due monitor's next time set, and the messages that start their
   * checks (src/monitors/check.ts, from the queue). Returns the messages to send.
   */
  due(accountId: string): MonitorCheckMessage[] {
    return this.db.tx(({ sql, now }) => {
      const rows = sql
        .exec<MonitorRow>(
          "SELECT * FROM monitors WHERE paused = 0 AND next_check_at IS NOT NULL AND next_check_at <= ? ORDER BY next_check_at LIMIT 100",
          now,
        )
        .toArray();
      return rows.map((row) => {
        const settings = JSON.parse(row.settings) as MonitorSettings;
        const first = row.next_check_at === row.created_at;
        sql.exec(
          "UPDATE monitors SET next_check_at = ? WHERE monitor_id = ?",
          nextCheckAt(
            settings.schedule ?? { intervalMinutes: MONITOR.intervalMinutes.default },
            now,
          ),
          row.monitor_id,
        );
        return {
          kind: "monitor-check" as const,
          accountId,
          monitorId: row.monitor_id,
          trigger: first ? ("created" as const) : ("schedule" as const),
        };
      });
    });
  }
}

/** When the monitor schedule next needs the alarm. */
export function nextMonitorDue(sql: SqlStorage): number | null {
  return sql
    .exec<{ at: number | null }>("SELECT MIN(next_check_at) AS at FROM monitors WHERE paused = 0")
    .one().at;
}
