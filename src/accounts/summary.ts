/**
 * The account's read-out for its key holder: plan, credits this month, rate limits and the
 * upgrade offer — GET /v1/account (and /v1/usage) and the MCP `account_usage` tool.
 *
 * The webhook signing secret the REST answer also carries is not here: it is webhooks' (derived
 * in src/webhooks/keys.ts, a part above this one), so the route adds it, and the MCP tool, which
 * must not put a secret in a model's context, never computes it.
 */
import type { AccountData } from "../../schemas/responses";
import { ApiError } from "../errors";
import { MESSAGES } from "../user-messages";
import type { AuthContext } from "./auth";
import { upgradeFor } from "./plans";

/** The account summary without its webhook signing secret. */
export type AccountView = Omit<AccountData, "webhooks">;

/** `origin` is where the upgrade links point (the dashboard of this deployment). */
export async function accountView(auth: AuthContext, origin: string): Promise<AccountView> {
  const summary = await auth.account.summary();
  // The account was deleted since its key authenticated: answered as if the key were gone.
  if (!summary) throw new ApiError("INVALID_API_KEY", MESSAGES.invalidApiKey);
  return {
    plan: summary.plan,
    usage: summary.usage,
    rateLimitPerMinute: summary.rateLimitPerMinute,
    readRateLimitPerMinute: summary.readRateLimitPerMinute,
    upgrade: upgradeFor(summary.plan, origin),
  };
}
