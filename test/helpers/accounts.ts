/**
 * Accounts for tests, made through the admin API like any operator would, and the shared
 * authentication cases every key-protected route's test runs (`describeAuthCases`).
 */
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import type { PlanId } from "../../src/accounts/plans";
import { call, envelope } from "./http";

export const ADMIN_AUTH = { authorization: `Bearer ${env.ADMIN_TOKEN}` };

export interface TestAccount {
  accountId: string;
  apiKey: string;
  keyId: string;
}

export interface AdminInit {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}

export function admin(path: string, init: AdminInit = {}): Promise<Response> {
  const headers = { "content-type": "application/json", ...ADMIN_AUTH, ...init.headers };
  return call(`/admin${path}`, { ...init, headers });
}

/** A new account on `plan` with one active key. */
export async function createAccount(plan: PlanId = "pro", name?: string): Promise<TestAccount> {
  const res = await admin("/accounts", { method: "POST", body: JSON.stringify({ plan, name }) });
  const body = await envelope<TestAccount>(res);
  if (res.status !== 201 || !body.data)
    throw new Error(`createAccount: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

export async function addKey(accountId: string): Promise<{ keyId: string; apiKey: string }> {
  const res = await admin(`/accounts/${accountId}/keys`, { method: "POST" });
  const body = await envelope<{ keyId: string; apiKey: string }>(res);
  if (res.status !== 201 || !body.data) throw new Error(`addKey: ${res.status}`);
  return body.data;
}

export async function revokeKey(keyId: string): Promise<void> {
  const res = await admin(`/keys/${keyId}/revoke`, { method: "POST" });
  if (res.status !== 200) throw new Error(`revokeKey: ${res.status}`);
}

export async function setAccount(
  accountId: string,
  change: { plan?: PlanId; creditsUsed?: number },
): Promise<void> {
  const res = await admin(`/accounts/${accountId}`, {
    method: "PATCH",
    body: JSON.stringify(change),
  });
  if (res.status !== 200) throw new Error(`setAccount: ${res.status}`);
}

export const bearer = (apiKey: string): Record<string, string> => ({
  authorization: `Bearer ${apiKey}`,
});

/** A well-formed key that belongs to nobody. */
export const UNKNOWN_KEY = `svc_${"A".repeat(43)}`;

/**
 * The authentication cases of a key-protected route. `makeRequest` sends the route's request
 * with the given extra headers (merge them into its own); the valid-key case only checks that
 * authentication passed and the rate-limit headers came back, whatever the route then answers.
 */
export function describeAuthCases(
  makeRequest: (headers: Record<string, string>) => Promise<Response>,
  plan: PlanId = "pro",
): void {
  const expectError = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect((await envelope(res)).error?.code).toBe(code);
    expect(res.headers.get("x-ratelimit-remaining")).toBeNull();
  };

  it("auth: no key → 401 MISSING_API_KEY", async () => {
    await expectError(await makeRequest({}), 401, "MISSING_API_KEY");
  });

  it("auth: unknown well-formed key → 401 INVALID_API_KEY", async () => {
    await expectError(await makeRequest(bearer(UNKNOWN_KEY)), 401, "INVALID_API_KEY");
  });

  it("auth: key without the svc_ prefix → 401 INVALID_API_KEY", async () => {
    const { apiKey } = await createAccount(plan);
    const res = await makeRequest(bearer(apiKey.slice("svc_".length)));
    await expectError(res, 401, "INVALID_API_KEY");
  });

  it("auth: revoked key → 403 KEY_DISABLED", async () => {
    const { apiKey, keyId } = await createAccount(plan);
    await revokeKey(keyId);
    await expectError(await makeRequest(bearer(apiKey)), 403, "KEY_DISABLED");
  });

  it("auth: valid key → authenticated, rate-limit headers on the response", async () => {
    const { apiKey } = await createAccount(plan);
    const sent = Date.now();
    const res = await makeRequest({ "x-api-key": apiKey });
    await res.body?.cancel();
    expect([401, 403]).not.toContain(res.status);
    expect(Number(res.headers.get("x-ratelimit-limit"))).toBeGreaterThan(0);
    expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    // The window ends after the request was sent (not after the answer came: a slow capture may
    // outlast the window it was counted in).
    expect(Number(res.headers.get("x-ratelimit-reset")) * 1000).toBeGreaterThan(sent);
  });
}
