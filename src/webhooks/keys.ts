/**
 * Each account's own webhook signing key: HMAC-SHA256(WEBHOOK_SIGNING_SECRET, accountId). With
 * one key shared by all accounts, any customer could sign a delivery that another's receiver
 * accepts; per account, a receiver only trusts what its own account's key signed. Derived, not
 * stored, so nothing is kept per account. Shown to its owner in GET /v1/account.
 */
import { config } from "../config";
import { hmacHex } from "../signing/hmac";

export function webhookSecretFor(env: Env, accountId: string): Promise<string> {
  return hmacHex(config(env).webhookSigningSecret, accountId);
}
