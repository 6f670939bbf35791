/**
 * Idempotency-Key (issue 19): one execution and one credit per key, replays of the first
 * response (bytes included), a different body with the same key refused, keys per account.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { envelope, FIXTURES, fixtureLog, postJson, runId } from "../helpers/http";
import { creditsUsed } from "../helpers/api";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

const small = { waitUntil: "load", width: 400, height: 300, deviceScaleFactor: 1 } as const;

const used = (c: Capturer = cap) => creditsUsed(c.auth);

function post(
  body: unknown,
  key: string | null,
  path = "/v1/screenshot",
  c: Capturer = cap,
): Promise<Response> {
  return postJson(path, body, { ...c.auth, ...(key !== null ? { "idempotency-key": key } : {}) });
}

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe("Idempotency-Key", () => {
  it("10 parallel requests with one key: one capture, one credit, the same bytes", async () => {
    const run = runId();
    const key = `k-${run}`;
    const body = { ...small, url: `${FIXTURES}/status?code=200&run=${run}` };
    const before = await used();
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(body, key)));
    const statuses = responses.map((r) => r.status);
    expect(
      statuses.every((s) => s === 200 || s === 409),
      statuses.join(","),
    ).toBe(true);
    const ok = responses.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    const bodies = await Promise.all(ok.map(bytesOf));
    for (const b of bodies) expect(b).toEqual(bodies[0]);
    expect(ok.filter((r) => r.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    expect((await fixtureLog(run)).filter((e) => e.path === "/status")).toHaveLength(1);
    expect(await used()).toBe(before + 1);

    // Later: the stored response again, headers included, not charged.
    const again = await post(body, key);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toBe("image/png");
    expect(again.headers.get("x-service-target-status")).toBe("200");
    expect(await bytesOf(again)).toEqual(bodies[0]);
    expect((await fixtureLog(run)).filter((e) => e.path === "/status")).toHaveLength(1);
    expect(await used()).toBe(before + 1);
  });

  it("a large output (kept in R2, not the Account DO) replays byte for byte", async () => {
    const key = `k-${runId()}`;
    // Random pixels do not compress: a PNG of several MB.
    const html = `<canvas id="c" width="800" height="600"></canvas><script>
      const x = document.getElementById("c").getContext("2d");
      const d = x.createImageData(800, 600);
      for (let i = 0; i < d.data.length; i++) d.data[i] = (Math.random() * 256) | 0;
      x.putImageData(d, 0, 0);</script>`;
    const body = { ...small, width: 800, height: 600, html };
    const first = await post(body, key);
    expect(first.status).toBe(200);
    const bytes = await bytesOf(first);
    expect(bytes.byteLength).toBeGreaterThan(1024 * 1024);
    const again = await post(body, key);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await bytesOf(again)).toEqual(bytes);
  });

  it("the same key with a different body → 422 IDEMPOTENCY_KEY_REUSED; on another route too", async () => {
    const key = `k-${runId()}`;
    const first = await post({ ...small, html: "<p>one</p>" }, key, "/v1/screenshot/json");
    expect(first.status).toBe(200);
    const other = await post({ ...small, html: "<p>two</p>" }, key, "/v1/screenshot/json");
    expect(other.status).toBe(422);
    expect((await envelope(other)).error?.code).toBe("IDEMPOTENCY_KEY_REUSED");
    const route = await post({ ...small, html: "<p>one</p>" }, key, "/v1/screenshot");
    expect(route.status).toBe(422);
  });

  it("the same key with another query string → 422 IDEMPOTENCY_KEY_REUSED; the same query replays", async () => {
    const key = `k-${runId()}`;
    const body = { ...small, html: "<p>query</p>" };
    const first = await post(body, key, "/v1/screenshot/json?x=1");
    expect(first.status).toBe(200);
    for (const path of [
      "/v1/screenshot/json",
      "/v1/screenshot/json?x=2",
      "/v1/screenshot/json?x=1&y=1",
    ]) {
      const other = await post(body, key, path);
      expect(other.status, path).toBe(422);
      expect((await envelope(other)).error?.code, path).toBe("IDEMPOTENCY_KEY_REUSED");
      expect(other.headers.get("idempotent-replayed"), path).toBeNull();
    }
    const again = await post(body, key, "/v1/screenshot/json?x=1");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");

    // And the other way round: a key first used without a query.
    const plain = `k-${runId()}`;
    expect((await post(body, plain, "/v1/screenshot/json")).status).toBe(200);
    const queried = await post(body, plain, "/v1/screenshot/json?x=1");
    expect(queried.status).toBe(422);
    expect((await envelope(queried)).error?.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("errors that are the caller's are kept too; retryable ones free the key", async () => {
    const key = `k-${runId()}`;
    const before = await used();
    const bad = await post({ ...small, html: "<p>x</p>", width: 1 }, key);
    expect(bad.status).toBe(400);
    const badAgain = await post({ ...small, html: "<p>x</p>", width: 1 }, key);
    expect(badAgain.status).toBe(400);
    expect(badAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(await envelope(badAgain)).toMatchObject({ error: { code: "VALIDATION_ERROR" } });
    expect(await used()).toBe(before);
  });

  it("keys are per account; bad keys → 400 naming Idempotency-Key", async () => {
    const other = await Capturer.create("pro");
    const key = `k-${runId()}`;
    const body = { ...small, html: "<p>mine</p>" };
    expect((await post(body, key)).status).toBe(200);
    const theirs = await post({ ...small, html: "<p>theirs</p>" }, key, "/v1/screenshot", other);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();

    for (const badKey of ["x".repeat(256), "has space", "tab\there"]) {
      const res = await post(body, badKey);
      expect(res.status).toBe(400);
      expect((await envelope(res)).error?.details?.[0]?.path).toBe("Idempotency-Key");
    }
    expect((await post(body, "y".repeat(255))).status).toBe(200);
  });

  it("render-link minting and async captures replay the first answer", async () => {
    const key = `k-${runId()}`;
    const link = { url: `${FIXTURES}/status?code=200` };
    const a = await post(link, key, "/v1/render/link");
    const b = await post(link, key, "/v1/render/link");
    expect(a.status).toBe(200);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect((await envelope<{ url: string }>(b)).data?.url).toBe(
      (await envelope<{ url: string }>(a)).data?.url,
    );

    const asyncKey = `k-${runId()}`;
    const job = { ...small, html: "<p>queued</p>", async: true };
    const first = await post(job, asyncKey);
    const second = await post(job, asyncKey);
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect((await envelope<{ jobId: string }>(second)).data?.jobId).toBe(
      (await envelope<{ jobId: string }>(first)).data?.jobId,
    );
  });
});
