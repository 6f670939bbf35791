/**
 * Async jobs and batches over the Account DO's SQLite storage: the guarded state machine
 * (admission is in admit.ts, read-outs in read.ts). Every transition
 * is one `UPDATE … WHERE status = <allowed from>` whose changed rows decide who won, so a
 * duplicate queue delivery or a racing consumer cannot move a job twice:
 *
 *   queued → processing (or processing → processing for a LATER delivery attempt: `lease`)
 *   processing → completed | failed (once; credits committed or refunded, slot released)
 *
 * A batch moves queued → processing with its first job and → completed with its last, and the
 * completion (with its `batch.completed` webhook) happens once: guarded in SQL too.
 * Functions are synchronous; the DO wraps them in `transactionSync`.
 */
import type { JobStatus } from "../../../schemas/jobs";
import type { ResultMeta } from "./read";
import { emitWebhook } from "../../webhooks/store/deliveries";
import { TUNING } from "../../tuning";
import { settle } from "../../accounts/ledger";
import type { AccountTx } from "../../accounts/store";

/** Job outcome reported by the consumer. */
export type JobOutcome =
  | { status: "completed"; resultUrl: string; meta: ResultMeta }
  | { status: "failed"; error: string; detail?: string | null };

export type StartResult =
  | { ok: true; batchId: string | null }
  /** Refused: unknown job, already finished, or held by a delivery at least as recent. */
  | { ok: false; status: JobStatus | "unknown"; pendingWebhooks: string[] };

export interface FinishResult {
  /** False when the guard refused (the job was not processing). */
  changed: boolean;
  /** Webhook deliveries to queue: those this transition emitted (abortJob: stranded ones). */
  webhooks: string[];
}

/**
 * queued → processing, or a later delivery attempt taking over a processing job whose earlier
 * attempt failed transiently (or died). The same attempt twice is refused.
 */
export function startJob(store: AccountTx, jobId: string, attempt: number): StartResult {
  const { sql, now } = store;
  const won = sql
    .exec<{ batch_id: string | null }>(
      `UPDATE jobs SET status = 'processing', lease = ?, started_at = COALESCE(started_at, ?),
         last_started_at = ?
       WHERE id = ? AND (status = 'queued' OR (status = 'processing' AND lease < ?))
       RETURNING batch_id`,
      attempt,
      now,
      now,
      jobId,
      attempt,
    )
    .toArray()[0];
  if (won) {
    if (won.batch_id !== null) {
      sql.exec(
        "UPDATE batches SET status = 'processing' WHERE id = ? AND status = 'queued'",
        won.batch_id,
      );
    }
    return { ok: true, batchId: won.batch_id };
  }
  const row = sql
    .exec<{ status: JobStatus; batch_id: string | null }>(
      "SELECT status, batch_id FROM jobs WHERE id = ?",
      jobId,
    )
    .toArray()[0];
  if (!row) return { ok: false, status: "unknown", pendingWebhooks: [] };
  return {
    ok: false,
    status: row.status,
    pendingWebhooks: strandedWebhooks(store, jobId, row.batch_id),
  };
}

/** A pending delivery older than this was emitted but never queued (its sender died). */
const STRANDED_AFTER_MS = TUNING.webhookStrandedAfterMs;

/**
 * Deliveries of the job (or its batch) emitted but still not on the queue a while later: the
 * delivery that finished the job failed to queue them. A later delivery of the job's message
 * queues them instead, so no webhook is lost.
 */
function strandedWebhooks(store: AccountTx, jobId: string, batchId: string | null): string[] {
  return store.sql
    .exec<{ delivery_id: string }>(
      `SELECT delivery_id FROM webhook_deliveries WHERE state = 'pending' AND created_at <= ?
       AND ((subject_kind = 'job' AND subject_id = ?) OR (subject_kind = 'batch' AND subject_id = ?))`,
      store.now - STRANDED_AFTER_MS,
      jobId,
      batchId ?? "",
    )
    .toArray()
    .map((r) => r.delivery_id);
}

interface FinishedRow extends Record<string, SqlStorageValue> {
  reservation_id: string;
  batch_id: string | null;
  webhook_url: string | null;
}

/** processing → completed | failed: settles the credit, frees the slot, advances the batch. */
export function finishJob(store: AccountTx, jobId: string, outcome: JobOutcome): FinishResult {
  const { sql, now } = store;
  const done = outcome.status === "completed";
  const row = sql
    .exec<FinishedRow>(
      `UPDATE jobs SET status = ?, result_url = ?, result_meta = ?, error = ?, error_detail = ?,
         completed_at = ?
       WHERE id = ? AND status = 'processing' RETURNING reservation_id, batch_id, webhook_url`,
      outcome.status,
      done ? outcome.resultUrl : null,
      done ? JSON.stringify(outcome.meta) : null,
      done ? null : outcome.error,
      done ? null : (outcome.detail ?? null),
      now,
      jobId,
    )
    .toArray()[0];
  if (!row) return { changed: false, webhooks: [] };

  settle(sql, store.creditLimit, row.reservation_id, done, now);
  sql.exec("UPDATE account SET active_jobs = MAX(0, active_jobs - 1)");
  const webhooks: Array<string | null> = [];
  if (row.webhook_url !== null) {
    const event = done ? "job.completed" : "job.failed";
    webhooks.push(emitWebhook(sql, { kind: "job", id: jobId, event, url: row.webhook_url, now }));
  }
  if (row.batch_id !== null) webhooks.push(advanceBatch(sql, row.batch_id, done, now));
  return { changed: true, webhooks: webhooks.filter((id): id is string => id !== null) };
}

/** Counts the job on its batch; completes the batch once (guarded) and emits its webhook. */
function advanceBatch(sql: SqlStorage, batchId: string, done: boolean, now: number): string | null {
  sql.exec(
    "UPDATE batches SET completed_jobs = completed_jobs + ?, failed_jobs = failed_jobs + ? WHERE id = ?",
    done ? 1 : 0,
    done ? 0 : 1,
    batchId,
  );
  const completed = sql
    .exec<{ webhook_url: string | null }>(
      `UPDATE batches SET status = 'completed', completed_at = ?
       WHERE id = ? AND status != 'completed' AND completed_jobs + failed_jobs = total_jobs
       RETURNING webhook_url`,
      now,
      batchId,
    )
    .toArray()[0];
  if (!completed?.webhook_url) return null;
  return emitWebhook(sql, {
    kind: "batch",
    id: batchId,
    event: "batch.completed",
    url: completed.webhook_url,
    now,
  });
}

/**
 * The dead-letter path: a job whose message exhausted its deliveries ends failed through the
 * legal moves (queued → processing → failed), each guarded; a finished job is left alone.
 */
export function abortJob(store: AccountTx, jobId: string, error: string): FinishResult {
  store.sql.exec(
    "UPDATE jobs SET status = 'processing', started_at = COALESCE(started_at, ?) WHERE id = ? AND status = 'queued'",
    store.now,
    jobId,
  );
  const result = finishJob(store, jobId, { status: "failed", error });
  if (result.changed) return result;
  const row = store.sql
    .exec<{ batch_id: string | null }>("SELECT batch_id FROM jobs WHERE id = ?", jobId)
    .toArray()[0];
  return { changed: false, webhooks: row ? strandedWebhooks(store, jobId, row.batch_id) : [] };
}
