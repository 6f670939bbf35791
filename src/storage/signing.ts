/**
 * HMAC signing and constant-time comparison, shared by webhooks, signed URLs and key checks.
 */
import { config } from "../config";
import { toHex } from "../encoding";

const encoder = new TextEncoder();


/** HMAC-SHA256 of `message` under `secret`, hex encoded. */
export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return toHex(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

/**
 * The account's own webhook signing key: HMAC-SHA256(WEBHOOK_SIGNING_SECRET, accountId), so
 * no customer can forge deliveries to another (DESIGN.md, "Async, batches, webhooks").
 */
export function webhookSecretFor(env: Env, accountId: string): Promise<string> {
  return hmacHex(config(env).webhookSigningSecret, accountId);
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
  return crypto.subtle.timingSafeEqual(da, db);
}

/**
 * Synchronous constant-time comparison of two digests of public length (e.g. sha256 hex);
 * different lengths are simply unequal.
 */
export function timingSafeEqualDigests(a: string, b: string): boolean {
  const ba = encoder.encode(a);
  const bb = encoder.encode(b);
  return ba.byteLength === bb.byteLength && crypto.subtle.timingSafeEqual(ba, bb);
}
