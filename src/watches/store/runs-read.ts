/**
 * Reading watch runs back (GET /v1/watches/:id/runs, webhook bodies): rows → the Run shape.
 * Listings are newest first by `seq`, paged by the last seq seen.
 */
import type { RunOutcome, RunStatus, RunTrigger, WatchRunView } from "../../../schemas/watches";
import type { RunEventSubject } from "../../webhooks/events";
import { type ListQuery, type Page, page } from "../../jobs/store/read";
import { watchRow } from "./watches";
import { isoOrNull } from "../../encoding";

export interface RunRow extends Record<string, SqlStorageValue> {
  seq: number;
  id: string;
  watch_id: string;
  job_id: string | null;
  status: RunStatus;
  outcome: RunOutcome | null;
  trigger: RunTrigger;
  changed_percent: number | null;
  image_key: string | null;
  image_url: string | null;
  diff_key: string | null;
  diff_url: string | null;
  previous_image_url: string | null;
  text_key: string | null;
  text_diff: string | null;
  error: string | null;
  error_detail: string | null;
  fields: string | null;
  alerts: string | null;
  /** How complete its capture was (JSON); null for failed runs and runs before it was kept. */
  completeness: string | null;
  failures_after: number | null;
  paused_after: number | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
}

export function runView(row: RunRow): WatchRunView {
  return {
    id: row.id,
    watchId: row.watch_id,
    jobId: row.job_id,
    status: row.status,
    outcome: row.outcome,
    changedPercent: row.changed_percent,
    imageUrl: row.image_url,
    diffUrl: row.diff_url,
    previousImageUrl: row.previous_image_url,
    ...(row.completeness === null
      ? {}
      : {
          completeness: JSON.parse(row.completeness) as NonNullable<WatchRunView["completeness"]>,
        }),
    ...(row.text_diff === null
      ? {}
      : { textDiff: JSON.parse(row.text_diff) as NonNullable<WatchRunView["textDiff"]> }),
    ...(row.fields === null
      ? {}
      : { fields: JSON.parse(row.fields) as NonNullable<WatchRunView["fields"]> }),
    ...(row.alerts === null
      ? {}
      : { alerts: JSON.parse(row.alerts) as NonNullable<WatchRunView["alerts"]> }),
    error: row.error,
    ...(row.error_detail !== null ? { errorDetail: row.error_detail } : {}),
    startedAt: isoOrNull(row.started_at),
    completedAt: isoOrNull(row.completed_at),
    createdAt: new Date(row.created_at).toISOString(),
    trigger: row.trigger,
  };
}

export function getRun(sql: SqlStorage, runId: string): WatchRunView | null {
  const row = sql.exec<RunRow>("SELECT * FROM watch_runs WHERE id = ?", runId).toArray()[0];
  return row ? runView(row) : null;
}

export function listRuns(sql: SqlStorage, watchId: string, q: ListQuery): Page<WatchRunView> {
  const rows = sql
    .exec<RunRow>(
      `SELECT * FROM watch_runs WHERE watch_id = ? AND (? IS NULL OR status = ?)
         AND (? IS NULL OR seq < ?) ORDER BY seq DESC LIMIT ?`,
      watchId,
      q.status,
      q.status,
      q.before,
      q.before,
      q.limit + 1,
    )
    .toArray();
  return page(rows, q.limit, runView);
}

/**
 * A run has one webhook subject per event it can send: its id (watch.changed or watch.failed),
 * and this one for watch.alert, which a changed run can send too.
 */
const ALERT_SUBJECT = "alert:";
export const alertSubject = (runId: string): string => `${ALERT_SUBJECT}${runId}`;

/**
 * What a run's event body (watch.changed / watch.failed / watch.alert) is built from, by its
 * subject id: fixed once it finished.
 */
export function runEventSubject(sql: SqlStorage, subjectId: string): RunEventSubject | null {
  const runId = subjectId.startsWith(ALERT_SUBJECT)
    ? subjectId.slice(ALERT_SUBJECT.length)
    : subjectId;
  const row = sql.exec<RunRow>("SELECT * FROM watch_runs WHERE id = ?", runId).toArray()[0];
  if (!row) return null;
  const watch = watchRow(sql, row.watch_id);
  if (!watch) return null;
  return {
    run: runView(row),
    url: watch.url,
    consecutiveFailures: row.failures_after ?? 0,
    paused: row.paused_after === 1,
  };
}
