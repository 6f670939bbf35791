/**
 * The request log of the Account DO: the account's last 200 key-authenticated API requests,
 * kept 7 days (LIMITS), each with its time, method, route pattern (never the query or the
 * path's values), status, error code, credits charged, duration, request id and key. Written
 * after the response (the request-log middleware hands it to `waitUntil`); trimmed at each
 * write. Read by GET /v1/requests and the dashboard, filterable by status class.
 */
import { RpcTarget } from "cloudflare:workers";
import { LIMITS } from "../../schemas/limits";
import type { StatusClass } from "../../schemas/request-log";
import type { RequestLogEntry } from "../../schemas/responses";
import type { AccountDb } from "./store";

const KEEP_MS = LIMITS.requestLogDays * 86_400_000;

/** One request as the middleware reports it. */
export interface LoggedRequest {
  at: number;
  method: string;
  route: string;
  status: number;
  errorCode: string | null;
  credits: number | null;
  durationMs: number;
  requestId: string;
  keyId: string;
}

interface Row extends Record<string, SqlStorageValue> {
  at: number;
  method: string;
  route: string;
  status: number;
  error_code: string | null;
  credits: number | null;
  duration_ms: number;
  request_id: string;
  name: string | null;
  prefix: string | null;
}

const STATUS_RANGE: Record<StatusClass, [number, number]> = {
  "2xx": [200, 299],
  "4xx": [400, 499],
  "5xx": [500, 599],
};

function view(row: Row): RequestLogEntry {
  return {
    at: new Date(row.at).toISOString(),
    method: row.method,
    route: row.route,
    status: row.status,
    errorCode: row.error_code,
    credits: row.credits,
    durationMs: row.duration_ms,
    requestId: row.request_id,
    keyName: row.name,
    keyPrefix: row.prefix,
  };
}

export class RequestLog extends RpcTarget {
  constructor(private readonly db: AccountDb) {
    super();
  }

  /** Adds one request, then forgets what is past the newest 200 or older than 7 days. */
  record(entry: LoggedRequest): void {
    this.db.tx(({ sql, now }) => {
      sql.exec(
        `INSERT INTO request_log (at, method, route, status, error_code, credits, duration_ms,
         request_id, key_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        entry.at,
        entry.method,
        entry.route,
        entry.status,
        entry.errorCode,
        entry.credits,
        entry.durationMs,
        entry.requestId,
        entry.keyId,
      );
      sql.exec(
        `DELETE FROM request_log WHERE at < ? OR seq <= (SELECT seq FROM request_log
         ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
        now - KEEP_MS,
        LIMITS.requestLogEntries,
      );
    });
  }

  /** Newest first; `status` keeps one class (2xx, 4xx, 5xx). */
  list(query: { status: StatusClass | null; limit: number }): RequestLogEntry[] {
    const [low, high] = query.status ? STATUS_RANGE[query.status] : [0, 999];
    return this.db.sql
      .exec<Row>(
        `SELECT r.at, r.method, r.route, r.status, r.error_code, r.credits, r.duration_ms,
         r.request_id, k.name, k.prefix FROM request_log r LEFT JOIN api_keys k ON k.key_id = r.key_id
         WHERE r.at >= ? AND r.status BETWEEN ? AND ? ORDER BY r.seq DESC LIMIT ?`,
        this.db.now() - KEEP_MS,
        low,
        high,
        query.limit,
      )
      .toArray()
      .map(view);
  }
}
