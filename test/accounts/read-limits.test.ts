/**
 * Reads are not captures (issue 36): polling jobs and reading the account count against the
 * plan's read limit, apart from captures and writes, so 2–5 s polling works on every plan.
 */
import { describe, expect, it } from "vitest";
import { PLANS } from "../../src/accounts/plans";
import { setClock } from "../helpers/account-do";
import { bearer, createAccount } from "../helpers/accounts";
import { call, envelope, FIXTURES, postJson, runId } from "../helpers/http";

const FREE = PLANS.free;
/** A fixed instant 5 s into a minute: every call of a test falls in one window. */
const AT = Date.UTC(2026, 5, 10, 12, 0, 5);
const asyncCapture = () => ({
  url: `${FIXTURES}/boxes.html?run=${runId()}`,
  width: 320,
  height: 240,
  deviceScaleFactor: 1,
  async: true,
});

async function freeAccount(): Promise<{ accountId: string; auth: Record<string, string> }> {
  const { accountId, apiKey } = await createAccount("free");
  await setClock(accountId, () => AT);
  return { accountId, auth: bearer(apiKey) };
}

const limitOf = (res: Response) => res.headers.get("x-ratelimit-limit");
const remainingOf = (res: Response) => res.headers.get("x-ratelimit-remaining");

describe("read rate limit", () => {
  it("every plan's read limit allows polling every 2 s, and is at least its request limit", () => {
    for (const plan of Object.values(PLANS)) {
      expect(plan.readRateLimitPerMinute).toBeGreaterThanOrEqual(60);
      expect(plan.readRateLimitPerMinute).toBeGreaterThanOrEqual(plan.rateLimitPerMinute);
    }
  });

  it("Free: polling a job 30 times in a row is never a 429; the headers show the read limit", async () => {
    const { auth } = await freeAccount();
    const submitted = await postJson("/v1/screenshot/json", asyncCapture(), auth);
    expect(submitted.status).toBe(202);
    expect(limitOf(submitted)).toBe(String(FREE.rateLimitPerMinute));
    const { jobId } = (await envelope<{ jobId: string }>(submitted)).data ?? { jobId: "" };

    const remaining: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const res = await call(`/v1/jobs/${jobId}`, { headers: auth });
      expect(res.status).toBe(200);
      expect(limitOf(res)).toBe(String(FREE.readRateLimitPerMinute));
      remaining.push(remainingOf(res) ?? "");
      await res.body?.cancel();
    }
    // Each poll spends one read of the 60 (never a capture): 59 … 30 left, none refused.
    for (const left of remaining) {
      expect(Number(left)).toBeGreaterThanOrEqual(FREE.readRateLimitPerMinute - 30);
      expect(Number(left)).toBeLessThan(FREE.readRateLimitPerMinute);
    }
    expect(remaining[0]).toBe(String(FREE.readRateLimitPerMinute - 1));
  });

  it("Free: captures still 429 after 3 in a minute, with the request limit in the headers", async () => {
    const { auth } = await freeAccount();
    // Invalid captures count too (the limit is checked before the body) and cost nothing.
    for (let i = 0; i < FREE.rateLimitPerMinute; i += 1) {
      const res = await postJson("/v1/screenshot/json", { url: 42 }, auth);
      expect(res.status).toBe(400);
      expect(limitOf(res)).toBe(String(FREE.rateLimitPerMinute));
    }
    const limited = await postJson("/v1/screenshot/json", asyncCapture(), auth);
    expect(limited.status).toBe(429);
    expect((await envelope(limited)).error?.code).toBe("RATE_LIMITED");
    expect(limited.headers.get("retry-after")).toBe("55");
    expect(limitOf(limited)).toBe("3");
    // GET /v1/screenshot is a capture, not a read.
    const viaGet = await call("/v1/screenshot?url=x", { headers: auth });
    expect(viaGet.status).toBe(429);
    expect(limitOf(viaGet)).toBe("3");
    // Reads are untouched by the spent capture budget.
    const read = await call("/v1/account", { headers: auth });
    expect(read.status).toBe(200);
    expect(limitOf(read)).toBe(String(FREE.readRateLimitPerMinute));
  });

  it("reads past the read limit → 429 RATE_LIMITED with Retry-After; HEAD and every read route count", async () => {
    const { auth } = await freeAccount();
    const paths = ["/v1/account", "/v1/usage", "/v1/credential-check", "/v1/jobs", "/v1/batches"];
    for (let i = 0; i < FREE.readRateLimitPerMinute; i += 1) {
      const path = paths[i % paths.length] ?? "/v1/account";
      const res = await call(path, { headers: auth, method: i === 0 ? "HEAD" : "GET" });
      expect(res.status).toBe(200);
      await res.body?.cancel();
    }
    const limited = await call("/v1/watches", { headers: auth });
    expect(limited.status).toBe(429);
    const body = await envelope(limited);
    expect(body.error?.code).toBe("RATE_LIMITED");
    expect(body.error?.message).toMatch(/^Read rate limit of 60 requests per minute exceeded/);
    expect(limited.headers.get("retry-after")).toBe("55");
    expect(limitOf(limited)).toBe("60");
    expect(remainingOf(limited)).toBe("0");
  });

  it("a read does not consume a capture's budget: after 20 reads a capture still succeeds", async () => {
    const { auth } = await freeAccount();
    for (let i = 0; i < 20; i += 1) {
      const res = await call("/v1/account", { headers: auth });
      expect(res.status).toBe(200);
      await res.body?.cancel();
    }
    // A write (not a read) counts against the request limit, not the read limit.
    const write = await postJson("/v1/watches", { url: 42 }, auth);
    expect(write.status).toBe(400);
    expect(limitOf(write)).toBe("3");
    expect(remainingOf(write)).toBe("2");
    // Last, so nothing the queued job does afterwards can touch what this test reads.
    const capture = await postJson("/v1/screenshot/json", asyncCapture(), auth);
    expect(capture.status).toBe(202);
    expect(limitOf(capture)).toBe("3");
    expect(remainingOf(capture)).toBe("1");
    await capture.body?.cancel();
  });
});
