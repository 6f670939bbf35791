/**
 * Watch runs in the Account DO (docs/WATCHES.md). A run is admitted exactly like an async job
 * (src/jobs/store/admit.ts: a slot, a credit reservation, a `queued` job row) and recorded beside it; an
 * account with no credit or no free slot gets a `skipped` run that costs nothing. The job's
 * guarded transitions settle the credit (finishJob), so a run is charged once, when it
 * completes. A failed run never moves the baseline; the 5th failure in a row pauses the watch.
 * A finished run applies the watch's retention (./retention.ts).
 */
import { LIMITS } from "../../../schemas/limits";
import type { ChangeDetection, RunOutcome, RunTrigger } from "../../../schemas/watches";
import { TUNING } from "../../tuning";
import { type AdmitResult, admitJobs } from "../../jobs/store/admit";
import type { AccountTx } from "../../accounts/store";
import { finishJob } from "../../jobs/store/transitions";
import { emitWebhook } from "../../webhooks/store/deliveries";
import type { ResultMeta } from "../../jobs/store/read";
import { alertSubject, type RunRow } from "./runs-read";
import { applyRetention } from "./retention";
import { pauseWatch, storedChangeDetection, type WatchRow, watchRow } from "./watches";

export type RunAdmission =
  | { ok: true; watchId: string; runId: string; jobId: string }
  | { ok: false; watchId: string; runId: string; reason: string; cause: SkipCause };

/** Why a run was skipped: no credit, no free job slot, or its message could not be queued. */
export type SkipCause = "credits" | "queue_limit" | "queue";

function skipReason(result: Extract<AdmitResult, { ok: false }>): string {
  return result.reason === "credits"
    ? "Skipped: no credits left this month."
    : `Skipped: ${result.limit} async jobs were already queued or processing.`;
}

/** Admits one run of `watch` now (a job, its slot and credit) or records it skipped. */
export function admitRun(store: AccountTx, watch: WatchRow, trigger: RunTrigger): RunAdmission {
  const { sql, now } = store;
  const runId = crypto.randomUUID();
  const jobId = crypto.randomUUID();
  const admitted = admitJobs(store, {
    jobs: [{ id: jobId, url: watch.url, format: "png" }],
    batchId: null,
    webhookUrl: null,
    reservationTtlMs: TUNING.jobReservationTtlMs,
  });
  if (!admitted.ok) {
    const reason = skipReason(admitted);
    sql.exec(
      `INSERT INTO watch_runs (id, watch_id, status, trigger, error, created_at, completed_at)
       VALUES (?, ?, 'skipped', ?, ?, ?, ?)`,
      runId,
      watch.id,
      trigger,
      reason,
      now,
      now,
    );
    return { ok: false, watchId: watch.id, runId, reason, cause: admitted.reason };
  }
  sql.exec(
    `INSERT INTO watch_runs (id, watch_id, job_id, status, trigger, created_at)
     VALUES (?, ?, ?, 'queued', ?, ?)`,
    runId,
    watch.id,
    jobId,
    trigger,
    now,
  );
  sql.exec("UPDATE watches SET last_run_at = ? WHERE id = ?", now, watch.id);
  return { ok: true, watchId: watch.id, runId, jobId };
}

/** A run whose message could not be queued: the job is undone (credit refunded) and the run skipped. */
export function unqueueRun(sql: SqlStorage, runId: string): void {
  sql.exec(
    "UPDATE watch_runs SET status = 'skipped', error = ?, job_id = NULL WHERE id = ? AND status = 'queued'",
    "Skipped: the run could not be queued.",
    runId,
  );
}

/**
 * Every active watch due at `now` gets one run, and its next time: one interval after the one
 * it was due at — or, when that is already past (the object was idle, a deploy), one interval
 * from now. So a missed window gives one catch-up run, never a replay of each missed one.
 */
export function admitDueRuns(store: AccountTx): RunAdmission[] {
  const { sql, now } = store;
  const due = sql
    .exec<WatchRow>(
      "SELECT * FROM watches WHERE status = 'active' AND next_run_at <= ? ORDER BY next_run_at",
      now,
    )
    .toArray();
  return due.map((watch) => {
    const step = watch.interval_minutes * 60_000;
    const planned = (watch.next_run_at ?? now) + step;
    sql.exec(
      "UPDATE watches SET next_run_at = ? WHERE id = ?",
      planned > now ? planned : now + step,
      watch.id,
    );
    return admitRun(store, watch, "schedule");
  });
}

/** The earliest `next_run_at` of an active watch, or null when none is scheduled. */
export function nextWatchDue(sql: SqlStorage): number | null {
  return sql
    .exec<{
      next: number | null;
    }>("SELECT MIN(next_run_at) AS next FROM watches WHERE status = 'active'")
    .one().next;
}

/** What the consumer needs to run and compare a watch's job. */
export interface RunContext {
  watchId: string;
  runId: string;
  url: string;
  spec: string;
  changeDetection: ChangeDetection;
  origin: string;
  retentionDays: number;
  intervalMinutes: number;
  storage: string | null;
  /** The last good run: its image (and text, and fields as JSON) to compare with. */
  baseline: {
    runId: string;
    imageKey: string;
    imageUrl: string;
    textKey: string | null;
    fields: string | null;
  } | null;
}

