/**
 * A monitor's checks in the Account DO (./store.ts composes them into `account.monitors()`): a
 * check's row and counters, each page a renderer reports (once), the check's end as its crawl
 * reports it (`checkProgress`, handed on by the crawls store in its transaction: the pages the
 * monitor knew that the check did not see are removed), and the bodies of their webhook events.
 */
import type { CrawlSummary } from "../../schemas/crawl";
import type {
  CheckCounts,
  CheckPage,
  CheckPageStatus,
  CheckView,
  MonitorEvent,
  MonitorSettings,
} from "../../schemas/monitors";
import type { AccountTx } from "../accounts/store";
import { emitWebhook } from "../webhooks/store/deliveries";

export interface CheckRow extends Record<string, SqlStorageValue> {
  seq: number;
  check_id: string;
  monitor_id: string;
  trigger: CheckView["trigger"];
  status: CheckView["status"];
  stopped_by: NonNullable<CheckView["stoppedBy"]> | null;
  counts: string;
  credits_used: number;
  baseline: number;
  created_at: number;
  completed_at: number | null;
}

export const EMPTY: CheckCounts = { new: 0, removed: 0, changed: 0, unchanged: 0, failed: 0 };
export const FINAL: ReadonlySet<string> = new Set(["completed", "cancelled", "failed"]);
const PAGE_EVENTS: Partial<Record<CheckPageStatus, MonitorEvent>> = {
  new: "monitor.page.new",
  removed: "monitor.page.removed",
  changed: "monitor.page.changed",
  failed: "monitor.page.failed",
};

/** The check's counters as stored: its page counts, and `identical` (unchanged by hash alone). */
type StoredCounts = CheckCounts & { identical?: number };

export function checkView(row: CheckRow): CheckView {
  const { identical, ...counts } = JSON.parse(row.counts) as StoredCounts;
  return {
    checkId: row.check_id,
    monitorId: row.monitor_id,
    trigger: row.trigger,
    status: row.status,
    ...(row.stopped_by ? { stoppedBy: row.stopped_by } : {}),
    counts,
    identical: identical ?? 0,
    creditsUsed: row.credits_used,
    baseline: row.baseline === 1,
    createdAt: new Date(row.created_at).toISOString(),
    ...(row.completed_at !== null ? { completedAt: new Date(row.completed_at).toISOString() } : {}),
  };
}

export function lastCheck(sql: SqlStorage, monitorId: string): CheckView | null {
  const row = sql
    .exec<CheckRow>(
      "SELECT * FROM monitor_checks WHERE monitor_id = ? ORDER BY seq DESC LIMIT 1",
      monitorId,
    )
    .toArray()[0];
  return row ? checkView(row) : null;
}

export function checkRow(sql: SqlStorage, checkId: string): CheckRow | undefined {
  return sql
    .exec<CheckRow>("SELECT * FROM monitor_checks WHERE check_id = ?", checkId)
    .toArray()[0];
}

/** A page of a check as its renderer reports it (src/monitors/page.ts). */
export interface CheckedPage {
  url: string;
  status: Exclude<CheckPageStatus, "removed">;
  body: CheckPage;
  /** Unchanged by hash alone: its capture byte-identical to the baseline's. */
  identical?: boolean;
}

/**
 * A page of a running check, once (a duplicate report changes nothing): counted, kept unless
 * unchanged, its event emitted, and the baseline index told the page was seen (or, removed,
 * forgotten). Returns the webhook deliveries to queue.
 */
export function recordPage(
  tx: AccountTx,
  checkId: string,
  checked: CheckedPage,
  removed: boolean,
): string[] {
  const { sql, now } = tx;
  const check = checkRow(sql, checkId);
  if (!check || FINAL.has(check.status)) return [];
  const monitorId = check.monitor_id;
  const seen = sql
    .exec<{ seen_check: string }>(
      "SELECT seen_check FROM monitor_pages WHERE monitor_id = ? AND url = ?",
      monitorId,
      checked.url,
    )
    .toArray()[0];
  const status: CheckPageStatus = removed ? "removed" : checked.status;
  if (status === "unchanged") {
    if (seen?.seen_check === checkId) return [];
  } else {
    sql.exec(
      "INSERT OR IGNORE INTO monitor_check_pages (check_id, url, status, body) VALUES (?, ?, ?, ?)",
      checkId,
      checked.url,
      status,
      JSON.stringify({ ...checked.body, status }),
    );
    if (sql.exec<{ n: number }>("SELECT changes() AS n").one().n === 0) return [];
  }
  if (removed)
    sql.exec("DELETE FROM monitor_pages WHERE monitor_id = ? AND url = ?", monitorId, checked.url);
  else
    sql.exec(
      `INSERT INTO monitor_pages (monitor_id, url, seen_check) VALUES (?, ?, ?)
         ON CONFLICT (monitor_id, url) DO UPDATE SET seen_check = excluded.seen_check`,
      monitorId,
      checked.url,
      checkId,
    );
  bump(sql, check, status, 1);
  if (checked.identical) bump(sql, check, "identical", 1);
  const event = PAGE_EVENTS[status];
  if (!event) return [];
  const delivery = emit(sql, now, monitorId, checkId, `${checkId}:${checked.url}`, event, {
    monitorId,
    checkId,
    page: { ...checked.body, status },
  });
  return delivery ? [delivery] : [];
}

