/**
 * Finding an account: its Durable Object stub by id, and the KV indexes in `RENDER_CACHE`
 *   `apikey:<sha256 hex of key>` → `{accountId, keyId}`  (authentication, by hash only)
 *   `keyid:<keyId>`              → accountId             (revocation by key id)
 * KV is eventually consistent, so a key is first recorded in the authoritative key directory
 * (`key-directory.ts`), which a KV miss asks before the caller gets 401; hashes neither knows
 * are remembered for a short while (per isolate) so a flood of bad keys stays cheap. The
 * indexes only say where to look; the Account DO stays authoritative for key status.
 */
import { TUNING } from "../tuning";
import type { KeyDirectory } from "./key-directory";
import type { NewKey } from "./keystore";
import { displayPrefix, generateApiKey, generateKeyId, hashApiKey } from "./keys";

export interface KeyIndexEntry {
  accountId: string;
  keyId: string;
}

/** A stub of the account's Durable Object (src/account-do/account.ts), typed by the binding. */
export type AccountStub = ReturnType<Env["ACCOUNT"]["get"]>;

export function accountStub(env: Env, accountId: string): AccountStub {
  return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
}

function isIndexEntry(value: unknown): value is KeyIndexEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.accountId === "string" && typeof entry.keyId === "string";
}

function directoryShard(env: Env, keyHash: string): DurableObjectStub<KeyDirectory> {
  const shard = keyHash.slice(0, TUNING.keyDirectoryShardDigits);
  return env.KEY_DIRECTORY.get(env.KEY_DIRECTORY.idFromName(`keys-${shard}`));
}

/** Key hashes found nowhere, until when (ms). Per isolate; a fresh key's hash is never in it. */
const unknownUntil = new Map<string, number>();

function knownUnknown(keyHash: string, now: number): boolean {
  const until = unknownUntil.get(keyHash);
  if (until === undefined) return false;
  if (until > now) return true;
  unknownUntil.delete(keyHash);
  return false;
}

function rememberUnknown(keyHash: string, now: number): void {
  if (unknownUntil.size >= TUNING.unknownKeyCacheEntries) unknownUntil.clear();
  unknownUntil.set(keyHash, now + TUNING.unknownKeyCacheMs);
}

export async function lookupKeyHash(env: Env, keyHash: string): Promise<KeyIndexEntry | null> {
  const value: unknown = await env.RENDER_CACHE.get(`apikey:${keyHash}`, "json");
  if (isIndexEntry(value)) return { accountId: value.accountId, keyId: value.keyId };
  const now = Date.now();
  if (knownUnknown(keyHash, now)) return null;
  const entry = await directoryShard(env, keyHash).get(keyHash);
  if (!entry) rememberUnknown(keyHash, now);
  return entry;
}

export function accountIdForKey(env: Env, keyId: string): Promise<string | null> {
  return env.RENDER_CACHE.get(`keyid:${keyId}`);
}

/** A freshly generated key: the plain key (shown once) and what may be stored. */
export interface MintedKey {
  apiKey: string;
  key: NewKey;
}

export async function mintKey(name: string | null = null): Promise<MintedKey> {
  const apiKey = generateApiKey();
  const key = {
    keyId: generateKeyId(),
    keyHash: await hashApiKey(apiKey),
    prefix: displayPrefix(apiKey),
    name,
  };
  return { apiKey, key };
}

/**
 * Records a key the Account DO has accepted: in the key directory first (once this returns the
 * key works everywhere), then both KV entries (the fast path).
 */
export async function indexKey(env: Env, accountId: string, key: NewKey): Promise<void> {
  const entry: KeyIndexEntry = { accountId, keyId: key.keyId };
  await directoryShard(env, key.keyHash).put(key.keyHash, entry);
  await Promise.all([
    env.RENDER_CACHE.put(`apikey:${key.keyHash}`, JSON.stringify(entry)),
    env.RENDER_CACHE.put(`keyid:${key.keyId}`, accountId),
  ]);
}
