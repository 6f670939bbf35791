/**
 * Hosted outputs: bytes in R2 under an unguessable key, served from GET /v1/images/<key> by a
 * signed URL (HMAC over key and expiry). Every object carries its expiry in custom metadata:
 * reads past it are refused even before the scheduled sweep deletes it.
 */
import { config } from "../config";
import { TUNING } from "../tuning";
import { hmacHex, timingSafeEqualDigests } from "../signing/hmac";
import { imageMessage } from "../signing/messages";

export interface StoredOutput {
  key: string;
  /** Unix seconds. */
  expires: number;
}

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "application/pdf": "pdf",
  "text/html; charset=utf-8": "html",
};

export async function storeOutput(
  env: Env,
  input: { bytes: Uint8Array; contentType: string; ttlSeconds: number; accountId: string; prefix?: string },
): Promise<StoredOutput> {
  const expires = Math.floor(Date.now() / 1000) + input.ttlSeconds;
  const ext = EXTENSIONS[input.contentType] ?? "bin";
  const key = `${input.prefix ?? "o"}/${crypto.randomUUID()}.${ext}`;
  await env.OUTPUTS.put(key, input.bytes, {
    httpMetadata: { contentType: input.contentType },
    customMetadata: { expires: String(expires), accountId: input.accountId },
  });
  return { key, expires };
}

/** Deletes a stored output before its time (e.g. a job another delivery already completed). */
export function deleteStored(env: Env, stored: StoredOutput): Promise<void> {
  return env.OUTPUTS.delete(stored.key);
}

function imageSignature(env: Env, key: string, expires: number): Promise<string> {
  return hmacHex(config(env).urlSigningSecret, imageMessage(key, expires));
}

/** The public origin for signed URLs: PUBLIC_BASE_URL, else the request's own origin. */
export function publicOrigin(env: Env, requestUrl: string): string {
  return config(env).publicBaseUrl || new URL(requestUrl).origin;
}

export async function signedImageUrl(env: Env, origin: string, stored: StoredOutput): Promise<string> {
  const sig = await imageSignature(env, stored.key, stored.expires);
  return `${origin}/v1/images/${stored.key}?expires=${stored.expires}&sig=${sig}`;
}

export type ImageAccess = { ok: true; expires: number } | { ok: false; reason: "malformed" | "forbidden" };

const KEY = /^[a-z]{1,16}\/[0-9a-f-]{36}\.[a-z]{2,5}$/;

/** Checks an images-route request's key, `expires` and `sig` (constant-time compare). */
export async function verifyImageAccess(env: Env, key: string, params: URLSearchParams): Promise<ImageAccess> {
  const expiresAll = params.getAll("expires");
  const sigAll = params.getAll("sig");
  const [expiresRaw] = expiresAll;
  const [sig] = sigAll;
  if (expiresAll.length !== 1 || sigAll.length !== 1 || !expiresRaw || !sig) return { ok: false, reason: "malformed" };
  if (!/^\d{1,12}$/.test(expiresRaw) || !/^[0-9a-f]{64}$/.test(sig)) return { ok: false, reason: "malformed" };
  if (!KEY.test(key)) return { ok: false, reason: "forbidden" };
  const expires = Number(expiresRaw);
  const expected = await imageSignature(env, key, expires);
  if (!timingSafeEqualDigests(sig, expected)) return { ok: false, reason: "forbidden" };
  if (expires <= Math.floor(Date.now() / 1000)) return { ok: false, reason: "forbidden" };
  return { ok: true, expires };
}

/** Seconds left before the object itself expires (metadata), or 0 when it has. */
export function objectLifetime(object: R2Object, now = Date.now()): number {
  const expires = Number(object.customMetadata?.expires ?? 0);
  return Math.max(0, expires - Math.floor(now / 1000));
}

/**
 * Deletes objects whose expiry has passed. Bounded per run; the cron calls it hourly.
 * Returns how many were deleted.
 */
export async function sweepExpired(env: Env, maxObjects: number = TUNING.sweepMaxObjects): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  let cursor: string | undefined;
  let seen = 0;
  let deleted = 0;
  do {
    const page = await env.OUTPUTS.list({ cursor, limit: 1000, include: ["customMetadata"] });
    const expired = page.objects.filter((o) => Number(o.customMetadata?.expires ?? 0) <= now).map((o) => o.key);
    if (expired.length > 0) await env.OUTPUTS.delete(expired);
    deleted += expired.length;
    seen += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor && seen < maxObjects);
  return deleted;
}
