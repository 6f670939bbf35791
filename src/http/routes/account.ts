/**
 * Account read-outs for the key holder, all free of credit: the account summary (also at
 * /usage, an alias) and the credential check.
 */
import { type Context, Hono } from "hono";
import type { AccountData, CredentialCheckData } from "../../../schemas/responses";
import type { AuthContext } from "../../accounts/auth";
import { upgradeFor } from "../../accounts/plans";
import { publicOrigin } from "../../storage/hosted";
import { webhookSecretFor } from "../../webhooks/keys";
import { successBody } from "../envelope";
import { ApiError } from "../../errors";
import { MESSAGES } from "../../messages";
import { authenticate } from "../middleware/authenticate";
import type { AppEnv } from "../types";

/** The account summary of GET /v1/account; also the MCP `account_usage` tool's (src/http/mcp/). */
export async function accountData(
  env: Env,
  auth: AuthContext,
  origin: string,
): Promise<AccountData> {
  const summary = await auth.account.summary();
  if (!summary) throw new ApiError("INVALID_API_KEY", MESSAGES.invalidApiKey);
  return {
    plan: summary.plan,
    usage: summary.usage,
    rateLimitPerMinute: summary.rateLimitPerMinute,
    readRateLimitPerMinute: summary.readRateLimitPerMinute,
    upgrade: upgradeFor(summary.plan, origin),
    webhooks: { signingSecret: await webhookSecretFor(env, auth.accountId) },
  };
}

async function accountSummary(c: Context<AppEnv>): Promise<Response> {
  const data = await accountData(c.env, c.get("auth"), publicOrigin(c.env, c.req.url));
  return c.json(successBody(c.get("requestId"), data));
}

export const accountRoutes = new Hono<AppEnv>()
  .get("/account", authenticate(), accountSummary)
  .get("/usage", authenticate(), accountSummary)
  .get("/credential-check", authenticate(), (c) => {
    const auth = c.get("auth");
    const data: CredentialCheckData = {
      valid: true,
      accountId: auth.accountId,
      plan: auth.plan.id,
      keyId: auth.keyId,
    };
    return c.json(successBody(c.get("requestId"), data));
  });
