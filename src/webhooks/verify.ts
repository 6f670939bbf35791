/**
 * Verifying an Edgeshot webhook on the receiving side — exported for the SDK and shown in the
 * README. Self-contained (WebCrypto only: Node 18+, Workers, Deno, browsers).
 *
 * A delivery is genuine when `x-service-signature` equals hex HMAC-SHA256 over
 * `<x-service-timestamp>.<raw body>` under the account's signing secret (GET /v1/account →
 * webhooks.signingSecret), compared in constant time, and the timestamp is within the replay
 * window (300 s by default) of the receiver's clock. Verify the RAW body bytes, before parsing.
 */

export interface VerifyWebhookInput {
  /** The raw request body, exactly as received. */
  body: string | Uint8Array;
  /** `x-service-signature` header. */
  signature: string | null | undefined;
  /** `x-service-timestamp` header (Unix seconds). */
  timestamp: string | null | undefined;
  /** The account's webhook signing secret. */
  secret: string;
  /** The receiver's clock, ms since the epoch (default Date.now()). */
  now?: number;
  /** Replay window in seconds (default 300). */
  toleranceSeconds?: number;
}

export type VerifyWebhookResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: "missing_header" | "malformed_timestamp" | "stale_timestamp" | "bad_signature" };

const encoder = new TextEncoder();

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}

/** Compares two strings in time that depends on their length only. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.byteLength ^ y.byteLength;
  for (let i = 0; i < x.byteLength; i++) diff |= (x[i] ?? 0) ^ (y[i % Math.max(1, y.byteLength)] ?? 0);
  return diff === 0;
}

/** Hex HMAC-SHA256 of `<timestamp>.<body>` under `secret`. */
export async function webhookSignature(secret: string, timestamp: string, body: string | Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const raw = typeof body === "string" ? encoder.encode(body) : body;
  return toHex(await crypto.subtle.sign("HMAC", key, concat(encoder.encode(`${timestamp}.`), raw)));
}

export async function verifyWebhook(input: VerifyWebhookInput): Promise<VerifyWebhookResult> {
  const { signature, timestamp } = input;
  if (!signature || !timestamp) return { ok: false, reason: "missing_header" };
  if (!/^[0-9]{1,12}$/.test(timestamp)) return { ok: false, reason: "malformed_timestamp" };
  const seconds = Number(timestamp);
  const now = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(now - seconds) > (input.toleranceSeconds ?? 300)) return { ok: false, reason: "stale_timestamp" };
  const expected = await webhookSignature(input.secret, timestamp, input.body);
  return constantTimeEqual(signature.trim().toLowerCase(), expected) ? { ok: true, timestamp: seconds } : { ok: false, reason: "bad_signature" };
}
