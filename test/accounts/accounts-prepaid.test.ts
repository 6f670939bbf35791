/**
 * One Account DO round trip before a capture's work: the key, the rate limit and the credit
 * reservation in one `authorize` call (authenticate({ reserveFor })), the pipeline claiming that
 * reservation instead of making its own. Counted on the DO stub: every RPC the request makes
 * (the request log's write after the answer set aside).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { usageHeaders, withCredits } from "../../src/accounts/credits";
import { ApiError } from "../../src/errors";
import { newApp } from "../../src/http/app";
import { successBody } from "../../src/http/envelope";
import { authenticate } from "../../src/http/middleware/authenticate";
import { accountDo, setClock } from "../helpers/account-do";
import { bearer, createAccount, setAccount } from "../helpers/accounts";
import { BASE, envelope, FIXTURES, postJson, runId } from "../helpers/http";

/**
 * `env` whose ACCOUNT stubs record the name of every RPC made through them; a feature's call
 * (`account.credits().settle(…)`, one round trip) as `credits.settle`.
 */
function countingEnv(calls: string[]): Env {
  const ns = env.ACCOUNT;
  const counted = Object.create(ns) as typeof ns;
  counted.get = (id) => {
    const stub = ns.get(id);
    return new Proxy(stub, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== "function" || typeof prop !== "string") return value;
        return (...args: unknown[]) => {
          const index = calls.push(prop) - 1;
          const result = Reflect.apply(value, target, args) as object;
          return new Proxy(result, {
            get(inner, method, innerReceiver) {
              const member: unknown = Reflect.get(inner, method, innerReceiver);
              if (typeof member !== "function" || typeof method !== "string") return member;
              if (["then", "catch", "finally"].includes(method)) return member.bind(inner);
              return (...innerArgs: unknown[]) => {
                calls[index] = `${prop}.${method}`;
                return Reflect.apply(member, inner, innerArgs) as unknown;
              };
            },
          });
        };
      },
    });
  };
  counted.idFromName = (name) => ns.idFromName(name);
  return { ...env, ACCOUNT: counted };
}

const app = newApp();
app.post("/probe/capture", authenticate({ reserveFor: [{ kind: "image" }] }), async (c) => {
  const { value, usage } = await withCredits(c.get("auth"), 1, async () => "bytes");
  return new Response(value, { headers: usageHeaders(usage) });
});
app.post("/probe/unprepaid", authenticate(), async (c) => {
  const { value, usage } = await withCredits(c.get("auth"), 1, async () => "bytes");
  return new Response(value, { headers: usageHeaders(usage) });
});
app.post("/probe/invalid", authenticate({ reserveFor: [{ kind: "image" }] }), () => {
  throw new ApiError("VALIDATION_ERROR", "Invalid request: url.");
});
app.post("/probe/two", authenticate({ reserveFor: [{ kind: "image" }] }), async (c) => {
  const { usage } = await withCredits(c.get("auth"), 2, async () => "two outputs");
  return c.json(successBody(c.get("requestId"), { ok: true }, usage));
});

async function probe(path: string, apiKey: string, calls: string[] = []) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`${BASE}${path}`, { method: "POST", headers: bearer(apiKey) }),
    countingEnv(calls),
    ctx,
  );
  await waitOnExecutionContext(ctx); // background refunds included
  // The request log is written after the answer, in the background
  // (src/http/middleware/request-log.ts): at most one write a request (none for one refused
  // before its account is known), never on its path. Set aside, so `calls` are the request's
  // own round trips.
  const logged = calls.filter((c) => c === "requests.record").length;
  expect(logged).toBeLessThanOrEqual(1);
  if (logged === 1) calls.splice(calls.indexOf("requests.record"), 1);
  return res;
}

async function remaining(accountId: string): Promise<number | null | undefined> {
  return (await accountDo(accountId).summary())?.usage.remaining;
}

describe("credits reserved with authentication", () => {
  it("a capture makes one DO call before its work (two in all, with the commit); without reserve, three", async () => {
    const { accountId, apiKey } = await createAccount("basic");
    const calls: string[] = [];
    const res = await probe("/probe/capture", apiKey, calls);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-credits-charged")).toBe("1");
    expect(calls).toEqual(["authorize", "credits.settle"]);
    const before: string[] = [];
    await probe("/probe/unprepaid", apiKey, before);
    expect(before).toEqual(["authorize", "credits.reserve", "credits.settle"]);
    expect((await accountDo(accountId).summary())?.usage).toMatchObject({
      used: 2,
      remaining: 998,
    });
  });

  it("a request that fails before its work gets the credit back (refunded after the response)", async () => {
    const { accountId, apiKey } = await createAccount("basic");
    await setAccount(accountId, { creditsUsed: 999 }); // 1 left
    const calls: string[] = [];
    const res = await probe("/probe/invalid", apiKey, calls);
    expect(res.status).toBe(400);
    expect(calls).toEqual(["authorize", "credits.settle"]);
    expect(await remaining(accountId)).toBe(1);
    expect((await probe("/probe/capture", apiKey)).status).toBe(200);
    expect(await remaining(accountId)).toBe(0);
  });

  it("no credits left: a bad request is still a 400; a good one is 429 USAGE_EXCEEDED without another call", async () => {
    const { accountId, apiKey } = await createAccount("basic");
    await setAccount(accountId, { creditsUsed: 1000 });
    expect((await probe("/probe/invalid", apiKey)).status).toBe(400);
    const calls: string[] = [];
    const spent = await probe("/probe/capture", apiKey, calls);
    expect(spent.status).toBe(429);
    expect((await envelope(spent)).error?.code).toBe("USAGE_EXCEEDED");
    expect(calls).toEqual(["authorize"]);
  });

  it("work of another cost gives the credit back and reserves its own", async () => {
    const { accountId, apiKey } = await createAccount("basic");
    const calls: string[] = [];
    const res = await probe("/probe/two", apiKey, calls);
    expect((await envelope(res)).meta.usage).toEqual({ credits: 2, remaining: 998 });
    expect(calls).toEqual(["authorize", "credits.settle", "credits.reserve", "credits.settle"]);
    expect((await accountDo(accountId).summary())?.usage).toMatchObject({
      used: 2,
      remaining: 998,
    });
  });

  it("a rate-limited call reserves nothing", async () => {
    const { accountId, apiKey } = await createAccount("free");
    await setClock(accountId, () => Date.UTC(2026, 5, 10, 12, 0, 30));
    const limit = (await accountDo(accountId).summary())?.rateLimitPerMinute ?? 0;
    for (let i = 0; i < limit; i++)
      expect((await probe("/probe/invalid", apiKey)).status).toBe(400);
    const limited = await probe("/probe/capture", apiKey);
    expect(limited.status).toBe(429);
    expect((await envelope(limited)).error?.code).toBe("RATE_LIMITED");
    expect((await accountDo(accountId).summary())?.usage).toMatchObject({
      used: 0,
      remaining: 100,
    });
  });

  it("async: the job takes the last credit (the one reserved with authentication is released first)", async () => {
    const { accountId, apiKey } = await createAccount("basic");
    await setAccount(accountId, { creditsUsed: 999 });
    const res = await postJson(
      "/v1/screenshot",
      { url: `${FIXTURES}/small.html?run=${runId()}`, async: true },
      bearer(apiKey),
    );
    expect(res.status).toBe(202);
    expect((await envelope(res)).meta.usage).toMatchObject({ remaining: 0 });
  });
});
