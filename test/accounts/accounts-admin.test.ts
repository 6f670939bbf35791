import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dumpStorage } from "../helpers/account-do";
import { addKey, admin, bearer, createAccount, revokeKey } from "../helpers/accounts";
import { call, envelope } from "../helpers/http";

interface KeyView {
  keyId: string;
  prefix: string;
  status: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

describe("admin authentication", () => {
  it("401 UNAUTHORIZED without the admin token, with a wrong one, or an API key", async () => {
    const { apiKey } = await createAccount("pro");
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer wrong-token-wrong-token" },
      { authorization: `Bearer ${env.ADMIN_TOKEN}x` },
      { authorization: `Basic ${btoa(`admin:${env.ADMIN_TOKEN}`)}` },
      { authorization: env.ADMIN_TOKEN },
      { "x-api-key": env.ADMIN_TOKEN },
      bearer(apiKey),
    ];
    for (const headers of attempts) {
      const res = await call("/admin/accounts", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ plan: "enterprise" }),
      });
      expect(res.status).toBe(401);
      expect((await envelope(res)).error?.code).toBe("UNAUTHORIZED");
    }
  });
});

describe("admin accounts and keys", () => {
  it("POST /admin/accounts → 201 {accountId, plan, keyId, apiKey}; the key works at once", async () => {
    const res = await admin("/accounts", {
      method: "POST",
      body: JSON.stringify({ plan: "starter", name: "Acme" }),
    });
    expect(res.status).toBe(201);
    const data = (
      await envelope<{
        accountId: string;
        plan: string;
        keyId: string;
        apiKey: string;
        name: string;
      }>(res)
    ).data;
    expect(data?.accountId).toMatch(/^acc_[0-9A-Za-z]{22}$/);
    expect(data?.keyId).toMatch(/^key_[0-9A-Za-z]{22}$/);
    expect(data?.apiKey).toMatch(/^svc_[0-9A-Za-z]{43}$/);
    expect(data).toMatchObject({ plan: "starter", name: "Acme" });
    const check = await call("/v1/credential-check", { headers: bearer(data?.apiKey ?? "") });
    expect((await envelope(check)).data).toMatchObject({
      accountId: data?.accountId,
      keyId: data?.keyId,
    });
  });

  it("refuses bad bodies with 400", async () => {
    const bodies = [
      '{"plan":"gold"}',
      '{"plan":"pro","extra":1}',
      "{}",
      '{"plan":"pro","name":""}',
      "[",
      "null",
    ];
    for (const body of bodies) {
      const res = await admin("/accounts", { method: "POST", body });
      expect(res.status, body).toBe(400);
      expect(["VALIDATION_ERROR", "INVALID_JSON"]).toContain((await envelope(res)).error?.code);
    }
  });

  it("GET shows the summary and keys (prefix, status, times) but never a hash or a key", async () => {
    const acct = await createAccount("basic", "Shown");
    const second = await addKey(acct.accountId);
    await call("/v1/credential-check", { headers: bearer(second.apiKey) });
    await revokeKey(acct.keyId);
    const res = await admin(`/accounts/${acct.accountId}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(acct.apiKey);
    expect(text).not.toContain(second.apiKey);
    expect(text).not.toMatch(/[0-9a-f]{64}/);
    const data = (JSON.parse(text) as { data: Record<string, unknown> & { keys: KeyView[] } }).data;
    expect(data).toMatchObject({
      accountId: acct.accountId,
      name: "Shown",
      plan: "basic",
      rateLimitPerMinute: 20,
      readRateLimitPerMinute: 120,
      activeJobs: 0,
    });
    expect(data.usage).toMatchObject({ used: 0, limit: 1000, remaining: 1000, unlimited: false });
    const [first, other] = data.keys;
    expect(first).toMatchObject({
      keyId: acct.keyId,
      status: "revoked",
      prefix: `${acct.apiKey.slice(0, 8)}…`,
      lastUsedAt: null,
    });
    expect(Date.parse(first?.revokedAt ?? "")).not.toBeNaN();
    expect(other).toMatchObject({ keyId: second.keyId, status: "active", revokedAt: null });
    expect(Date.parse(other?.lastUsedAt ?? "")).not.toBeNaN();
  });

  it("PATCH changes plan and usage; the change shows on the next request", async () => {
    const acct = await createAccount("free");
    const res = await admin(`/accounts/${acct.accountId}`, {
      method: "PATCH",
      body: JSON.stringify({ plan: "pro", creditsUsed: 24_990 }),
    });
    expect(res.status).toBe(200);
    expect((await envelope(res)).data).toMatchObject({
      plan: "pro",
      usage: { used: 24_990, remaining: 10 },
    });
    const check = await call("/v1/credential-check", { headers: bearer(acct.apiKey) });
    expect((await envelope(check)).data?.plan).toBe("pro");
    expect(check.headers.get("x-ratelimit-limit")).toBe("1200"); // Pro's read limit
    for (const body of ["{}", '{"creditsUsed":-1}', '{"creditsUsed":1.5}', '{"plan":"x"}']) {
      const bad = await admin(`/accounts/${acct.accountId}`, { method: "PATCH", body });
      expect(bad.status, body).toBe(400);
    }
  });

  it("404 for unknown or malformed account and key ids", async () => {
    const missing = "acc_0000000000000000000000";
    const requests: Array<[string, string, string?]> = [
      ["GET", `/accounts/${missing}`],
      ["GET", "/accounts/not-an-id"],
      ["PATCH", `/accounts/${missing}`, '{"plan":"pro"}'],
      ["POST", `/accounts/${missing}/keys`],
      ["POST", "/keys/key_0000000000000000000000/revoke"],
      ["POST", "/keys/whatever/revoke"],
    ];
    for (const [method, path, body] of requests) {
      const res = await admin(path, { method, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await envelope(res)).error?.code).toBe("NOT_FOUND");
    }
  });

  it("a key added to an account authenticates as that account; revoking one key leaves the other", async () => {
    const acct = await createAccount("pro");
    const extra = await addKey(acct.accountId);
    const res = await admin(`/keys/${extra.keyId}/revoke`, { method: "POST" });
    expect(res.status).toBe(200);
    expect((await envelope(res)).data).toMatchObject({
      accountId: acct.accountId,
      keyId: extra.keyId,
      status: "revoked",
    });
    expect((await call("/v1/credential-check", { headers: bearer(extra.apiKey) })).status).toBe(
      403,
    );
    expect((await call("/v1/credential-check", { headers: bearer(acct.apiKey) })).status).toBe(200);
  });
});

describe("keys at rest", () => {
  it("neither the Account DO's SQL storage nor KV holds a key in plain text", async () => {
    const acct = await createAccount("pro");
    const extra = await addKey(acct.accountId);
    await call("/v1/credential-check", { headers: bearer(acct.apiKey) });
    const keys = [acct.apiKey, extra.apiKey];
    const bodies = keys.map((k) => k.slice(4));

    const storage = JSON.stringify(await dumpStorage(acct.accountId));
    expect(storage).toContain(acct.keyId); // the dump really holds the key rows
    for (const text of [...keys, ...bodies]) expect(storage).not.toContain(text);
    expect(storage).not.toContain(bodies[0]?.slice(4, 24));

    const names: string[] = [];
    for (let cursor: string | undefined; ;) {
      const page = await env.RENDER_CACHE.list(cursor ? { cursor } : {});
      names.push(...page.keys.map((k) => k.name));
      if (page.list_complete) break;
      cursor = page.cursor;
    }
    const entries = await Promise.all(
      names.map(async (name) => `${name}=${await env.RENDER_CACHE.get(name)}`),
    );
    const kv = entries.join("\n");
    expect(kv).toContain(`keyid:${extra.keyId}=${acct.accountId}`);
    for (const text of bodies) expect(kv).not.toContain(text);
  });
});

describe("a dashboard login for an existing account (PUT /admin/accounts/:id/login)", () => {
  const login = (email: string, password: string) =>
    call("/dashboard/login", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://edgeshot.test",
      },
      body: new URLSearchParams({ email, password }).toString(),
      redirect: "manual",
    });
  const put = (accountId: string, body: unknown) =>
    admin(`/accounts/${accountId}/login`, { method: "PUT", body: JSON.stringify(body) });

  it("signs into that account's dashboard; setting it again changes the password", async () => {
    const acct = await createAccount("pro");
    const email = `Ops-${crypto.randomUUID()}@Example.com`;
    const created = await put(acct.accountId, { email, password: "first long passphrase" });
    expect(created.status).toBe(201);
    expect((await envelope(created)).data).toEqual({
      accountId: acct.accountId,
      email: email.toLowerCase(),
    });
    const signedIn = await login(email, "first long passphrase");
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("location")).toBe("/dashboard/usage");
    const cookie = /(__Secure-edgeshot_session=[^;]+)/.exec(
      signedIn.headers.get("set-cookie") ?? "",
    )?.[1];
    const usage = await (
      await call("/dashboard/usage", { headers: { cookie: cookie ?? "" } })
    ).text();
    expect(usage).toContain('data-testid="plan">Pro<');

    const again = await put(acct.accountId, { email, password: "second long passphrase" });
    expect(again.status).toBe(200);
    expect((await login(email, "first long passphrase")).status).toBe(401);
    expect((await login(email, "second long passphrase")).status).toBe(303);
  });

  it("refuses an email of another account, a common password, an unknown account", async () => {
    const [one, two] = [await createAccount("free"), await createAccount("basic")];
    const email = `taken-${crypto.randomUUID()}@example.com`;
    expect((await put(one.accountId, { email, password: "a long passphrase" })).status).toBe(201);
    const taken = await envelope(
      await put(two.accountId, { email, password: "a long passphrase" }),
    );
    expect(taken.error?.details).toEqual([
      { path: "email", message: "already signs into another account." },
    ]);
    const common = await envelope(
      await put(two.accountId, { email: `x-${email}`, password: "password123" }),
    );
    expect(common.error?.details?.[0]?.path).toBe("password");
    const missing = await put("acc_0000000000000000000000", {
      email: `y-${email}`,
      password: "a long passphrase",
    });
    expect(missing.status).toBe(404);
  });
});
