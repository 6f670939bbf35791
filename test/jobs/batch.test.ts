/**
 * POST /v1/screenshot/batch and GET /v1/batches/:batchId: plan gates and caps, defaults, every
 * URL checked before anything is queued, and a mixed batch run through the real queues to one
 * batch.completed webhook.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { BatchView } from "../../schemas/responses";
import { accountDo, acquireJobSlots, releaseJobSlots } from "../helpers/account-do";
import { bearer, createAccount, describeAuthCases, type TestAccount } from "../helpers/accounts";
import { call, envelope, FIXTURES, postJson, runId, type Envelope } from "../helpers/http";
import { waitForBatch, waitForWebhooks, webhookUrl } from "../helpers/jobs";

interface Accepted {
  batchId: string;
  totalJobs: number;
  jobs: Array<{ jobId: string; url: string; status: string }>;
}

const page = (run: string, extra = "") => `${FIXTURES}/boxes.html?run=${run}${extra}`;
const DEFAULTS = {
  width: 320,
  height: 240,
  deviceScaleFactor: 1,
  waitUntil: "load",
  blockAds: false,
};

async function submit(
  account: TestAccount,
  body: unknown,
): Promise<{ res: Response; body: Envelope<Accepted> }> {
  const res = await postJson("/v1/screenshot/batch", body, bearer(account.apiKey));
  return { res, body: await envelope<Accepted>(res) };
}

async function nothingQueued(accountId: string, credits: number | null): Promise<void> {
  const summary = await accountDo(accountId).summary();
  expect(summary?.usage.remaining).toBe(credits);
  expect(summary?.activeJobs).toBe(0);
  expect(
    (await accountDo(accountId).jobs().listBatches({ status: null, limit: 5, before: null })).items,
  ).toEqual([]);
}

describe("POST /v1/screenshot/batch: refusals", () => {
  describeAuthCases((headers) =>
    postJson("/v1/screenshot/batch", { urls: ["https://example.com/"] }, headers),
  );

  it("Free plan → 403 PLAN_UPGRADE_REQUIRED", async () => {
    const account = await createAccount("free");
    const { res, body } = await submit(account, { urls: [page(runId())] });
    expect(res.status).toBe(403);
    expect(body.error?.code).toBe("PLAN_UPGRADE_REQUIRED");
  });

  it("over the plan's cap → 400 BATCH_LIMIT_EXCEEDED; over 500 or empty → 400 VALIDATION_ERROR", async () => {
    const account = await createAccount("basic"); // cap 10
    const urls = (n: number) => Array.from({ length: n }, (_, i) => page(runId(), `&i=${i}`));
    const over = await submit(account, { urls: urls(11) });
    expect(over.res.status).toBe(400);
    expect(over.body.error?.code).toBe("BATCH_LIMIT_EXCEEDED");
    for (const n of [0, 501]) {
      const bad = await submit(account, { urls: urls(n) });
      expect(bad.res.status, String(n)).toBe(400);
      expect(bad.body.error?.code).toBe("VALIDATION_ERROR");
      expect(bad.body.error?.details?.[0]?.path).toBe("urls");
    }
    await nothingQueued(account.accountId, 1000);
  });

  it("per-job-only settings in defaults are refused by name", async () => {
    const account = await createAccount("pro");
    const defaults = {
      ...DEFAULTS,
      cookies: [{ name: "a", value: "b" }],
      selector: "#x",
      waitForSelector: "#y",
      headers: { "x-a": "1" },
      pdfMargin: { top: "1in" },
      html: "<p>",
      url: "https://example.com/",
      async: true,
      webhookUrl: "https://example.com/h",
      blockResourceTypes: ["font"],
      markdown: "# x",
      cacheTtl: 3600,
    };
    const { res, body } = await submit(account, { urls: [page(runId())], defaults });
    expect(res.status).toBe(400);
    expect(body.error?.code).toBe("VALIDATION_ERROR");
    const paths = body.error?.details?.map((d) => d.path).sort();
    expect(paths).toEqual(
      [
        "async",
        "blockResourceTypes",
        "cacheTtl",
        "cookies",
        "headers",
        "html",
        "markdown",
        "pdfMargin",
        "selector",
        "url",
        "waitForSelector",
        "webhookUrl",
      ].map((k) => `defaults.${k}`),
    );
    expect(body.error?.details?.find((d) => d.path === "defaults.cookies")?.message).toMatch(
      /per-job only/,
    );
    const invalid = await submit(account, {
      urls: [page(runId())],
      defaults: { width: 99999, geoCity: "Paris" },
    });
    expect(invalid.body.error?.details?.map((d) => d.path).sort()).toEqual([
      "defaults.geoCity",
      "defaults.width",
    ]);
  });

  it("one bad URL rejects the whole batch with its index; nothing reserved or queued", async () => {
    const account = await createAccount("pro");
    const urls = [
      page(runId()),
      page(runId()),
      page(runId()),
      "http://10.0.0.1/admin",
      page(runId()),
    ];
    const { res, body } = await submit(account, { urls, defaults: DEFAULTS });
    expect(res.status).toBe(400);
    expect(body.error?.code).toBe("INVALID_URL");
    expect(body.error?.details).toEqual([{ path: "urls[3]", message: expect.any(String) }]);
    expect(body.error?.message).toMatch(/^urls\[3\]/);
    const two = await submit(account, {
      urls: ["ftp://example.com/x", page(runId()), "https://localhost/"],
    });
    expect(two.body.error?.details?.map((d) => d.path)).toEqual(["urls[0]", "urls[2]"]);
    // The reputation and DNS checks run for each URL too (local fakes: test/fixtures/fakes/).
    const unsafe = await submit(account, { urls: [page(runId()), "https://listed.example.org/"] });
    expect(unsafe.res.status).toBe(400);
    expect(unsafe.body.error?.code).toBe("UNSAFE_URL");
    expect(unsafe.body.error?.details?.map((d) => d.path)).toEqual(["urls[1]"]);
    const rebind = await submit(account, {
      urls: ["https://ten.rebind.example.com/", page(runId())],
    });
    expect(rebind.body.error?.code).toBe("INVALID_URL");
    expect(rebind.body.error?.details?.map((d) => d.path)).toEqual(["urls[0]"]);
    await nothingQueued(account.accountId, 25_000);
  });

  it("an invalid webhookUrl → 400 INVALID_WEBHOOK_URL", async () => {
    const account = await createAccount("pro");
    const { res, body } = await submit(account, {
      urls: [page(runId())],
      webhookUrl: "http://hooks.example.com/",
    });
    expect(res.status).toBe(400);
    expect(body.error?.code).toBe("INVALID_WEBHOOK_URL");
    await nothingQueued(account.accountId, 25_000);
  });

  it("more jobs than free active slots → 429 QUEUE_LIMIT_REACHED; not enough credits → 429 USAGE_EXCEEDED", async () => {
    const account = await createAccount("basic"); // 25 active jobs, 1,000 credits
    await acquireJobSlots(account.accountId, 20);
    const urls = Array.from({ length: 6 }, () => page(runId()));
    const full = await submit(account, { urls });
    expect(full.res.status).toBe(429);
    expect(full.body.error?.code).toBe("QUEUE_LIMIT_REACHED");
    await releaseJobSlots(account.accountId, 20);
    await accountDo(account.accountId).update({ creditsUsed: 995 });
    const poor = await submit(account, { urls });
    expect(poor.res.status).toBe(429);
    expect(poor.body.error?.code).toBe("USAGE_EXCEEDED");
    await nothingQueued(account.accountId, 5);
  });
});

describe("a batch through the queues", () => {
  it("2 succeed, 1 fails: one signed batch.completed, no per-job events, outcome partial, 2 credits", async () => {
    const account = await createAccount("starter");
    const run = runId();
    // The middle page answers 404, which failOnStatus refuses: a deterministic (not retried)
    // failure, whose cause the job, the batch and its webhook name as a sync capture would.
    const defaults = { ...DEFAULTS, failOnStatus: [404] };
    const urls = [page(runId()), `${FIXTURES}/status?code=404&run=${runId()}`, page(runId())];
    const CAUSE = "The target answered with HTTP 404. failOnStatus: HTTP 404 matches failOnStatus.";
    const { res, body } = await submit(account, {
      urls,
      defaults,
      webhookUrl: webhookUrl(run),
      cacheTtl: 3600,
    });
    expect(res.status).toBe(202);
    expect(body.meta.usage).toEqual({ credits: 3, remaining: 5000 - 3 });
    const accepted = body.data as Accepted;
    expect(accepted.totalJobs).toBe(3);
    expect(accepted.jobs.map((j) => [j.url, j.status])).toEqual(urls.map((u) => [u, "queued"]));

    const batch = await waitForBatch(account.accountId, accepted.batchId);
    expect(batch).toMatchObject({
      status: "completed",
      outcome: "partial",
      totalJobs: 3,
      completedJobs: 2,
      failedJobs: 1,
    });
    const [hook] = await waitForWebhooks(run);
    await new Promise((r) => setTimeout(r, 2000)); // room for any (wrong) extra event to arrive
    const all = await waitForWebhooks(run);
    expect(all).toHaveLength(1);
    expect(hook?.headers["x-service-event"]).toBe("batch.completed");
    const secret =
      (
        await envelope<{ webhooks: { signingSecret: string } }>(
          await call("/v1/account", { headers: bearer(account.apiKey) }),
        )
      ).data?.webhooks.signingSecret ?? "";
    const ts = String(hook?.headers["x-service-timestamp"]);
    expect(hook?.headers["x-service-signature"]).toBe(
      createHmac("sha256", secret).update(`${ts}.${hook?.body}`).digest("hex"),
    );
    const event = JSON.parse(hook?.body ?? "{}") as {
      jobs: Array<Record<string, unknown>>;
    } & Record<string, unknown>;
    expect(event).toMatchObject({
      event: "batch.completed",
      batchId: accepted.batchId,
      status: "completed",
      outcome: "partial",
      totalJobs: 3,
      completedJobs: 2,
      failedJobs: 1,
      completedAt: batch.completedAt,
    });
    expect(event.jobs).toEqual([
      {
        jobId: accepted.jobs[0]?.jobId,
        url: urls[0],
        status: "completed",
        resultUrl: expect.stringContaining("/v1/images/j/"),
      },
      {
        jobId: accepted.jobs[1]?.jobId,
        url: urls[1],
        status: "failed",
        error: "Screenshot capture failed.",
        errorDetail: CAUSE,
      },
      {
        jobId: accepted.jobs[2]?.jobId,
        url: urls[2],
        status: "completed",
        resultUrl: expect.stringContaining("/v1/images/j/"),
      },
    ]);

    const polled = await envelope<BatchView>(
      await call(`/v1/batches/${accepted.batchId}`, { headers: bearer(account.apiKey) }),
    );
    expect(polled.data).toMatchObject({
      batchId: accepted.batchId,
      status: "completed",
      outcome: "partial",
      completedJobs: 2,
      failedJobs: 1,
    });
    expect(polled.data?.jobs?.map((j) => j.status)).toEqual(["completed", "failed", "completed"]);
    expect(polled.data?.jobs?.[1]).toMatchObject({
      error: "Screenshot capture failed.",
      errorDetail: CAUSE,
    });
    expect(polled.data?.jobs?.[0]?.webhook).toBeUndefined(); // the batch holds the webhook, not its jobs
    const summary = await accountDo(account.accountId).summary();
    expect(summary?.usage).toMatchObject({ used: 2, remaining: 5000 - 2 });
    expect(summary?.activeJobs).toBe(0);
    const other = await createAccount("starter");
    const res404 = await call(`/v1/batches/${accepted.batchId}`, { headers: bearer(other.apiKey) });
    expect(res404.status).toBe(404);
    expect((await envelope(res404)).error?.code).toBe("NOT_FOUND");
  });
});
