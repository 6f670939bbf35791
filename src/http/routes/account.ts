/**
 * Account read-outs for the key holder, all free of credit: the account summary (also at
 * /v1/usage, an alias) and the credential check. The summary's work is the account's
 * (src/accounts/summary.ts, shared with the MCP `account_usage` tool); this adds the webhook
 * signing secret, which only the REST answer shows.
 */
import {
  accountSchema,
  credentialCheckSchema,
  type AccountData,
  type CredentialCheckData,
} from "../../../schemas/responses";
import { accountView } from "../../accounts/summary";
import { publicOrigin } from "../../storage/hosted";
import { webhookSecretFor } from "../../webhooks/keys";
import { endpoint, endpoints, type Endpoint, type EndpointContext } from "../endpoint";
import { successBody } from "../envelope";
import {
  envelopeResponse,
  errorResponses,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
} from "../openapi/registry";

async function accountSummary(c: EndpointContext): Promise<Response> {
  const auth = c.get("auth");
  const data: AccountData = {
    ...(await accountView(auth, publicOrigin(c.env, c.req.url))),
    webhooks: { signingSecret: await webhookSecretFor(c.env, auth.accountId) },
  };
  return c.json(successBody(c.get("requestId"), data));
}

/** GET /v1/account and its alias: one contract, two operation ids. */
function summaryAt(path: string, operationId: string, summary: string): Endpoint {
  return {
    method: "get",
    path,
    auth: "key",
    operation: {
      operationId,
      summary,
      description: "Plan, monthly credits, rate limit and upgrade path; free of credit.",
      tags: ["Account"],
      responses: {
        "200": envelopeResponse("The account summary.", accountSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS]),
      },
    },
    handler: accountSummary,
  };
}

export const accountRoutes = endpoints(
  endpoint(summaryAt("/v1/account", "getAccount", "Get the account")),
  endpoint(summaryAt("/v1/usage", "getUsage", "Get usage (alias of account)")),
  endpoint({
    method: "get",
    path: "/v1/credential-check",
    auth: "key",
    operation: {
      operationId: "checkCredentials",
      summary: "Check the API key",
      description: "Answers 200 when the key is valid, with its account, plan and key id.",
      tags: ["Account"],
      responses: {
        "200": envelopeResponse("The key is valid.", credentialCheckSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS]),
      },
    },
    handler: (c) => {
      const auth = c.get("auth");
      const data: CredentialCheckData = {
        valid: true,
        accountId: auth.accountId,
        plan: auth.plan.id,
        keyId: auth.keyId,
      };
      return c.json(successBody(c.get("requestId"), data));
    },
  }),
);
