/**
 * Admitting async work into the Account DO: active-job slots (the plan's cap), one credit
 * reservation per job (so each job commits or refunds its own credits: one, or a recording's
 * by its length), and the `queued` rows —
 * all or nothing, in the caller's transaction. Also the undo of an admission that could not be
 * queued, and the pruning of long-finished jobs.
 */
import type { CreditUsage } from "../../../schemas/responses";
import { creditUsage, reserve, settle } from "../../accounts/ledger";
import type { AccountTx } from "../../accounts/store";

export interface NewJob {
  id: string;
  /** The captured URL; null for html/markdown sources. */
  url: string | null;
  format: string;
  /** Credits reserved for this job (a recording's by its length); 1 when absent. */
  credits?: number;
}

export interface AdmitInput {
  jobs: NewJob[];
  /** Set for a batch: its jobs report to it and it holds the webhook. */
  batchId: string | null;
  webhookUrl: string | null;
  reservationTtlMs: number;
  /** A reservation to refund before admitting (the credit reserved with authentication). */
  release?: string | null;
}

export type AdmitResult =
  | { ok: true; remaining: number | null; createdAt: number }
  | { ok: false; reason: "queue_limit"; active: number; limit: number }
  | { ok: false; reason: "credits"; usage: CreditUsage };

/** Takes the slots and credits for `input.jobs` and records them queued, or refuses. */
export function admitJobs(store: AccountTx, input: AdmitInput): AdmitResult {
  const { sql, now } = store;
  if (input.release) settle(sql, store.creditLimit, input.release, false, now);
  const n = input.jobs.length;
  const active = sql
    .exec<{ active_jobs: number }>("SELECT active_jobs FROM account")
    .one().active_jobs;
  if (active + n > store.activeJobLimit) {
    return { ok: false, reason: "queue_limit", active, limit: store.activeJobLimit };
  }
  const cost = input.jobs.reduce((sum, job) => sum + (job.credits ?? 1), 0);
  const usage = creditUsage(sql, store.creditLimit, now);
  if (usage.remaining !== null && usage.remaining < cost)
    return { ok: false, reason: "credits", usage };

  sql.exec("UPDATE account SET active_jobs = active_jobs + ?", n);
  if (input.batchId !== null) {
    sql.exec(
      "INSERT INTO batches (id, status, total_jobs, webhook_url, created_at) VALUES (?, 'queued', ?, ?, ?)",
      input.batchId,
      n,
      input.webhookUrl,
      now,
    );
  }
  const jobWebhook = input.batchId === null ? input.webhookUrl : null;
  for (const job of input.jobs) {
    const held = reserve(sql, store.creditLimit, job.credits ?? 1, input.reservationTtlMs, now);
    if (!held.ok) throw new Error("credit reservation refused after the check"); // rolls back
    sql.exec(
      `INSERT INTO jobs (id, batch_id, status, url, format, webhook_url, reservation_id, created_at)
       VALUES (?, ?, 'queued', ?, ?, ?, ?, ?)`,
      job.id,
      input.batchId,
      job.url,
      job.format,
      jobWebhook,
      held.reservationId,
      now,
    );
  }
  return {
    ok: true,
    remaining: usage.remaining === null ? null : usage.remaining - cost,
    createdAt: now,
  };
}

/**
 * Undoes an admission whose jobs could not be queued (storage or queue failure before the 202):
 * still-queued jobs are deleted, their credits refunded and slots released.
 */
export function abandonJobs(store: AccountTx, jobIds: string[], batchId: string | null): number {
  const { sql, now } = store;
  let removed = 0;
  for (const id of jobIds) {
    const row = sql
      .exec<{ reservation_id: string }>(
        "DELETE FROM jobs WHERE id = ? AND status = 'queued' RETURNING reservation_id",
        id,
      )
      .toArray()[0];
    if (!row) continue;
    settle(sql, store.creditLimit, row.reservation_id, false, now);
    removed++;
  }
  if (removed > 0) sql.exec("UPDATE account SET active_jobs = MAX(0, active_jobs - ?)", removed);
  if (batchId !== null) {
    sql.exec(
      "DELETE FROM batches WHERE id = ? AND NOT EXISTS (SELECT 1 FROM jobs WHERE batch_id = ?)",
      batchId,
      batchId,
    );
  }
  return removed;
}

/** Finished jobs and batches older than `retentionMs` are forgotten (their results expired). */
export function pruneJobs(store: AccountTx, retentionMs: number): void {
  const { sql } = store;
  const before = store.now - retentionMs;
  sql.exec("DELETE FROM webhook_deliveries WHERE created_at < ?", before);
  sql.exec(
    `DELETE FROM jobs WHERE completed_at < ? AND (batch_id IS NULL OR batch_id IN
       (SELECT id FROM batches WHERE status = 'completed' AND completed_at < ?))`,
    before,
    before,
  );
  sql.exec(
    "DELETE FROM batches WHERE status = 'completed' AND completed_at < ? AND NOT EXISTS (SELECT 1 FROM jobs WHERE batch_id = batches.id)",
    before,
  );
}
