/**
 * Async captures over HTTP: submit → capture-jobs queue (the real local queue) → completed with
 * a signed result URL; failures refunded; the active-job cap; polling, listing and ownership.
 */
import { describe, expect, it } from "vitest";
import { handleCaptureBatch } from "../../src/queues/capture-jobs";
import { accountDo, acquireJobSlots, releaseJobSlots } from "../helpers/account-do";
import { bearer, createAccount, describeAuthCases } from "../helpers/accounts";
import { Capturer } from "../helpers/capture";
import { call, envelope, FIXTURES, fixtureLog, postJson, runId } from "../helpers/http";
import { outputSize } from "../helpers/images";
import { deliver, waitForJob } from "../helpers/jobs";

const small = (run: string) => ({
  url: `${FIXTURES}/boxes.html?run=${run}`,
  width: 320,
  height: 240,
  deviceScaleFactor: 1,
  waitUntil: "load",
  blockAds: false,
});
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

describe("async capture", () => {
  it("202 {jobId, status: queued} with the reserved credit, then completed with a signed resultUrl", async () => {
    const cap = await Capturer.create("pro");
    const { res, body } = await cap.json<{ jobId: string; status: string }>({
      ...small(runId()),
      async: true,
      cacheTtl: 7200,
    });
    expect(res.status).toBe(202);
    expect(body.data).toEqual({
      jobId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: "queued",
    });
    expect(body.meta.usage).toEqual({ credits: 1, remaining: 25_000 - 1 });
    const jobId = body.data?.jobId ?? "";
    const job = await waitForJob(cap.account.accountId, jobId);
    expect(job.status).toBe("completed");
    const image = await call(pathOf(job.resultUrl ?? ""));
    expect(image.status).toBe(200);
    expect(outputSize(new Uint8Array(await image.arrayBuffer()))).toEqual({
      width: 320,
      height: 240,
    });
    const expires = Number(new URL(job.resultUrl ?? "").searchParams.get("expires"));
    expect(expires - Date.now() / 1000).toBeGreaterThan(7000);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(7200);

    const polled = await envelope(await call(`/v1/jobs/${jobId}`, { headers: cap.auth }));
    expect(polled.data).toMatchObject({
      jobId,
      status: "completed",
      resultUrl: job.resultUrl,
      error: null,
      metadata: {
        format: "png",
        width: 320,
        height: 240,
        loadTimeMs: expect.any(Number),
        // The capture's completeness report, as a JSON answer has it.
        completeness: {
          pendingRequests: 0,
          retried: false,
          fontsLoaded: true,
          blankRatio: expect.any(Number),
        },
      },
      createdAt: expect.any(String),
      completedAt: expect.any(String),
    });
    expect(polled.meta.usage).toBeUndefined(); // polling is free
    const account = await envelope<{ usage: { used: number } }>(
      await call("/v1/account", { headers: cap.auth }),
    );
    expect(account.data?.usage.used).toBe(1);
  });

  it("POST /v1/screenshot (binary endpoint) with async: true answers the same JSON 202", async () => {
    const cap = await Capturer.create("pro");
    const { res, bytes } = await cap.post({ ...small(runId()), async: true });
    expect(res.status).toBe(202);
    const body = JSON.parse(new TextDecoder().decode(bytes)) as {
      data: { jobId: string; status: string };
    };
    expect(body.data.status).toBe("queued");
    expect((await waitForJob(cap.account.accountId, body.data.jobId)).status).toBe("completed");
  });

  it("html sources (large inputs travel through R2, not the queue message) complete too", async () => {
    const cap = await Capturer.create("pro");
    const filler = `<p>${"lorem ipsum ".repeat(150_000)}</p>`; // ~1.8 MB, far over a 128 KB message
    const html = `<body style="margin:0;background:#00f"><div style="display:none">${filler}</div></body>`;
    const { res, body } = await cap.json<{ jobId: string }>({
      html,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
      async: true,
    });
    expect(res.status).toBe(202);
    const job = await waitForJob(cap.account.accountId, body.data?.jobId ?? "");
    expect(job).toMatchObject({ status: "completed", url: null });
  });

  it("a failed job names its cause as the sync answer does, and its credit is refunded", async () => {
    const cap = await Capturer.create("pro");
    const { body } = await cap.json<{ jobId: string }>({
      ...small(runId()),
      selector: "#missing",
      async: true,
    });
    const job = await waitForJob(cap.account.accountId, body.data?.jobId ?? "");
    expect(job).toMatchObject({
      status: "failed",
      error: "The specified element was not found.",
      errorDetail: 'The specified element was not found. selector: No element matches "#missing".',
    });
    expect(job.resultUrl).toBeUndefined();
    const summary = await accountDo(cap.account.accountId).summary();
    expect(summary?.usage).toMatchObject({ used: 0, remaining: 25_000 });
    expect(summary?.activeJobs).toBe(0);
  });

  it("duplicate deliveries racing the real queue: one capture, one credit", async () => {
    const cap = await Capturer.create("pro");
    const run = runId();
    const { body } = await cap.json<{ jobId: string }>({ ...small(run), async: true });
    const message = { accountId: cap.account.accountId, jobId: body.data?.jobId ?? "" };
    await Promise.all([
      deliver("capture-jobs", [message], handleCaptureBatch),
      deliver("capture-jobs", [message], handleCaptureBatch),
    ]);
    const job = await waitForJob(cap.account.accountId, message.jobId);
    expect(job.status).toBe("completed");
    await new Promise((r) => setTimeout(r, 1500)); // let the queue's own delivery land too
    expect((await fixtureLog(run)).filter((r) => r.path === "/boxes.html")).toHaveLength(1);
    expect((await accountDo(cap.account.accountId).summary())?.usage.used).toBe(1);
  });

  it("429 QUEUE_LIMIT_REACHED past the plan's active jobs; nothing reserved or queued", async () => {
    const cap = await Capturer.create("basic"); // 25 active jobs
    await acquireJobSlots(cap.account.accountId, 25);
    const { res, body } = await cap.json({ ...small(runId()), async: true });
    expect(res.status).toBe(429);
    expect(body.error?.code).toBe("QUEUE_LIMIT_REACHED");
    const summary = await accountDo(cap.account.accountId).summary();
    expect(summary?.usage.remaining).toBe(1000);
    expect(
      (
        await accountDo(cap.account.accountId)
          .jobs()
          .list({ status: null, limit: 10, before: null })
      ).items,
    ).toEqual([]);
    await releaseJobSlots(cap.account.accountId, 1);
    expect((await cap.json({ ...small(runId()), async: true })).res.status).toBe(202);
  });

  it("429 USAGE_EXCEEDED when no credit is left to reserve", async () => {
    const { accountId, apiKey } = await createAccount("free");
    await accountDo(accountId).update({ creditsUsed: 100 });
    const res = await postJson(
      "/v1/screenshot/json",
      { ...small(runId()), async: true },
      bearer(apiKey),
    );
    expect(res.status).toBe(429);
    expect((await envelope(res)).error?.code).toBe("USAGE_EXCEEDED");
    expect((await accountDo(accountId).summary())?.activeJobs).toBe(0);
  });
});

