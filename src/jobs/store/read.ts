/**
 * Reading jobs and batches back (GET /v1/jobs…, /v1/batches…, webhook payloads): rows → the
 * spec's Job and Batch shapes plus our additions (batchId, url, format, metadata, outcome,
 * webhook delivery state). Listings are newest first by `seq`, paged by the last seq seen.
 */
import type { Delivery } from "../../../schemas/storage";
import type { BatchStatus, JobStatus } from "../../../schemas/jobs";
import type { BatchView, CompletenessData, JobView, WebhookView } from "../../../schemas/responses";
import { isoOrNull } from "../../encoding";

/** What a completed job records about its output (its row's result_meta). */
export interface ResultMeta {
  width: number;
  height: number;
  loadTimeMs: number;
  bytesSize: number;
  /** How complete the capture is; absent in rows written before it was recorded. */
  completeness?: CompletenessData | null;
  /** Set when the result was delivered to a storage destination. */
  storage?: Delivery;
  /** A recording's frames and length (POST /v1/animate jobs). */
  frames?: number;
  durationMs?: number;
}

export interface ListQuery {
  status: string | null;
  limit: number;
  /** Only rows with a smaller seq (the last seq of the previous page). */
  before: number | null;
}

export interface Page<T> {
  items: T[];
  nextBefore: number | null;
}

type Value = SqlStorageValue;
const WEBHOOK_COLUMNS = `w.delivery_id AS w_id, w.state AS w_state, w.attempts AS w_attempts,
  w.last_status AS w_status, w.last_error AS w_error, w.last_attempt_at AS w_at`;

interface WebhookCols extends Record<string, Value> {
  webhook_url: string | null;
  w_id: string | null;
  w_state: string | null;
  w_attempts: number | null;
  w_status: number | null;
  w_error: string | null;
  w_at: number | null;
}

interface JobRow extends WebhookCols {
  seq: number;
  id: string;
  batch_id: string | null;
  status: JobStatus;
  url: string | null;
  format: string;
  result_url: string | null;
  result_meta: string | null;
  error: string | null;
  error_detail: string | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
}

interface BatchRow extends WebhookCols {
  seq: number;
  id: string;
  status: BatchStatus;
  total_jobs: number;
  completed_jobs: number;
  failed_jobs: number;
  created_at: number;
  completed_at: number | null;
}

function webhookView(row: WebhookCols): WebhookView | undefined {
  if (row.webhook_url === null) return undefined;
  const status = row.w_state === "delivered" || row.w_state === "failed" ? row.w_state : "pending";
  return {
    deliveryId: row.w_id,
    status,
    delivered: status === "delivered",
    attempts: row.w_attempts ?? 0,
    lastStatus: row.w_status,
    lastError: row.w_error,
    lastAttemptAt: isoOrNull(row.w_at),
  };
}

function jobView(row: JobRow): JobView {
  const view: JobView = {
    jobId: row.id,
    batchId: row.batch_id,
    status: row.status,
    url: row.url,
    format: row.format,
    error: row.error,
    ...(row.error_detail !== null ? { errorDetail: row.error_detail } : {}),
    createdAt: new Date(row.created_at).toISOString(),
    startedAt: isoOrNull(row.started_at),
    completedAt: isoOrNull(row.completed_at),
  };
  if (row.result_url !== null) view.resultUrl = row.result_url;
  if (row.result_meta !== null) {
    const meta = JSON.parse(row.result_meta) as ResultMeta;
    view.metadata = {
      url: row.url,
      format: row.format,
      width: meta.width,
      height: meta.height,
      loadTimeMs: meta.loadTimeMs,
      ...(meta.completeness !== undefined ? { completeness: meta.completeness } : {}),
      ...(meta.frames !== undefined ? { frames: meta.frames } : {}),
      ...(meta.durationMs !== undefined ? { durationMs: meta.durationMs } : {}),
    };
    if (meta.storage) view.storage = meta.storage;
  }
  const webhook = webhookView(row);
  if (webhook) view.webhook = webhook;
  return view;
}

function outcomeOf(row: BatchRow): BatchView["outcome"] | null {
  if (row.status !== "completed") return null;
  if (row.failed_jobs === 0) return "succeeded";
  return row.completed_jobs === 0 ? "failed" : "partial";
}

function batchView(row: BatchRow): BatchView {
  const view: BatchView = {
    batchId: row.id,
    status: row.status,
    outcome: outcomeOf(row),
    totalJobs: row.total_jobs,
    completedJobs: row.completed_jobs,
    failedJobs: row.failed_jobs,
    createdAt: new Date(row.created_at).toISOString(),
    completedAt: isoOrNull(row.completed_at),
  };
  const webhook = webhookView(row);
  if (webhook) view.webhook = webhook;
  return view;
}

const JOB_SELECT = `SELECT j.*, ${WEBHOOK_COLUMNS} FROM jobs j
  LEFT JOIN webhook_deliveries w ON w.subject_kind = 'job' AND w.subject_id = j.id`;
const BATCH_SELECT = `SELECT b.*, ${WEBHOOK_COLUMNS} FROM batches b
  LEFT JOIN webhook_deliveries w ON w.subject_kind = 'batch' AND w.subject_id = b.id`;

export function getJob(sql: SqlStorage, jobId: string): JobView | null {
  const row = sql.exec<JobRow>(`${JOB_SELECT} WHERE j.id = ?`, jobId).toArray()[0];
  return row ? jobView(row) : null;
}

/** The batch with all its jobs (in submission order), or null. */
export function getBatch(sql: SqlStorage, batchId: string): BatchView | null {
  const row = sql.exec<BatchRow>(`${BATCH_SELECT} WHERE b.id = ?`, batchId).toArray()[0];
  if (!row) return null;
  const jobs = sql
    .exec<JobRow>(`${JOB_SELECT} WHERE j.batch_id = ? ORDER BY j.seq`, batchId)
    .toArray();
  return { ...batchView(row), jobs: jobs.map(jobView) };
}

/** The first `limit` rows as views, and the cursor of the next page when there is one. */
export function page<R extends { seq: number }, V>(
  rows: R[],
  limit: number,
  view: (r: R) => V,
): Page<V> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items: items.map(view), nextBefore: rows.length > limit && last ? last.seq : null };
}

function where(alias: string, query: ListQuery): { clause: string; args: Value[] } {
  const parts: string[] = [];
  const args: Value[] = [];
  if (query.status !== null) {
    parts.push(`${alias}.status = ?`);
    args.push(query.status);
  }
  if (query.before !== null) {
    parts.push(`${alias}.seq < ?`);
    args.push(query.before);
  }
  return { clause: parts.length > 0 ? `WHERE ${parts.join(" AND ")}` : "", args };
}

export function listJobs(sql: SqlStorage, query: ListQuery): Page<JobView> {
  const { clause, args } = where("j", query);
  const rows = sql
    .exec<JobRow>(`${JOB_SELECT} ${clause} ORDER BY j.seq DESC LIMIT ?`, ...args, query.limit + 1)
    .toArray();
  return page(rows, query.limit, jobView);
}

export function listBatches(sql: SqlStorage, query: ListQuery): Page<BatchView> {
  const { clause, args } = where("b", query);
  const rows = sql
    .exec<BatchRow>(
      `${BATCH_SELECT} ${clause} ORDER BY b.seq DESC LIMIT ?`,
      ...args,
      query.limit + 1,
    )
    .toArray();
  return page(rows, query.limit, batchView);
}
