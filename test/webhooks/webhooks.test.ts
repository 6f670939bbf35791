/**
 * Webhooks end to end through the real local queues, with the fixture server as the receiver:
 * signed with the account's key (checked here with node:crypto), the spec's headers and body,
 * retried on 5xx with the same delivery id, and the outcome recorded on the job.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { JobView } from "../../schemas/responses";
import { verifyWebhook } from "../../sdk/src/webhooks";
import { Capturer } from "../helpers/capture";
import { call, envelope, FIXTURES, type LoggedRequest, runId } from "../helpers/http";
import { poll, scriptWebhook, waitForJob, waitForWebhooks, webhookUrl } from "../helpers/jobs";

const small = (run: string) => ({
  url: `${FIXTURES}/boxes.html?run=${run}`,
  width: 320,
  height: 240,
  deviceScaleFactor: 1,
  waitUntil: "load",
  blockAds: false,
});

async function signingSecret(cap: Capturer): Promise<string> {
  const res = await call("/v1/account", { headers: cap.auth });
  return (
    (await envelope<{ webhooks: { signingSecret: string } }>(res)).data?.webhooks.signingSecret ??
    ""
  );
}

function expectSigned(req: LoggedRequest, secret: string): void {
  const timestamp = String(req.headers["x-service-timestamp"]);
  const expected = createHmac("sha256", secret).update(`${timestamp}.${req.body}`).digest("hex");
  expect(req.headers["x-service-signature"]).toBe(expected);
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(120);
}

async function jobWebhook(
  cap: Capturer,
  jobId: string,
  done: (w: JobView["webhook"]) => boolean,
): Promise<JobView> {
  return poll(
    async () =>
      (await envelope<JobView>(await call(`/v1/jobs/${jobId}`, { headers: cap.auth })))
        .data as JobView,
    (job) => done(job.webhook),
    30_000,
    500,
  );
}

describe("webhooks (real queues)", () => {
  it("job.completed: signed with the account's key, the spec's headers and fields, recorded as delivered", async () => {
    const cap = await Capturer.create("pro");
    const run = runId();
    const { res, body } = await cap.json<{ jobId: string }>({
      ...small(runId()),
      async: true,
      webhookUrl: webhookUrl(run),
    });
    expect(res.status).toBe(202);
    const jobId = body.data?.jobId ?? "";
    const [delivery] = await waitForWebhooks(run);
    if (!delivery) throw new Error("no delivery");
    const secret = await signingSecret(cap);
    expectSigned(delivery, secret);
    expect(delivery.method).toBe("POST");
    expect(delivery.headers["user-agent"]).toBe("Service-Webhook/1.0");
    expect(delivery.headers["x-service-event"]).toBe("job.completed");
    expect(delivery.headers["x-service-delivery-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivery.headers["content-type"]).toBe("application/json");
    const event = JSON.parse(delivery.body) as Record<string, unknown>;
    const job = await waitForJob(cap.account.accountId, jobId);
    expect(event).toEqual({
      event: "job.completed",
      jobId,
      status: "completed",
      resultUrl: job.resultUrl,
      metadata: {
        url: expect.stringContaining("/boxes.html?run="),
        format: "png",
        width: 320,
        height: 240,
        loadTimeMs: expect.any(Number),
        // The capture's completeness report (docs/CAPTURE.md), as the job records it.
        completeness: expect.objectContaining({
          blankRatio: expect.any(Number),
          pendingRequests: 0,
          retried: false,
        }),
      },
      completedAt: job.completedAt,
    });
    // The exported helper accepts it; another account's key does not.
    const check = {
      body: delivery.body,
      signature: String(delivery.headers["x-service-signature"]),
      timestamp: String(delivery.headers["x-service-timestamp"]),
    };
    expect(await verifyWebhook({ ...check, secret })).toMatchObject({ ok: true });
    const other = await signingSecret(await Capturer.create("pro"));
    expect(other).not.toBe(secret);
    expect(await verifyWebhook({ ...check, secret: other })).toEqual({
      ok: false,
      reason: "bad_signature",
    });

    const recorded = await jobWebhook(cap, jobId, (w) => w?.status === "delivered");
    expect(recorded.webhook).toMatchObject({
      deliveryId: delivery.headers["x-service-delivery-id"],
      delivered: true,
      attempts: 1,
      lastStatus: 200,
      lastError: null,
    });
  });

  it("job.failed names the cause the sync answer gives (the selector that matched nothing)", async () => {
    const cap = await Capturer.create("pro");
    const run = runId();
    const { body } = await cap.json<{ jobId: string }>({
      ...small(runId()),
      selector: "#missing",
      async: true,
      webhookUrl: webhookUrl(run),
    });
    const [delivery] = await waitForWebhooks(run);
    expect(delivery?.headers["x-service-event"]).toBe("job.failed");
    expect(JSON.parse(delivery?.body ?? "{}")).toEqual({
      event: "job.failed",
      jobId: body.data?.jobId,
      status: "failed",
      error: "The specified element was not found.",
      errorDetail: 'The specified element was not found. selector: No element matches "#missing".',
      completedAt: expect.any(String),
    });
    expectSigned(delivery as LoggedRequest, await signingSecret(cap));
  });

  it("a 500 is retried after a backoff with the same delivery id and a fresh signature, then delivered", async () => {
    const cap = await Capturer.create("pro");
    const run = runId();
    await scriptWebhook(run, [500]);
    const { body } = await cap.json<{ jobId: string }>({
      ...small(runId()),
      async: true,
      webhookUrl: webhookUrl(run),
    });
    const [first, second] = await waitForWebhooks(run, 2, 40_000);
    if (!first || !second) throw new Error("expected two attempts");
    expect(second.headers["x-service-delivery-id"]).toBe(first.headers["x-service-delivery-id"]);
    expect(second.body).toBe(first.body);
    const secret = await signingSecret(cap);
    expectSigned(first, secret);
    expectSigned(second, secret);
    // Retry 1 waits about 5 s (±20 % jitter) on the real queue.
    const gap =
      (second as LoggedRequest & { at: number }).at - (first as LoggedRequest & { at: number }).at;
    expect(gap).toBeGreaterThanOrEqual(3500);
    const recorded = await jobWebhook(
      cap,
      body.data?.jobId ?? "",
      (w) => w?.status === "delivered",
    );
    expect(recorded.webhook).toMatchObject({ attempts: 2, lastStatus: 200, delivered: true });
  });
});
