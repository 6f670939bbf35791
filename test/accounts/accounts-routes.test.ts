import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { setClock } from "../helpers/account-do";
import { bearer, createAccount, describeAuthCases, setAccount } from "../helpers/accounts";
import { BASE, call, envelope, postJson } from "../helpers/http";

interface AccountData {
  plan: string;
  usage: {
    used: number;
    limit: number | null;
    remaining: number | null;
    unlimited: boolean;
    resetsAt: string;
  };
  rateLimitPerMinute: number;
  readRateLimitPerMinute: number;
  upgrade: null | {
    recommendedPlan: string;
    recommendedPlanCredits: number | null;
    upgradeUrl: string;
    manageBillingUrl: string;
  };
  webhooks: { signingSecret: string };
}

async function expectedSigningSecret(accountId: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(env.WEBHOOK_SIGNING_SECRET),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(accountId)),
  );
  return [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function nextMonthStart(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

describe("GET /v1/account", () => {
  describeAuthCases((headers) => call("/v1/account", { headers }));

  it("summarises plan, usage, rate limit, upgrade and the account's webhook secret, free of credit", async () => {
    const acct = await createAccount("free");
    await setAccount(acct.accountId, { creditsUsed: 42 });
    const res = await call("/v1/account", { headers: bearer(acct.apiKey) });
    expect(res.status).toBe(200);
    const body = await envelope<AccountData>(res);
    expect(body.meta.usage).toBeUndefined();
    expect(body.data).toEqual({
      plan: "free",
      usage: { used: 42, limit: 100, remaining: 58, unlimited: false, resetsAt: nextMonthStart() },
      rateLimitPerMinute: 3,
      readRateLimitPerMinute: 60,
      upgrade: {
        recommendedPlan: "basic",
        recommendedPlanCredits: 1000,
        upgradeUrl: `${BASE}/dashboard/plans?plan=basic`,
        manageBillingUrl: `${BASE}/dashboard/plans`,
      },
      webhooks: { signingSecret: await expectedSigningSecret(acct.accountId) },
    });
    const again = await envelope<AccountData>(
      await call("/v1/usage", { headers: bearer(acct.apiKey) }),
    );
    expect(again.data?.usage.used).toBe(42);
  });

  it("Enterprise: unlimited usage, no upgrade; signing secrets differ per account", async () => {
    const a = await createAccount("enterprise");
    const b = await createAccount("enterprise");
    const data = (
      await envelope<AccountData>(await call("/v1/usage", { headers: bearer(a.apiKey) }))
    ).data;
    expect(data?.usage).toMatchObject({ used: 0, limit: null, remaining: null, unlimited: true });
    expect(data?.upgrade).toBeNull();
    expect(data?.rateLimitPerMinute).toBe(1000);
    const other = (
      await envelope<AccountData>(await call("/v1/account", { headers: bearer(b.apiKey) }))
    ).data;
    expect(other?.webhooks.signingSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(other?.webhooks.signingSecret).not.toBe(data?.webhooks.signingSecret);
  });
});

describe("GET /v1/usage", () => {
  describeAuthCases((headers) => call("/v1/usage", { headers }), "basic");
});

describe("rate limiter", () => {
  it("resets on the minute boundary, not a minute after the first call", async () => {
    const { accountId, apiKey } = await createAccount("free");
    const boundary = Date.UTC(2026, 5, 10, 12, 1);
    // A write (an invalid one: 400, but counted) spends the request limit, not the read limit.
    const check = () => postJson("/v1/watches", {}, bearer(apiKey));

    await setClock(accountId, () => boundary - 1_000);
    for (let i = 0; i < 3; i += 1) expect((await check()).status).toBe(400);
    const limited = await check();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");

    await setClock(accountId, () => boundary - 1);
    expect((await check()).status).toBe(429);

    await setClock(accountId, () => boundary);
    const fresh = await check();
    expect(fresh.status).toBe(400);
    expect(fresh.headers.get("x-ratelimit-remaining")).toBe("2");
    expect(fresh.headers.get("x-ratelimit-reset")).toBe(String((boundary + 60_000) / 1000));
  });

  it("counts every authenticated call, credit-free reads against the read limit; refused calls do not count", async () => {
    const { accountId, apiKey } = await createAccount("free");
    await setClock(accountId, () => Date.UTC(2026, 5, 10, 12, 0, 10));
    const paths = ["/v1/account", "/v1/usage", "/v1/credential-check", "/v1/account"];
    const remaining = [];
    for (const path of paths) {
      const res = await call(path, { headers: bearer(apiKey) });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("60");
      remaining.push(res.headers.get("x-ratelimit-remaining"));
    }
    expect(remaining).toEqual(["59", "58", "57", "56"]);
    const writes = [];
    for (let i = 0; i < 4; i += 1)
      writes.push((await postJson("/v1/watches", {}, bearer(apiKey))).status);
    expect(writes).toEqual([400, 400, 400, 429]);
    await setClock(accountId, () => Date.UTC(2026, 5, 10, 12, 1, 0));
    const next = await postJson("/v1/watches", {}, bearer(apiKey));
    expect(next.headers.get("x-ratelimit-remaining")).toBe("2");
  });
});
