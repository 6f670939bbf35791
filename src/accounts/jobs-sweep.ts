/**
 * The stuck-job sweep, run by the Account DO's alarm. Redelivery already takes over a job whose
 * attempt died (a later delivery wins its expired lease); this covers jobs whose queue message
 * never comes back — lost, or dropped by a restart — so they would stay `queued`/`processing`
 * forever, holding an active-job slot and a credit reservation.
 *
 * A job is stuck when it has not moved for `stuckAfterMs` (the JOB_STUCK_AFTER_SECONDS setting,
 * src/config.ts) since it was admitted, started or last swept. The first time it is re-enqueued (back to `queued`, so any delivery may start
 * it); the second time it fails with the spec's generic message through the guarded
 * `finishJob`: credit refunded, slot released, its webhooks emitted — exactly once, whoever
 * else races it.
 */
import { MESSAGES } from "../messages";
import type { JobStore } from "./jobs";
import { finishRun } from "./watch-runs";

export interface SweepResult {
  /** Jobs to put back on the capture queue. */
  requeue: string[];
  /** Webhook deliveries the failed jobs emitted, to queue. */
  webhooks: string[];
  /** When the next job could become stuck (the alarm's next time), or null: none active. */
  nextDue: number | null;
}

/** When a job last moved: swept, else started, else admitted. */
const LAST_MOVED = "COALESCE(swept_at, started_at, created_at)";

export function sweepStuckJobs(store: JobStore, stuckAfterMs: number): SweepResult {
  const { sql, now } = store;
  const stuckBefore = now - stuckAfterMs;
  const stuck = sql
    .exec<{ id: string; swept_at: number | null }>(
      `SELECT id, swept_at FROM jobs WHERE status IN ('queued', 'processing')
       AND ${LAST_MOVED} <= ? ORDER BY seq`,
      stuckBefore,
    )
    .toArray();
  const requeue: string[] = [];
  const webhooks: string[] = [];
  for (const job of stuck) {
    if (job.swept_at === null) {
      sql.exec(
        "UPDATE jobs SET status = 'queued', lease = 0, swept_at = ? WHERE id = ?",
        now,
        job.id,
      );
      requeue.push(job.id);
      continue;
    }
    // queued → processing → failed, the legal moves, each guarded.
    sql.exec("UPDATE jobs SET status = 'processing' WHERE id = ? AND status = 'queued'", job.id);
    // finishRun: a watch run's job fails with its run (no run: exactly finishJob).
    const result = finishRun(store, job.id, { status: "failed", error: MESSAGES.captureFailed });
    webhooks.push(...result.webhooks);
  }
  return { requeue, webhooks, nextDue: nextStuckDue(sql, stuckAfterMs) };
}

/** When the next active job could become stuck, or null: none is active. */
export function nextStuckDue(sql: SqlStorage, stuckAfterMs: number): number | null {
  const next = sql
    .exec<{ due: number | null }>(
      `SELECT MIN(${LAST_MOVED}) AS due FROM jobs WHERE status IN ('queued', 'processing')`,
    )
    .one().due;
  return next === null ? null : next + stuckAfterMs;
}
