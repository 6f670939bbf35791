/**
 * The stuck-work sweep, run by the Account DO's alarm. Redelivery already takes over a job whose
 * attempt died (a later delivery wins its expired lease); this covers work whose queue message
 * never comes back — lost, or dropped by a restart (local Queues keep messages in memory:
 * docs/RELIABILITY.md) — so it would stay open forever.
 *
 * Jobs: a job is stuck when it has not moved for `stuckAfterMs` (the JOB_STUCK_AFTER_SECONDS
 * setting, src/config.ts) since it was admitted, started or last swept, holding an active-job
 * slot and a credit reservation. The first time it is re-enqueued (back to `queued`, so any
 * delivery may start it; a watch run's job with its `watchId`, so it runs as that run); the
 * second time it fails with the spec's generic message through its owner's guarded transition: credit
 * refunded, slot released, its webhooks emitted — exactly once, whoever else races it.
 *
 * Webhook deliveries: one still `pending` or `queued` that has not moved (created, attempted,
 * swept) for as long is put on the webhooks queue again, with the same delivery id, once per
 * deadline; the delivery consumer's attempt count still ends it.
 */
import { MESSAGES } from "../../user-messages";
import type { AccountTx } from "../../accounts/store";

/**
 * Fails a stuck job through its owner's guarded transition (a watch run's job with its run:
 * the watches store's finishRun; no run: exactly finishJob); returns the webhooks it emitted.
 */
export type FailStuck = (tx: AccountTx, jobId: string, error: string) => { webhooks: string[] };

export interface SweepResult {
  /** Jobs to put back on the capture queue (a watch run's with its watch). */
  requeue: Array<{ jobId: string; watchId?: string }>;
  /** Webhook deliveries to queue: those the failed jobs emitted and the lost ones. */
  webhooks: string[];
  /** When the next job could become stuck (the alarm's next time), or null: none active. */
  nextDue: number | null;
}

/** When a job last moved: admitted, started (the latest start) or swept, whichever is last. */
const LAST_MOVED =
  "MAX(created_at, COALESCE(started_at, 0), COALESCE(last_started_at, 0), COALESCE(swept_at, 0))";
/** When an open webhook delivery last moved: created, attempted or swept. */
const DELIVERY_MOVED = "MAX(created_at, COALESCE(last_attempt_at, 0), COALESCE(swept_at, 0))";
const OPEN_DELIVERY = "state IN ('pending', 'queued')";

export function sweepStuckJobs(
  store: AccountTx,
  stuckAfterMs: number,
  fail: FailStuck,
): SweepResult {
  const { sql, now } = store;
  const stuckBefore = now - stuckAfterMs;
  const webhooks = sql
    .exec<{ delivery_id: string }>(
      `UPDATE webhook_deliveries SET swept_at = ? WHERE ${OPEN_DELIVERY} AND ${DELIVERY_MOVED} <= ?
       RETURNING delivery_id`,
      now,
      stuckBefore,
    )
    .toArray()
    .map((d) => d.delivery_id);
  const stuck = sql
    .exec<{ id: string; swept_at: number | null; watch_id: string | null }>(
      `SELECT id, swept_at, (SELECT watch_id FROM watch_runs WHERE job_id = jobs.id) AS watch_id
       FROM jobs WHERE status IN ('queued', 'processing') AND ${LAST_MOVED} <= ? ORDER BY seq`,
      stuckBefore,
    )
    .toArray();
  const requeue: SweepResult["requeue"] = [];
  for (const job of stuck) {
    if (job.swept_at === null) {
      sql.exec(
        "UPDATE jobs SET status = 'queued', lease = 0, swept_at = ? WHERE id = ?",
        now,
        job.id,
      );
      requeue.push(
        job.watch_id === null ? { jobId: job.id } : { jobId: job.id, watchId: job.watch_id },
      );
      continue;
    }
    // queued → processing → failed, the legal moves, each guarded.
    sql.exec("UPDATE jobs SET status = 'processing' WHERE id = ? AND status = 'queued'", job.id);
    const result = fail(store, job.id, MESSAGES.captureFailed);
    webhooks.push(...result.webhooks);
  }
  return { requeue, webhooks, nextDue: nextStuckDue(sql, stuckAfterMs) };
}

/** When the next active job or open delivery could become stuck, or null: none is open. */
export function nextStuckDue(sql: SqlStorage, stuckAfterMs: number): number | null {
  const next = sql
    .exec<{ due: number | null }>(
      `SELECT MIN(due) AS due FROM (
         SELECT MIN(${LAST_MOVED}) AS due FROM jobs WHERE status IN ('queued', 'processing')
         UNION ALL
         SELECT MIN(${DELIVERY_MOVED}) FROM webhook_deliveries WHERE ${OPEN_DELIVERY})`,
    )
    .one().due;
  return next === null ? null : next + stuckAfterMs;
}
