/**
 * The `api_keys` table of the Account DO: hashes only, never a key. Synchronous functions,
 * called from DO methods.
 */
import { RpcTarget } from "cloudflare:workers";
import { timingSafeEqualDigests } from "../signing/hmac";
import type { AccountDb } from "./store";
import { isoOrNull } from "../encoding";

/** A key being added: its id, the sha256 hex of the full key and the display prefix. */
export interface NewKey {
  keyId: string;
  keyHash: string;
  prefix: string;
  /** The customer's label (dashboard); null for keys made without one. */
  name?: string | null;
}

export type KeyStatus = "active" | "revoked";

/** What anyone may see about a key (no hash). */
export interface KeyInfo {
  keyId: string;
  name: string | null;
  prefix: string;
  status: KeyStatus;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

interface KeyRow extends Record<string, SqlStorageValue> {
  key_id: string;
  key_hash: string;
  name: string | null;
  prefix: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

function info(row: KeyRow): KeyInfo {
  return {
    keyId: row.key_id,
    name: row.name,
    prefix: row.prefix,
    status: row.revoked_at === null ? "active" : "revoked",
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: isoOrNull(row.revoked_at),
    lastUsedAt: isoOrNull(row.last_used_at),
  };
}

function row(sql: SqlStorage, keyId: string): KeyRow | undefined {
  return sql.exec<KeyRow>("SELECT * FROM api_keys WHERE key_id = ?", keyId).toArray()[0];
}

export function insertKey(sql: SqlStorage, key: NewKey, now: number): KeyInfo {
  sql.exec(
    "INSERT INTO api_keys (key_id, key_hash, prefix, name, created_at) VALUES (?, ?, ?, ?, ?)",
    key.keyId,
    key.keyHash,
    key.prefix,
    key.name ?? null,
    now,
  );
  const inserted = row(sql, key.keyId);
  if (!inserted) throw new Error("key insert failed");
  return info(inserted);
}

export function listKeys(sql: SqlStorage): KeyInfo[] {
  return sql.exec<KeyRow>("SELECT * FROM api_keys ORDER BY created_at, key_id").toArray().map(info);
}

/** Revokes a key (idempotent: the first revocation time stays); null when unknown. */
export function revokeKey(sql: SqlStorage, keyId: string, now: number): KeyInfo | null {
  sql.exec(
    "UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL",
    now,
    keyId,
  );
  const found = row(sql, keyId);
  return found ? info(found) : null;
}

/**
 * Checks a presented key (by id and hash) and records its use. The stored and presented
 * hashes are compared in constant time.
 */
export function checkKey(
  sql: SqlStorage,
  keyId: string,
  keyHash: string,
  now: number,
): "active" | "revoked" | "unknown" {
  const found = row(sql, keyId);
  if (!found || !timingSafeEqualDigests(found.key_hash, keyHash)) return "unknown";
  if (found.revoked_at !== null) return "revoked";
  sql.exec("UPDATE api_keys SET last_used_at = ? WHERE key_id = ?", now, keyId);
  return "active";
}

/** The account's API keys, reached over RPC as `account.keys`; add and revoke: null = no account. */
export class KeyStore extends RpcTarget {
  constructor(private readonly db: AccountDb) {
    super();
  }

  add(key: NewKey): KeyInfo | null {
    return this.db.exists() ? insertKey(this.db.sql, key, this.db.now()) : null;
  }

  revoke(keyId: string): KeyInfo | null {
    return this.db.exists() ? revokeKey(this.db.sql, keyId, this.db.now()) : null;
  }

  list(): KeyInfo[] {
    return listKeys(this.db.sql);
  }
}