function bump(sql: SqlStorage, check: CheckRow, key: keyof StoredCounts, by: number): void {
  const row = checkRow(sql, check.check_id) ?? check;
  const counts = JSON.parse(row.counts) as StoredCounts;
  counts[key] = (counts[key] ?? 0) + by;
  sql.exec(
    "UPDATE monitor_checks SET counts = ? WHERE check_id = ?",
    JSON.stringify(counts),
    check.check_id,
  );
}

function emit(
  sql: SqlStorage,
  now: number,
  monitorId: string,
  checkId: string,
  subjectId: string,
  event: MonitorEvent,
  body: Record<string, unknown>,
): string | null {
  const monitor = sql
    .exec<{ settings: string }>("SELECT settings FROM monitors WHERE monitor_id = ?", monitorId)
    .toArray()[0];
  if (!monitor) return null;
  const settings = JSON.parse(monitor.settings) as MonitorSettings;
  const events = settings.webhookEvents ?? ["monitor.check.completed"];
  if (settings.webhookUrl === undefined || !events.includes(event)) return null;
  sql.exec(
    "INSERT OR IGNORE INTO monitor_events (subject_id, monitor_id, check_id, body) VALUES (?, ?, ?, ?)",
    subjectId,
    monitorId,
    checkId,
    JSON.stringify({ event, ...body }),
  );
  return emitWebhook(sql, { kind: "monitor", id: subjectId, event, url: settings.webhookUrl, now });
}

/**
 * A monitor check's crawl reported progress (the crawls store, in its transaction): the check's
 * status follows it; at its end, the pages the monitor knew that this check did not see are
 * removed — when the check ran out of pages, not when a limit, the credits or a cancel stopped
 * it — and its summary event is emitted. Returns the webhook deliveries to queue.
 */
export function checkProgress(tx: AccountTx, summary: CrawlSummary): string[] {
  const { sql, now } = tx;
  const check = checkRow(sql, summary.crawlId);
  if (!check || FINAL.has(check.status)) return [];
  const deliveries: string[] = [];
  const final = FINAL.has(summary.status);
  if (final && summary.status === "completed" && summary.stoppedBy === undefined) {
    const gone = sql
      .exec<{ url: string }>(
        "SELECT url FROM monitor_pages WHERE monitor_id = ? AND seen_check != ?",
        check.monitor_id,
        check.check_id,
      )
      .toArray();
    for (const { url } of gone) {
      const body: CheckPage = { url, status: "removed" };
      sql.exec(
        "INSERT OR IGNORE INTO monitor_check_pages (check_id, url, status, body) VALUES (?, ?, 'removed', ?)",
        check.check_id,
        url,
        JSON.stringify(body),
      );
      sql.exec("DELETE FROM monitor_pages WHERE monitor_id = ? AND url = ?", check.monitor_id, url);
      bump(sql, check, "removed", 1);
      const id = emit(
        sql,
        now,
        check.monitor_id,
        check.check_id,
        `${check.check_id}:${url}`,
        "monitor.page.removed",
        {
          monitorId: check.monitor_id,
          checkId: check.check_id,
          page: body,
        },
      );
      if (id) deliveries.push(id);
    }
  }
  sql.exec(
    "UPDATE monitor_checks SET status = ?, stopped_by = ?, credits_used = ?, completed_at = ? WHERE check_id = ?",
    summary.status,
    summary.stoppedBy ?? null,
    summary.creditsUsed,
    final ? now : null,
    check.check_id,
  );
  if (final) {
    const done = checkRow(sql, check.check_id) as CheckRow;
    const view = checkView(done);
    const changed = sql
      .exec<{ body: string }>(
        "SELECT body FROM monitor_check_pages WHERE check_id = ? ORDER BY seq LIMIT 100",
        check.check_id,
      )
      .toArray()
      .map((r) => {
        const p = JSON.parse(r.body) as CheckPage;
        return { url: p.url, status: p.status };
      });
    const id = emit(
      sql,
      now,
      check.monitor_id,
      check.check_id,
      check.check_id,
      "monitor.check.completed",
      {
        monitorId: check.monitor_id,
        check: view,
        pages: changed,
      },
    );
    if (id) deliveries.push(id);
  }
  return deliveries;
}

/** A check past its retention, or of a deleted monitor: its rows and events go. */
export function forgetCheck(sql: SqlStorage, checkId: string): void {
  sql.exec("DELETE FROM monitor_events WHERE check_id = ?", checkId);
  sql.exec("DELETE FROM monitor_check_pages WHERE check_id = ?", checkId);
  sql.exec("DELETE FROM monitor_checks WHERE check_id = ?", checkId);
}

/** A monitor event's stored body (the Account DO's webhook deliveries send it), or null. */
export function monitorEventBody(
  sql: SqlStorage,
  subjectId: string,
): Record<string, unknown> | null {
  const row = sql
    .exec<{ body: string }>("SELECT body FROM monitor_events WHERE subject_id = ?", subjectId)
    .toArray()[0];
  return row ? (JSON.parse(row.body) as Record<string, unknown>) : null;
}
