/**
 * The webhook delivery log of the Account DO (GET /v1/webhooks/deliveries): the deliveries of the
 * last 7 days, newest first, as the API shows them. The rows are ./deliveries.ts's.
 */
import type { WebhookDeliveryView } from "../../../schemas/responses";
import { LIMITS } from "../../../schemas/limits";
import type { WebhookEvent } from "../events";
import { isoOrNull } from "../../encoding";

/** What a delivery reports on: a job, a batch, a watch run, or a crawl (its end or one page). */
export type SubjectKind = "job" | "batch" | "run" | "crawl" | "monitor";

export type DeliveryState = "pending" | "queued" | "delivered" | "failed";

/** How far back the delivery log reaches (GET /v1/webhooks/deliveries). */
const LOG_WINDOW_MS = LIMITS.webhookLogDays * 86_400_000;

interface LogRow extends Record<string, SqlStorageValue> {
  seq: number;
  delivery_id: string;
  subject_kind: SubjectKind;
  subject_id: string;
  event: WebhookEvent;
  url: string;
  state: DeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: number | null;
  next_attempt_at: number | null;
  created_at: number;
}

const LOG_SELECT = `SELECT rowid AS seq, delivery_id, subject_kind, subject_id, event, url, state,
  attempts, last_status, last_error, last_attempt_at, next_attempt_at, created_at
  FROM webhook_deliveries`;

function logView(row: LogRow): WebhookDeliveryView {
  return {
    deliveryId: row.delivery_id,
    event: row.event,
    url: row.url,
    subject: { kind: row.subject_kind, id: row.subject_id },
    state: row.state,
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    lastAttemptAt: isoOrNull(row.last_attempt_at),
    nextAttemptAt: row.state === "queued" ? isoOrNull(row.next_attempt_at) : null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export interface DeliveryLogQuery {
  /** Only deliveries in this state. */
  status: DeliveryState | null;
  limit: number;
  /** Only deliveries older than this one (the previous page's last `seq`). */
  before: number | null;
}

/** The account's deliveries of the last 7 days, newest first, one page. */
export function deliveryLog(
  sql: SqlStorage,
  query: DeliveryLogQuery,
  now: number,
): { items: WebhookDeliveryView[]; nextBefore: number | null } {
  const rows = sql
    .exec<LogRow>(
      `${LOG_SELECT} WHERE created_at >= ? AND rowid < ? AND (? IS NULL OR state = ?)
       ORDER BY rowid DESC LIMIT ?`,
      now - LOG_WINDOW_MS,
      query.before ?? Number.MAX_SAFE_INTEGER,
      query.status,
      query.status,
      query.limit + 1,
    )
    .toArray();
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  return {
    items: items.map(logView),
    nextBefore: rows.length > query.limit && last ? last.seq : null,
  };
}

export function logEntry(
  sql: SqlStorage,
  deliveryId: string,
  now: number,
): WebhookDeliveryView | null {
  const row = sql
    .exec<LogRow>(
      `${LOG_SELECT} WHERE delivery_id = ? AND created_at >= ?`,
      deliveryId,
      now - LOG_WINDOW_MS,
    )
    .toArray()[0];
  return row ? logView(row) : null;
}
