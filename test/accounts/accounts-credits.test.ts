import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AuthContext } from "../../src/accounts/auth";
import { authenticate } from "../../src/http/middleware/authenticate";
import {
  CreditPool,
  reserveCredits,
  settleReservation,
  settleReservations,
  usageHeaders,
  withCredits,
} from "../../src/accounts/credits";
import { type PlanId, PLANS } from "../../src/accounts/plans";
import { newApp } from "../../src/http/app";
import { successBody } from "../../src/http/envelope";
import { ApiError } from "../../src/errors";
import { accountDo, acquireJobSlots, releaseJobSlots, setClock } from "../helpers/account-do";
import { bearer, createAccount, setAccount } from "../helpers/accounts";
import { BASE, envelope } from "../helpers/http";

async function authFor(plan: PlanId, creditsUsed?: number): Promise<AuthContext> {
  const { accountId, keyId } = await createAccount(plan);
  if (creditsUsed !== undefined) await setAccount(accountId, { creditsUsed });
  return { accountId, keyId, plan: PLANS[plan], account: accountDo(accountId) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("withCredits", () => {
  it("N parallel spends against M < N credits: exactly M succeed, the balance never goes below zero", async () => {
    const auth = await authFor("free", 93); // 7 of 100 left
    const spends = Array.from({ length: 20 }, (_, i) =>
      withCredits(auth, 1, async () => {
        await tick();
        return i;
      }),
    );
    const results = await Promise.allSettled(spends);
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(ok).toHaveLength(7);
    expect(refused).toHaveLength(13);
    for (const r of refused) expect((r.reason as ApiError).code).toBe("USAGE_EXCEEDED");
    const remainders = ok.map((r) => r.value.usage.remaining).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(Math.min(...remainders.map(Number))).toBeGreaterThanOrEqual(0);
    const summary = await auth.account.summary();
    expect(summary?.usage).toMatchObject({ used: 100, limit: 100, remaining: 0 });
  });

  it("parallel multi-credit reservations never overdraw", async () => {
    const auth = await authFor("basic", 990); // 10 left
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => reserveCredits(auth.account, 3)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect((await auth.account.summary())?.usage.remaining).toBe(1);
  });

  it("refunds when the work throws, and rethrows the work's error", async () => {
    const auth = await authFor("free", 99); // 1 left
    const boom = new ApiError("CAPTURE_FAILED", "nope");
    await expect(withCredits(auth, 1, async () => Promise.reject(boom))).rejects.toBe(boom);
    expect((await auth.account.summary())?.usage).toMatchObject({ used: 99, remaining: 1 });
    const { value, usage } = await withCredits(auth, 1, async () => "done");
    expect(value).toBe("done");
    expect(usage).toEqual({ credits: 1, remaining: 0 });
    await expect(withCredits(auth, 1, async () => "again")).rejects.toMatchObject({
      code: "USAGE_EXCEEDED",
      status: 429,
    });
  });

  it("Enterprise is unlimited but still counts what it used", async () => {
    const auth = await authFor("enterprise", 5_000_000);
    const { usage } = await withCredits(auth, 2, async () => null);
    expect(usage).toEqual({ credits: 2, remaining: null });
    expect(usageHeaders(usage)["x-service-credits-remaining"]).toBe("unlimited");
    expect((await auth.account.summary())?.usage).toMatchObject({
      used: 5_000_002,
      limit: null,
      remaining: null,
      unlimited: true,
    });
  });
});

describe("reservations", () => {
  it("expire when never settled, and a late settle charges nothing", async () => {
    const auth = await authFor("free");
    const t0 = Date.UTC(2026, 5, 10, 12);
    await setClock(auth.accountId, () => t0);
    await setAccount(auth.accountId, { creditsUsed: 98 }); // 2 left
    const held = await reserveCredits(auth.account, 2);
    expect(held.remaining).toBe(0);
    await expect(reserveCredits(auth.account, 1)).rejects.toMatchObject({ code: "USAGE_EXCEEDED" });
    await setClock(auth.accountId, () => t0 + 10 * 60_000);
    expect((await auth.account.summary())?.usage.remaining).toBe(2);
    expect(await settleReservation(auth.account, held, true)).toEqual({ credits: 0, remaining: 2 });
  });

  it("a longer TTL (async jobs) holds credits until settled; settling twice charges once", async () => {
    const auth = await authFor("free", 0);
    const held = await reserveCredits(auth.account, 4, { ttlMs: 24 * 3_600_000 });
    expect((await auth.account.summary())?.usage).toMatchObject({ used: 0, remaining: 96 });
    expect(await settleReservation(auth.account, held, true)).toEqual({
      credits: 4,
      remaining: 96,
    });
    expect(await settleReservation(auth.account, held, true)).toEqual({
      credits: 0,
      remaining: 96,
    });
    expect((await auth.account.summary())?.usage.used).toBe(4);
  });

  it("a pool holds a batch in one call, up to what is left; settled in one call, each once", async () => {
    const auth = await authFor("free", 95); // 5 left
    const pool = new CreditPool(auth.account, 1, 3);
    const taken = await Promise.all([pool.take(), pool.take(), pool.take(), pool.take()]);
    const held = taken.filter((t) => t !== null);
    // Two batches asked: 3, then the 2 left; the pool holds the 5th.
    expect(held).toHaveLength(4);
    expect((await auth.account.summary())?.usage).toMatchObject({ used: 95, remaining: 0 });
    // One not spent goes back and is handed out again; past the month's credits: null.
    const [first, second, third, fourth] = held;
    if (!first || !second || !third || !fourth) throw new Error("four reservations expected");
    pool.giveBack(first);
    expect(await pool.take()).toEqual(first);
    expect(await pool.take()).not.toBeNull();
    expect(await pool.take()).toBeNull();
    // Committed (one partly) and refunded in one call; settling again changes nothing.
    const settlements = [
      { reservationId: first.reservationId, commit: true },
      { reservationId: second.reservationId, commit: 0 },
      { reservationId: third.reservationId, commit: 1 },
    ];
    await settleReservations(auth.account, settlements);
    await settleReservations(auth.account, settlements);
    expect((await auth.account.summary())?.usage).toMatchObject({ used: 97, remaining: 1 });
    // The pool's unspent reservations are refunded; the one taken stays held until settled.
    await pool.release();
    expect((await auth.account.summary())?.usage).toMatchObject({ used: 97, remaining: 1 });
    await settleReservation(auth.account, fourth, false);
    expect((await auth.account.summary())?.usage).toMatchObject({ used: 97, remaining: 2 });
  });

  it("the month's credits reset on the 1st (UTC)", async () => {
    const auth = await authFor("free");
    await setClock(auth.accountId, () => Date.UTC(2026, 0, 31, 23, 59, 59));
    await setAccount(auth.accountId, { creditsUsed: 100 });
    await expect(reserveCredits(auth.account, 1)).rejects.toMatchObject({ code: "USAGE_EXCEEDED" });
    expect((await auth.account.summary())?.usage.resetsAt).toBe("2026-02-01T00:00:00.000Z");
    await setClock(auth.accountId, () => Date.UTC(2026, 1, 1));
    const usage = (await auth.account.summary())?.usage;
    expect(usage).toMatchObject({ used: 0, remaining: 100, resetsAt: "2026-03-01T00:00:00.000Z" });
  });
});

describe("active-job slots", () => {
  it("are taken up to the plan's cap and given back", async () => {
    const auth = await authFor("free"); // cap 10
    expect(await acquireJobSlots(auth.accountId, 8)).toEqual({ ok: true, active: 8, limit: 10 });
    expect(await acquireJobSlots(auth.accountId, 3)).toEqual({ ok: false, active: 8, limit: 10 });
    const parallel = await Promise.all(
      Array.from({ length: 5 }, () => acquireJobSlots(auth.accountId, 1)),
    );
    expect(parallel.filter((r) => r.ok)).toHaveLength(2);
    expect(await releaseJobSlots(auth.accountId, 4)).toMatchObject({ active: 6 });
    expect(await releaseJobSlots(auth.accountId, 50)).toMatchObject({ active: 0 });
  });
});

describe("usage on responses", () => {
  const app = newApp();
  app.post("/probe/json", authenticate(), async (c) => {
    const { value, usage } = await withCredits(c.get("auth"), 1, async () => ({ ok: true }));
    return c.json(successBody(c.get("requestId"), value, usage));
  });
  app.post("/probe/binary", authenticate(), async (c) => {
    const { value, usage } = await withCredits(c.get("auth"), 1, async () => "bytes");
    return new Response(value, { headers: usageHeaders(usage) });
  });
  const probe = async (path: string, apiKey: string) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${BASE}${path}`, { method: "POST", headers: bearer(apiKey) }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  };

  it("meta.usage on JSON, x-service-credits-* on binary, 429 USAGE_EXCEEDED when spent", async () => {
    const { accountId, apiKey } = await createAccount("basic");
    await setClock(accountId, () => Date.UTC(2026, 5, 10, 12, 0, 30)); // mid-minute: no window reset
    await setAccount(accountId, { creditsUsed: 998 });
    const json = await probe("/probe/json", apiKey);
    expect((await envelope(json)).meta.usage).toEqual({ credits: 1, remaining: 1 });
    const binary = await probe("/probe/binary", apiKey);
    expect(binary.headers.get("x-service-credits-charged")).toBe("1");
    expect(binary.headers.get("x-service-credits-remaining")).toBe("0");
    expect(binary.headers.get("x-ratelimit-remaining")).toBe("18");
    const spent = await probe("/probe/json", apiKey);
    expect(spent.status).toBe(429);
    expect((await envelope(spent)).error?.code).toBe("USAGE_EXCEEDED");
    expect(spent.headers.get("x-ratelimit-remaining")).toBe("17");
  });
});
