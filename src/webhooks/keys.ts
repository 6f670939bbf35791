/**
 * Each account's own webhook signing key: HMAC-SHA256(WEBHOOK_SIGNING_SECRET, accountId), so
 * no customer can forge deliveries to another (DESIGN.md, "Async, batches, webhooks"). Shown
 * to its owner in GET /v1/account.
 */
import { config } from "../config";
import { hmacHex } from "../signing/hmac";

export function webhookSecretFor(env: Env, accountId: string): Promise<string> {
  return hmacHex(config(env).webhookSigningSecret, accountId);
}
