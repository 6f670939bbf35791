/**
 * The `watches` table of the Account DO (docs/WATCHES.md): creating, reading, listing,
 * changing and deleting watches, and the limits checked atomically with each change — the
 * plan's watch count (active plus paused), its interval floor, and at most
 * `LIMITS.watchActivePerSite` ACTIVE watches per registrable domain (`site`, from tldts).
 * Runs, the schedule and retention are runs.ts and schedule.ts.
 */
import { LIMITS } from "../../../schemas/limits";
import type {
  ChangeDetection,
  Retention,
  WatchCapture,
  WatchStatus,
  WatchView,
} from "../../../schemas/watches";
import type { StorageOption } from "../../../schemas/storage";
import { type ListQuery, type Page, page } from "../../jobs/store/read";
import type { Plan } from "../../accounts/plans";
import { isoOrNull } from "../../encoding";

/** A watch as the route prepared it: every input checked, the CaptureSpec built (JSON). */
export interface NewWatch {
  id: string;
  name: string | null;
  url: string;
  /** Registrable domain of `url` (the per-site limit's key). */
  site: string;
  intervalMinutes: number;
  capture: WatchCapture;
  /** The run's CaptureSpec, serialized. */
  spec: string;
  changeDetection: ChangeDetection;
  webhookUrl: string | null;
  retention: Retention;
  paused: boolean;
  storage: StorageOption | null;
  /** Origin of the signed image URLs of its runs. */
  origin: string;
}

export interface WatchChange {
  paused?: boolean;
  intervalMinutes?: number;
  name?: string | null;
  capture?: WatchCapture;
  spec?: string;
  changeDetection?: ChangeDetection;
  webhookUrl?: string | null;
  retention?: Retention;
}

export type WatchRefusal =
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "limit"; limit: number }
  | { ok: false; reason: "host"; site: string; limit: number }
  | { ok: false; reason: "interval"; floor: number };

export type WatchResult = { ok: true; watch: WatchView } | WatchRefusal;

export interface WatchRow extends Record<string, SqlStorageValue> {
  seq: number;
  id: string;
  name: string | null;
  url: string;
  site: string;
  status: WatchStatus;
  paused_reason: string | null;
  interval_minutes: number;
  next_run_at: number | null;
  last_run_at: number | null;
  last_change_at: number | null;
  consecutive_failures: number;
  capture: string;
  spec: string;
  change_detection: string;
  webhook_url: string | null;
  retention_runs: number;
  retention_days: number;
  storage: string | null;
  origin: string;
  baseline_run_id: string | null;
  created_at: number;
}

