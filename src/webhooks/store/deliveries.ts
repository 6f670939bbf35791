/**
 * Webhook deliveries of the Account DO: one row per event (at most one per job or batch, by a
 * UNIQUE constraint), created in the same transaction as the transition that causes it. The
 * row is the delivery's state: pending (not yet on the queue) → queued → delivered | failed,
 * with the attempt count, the last answer and the next attempt's time, shown in GET /v1/jobs/:id,
 * /v1/batches/:id and the account's log, GET /v1/webhooks/deliveries (the last 7 days, newest
 * first); a finished delivery may be queued again (`redeliver`).
 * The event body is rebuilt from the finished job/batch at each attempt: the same bytes every
 * time, since a finished record no longer changes.
 */
import { RpcTarget } from "cloudflare:workers";
import type { AccountDb } from "../../accounts/store";
import type { WebhookDeliveryView } from "../../../schemas/responses";
import type { WebhookEvent } from "../events";
import {
  type DeliveryLogQuery,
  deliveryLog,
  type DeliveryState,
  logEntry,
  type SubjectKind,
} from "./delivery-log";

export interface WebhookDelivery {
  deliveryId: string;
  event: WebhookEvent;
  url: string;
  state: DeliveryState;
  attempts: number;
  /** The event body, serialized (the raw body that is signed and sent). */
  body: string;
}

export interface AttemptRecord {
  /** HTTP status received; null when none (timeout, network error, refused URL). */
  status: number | null;
  error: string | null;
  /** delivered / failed are final; retry keeps the delivery open. */
  outcome: "delivered" | "retry" | "failed";
  /** With `retry`: when the next attempt is due (ms); null otherwise. */
  retryAt?: number | null;
}

interface DeliveryRow extends Record<string, SqlStorageValue> {
  delivery_id: string;
  subject_kind: SubjectKind;
  subject_id: string;
  event: WebhookEvent;
  url: string;
  state: WebhookDelivery["state"];
  attempts: number;
}

/** Records a new delivery for a subject; returns its id (null if the subject already has one). */
export function emitWebhook(
  sql: SqlStorage,
  input: { kind: SubjectKind; id: string; event: WebhookEvent; url: string; now: number },
): string | null {
  const deliveryId = crypto.randomUUID();
  const inserted = sql
    .exec(
      `INSERT INTO webhook_deliveries (delivery_id, subject_kind, subject_id, event, url, state, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT (subject_kind, subject_id) DO NOTHING
       RETURNING delivery_id`,
      deliveryId,
      input.kind,
      input.id,
      input.event,
      input.url,
      input.now,
    )
    .toArray();
  return inserted.length > 0 ? deliveryId : null;
}

/**
 * Builds a delivery's event body (src/webhooks/events.ts) from its subject as stored now; null
 * when the subject is gone. The features that own the subjects provide it (the Account DO).
 */
export type EventBody = (
  kind: SubjectKind,
  subjectId: string,
  event: WebhookEvent,
) => Record<string, unknown> | null;

/** The delivery with its event body, or null when unknown (or its subject is gone). */
function webhookDelivery(
  sql: SqlStorage,
  deliveryId: string,
  eventBody: EventBody,
): WebhookDelivery | null {
  const row = sql
    .exec<DeliveryRow>("SELECT * FROM webhook_deliveries WHERE delivery_id = ?", deliveryId)
    .toArray()[0];
  if (!row) return null;
  const event = eventBody(row.subject_kind, row.subject_id, row.event);
  if (!event) return null;
  const body = JSON.stringify(event);
  return {
    deliveryId,
    event: row.event,
    url: row.url,
    state: row.state,
    attempts: row.attempts,
    body,
  };
}

/** pending → queued once the message is on the webhooks queue. */
function markWebhooksQueued(sql: SqlStorage, deliveryIds: string[]): void {
  for (const id of deliveryIds) {
    sql.exec(
      "UPDATE webhook_deliveries SET state = 'queued' WHERE delivery_id = ? AND state = 'pending'",
      id,
    );
  }
}

