/**
 * Idempotency-Key records in the Account DO (Stripe's semantics, keys scoped per account): the
 * first request with a key runs and its response is kept for 24 h; the same key with the same
 * request replays that response; with a different request it is refused; while the first is
 * still running, duplicates wait (the HTTP layer polls) and are never run.
 * Synchronous over SQLite, so a claim is atomic: exactly one caller gets "run".
 */
import { RpcTarget } from "cloudflare:workers";
import type { AccountDb } from "../accounts/store";
import { TUNING } from "../tuning";

/** A kept response: status, headers, and the body inline or as an R2 key. */
export interface StoredResponse {
  status: number;
  headers: string[][];
  body: Uint8Array | null;
  bodyKey: string | null;
}

export type ClaimResult =
  | { kind: "run" }
  | { kind: "running" }
  | { kind: "mismatch" }
  | { kind: "done"; response: StoredResponse };

interface Row extends Record<string, SqlStorageValue> {
  fingerprint: string;
  state: "running" | "done";
  lease_until: number;
  status: number | null;
  headers: string | null;
  body: ArrayBuffer | null;
  body_key: string | null;
  expires_at: number;
}

/** Claims `key` for a request with `fingerprint`, or says what became of the earlier one. */
function claimKey(sql: SqlStorage, key: string, fingerprint: string, now: number): ClaimResult {
  sql.exec("DELETE FROM idempotency_keys WHERE expires_at <= ?", now);
  const row = sql.exec<Row>("SELECT * FROM idempotency_keys WHERE key = ?", key).toArray()[0];
  if (row && row.fingerprint !== fingerprint) return { kind: "mismatch" };
  if (row?.state === "done") {
    return {
      kind: "done",
      response: {
        status: row.status ?? 200,
        headers: JSON.parse(row.headers ?? "[]") as string[][],
        body: row.body ? new Uint8Array(row.body) : null,
        bodyKey: row.body_key,
      },
    };
  }
  if (row && row.lease_until > now) return { kind: "running" };
  // New, or a run whose worker vanished (its lease ran out): this caller runs it.
  sql.exec(
    `INSERT INTO idempotency_keys (key, fingerprint, state, lease_until, expires_at)
     VALUES (?, ?, 'running', ?, ?)
     ON CONFLICT (key) DO UPDATE SET state = 'running', lease_until = excluded.lease_until,
       expires_at = excluded.expires_at`,
    key,
    fingerprint,
    now + TUNING.idempotencyLeaseMs,
    now + TUNING.idempotencyTtlMs,
  );
  return { kind: "run" };
}

/** Keeps the response of the run that claimed `key`. */
function completeKey(sql: SqlStorage, key: string, response: StoredResponse): void {
  sql.exec(
    `UPDATE idempotency_keys SET state = 'done', status = ?, headers = ?, body = ?, body_key = ?
     WHERE key = ? AND state = 'running'`,
    response.status,
    JSON.stringify(response.headers),
    response.body,
    response.bodyKey,
    key,
  );
}

/** Forgets a run whose answer must not be replayed (a retryable failure): the key is free again. */
function releaseKey(sql: SqlStorage, key: string): void {
  sql.exec("DELETE FROM idempotency_keys WHERE key = ? AND state = 'running'", key);
}

/** Idempotency-Key records, reached over RPC as `account.idempotency`. */
export class IdempotencyKeys extends RpcTarget {
  constructor(private readonly db: AccountDb) {
    super();
  }

  claim(key: string, fingerprint: string): ClaimResult {
    return claimKey(this.db.sql, key, fingerprint, this.db.now());
  }

  complete(key: string, response: StoredResponse): void {
    completeKey(this.db.sql, key, response);
  }

  release(key: string): void {
    releaseKey(this.db.sql, key);
  }
}
