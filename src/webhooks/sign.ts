/**
 * The `x-service-signature` of a delivery, for the sender (./deliver.ts) and the receiver's
 * check (the SDK's sdk/src/webhooks.ts) alike. The signed-message format is src/signing/signed-payloads.ts.
 */
import { hmacHex } from "../signing/hmac";
import { webhookSigningMessage } from "../signing/signed-payloads";

/** Hex HMAC-SHA256 of `<timestamp>.<raw body>` under the account's signing secret. */
export function signWebhook(
  secret: string,
  timestamp: number | string,
  body: string | Uint8Array,
): Promise<string> {
  return hmacHex(secret, webhookSigningMessage(timestamp, body));
}