/** Counts one attempt and its answer; false when the delivery was already final. */
function recordWebhookAttempt(
  sql: SqlStorage,
  deliveryId: string,
  attempt: AttemptRecord,
  now: number,
): boolean {
  const state = attempt.outcome === "retry" ? "queued" : attempt.outcome;
  const changed = sql
    .exec(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = ?, last_error = ?,
       last_attempt_at = ?, state = ?, next_attempt_at = ?
       WHERE delivery_id = ? AND state IN ('pending', 'queued') RETURNING delivery_id`,
      attempt.status,
      attempt.error,
      now,
      state,
      attempt.outcome === "retry" ? (attempt.retryAt ?? null) : null,
      deliveryId,
    )
    .toArray();
  return changed.length > 0;
}

/** The dead-letter path: gives up on a delivery that is still open. */
function failWebhook(sql: SqlStorage, deliveryId: string, error: string, now: number): boolean {
  const changed = sql
    .exec(
      `UPDATE webhook_deliveries SET state = 'failed', last_error = ?, last_attempt_at = COALESCE(last_attempt_at, ?),
       next_attempt_at = NULL WHERE delivery_id = ? AND state IN ('pending', 'queued') RETURNING delivery_id`,
      error,
      now,
      deliveryId,
    )
    .toArray();
  return changed.length > 0;
}

/**
 * A finished delivery (delivered or failed) back to pending, for the caller to queue; one still
 * open is left as it is (it is on its way). Null when unknown, older than the log, or its
 * subject is gone (nothing to rebuild the body from).
 */
function reopenDelivery(
  sql: SqlStorage,
  deliveryId: string,
  now: number,
  eventBody: EventBody,
): { reopened: boolean; view: WebhookDeliveryView } | null {
  const view = logEntry(sql, deliveryId, now);
  if (!view || !webhookDelivery(sql, deliveryId, eventBody)) return null;
  if (view.state !== "delivered" && view.state !== "failed") return { reopened: false, view };
  // swept_at = now: the stuck-work sweep counts from the reopening, not the old last attempt.
  sql.exec(
    `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = NULL, swept_at = ?
     WHERE delivery_id = ?`,
    now,
    deliveryId,
  );
  const reopened = logEntry(sql, deliveryId, now);
  return reopened ? { reopened: true, view: reopened } : null;
}

/** Webhook deliveries of the Account DO, reached over RPC as `account.webhooks`. */
export class WebhookDeliveries extends RpcTarget {
  constructor(
    private readonly db: AccountDb,
    private readonly eventBody: EventBody,
  ) {
    super();
  }

  get(deliveryId: string): WebhookDelivery | null {
    return webhookDelivery(this.db.sql, deliveryId, this.eventBody);
  }

  markQueued(deliveryIds: string[]): void {
    this.db.tx((s) => markWebhooksQueued(s.sql, deliveryIds));
  }

  /** Counts one attempt and its answer; false when the delivery was already final. */
  recordAttempt(deliveryId: string, attempt: AttemptRecord): boolean {
    return this.db.tx((s) => recordWebhookAttempt(s.sql, deliveryId, attempt, s.now));
  }

  /** The dead-letter path: gives up on a delivery that is still open. */
  fail(deliveryId: string, error: string): boolean {
    return this.db.tx((s) => failWebhook(s.sql, deliveryId, error, s.now));
  }

  /** The delivery log: the last 7 days, newest first. */
  list(query: DeliveryLogQuery): { items: WebhookDeliveryView[]; nextBefore: number | null } {
    return deliveryLog(this.db.sql, query, this.db.now());
  }

  /** One entry of the log; null when unknown or older than the log. */
  entry(deliveryId: string): WebhookDeliveryView | null {
    return logEntry(this.db.sql, deliveryId, this.db.now());
  }

  /** A finished delivery back to pending (queue it with `enqueueWebhooks`); see reopenDelivery. */
  reopen(deliveryId: string): { reopened: boolean; view: WebhookDeliveryView } | null {
    return this.db.tx((s) => reopenDelivery(s.sql, deliveryId, s.now, this.eventBody));
  }
}