export function runContext(sql: SqlStorage, jobId: string, now: number): RunContext | null {
  const run = sql.exec<RunRow>("SELECT * FROM watch_runs WHERE job_id = ?", jobId).toArray()[0];
  if (!run) return null;
  const watch = watchRow(sql, run.watch_id);
  if (!watch) return null;
  sql.exec(
    "UPDATE watch_runs SET status = 'processing', started_at = COALESCE(started_at, ?) WHERE id = ? AND status IN ('queued', 'processing')",
    now,
    run.id,
  );
  const base =
    watch.baseline_run_id === null
      ? undefined
      : sql
          .exec<RunRow>("SELECT * FROM watch_runs WHERE id = ?", watch.baseline_run_id)
          .toArray()[0];
  return {
    watchId: watch.id,
    runId: run.id,
    url: watch.url,
    spec: watch.spec,
    changeDetection: storedChangeDetection(watch.change_detection),
    origin: watch.origin,
    retentionDays: watch.retention_days,
    intervalMinutes: watch.interval_minutes,
    storage: watch.storage,
    baseline:
      base?.image_key && base.image_url
        ? {
            runId: base.id,
            imageKey: base.image_key,
            imageUrl: base.image_url,
            textKey: base.text_key,
            fields: base.fields,
          }
        : null,
  };
}

export type RunResult =
  | {
      status: "completed";
      outcome: Exclude<RunOutcome, "error">;
      changedPercent: number | null;
      imageKey: string;
      imageUrl: string;
      diffKey: string | null;
      diffUrl: string | null;
      previousImageUrl: string | null;
      textKey: string | null;
      textDiff: { added: string[]; removed: string[] } | null;
      /** The fields read (JSON, src/extract/fields.ts FieldValues), and the alerts fired (JSON). */
      fields: string | null;
      alerts: string | null;
      meta: ResultMeta;
    }
  | { status: "failed"; error: string; detail?: string | null };

export interface RunFinish {
  changed: boolean;
  webhooks: string[];
  /** R2 keys of runs removed by retention. */
  deleteKeys: string[];
}

/** processing → completed | failed for the run and its job, in one transaction. */
export function finishRun(store: AccountTx, jobId: string, result: RunResult): RunFinish {
  const { sql, now } = store;
  const done = result.status === "completed";
  const job = finishJob(
    store,
    jobId,
    done
      ? { status: "completed", resultUrl: result.imageUrl, meta: result.meta }
      : { status: "failed", error: result.error, detail: result.detail ?? null },
  );
  if (!job.changed) return { changed: false, webhooks: [], deleteKeys: [] };
  const run = sql.exec<RunRow>("SELECT * FROM watch_runs WHERE job_id = ?", jobId).toArray()[0];
  if (!run) return { changed: true, webhooks: job.webhooks, deleteKeys: [] };
  const watch = watchRow(sql, run.watch_id);
  const webhooks = [...job.webhooks];
  if (done) {
    sql.exec(
      `UPDATE watch_runs SET status = 'completed', outcome = ?, changed_percent = ?, image_key = ?,
         image_url = ?, diff_key = ?, diff_url = ?, previous_image_url = ?, text_key = ?,
         text_diff = ?, fields = ?, alerts = ?, completeness = ?, completed_at = ? WHERE id = ?`,
      result.outcome,
      result.changedPercent,
      result.imageKey,
      result.imageUrl,
      result.diffKey,
      result.diffUrl,
      result.previousImageUrl,
      result.textKey,
      result.textDiff === null ? null : JSON.stringify(result.textDiff),
      result.fields,
      result.alerts,
      result.meta.completeness ? JSON.stringify(result.meta.completeness) : null,
      now,
      run.id,
    );
    if (watch) {
      sql.exec(
        `UPDATE watches SET baseline_run_id = ?, consecutive_failures = 0,
           last_change_at = CASE WHEN ? THEN ? ELSE last_change_at END WHERE id = ?`,
        run.id,
        result.outcome === "changed" ? 1 : 0,
        now,
        watch.id,
      );
      if (result.outcome === "changed" && watch.webhook_url !== null) {
        const id = emitWebhook(sql, {
          kind: "run",
          id: run.id,
          event: "watch.changed",
          url: watch.webhook_url,
          now,
        });
        if (id) webhooks.push(id);
      }
      if (result.alerts !== null && watch.webhook_url !== null) {
        const id = emitWebhook(sql, {
          kind: "run",
          id: alertSubject(run.id),
          event: "watch.alert",
          url: watch.webhook_url,
          now,
        });
        if (id) webhooks.push(id);
      }
    }
  } else {
    sql.exec(
      "UPDATE watch_runs SET status = 'failed', outcome = 'error', error = ?, error_detail = ?, completed_at = ? WHERE id = ?",
      result.error,
      result.detail ?? null,
      now,
      run.id,
    );
    if (watch) {
      const failures = watch.consecutive_failures + 1;
      sql.exec("UPDATE watches SET consecutive_failures = ? WHERE id = ?", failures, watch.id);
      const pause = failures >= LIMITS.watchMaxConsecutiveFailures && watch.status === "active";
      if (pause) {
        pauseWatch(
          sql,
          watch.id,
          `Paused after ${failures} failed runs in a row; the last one: ${result.error}`,
        );
      }
      sql.exec(
        "UPDATE watch_runs SET failures_after = ?, paused_after = ? WHERE id = ?",
        failures,
        pause || watch.status === "paused" ? 1 : 0,
        run.id,
      );
      if (watch.webhook_url !== null) {
        const id = emitWebhook(sql, {
          kind: "run",
          id: run.id,
          event: "watch.failed",
          url: watch.webhook_url,
          now,
        });
        if (id) webhooks.push(id);
      }
    }
  }
  const deleteKeys = watch ? applyRetention(sql, watch.id, now) : [];
  return { changed: true, webhooks, deleteKeys };
}
