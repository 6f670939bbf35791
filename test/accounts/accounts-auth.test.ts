import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { authenticate } from "../../src/http/middleware/authenticate";
import { jsonBody } from "../../src/http/body";
import { newApp } from "../../src/http/app";
import { BASE, call, envelope } from "../helpers/http";
import { setClock } from "../helpers/account-do";
import {
  bearer,
  createAccount,
  describeAuthCases,
  revokeKey,
  UNKNOWN_KEY,
} from "../helpers/accounts";

/** The real app plus probe routes: one taking `?key=`, one returning a raw Response, one parsing a body. */
const app = newApp();
app.get("/probe/query", authenticate({ allowQueryKey: true }), (c) =>
  c.json({ keyId: c.get("auth").keyId }),
);
app.get(
  "/probe/raw",
  authenticate(),
  () => new Response("bytes", { headers: { "content-type": "image/png" } }),
);
app.post("/probe/body", authenticate(), async (c) =>
  c.json(await jsonBody(c, z.strictObject({ n: z.number() }))),
);

async function probe(path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${BASE}${path}`, init), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function code(res: Response): Promise<string | undefined> {
  return (await envelope(res)).error?.code;
}

describe("GET /v1/credential-check", () => {
  describeAuthCases((headers) => call("/v1/credential-check", { headers }));

  it("returns the key's account, plan and key id", async () => {
    const acct = await createAccount("starter");
    const res = await call("/v1/credential-check", { headers: bearer(acct.apiKey) });
    expect(res.status).toBe(200);
    const body = await envelope(res);
    expect(body.data).toEqual({
      valid: true,
      accountId: acct.accountId,
      plan: "starter",
      keyId: acct.keyId,
    });
    expect(body.meta.usage).toBeUndefined();
  });
});

describe("authentication", () => {
  it("accepts Bearer (any case of the scheme) and x-api-key", async () => {
    const { apiKey } = await createAccount("pro");
    for (const headers of [
      bearer(apiKey),
      { authorization: `bearer ${apiKey}` },
      { "x-api-key": apiKey },
    ]) {
      expect((await call("/v1/credential-check", { headers })).status).toBe(200);
    }
  });

  it("empty Bearer and Basic auth → 401 MISSING_API_KEY", async () => {
    for (const authorization of ["Bearer", "Bearer   ", "Basic dXNlcjpwYXNz", ""]) {
      const res = await call("/v1/credential-check", { headers: { authorization } });
      expect(res.status).toBe(401);
      expect(await code(res)).toBe("MISSING_API_KEY");
    }
  });

  it("a key sent without Bearer is told how to send it", async () => {
    const { apiKey } = await createAccount("pro");
    const res = await call("/v1/credential-check", { headers: { authorization: apiKey } });
    expect(res.status).toBe(401);
    const body = await envelope(res);
    expect(body.error?.code).toBe("MISSING_API_KEY");
    expect(body.error?.message).toBe(
      "The Authorization header must be `Bearer <key>`: the word Bearer, a space, then the key.",
    );
    const none = await envelope(await call("/v1/credential-check"));
    expect(none.error?.message).toBe(
      "An API key is required: send it as `Authorization: Bearer <key>`.",
    );
  });

  it("malformed keys → 401 INVALID_API_KEY, never a 500", async () => {
    const { apiKey } = await createAccount("pro");
    const bad = [
      `${apiKey}x`,
      apiKey.slice(0, -1),
      `svc_${"x".repeat(10 * 1024)}`,
      "x".repeat(10 * 1024),
      `${apiKey.slice(0, -1)}ü`,
      apiKey.toUpperCase(),
      `SVC_${apiKey.slice(4)}`,
      `${apiKey} ${apiKey}`,
    ];
    for (const key of bad) {
      const res = await call("/v1/credential-check", { headers: bearer(key) });
      expect(res.status, key.slice(0, 60)).toBe(401);
      expect(await code(res)).toBe("INVALID_API_KEY");
    }
  });

  it("a query key is ignored where not allowed and accepted where allowed", async () => {
    const { apiKey, keyId } = await createAccount("pro");
    const ignored = await call(`/v1/credential-check?key=${apiKey}`);
    expect(ignored.status).toBe(401);
    expect(await code(ignored)).toBe("MISSING_API_KEY");

    const accepted = await probe(`/probe/query?key=${apiKey}`);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ keyId });
    expect(accepted.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  });

  it("a query key with a trailing newline or unknown to us → 401 INVALID_API_KEY", async () => {
    const { apiKey } = await createAccount("pro");
    for (const key of [`${apiKey}%0A`, UNKNOWN_KEY, `${apiKey}%00`]) {
      const res = await probe(`/probe/query?key=${key}`);
      expect(res.status).toBe(401);
      expect(await code(res)).toBe("INVALID_API_KEY");
    }
  });

  it("revocation takes effect on the very next request; other keys keep working", async () => {
    const acct = await createAccount("basic");
    const first = await call("/v1/credential-check", { headers: bearer(acct.apiKey) });
    expect(first.status).toBe(200);
    await revokeKey(acct.keyId);
    const next = await call("/v1/credential-check", { headers: bearer(acct.apiKey) });
    expect(next.status).toBe(403);
    expect(await code(next)).toBe("KEY_DISABLED");
  });
});

describe("rate-limit headers", () => {
  it("are on raw binary responses and on errors raised after authentication", async () => {
    const { apiKey } = await createAccount("starter");
    // A GET reserving no credit is a read: the read limit's headers (Starter: 300/min).
    const raw = await probe("/probe/raw", { headers: bearer(apiKey) });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("x-ratelimit-limit")).toBe("300");
    expect(raw.headers.get("x-ratelimit-remaining")).toBe("299");

    const invalid = await probe("/probe/body", {
      method: "POST",
      headers: bearer(apiKey),
      body: "{}",
    });
    expect(invalid.status).toBe(400);
    expect(await code(invalid)).toBe("VALIDATION_ERROR");
    expect(invalid.headers.get("x-ratelimit-limit")).toBe("60");
    expect(invalid.headers.get("x-ratelimit-remaining")).toBe("59");
    expect(invalid.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("count down per request and refuse with 429 RATE_LIMITED + Retry-After past the plan's limit", async () => {
    const { accountId, apiKey } = await createAccount("free");
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    await setClock(accountId, () => minute + 15_000);
    const seen: string[] = [];
    // POST (not a read): the plan's request limit, 3/min on Free.
    const post = () =>
      probe("/probe/body", { method: "POST", headers: bearer(apiKey), body: '{"n":1}' });
    for (let i = 0; i < 3; i += 1) {
      const res = await post();
      expect(res.status).toBe(200);
      seen.push(res.headers.get("x-ratelimit-remaining") ?? "");
      expect(res.headers.get("x-ratelimit-reset")).toBe(String((minute + 60_000) / 1000));
    }
    expect(seen).toEqual(["2", "1", "0"]);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(await code(limited)).toBe("RATE_LIMITED");
    expect(limited.headers.get("retry-after")).toBe("45");
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("x-ratelimit-limit")).toBe("3");
  });
});