describe("webhookUrl validation", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["without async", { webhookUrl: "https://hooks.example.com/x" }, "VALIDATION_ERROR"],
    [
      "plain http",
      { async: true, webhookUrl: "http://hooks.example.com/x" },
      "INVALID_WEBHOOK_URL",
    ],
    ["a private address", { async: true, webhookUrl: "https://10.0.0.1/x" }, "INVALID_WEBHOOK_URL"],
    [
      "the metadata address",
      { async: true, webhookUrl: "https://169.254.169.254/latest" },
      "INVALID_WEBHOOK_URL",
    ],
    ["localhost", { async: true, webhookUrl: "https://localhost/x" }, "INVALID_WEBHOOK_URL"],
    [
      "credentials",
      { async: true, webhookUrl: "https://user:pw@hooks.example.com/x" },
      "INVALID_WEBHOOK_URL",
    ],
    [
      "a name resolving to loopback",
      { async: true, webhookUrl: "https://a.rebind.example.com/x" },
      "INVALID_WEBHOOK_URL",
    ],
    ["not a URL", { async: true, webhookUrl: "hooks" }, "INVALID_WEBHOOK_URL"],
  ];
  for (const [name, extra, code] of cases) {
    it(`${name} → 400 ${code}, nothing charged`, async () => {
      const cap = await Capturer.create("pro");
      const { res, body } = await cap.json({ ...small(runId()), ...extra });
      expect(res.status).toBe(400);
      expect(body.error?.code).toBe(code);
      expect(body.error?.details?.[0]?.path).toBe("webhookUrl");
      expect((await accountDo(cap.account.accountId).summary())?.usage.remaining).toBe(25_000);
    });
  }

  it("async is refused where it does not belong: extract on /json", async () => {
    const cap = await Capturer.create("pro");
    const { res, body } = await cap.json({ ...small(runId()), async: true, extract: true });
    expect(res.status).toBe(400);
    expect(body.error?.details?.[0]?.path).toBe("extract");
  });
});

describe("GET /v1/jobs/:jobId", () => {
  describeAuthCases((headers) => call(`/v1/jobs/${crypto.randomUUID()}`, { headers }));

  it("404 NOT_FOUND for an unknown id, a malformed id, and another account's job", async () => {
    const owner = await Capturer.create("pro");
    const { body } = await owner.json<{ jobId: string }>({ ...small(runId()), async: true });
    const jobId = body.data?.jobId ?? "";
    const other = await Capturer.create("pro");
    for (const id of [crypto.randomUUID(), "not-a-uuid", jobId]) {
      const res = await call(`/v1/jobs/${id}`, { headers: other.auth });
      expect(res.status, id).toBe(404);
      expect((await envelope(res)).error?.code).toBe("NOT_FOUND");
    }
    expect((await call(`/v1/jobs/${jobId}`, { headers: owner.auth })).status).toBe(200);
    await waitForJob(owner.account.accountId, jobId);
  });
});