export function watchView(row: WatchRow): WatchView {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    status: row.status,
    paused: row.status === "paused",
    pausedReason: row.paused_reason,
    intervalMinutes: row.interval_minutes,
    nextRunAt: isoOrNull(row.next_run_at),
    lastRunAt: isoOrNull(row.last_run_at),
    lastChangeAt: isoOrNull(row.last_change_at),
    consecutiveFailures: row.consecutive_failures,
    capture: JSON.parse(row.capture) as WatchCapture,
    changeDetection: storedChangeDetection(row.change_detection),
    webhookUrl: row.webhook_url,
    retention: { runs: row.retention_runs, days: row.retention_days },
    storage: row.storage === null ? null : (JSON.parse(row.storage) as StorageOption),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** A watch's change detection as stored: watches created before field alerts have none. */
export function storedChangeDetection(json: string): ChangeDetection {
  return { alerts: [], ...(JSON.parse(json) as Partial<ChangeDetection>) } as ChangeDetection;
}

export function watchRow(sql: SqlStorage, id: string): WatchRow | null {
  return sql.exec<WatchRow>("SELECT * FROM watches WHERE id = ?", id).toArray()[0] ?? null;
}

const count = (sql: SqlStorage, query: string, ...args: SqlStorageValue[]): number =>
  sql.exec<{ n: number }>(query, ...args).one().n;

function activeOnSite(sql: SqlStorage, site: string, except: string | null): number {
  return count(
    sql,
    "SELECT COUNT(*) AS n FROM watches WHERE site = ? AND status = 'active' AND id != ?",
    site,
    except ?? "",
  );
}

function checkInterval(plan: Plan, minutes: number): WatchRefusal | null {
  return minutes < plan.watchFloorMinutes
    ? { ok: false, reason: "interval", floor: plan.watchFloorMinutes }
    : null;
}

function checkSite(sql: SqlStorage, site: string, except: string | null): WatchRefusal | null {
  return activeOnSite(sql, site, except) >= LIMITS.watchActivePerSite
    ? { ok: false, reason: "host", site, limit: LIMITS.watchActivePerSite }
    : null;
}

export function createWatch(sql: SqlStorage, plan: Plan, w: NewWatch, now: number): WatchResult {
  const refused =
    checkInterval(plan, w.intervalMinutes) ??
    (count(sql, "SELECT COUNT(*) AS n FROM watches") >= plan.watchCount
      ? ({ ok: false, reason: "limit", limit: plan.watchCount } as const)
      : null) ??
    (w.paused ? null : checkSite(sql, w.site, null));
  if (refused) return refused;
  sql.exec(
    `INSERT INTO watches (id, name, url, site, status, interval_minutes, next_run_at, capture, spec,
       change_detection, webhook_url, retention_runs, retention_days, storage, origin, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    w.id,
    w.name,
    w.url,
    w.site,
    w.paused ? "paused" : "active",
    w.intervalMinutes,
    // The first run (the baseline) is due at once.
    w.paused ? null : now,
    JSON.stringify(w.capture),
    w.spec,
    JSON.stringify(w.changeDetection),
    w.webhookUrl,
    w.retention.runs,
    w.retention.days,
    w.storage === null ? null : JSON.stringify(w.storage),
    w.origin,
    now,
  );
  const row = watchRow(sql, w.id);
  if (!row) throw new Error("watch not stored");
  return { ok: true, watch: watchView(row) };
}

export function updateWatch(
  sql: SqlStorage,
  plan: Plan,
  id: string,
  change: WatchChange,
  now: number,
): WatchResult {
  const row = watchRow(sql, id);
  if (!row) return { ok: false, reason: "not_found" };
  const interval = change.intervalMinutes ?? row.interval_minutes;
  const resuming = change.paused === false && row.status === "paused";
  const willBeActive = change.paused === undefined ? row.status === "active" : !change.paused;
  if (change.intervalMinutes !== undefined || resuming) {
    const refused = checkInterval(plan, interval);
    if (refused) return refused;
  }
  if (resuming) {
    const total = count(sql, "SELECT COUNT(*) AS n FROM watches");
    if (total > plan.watchCount) return { ok: false, reason: "limit", limit: plan.watchCount };
    const refused = checkSite(sql, row.site, id);
    if (refused) return refused;
  }
  let next = row.next_run_at;
  if (!willBeActive) next = null;
  else if (resuming) next = now;
  else if (change.intervalMinutes !== undefined && row.last_run_at !== null)
    next = Math.max(now, row.last_run_at + interval * 60_000);
  sql.exec(
    `UPDATE watches SET status = ?, paused_reason = ?, interval_minutes = ?, next_run_at = ?,
       name = ?, capture = ?, spec = ?, change_detection = ?, webhook_url = ?, retention_runs = ?,
       retention_days = ?, consecutive_failures = ? WHERE id = ?`,
    willBeActive ? "active" : "paused",
    change.paused === undefined ? row.paused_reason : null,
    interval,
    next,
    change.name === undefined ? row.name : change.name,
    change.capture === undefined ? row.capture : JSON.stringify(change.capture),
    change.spec ?? row.spec,
    change.changeDetection === undefined
      ? row.change_detection
      : JSON.stringify(change.changeDetection),
    change.webhookUrl === undefined ? row.webhook_url : change.webhookUrl,
    change.retention?.runs ?? row.retention_runs,
    change.retention?.days ?? row.retention_days,
    resuming ? 0 : row.consecutive_failures,
    id,
  );
  const updated = watchRow(sql, id);
  if (!updated) throw new Error("watch vanished");
  return { ok: true, watch: watchView(updated) };
}

/** Pauses a watch with a reason the owner sees (`pausedReason`). */
export function pauseWatch(sql: SqlStorage, id: string, reason: string): void {
  sql.exec(
    "UPDATE watches SET status = 'paused', paused_reason = ?, next_run_at = NULL WHERE id = ? AND status = 'active'",
    reason,
    id,
  );
}

/**
 * After a plan change: active watches beyond the plan's count (the newest first) and those
 * faster than its floor are paused, each saying why.
 */
export function enforceWatchCaps(sql: SqlStorage, plan: Plan): number {
  const rows = sql
    .exec<{ id: string; interval_minutes: number; status: WatchStatus }>(
      "SELECT id, interval_minutes, status FROM watches ORDER BY seq",
    )
    .toArray();
  let paused = 0;
  rows.forEach((row, index) => {
    if (row.status !== "active") return;
    let reason: string | null = null;
    if (index >= plan.watchCount)
      reason = `Paused by the change to the ${plan.name} plan, which allows ${plan.watchCount} watches.`;
    else if (row.interval_minutes < plan.watchFloorMinutes)
      reason = `Paused by the change to the ${plan.name} plan: its shortest interval is ${plan.watchFloorMinutes} minutes.`;
    if (reason === null) return;
    pauseWatch(sql, row.id, reason);
    paused++;
  });
  return paused;
}

export function getWatch(sql: SqlStorage, id: string): WatchView | null {
  const row = watchRow(sql, id);
  return row ? watchView(row) : null;
}

export function listWatches(sql: SqlStorage, q: ListQuery): Page<WatchView> {
  const rows = sql
    .exec<WatchRow>(
      `SELECT * FROM watches WHERE (? IS NULL OR status = ?) AND (? IS NULL OR seq < ?)
       ORDER BY seq DESC LIMIT ?`,
      q.status,
      q.status,
      q.before,
      q.before,
      q.limit + 1,
    )
    .toArray();
  return page(rows, q.limit, watchView);
}
