/**
 * Finding an account: its Durable Object stub by id, and the KV indexes in `RENDER_CACHE`
 *   `apikey:<sha256 hex of key>` → `{accountId, keyId}`  (authentication, by hash only)
 *   `keyid:<keyId>`              → accountId             (revocation by key id)
 * The indexes only say where to look; the Account DO stays authoritative for key status.
 */
import type { Account } from "./account";
import type { NewKey } from "./keystore";
import { displayPrefix, generateApiKey, generateKeyId, hashApiKey } from "./keys";

export interface KeyIndexEntry {
  accountId: string;
  keyId: string;
}

export function accountStub(env: Env, accountId: string): DurableObjectStub<Account> {
  return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
}

function isIndexEntry(value: unknown): value is KeyIndexEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.accountId === "string" && typeof entry.keyId === "string";
}

export async function lookupKeyHash(env: Env, keyHash: string): Promise<KeyIndexEntry | null> {
  const value: unknown = await env.RENDER_CACHE.get(`apikey:${keyHash}`, "json");
  return isIndexEntry(value) ? { accountId: value.accountId, keyId: value.keyId } : null;
}

export function accountIdForKey(env: Env, keyId: string): Promise<string | null> {
  return env.RENDER_CACHE.get(`keyid:${keyId}`);
}

/** A freshly generated key: the plain key (shown once) and what may be stored. */
export interface MintedKey {
  apiKey: string;
  key: NewKey;
}

export async function mintKey(): Promise<MintedKey> {
  const apiKey = generateApiKey();
  const key = {
    keyId: generateKeyId(),
    keyHash: await hashApiKey(apiKey),
    prefix: displayPrefix(apiKey),
  };
  return { apiKey, key };
}

/** Records both index entries of a key the Account DO has accepted. */
export async function indexKey(env: Env, accountId: string, key: NewKey): Promise<void> {
  const entry: KeyIndexEntry = { accountId, keyId: key.keyId };
  await Promise.all([
    env.RENDER_CACHE.put(`apikey:${key.keyHash}`, JSON.stringify(entry)),
    env.RENDER_CACHE.put(`keyid:${key.keyId}`, accountId),
  ]);
}
