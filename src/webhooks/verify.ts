/**
 * Verifying an Edgeshot webhook on the receiving side — exported for the SDK and shown in the
 * README. WebCrypto only (Node 18+, Workers, Deno, browsers): it shares the signature and the
 * constant-time compare with the sender (./sign.ts, src/signing/), so the two cannot drift.
 *
 * A delivery is genuine when `x-service-signature` equals hex HMAC-SHA256 over
 * `<x-service-timestamp>.<raw body>` under the account's signing secret (GET /v1/account →
 * webhooks.signingSecret), compared in constant time, and the timestamp is within the replay
 * window (WEBHOOKS.replayWindowSeconds, 300 s, by default) of the receiver's clock. Verify the RAW body bytes, before parsing.
 */
import { WEBHOOKS } from "../../schemas/limits";
import { timingSafeEqualDigests } from "../signing/hmac";
import { signWebhook } from "./sign";

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
  /** Replay window in seconds (default WEBHOOKS.replayWindowSeconds). */
  toleranceSeconds?: number;
}

export type VerifyWebhookResult =
  | { ok: true; timestamp: number }
  | {
      ok: false;
      reason: "missing_header" | "malformed_timestamp" | "stale_timestamp" | "bad_signature";
    };

export async function verifyWebhook(input: VerifyWebhookInput): Promise<VerifyWebhookResult> {
  const { signature, timestamp } = input;
  if (!signature || !timestamp) return { ok: false, reason: "missing_header" };
  if (!/^[0-9]{1,12}$/.test(timestamp)) return { ok: false, reason: "malformed_timestamp" };
  const seconds = Number(timestamp);
  const now = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(now - seconds) > (input.toleranceSeconds ?? WEBHOOKS.replayWindowSeconds))
    return { ok: false, reason: "stale_timestamp" };
  const expected = await signWebhook(input.secret, timestamp, input.body);
  return timingSafeEqualDigests(signature.trim().toLowerCase(), expected)
    ? { ok: true, timestamp: seconds }
    : { ok: false, reason: "bad_signature" };
}
