/**
 * The authoritative key index: `KeyDirectory` Durable Objects, sharded by the first hex digit
 * of a key's sha256 (16 shards). A new key is recorded here before it is shown, so it works
 * everywhere at once; the KV index (`directory.ts`) stays the fast path and this is asked only
 * on a KV miss (KV is eventually consistent: a fresh key can be missing at other locations for
 * up to about a minute).
 */
import { DurableObject } from "cloudflare:workers";
import { migrate, type Migration } from "./migrate";

export interface DirectoryEntry {
  accountId: string;
  keyId: string;
}

const KEY_DIRECTORY_MIGRATIONS: readonly Migration[] = [
  [
    `CREATE TABLE key_index (
      key_hash TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      key_id TEXT NOT NULL
    )`,
  ],
];

interface EntryRow extends Record<string, SqlStorageValue> {
  account_id: string;
  key_id: string;
}

export class KeyDirectory extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrate(ctx.storage, KEY_DIRECTORY_MIGRATIONS);
  }

  put(keyHash: string, entry: DirectoryEntry): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO key_index (key_hash, account_id, key_id) VALUES (?, ?, ?)",
      keyHash,
      entry.accountId,
      entry.keyId,
    );
  }

  get(keyHash: string): DirectoryEntry | null {
    const row = this.sql
      .exec<EntryRow>("SELECT account_id, key_id FROM key_index WHERE key_hash = ?", keyHash)
      .toArray()[0];
    return row ? { accountId: row.account_id, keyId: row.key_id } : null;
  }
}
