/**
 * Verifying an Edgeshot webhook on the receiving side. WebCrypto only (Node 18+, Workers, Deno,
 * browsers), and self-contained: the package imports nothing outside sdk/.
 *
 * This is the one receiver-side verifier: the service's tests check it against the sender's
 * real signatures (src/webhooks/sign.ts) and its default replay window against the contract
 * (WEBHOOKS.replayWindowSeconds in schemas/limits.ts), so the two sides cannot drift.
 *
 * A delivery is genuine when `x-service-signature` equals hex HMAC-SHA256 over
 * `<x-service-timestamp>.<raw body>` under the account's signing secret (GET /v1/account →
 * webhooks.signingSecret), compared in constant time, and the timestamp is within the replay
 * window (300 s by default) of the receiver's clock. Verify the RAW body bytes, before parsing.
 */

/** Receivers reject signatures older than this by default (the service's replay window). */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

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
  /** Replay window in seconds (default DEFAULT_WEBHOOK_TOLERANCE_SECONDS, 300). */
  toleranceSeconds?: number;
}

export type VerifyWebhookResult =
  | { ok: true; timestamp: number }
  | {
      ok: false;
      reason: "missing_header" | "malformed_timestamp" | "stale_timestamp" | "bad_signature";
    };

const encoder = new TextEncoder();

/** Hex HMAC-SHA256 of `<timestamp>.<raw body>` under `secret`. */
async function expectedSignature(
  secret: string,
  timestamp: string,
  body: string | Uint8Array,
): Promise<string> {
  const head = encoder.encode(`${timestamp}.`);
  const tail = typeof body === "string" ? encoder.encode(body) : body;
  const message = new Uint8Array(head.byteLength + tail.byteLength);
  message.set(head);
  message.set(tail, head.byteLength);
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Equal strings of public length (hex digests), in time that depends on their length only. The
 * service's timingSafeEqualDigests (src/signing/hmac.ts) is the same code, repeated on purpose:
 * the package imports nothing outside sdk/, and the Worker does not import the SDK.
 */
function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.byteLength ^ y.byteLength;
  for (let i = 0; i < x.byteLength; i++)
    diff |= (x[i] ?? 0) ^ (y[i % Math.max(1, y.byteLength)] ?? 0);
  return diff === 0;
}

export async function verifyWebhook(input: VerifyWebhookInput): Promise<VerifyWebhookResult> {
  const { signature, timestamp } = input;
  if (!signature || !timestamp) return { ok: false, reason: "missing_header" };
  if (!/^[0-9]{1,12}$/.test(timestamp)) return { ok: false, reason: "malformed_timestamp" };
  const seconds = Number(timestamp);
  const now = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(now - seconds) > (input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS))
    return { ok: false, reason: "stale_timestamp" };
  const expected = await expectedSignature(input.secret, timestamp, input.body);
  return constantTimeEqual(signature.trim().toLowerCase(), expected)
    ? { ok: true, timestamp: seconds }
    : { ok: false, reason: "bad_signature" };
}
