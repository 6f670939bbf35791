/**
 * The HMAC primitive and constant-time comparison, shared by signed URLs, render links,
 * webhooks and key checks. A leaf (only src/encoding.ts); WebCrypto only. (The receiver-side
 * webhook verifier is the SDK's own, sdk/src/webhooks.ts, tested against src/webhooks/sign.ts.)
 */
import { toHex } from "../encoding";

const encoder = new TextEncoder();

/**
 * Imported keys by secret, for the isolate's life: importing costs as much as signing a short
 * message, and the hot paths (render-link hits, signed image URLs) sign under the same few
 * secrets. Bounded: per-account webhook keys are many, so the map is emptied when full.
 */
const keys = new Map<string, Promise<CryptoKey>>();
const KEY_CACHE_SIZE = 64;

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= KEY_CACHE_SIZE) keys.clear();
    key = crypto.subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    // A failed import is not remembered.
    key.catch(() => keys.delete(secret));
    keys.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256 of `message` under `secret`, hex encoded. */
export async function hmacHex(secret: string, message: string | Uint8Array): Promise<string> {
  const key = await hmacKey(secret);
  const bytes = typeof message === "string" ? encoder.encode(message) : new Uint8Array(message);
  return toHex(await crypto.subtle.sign("HMAC", key, bytes));
}

/**
 * Compares two strings of public length (e.g. hex digests) in time that depends on their length
 * only; different lengths are simply unequal. Plain code, so it runs wherever WebCrypto does.
 */
export function timingSafeEqualDigests(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.byteLength ^ y.byteLength;
  for (let i = 0; i < x.byteLength; i++)
    diff |= (x[i] ?? 0) ^ (y[i % Math.max(1, y.byteLength)] ?? 0);
  return diff === 0;
}

/**
 * Compares two secrets in time independent of their contents. Both sides are hashed first, so
 * the comparison also takes the same time whatever their lengths.
 */
export async function timingSafeEqualStrings(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(a)),
    crypto.subtle.digest("SHA-256", encoder.encode(b)),
  ]);
  return timingSafeEqualDigests(toHex(da), toHex(db));
}
