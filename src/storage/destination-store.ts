/**
 * The `storage_destinations` table of the Account DO: a customer's S3-compatible buckets. The
 * secret arrives here already sealed (src/storage/secrets.ts) and leaves only sealed; the
 * view never carries it, and shows the access key id's last 4 characters only.
 */
import { RpcTarget } from "cloudflare:workers";
import { LIMITS } from "../../schemas/limits";
import type { DestinationView } from "../../schemas/storage";
import type { AccountDb } from "../accounts/store";

/** A destination as stored: everything the uploader needs, the secret still sealed. */
export interface DestinationRecord {
  destinationId: string;
  name: string;
  endpoint: string;
  region: string;
  bucket: string;
  pathStyle: boolean;
  prefix: string | null;
  acl: "private" | "public-read" | null;
  storageClass: string | null;
  /** True: results go to the bucket only; false: our R2 keeps a copy and `resultUrl` is ours. */
  deliverOnly: boolean;
  accessKeyId: string;
  secretSealed: string;
  createdAt: string;
}

interface Row extends Record<string, SqlStorageValue> {
  id: string;
  name: string;
  endpoint: string;
  region: string;
  bucket: string;
  path_style: number;
  prefix: string | null;
  acl: string | null;
  storage_class: string | null;
  deliver_only: number;
  access_key_id: string;
  secret_sealed: string;
  created_at: number;
}

function record(row: Row): DestinationRecord {
  return {
    destinationId: row.id,
    name: row.name,
    endpoint: row.endpoint,
    region: row.region,
    bucket: row.bucket,
    pathStyle: row.path_style === 1,
    prefix: row.prefix,
    acl: row.acl === "private" || row.acl === "public-read" ? row.acl : null,
    storageClass: row.storage_class,
    deliverOnly: row.deliver_only === 1,
    accessKeyId: row.access_key_id,
    secretSealed: row.secret_sealed,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** What anyone with the account's key may see. */
export function destinationView(d: DestinationRecord): DestinationView {
  const { secretSealed: _sealed, accessKeyId, ...rest } = d;
  return { ...rest, accessKeyId: `…${accessKeyId.slice(-4)}` };
}

export type AddDestinationResult =
  { ok: true; destination: DestinationView } | { ok: false; reason: "limit"; limit: number };

/** Inserts unless the account already holds `limit` destinations (checked in the same transaction). */
function addDestination(
  sql: SqlStorage,
  d: Omit<DestinationRecord, "createdAt">,
  limit: number,
  now: number,
): AddDestinationResult {
  const count = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM storage_destinations").one().n;
  if (count >= limit) return { ok: false, reason: "limit", limit };
  sql.exec(
    `INSERT INTO storage_destinations
       (id, name, endpoint, region, bucket, path_style, prefix, acl, storage_class, deliver_only, access_key_id, secret_sealed, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    d.destinationId,
    d.name,
    d.endpoint,
    d.region,
    d.bucket,
    d.pathStyle ? 1 : 0,
    d.prefix,
    d.acl,
    d.storageClass,
    d.deliverOnly ? 1 : 0,
    d.accessKeyId,
    d.secretSealed,
    now,
  );
  const added = getDestination(sql, d.destinationId);
  if (!added) throw new Error("destination insert failed");
  return { ok: true, destination: destinationView(added) };
}

function getDestination(sql: SqlStorage, destinationId: string): DestinationRecord | null {
  const row = sql
    .exec<Row>("SELECT * FROM storage_destinations WHERE id = ?", destinationId)
    .toArray()[0];
  return row ? record(row) : null;
}

function listDestinations(sql: SqlStorage): DestinationView[] {
  return sql
    .exec<Row>("SELECT * FROM storage_destinations ORDER BY seq")
    .toArray()
    .map((r) => destinationView(record(r)));
}

function deleteDestination(sql: SqlStorage, destinationId: string): boolean {
  return sql.exec("DELETE FROM storage_destinations WHERE id = ?", destinationId).rowsWritten > 0;
}

/** The destinations feature of the Account DO, reached over RPC as `account.destinations`. */
export class DestinationStore extends RpcTarget {
  constructor(private readonly db: AccountDb) {
    super();
  }

  add(d: Omit<DestinationRecord, "createdAt">): AddDestinationResult {
    return this.db.tx((s) => addDestination(s.sql, d, LIMITS.destinationsPerAccount, s.now));
  }

  /** The stored record, secret sealed: for the uploader (and the `test` call) only. */
  record(destinationId: string): DestinationRecord | null {
    return getDestination(this.db.sql, destinationId);
  }

  list(): DestinationView[] {
    return listDestinations(this.db.sql);
  }

  /** True when it existed. */
  delete(destinationId: string): boolean {
    return this.db.tx((s) => deleteDestination(s.sql, destinationId));
  }
}
