/**
 * Retention of watch runs: runs past `retention.runs` or `retention.days` are deleted (never the
 * baseline's run), as are all of a deleted watch's, and their R2 keys handed back for the caller
 * to delete.
 */
import { alertSubject, type RunRow } from "./runs-read";
import { watchRow } from "./watches";

const runKeys = (r: Pick<RunRow, "image_key" | "diff_key" | "text_key">): string[] =>
  [r.image_key, r.diff_key, r.text_key].filter((k): k is string => k !== null);

/**
 * Deletes the watch's finished runs past its retention (count, then age), except the run that
 * holds the baseline; returns their R2 keys.
 */
export function applyRetention(sql: SqlStorage, watchId: string, now: number): string[] {
  const watch = watchRow(sql, watchId);
  if (!watch) return [];
  const oldest = now - watch.retention_days * 86_400_000;
  const removed = sql
    .exec<RunRow>(
      `DELETE FROM watch_runs WHERE watch_id = ? AND id != ? AND status IN ('completed', 'failed', 'skipped')
         AND (created_at < ? OR seq NOT IN
           (SELECT seq FROM watch_runs WHERE watch_id = ? ORDER BY seq DESC LIMIT ?))
       RETURNING *`,
      watchId,
      watch.baseline_run_id ?? "",
      oldest,
      watchId,
      watch.retention_runs,
    )
    .toArray();
  for (const r of removed) forgetDeliveries(sql, r.id);
  return removed.flatMap(runKeys);
}

/** Deletes a watch and its runs; returns their R2 keys (null when unknown). */
export function deleteWatch(sql: SqlStorage, watchId: string): string[] | null {
  const gone = sql.exec("DELETE FROM watches WHERE id = ? RETURNING id", watchId).toArray();
  if (gone.length === 0) return null;
  const runs = sql
    .exec<RunRow>("DELETE FROM watch_runs WHERE watch_id = ? RETURNING *", watchId)
    .toArray();
  for (const r of runs) forgetDeliveries(sql, r.id);
  return runs.flatMap(runKeys);
}

/** A removed run's webhook deliveries, under each of its subjects. */
function forgetDeliveries(sql: SqlStorage, runId: string): void {
  sql.exec(
    "DELETE FROM webhook_deliveries WHERE subject_kind = 'run' AND subject_id IN (?, ?)",
    runId,
    alertSubject(runId),
  );
}
