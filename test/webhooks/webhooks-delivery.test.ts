/**
 * The webhooks consumer driven by hand (no real queue): a finished job with a webhook is made in
 * the Account DO, its delivery message handed to the consumer with chosen attempt counts and a
 * short attempt timeout, and the fixture receiver answers as scripted.
 */
import { describe, expect, it } from "vitest";
import {
  handleWebhookBatch,
  handleWebhookDeadLetters,
  type WebhookDeps,
} from "../../src/webhooks/deliver";
import { accountDo } from "../helpers/account-do";
import { createAccount } from "../helpers/accounts";
import { CANARY, canaryLog, FIXTURES, fixtureLog, runId } from "../helpers/http";
import { deliver, scriptWebhook, webhookUrl } from "../helpers/jobs";

const FAST: WebhookDeps = { timeoutMs: 600, random: () => 0.5, now: Date.now };
const handler = (batch: MessageBatch, env: Env) => handleWebhookBatch(batch, env, FAST);

/** A completed job whose job.completed delivery is emitted (not queued). */
async function finishedJob(url: string): Promise<{
  accountId: string;
  jobId: string;
  message: { accountId: string; deliveryId: string };
}> {
  const { accountId } = await createAccount("pro");
  const account = accountDo(accountId);
  const jobId = crypto.randomUUID();
  await account.jobs().admit({
    jobs: [{ id: jobId, url: "https://example.com/", format: "png" }],
    batchId: null,
    webhookUrl: url,
    reservationTtlMs: 60_000,
  });
  await account.jobs().start(jobId, 1);
  const meta = { width: 10, height: 10, loadTimeMs: 5, bytesSize: 100 };
  const { webhooks } = await account.jobs().finish(jobId, {
    status: "completed",
    resultUrl: "https://edgeshot.test/v1/images/j/x.png",
    meta,
  });
  const [deliveryId] = webhooks;
  if (!deliveryId) throw new Error("no delivery emitted");
  return { accountId, jobId, message: { accountId, deliveryId } };
}

const hooks = async (run: string) => (await fixtureLog(run)).filter((r) => r.path === "/webhook");
const webhookOf = async (accountId: string, jobId: string) =>
  (await accountDo(accountId).jobs().get(jobId))?.webhook;

describe("webhook delivery attempts", () => {
  it("2xx: delivered once; a duplicate message afterwards sends nothing", async () => {
    const run = runId();
    const { accountId, jobId, message } = await finishedJob(webhookUrl(run));
    expect(await webhookOf(accountId, jobId)).toMatchObject({
      status: "pending",
      attempts: 0,
      delivered: false,
    });
    const result = await deliver("webhooks", [message], handler);
    expect(result.explicitAcks).toHaveLength(1);
    const again = await deliver("webhooks", [message], handler, 2);
    expect(again.retryMessages).toEqual([]);
    expect(await hooks(run)).toHaveLength(1);
    expect(await webhookOf(accountId, jobId)).toMatchObject({
      status: "delivered",
      delivered: true,
      attempts: 1,
      lastStatus: 200,
    });
  });

  it("5xx: retried with the spec's backoff (≈5 s, 15 s, 45 s) and given up after the 4th attempt", async () => {
    const run = runId();
    await scriptWebhook(run, [503, 500, 502, 500]);
    const { accountId, jobId, message } = await finishedJob(webhookUrl(run));
    const delays: Array<number | undefined> = [];
    for (const attempt of [1, 2, 3]) {
      const result = await deliver("webhooks", [message], handler, attempt);
      delays.push(result.retryMessages[0]?.delaySeconds);
    }
    expect(delays).toEqual([5, 15, 45]);
    const last = await deliver("webhooks", [message], handler, 4);
    expect(last.retryMessages).toEqual([]);
    expect(last.explicitAcks).toHaveLength(1);
    const sent = await hooks(run);
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((r) => r.headers["x-service-delivery-id"])).size).toBe(1);
    expect(await webhookOf(accountId, jobId)).toMatchObject({
      status: "failed",
      delivered: false,
      attempts: 4,
      lastStatus: 500,
    });
  });

  it("4xx (410): never retried", async () => {
    const run = runId();
    await scriptWebhook(run, [410]);
    const { accountId, jobId, message } = await finishedJob(webhookUrl(run));
    const result = await deliver("webhooks", [message], handler);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await hooks(run)).toHaveLength(1);
    expect(await webhookOf(accountId, jobId)).toMatchObject({
      status: "failed",
      attempts: 1,
      lastStatus: 410,
      lastError: "HTTP 410",
    });
  });

  it("3xx: a redirect is not followed (its target never hears of it) and counts as a failure", async () => {
    const run = runId();
    const target = `${CANARY}/webhook?run=${run}`;
    const { accountId, jobId, message } = await finishedJob(
      `${FIXTURES}/redirect?run=${run}&to=${encodeURIComponent(target)}`,
    );
    const result = await deliver("webhooks", [message], handler);
    expect(result.retryMessages).toEqual([]);
    expect((await fixtureLog(run)).map((r) => r.path)).toEqual(["/redirect"]);
    expect(await canaryLog(run)).toEqual([]);
    expect(await webhookOf(accountId, jobId)).toMatchObject({ status: "failed", lastStatus: 302 });
  });

  it("a receiver that never answers times out and is retried; the next attempt delivers", async () => {
    const run = runId();
    await scriptWebhook(run, [0]);
    const { accountId, jobId, message } = await finishedJob(webhookUrl(run));
    const started = Date.now();
    const first = await deliver("webhooks", [message], handler);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(first.retryMessages).toEqual([expect.objectContaining({ delaySeconds: 5 })]);
    expect(await webhookOf(accountId, jobId)).toMatchObject({
      status: "pending",
      attempts: 1,
      lastStatus: null,
      lastError: "no answer within 0.6 s",
    });
    const second = await deliver("webhooks", [message], handler, 2);
    expect(second.explicitAcks).toHaveLength(1);
    expect(await webhookOf(accountId, jobId)).toMatchObject({
      status: "delivered",
      attempts: 2,
      lastStatus: 200,
    });
  });

  it("the URL guard runs again at delivery: a URL no longer allowed is never contacted", async () => {
    const run = runId();
    const url = `${CANARY}/webhook?run=${run}`; // a recording server the guard does not allow
    const { accountId, jobId, message } = await finishedJob(url);
    const result = await deliver("webhooks", [message], handler);
    expect(result.retryMessages).toEqual([]);
    expect(await canaryLog(run)).toEqual([]);
    expect(await webhookOf(accountId, jobId)).toMatchObject({
      status: "failed",
      lastStatus: null,
      lastError: "the webhook URL is no longer allowed",
    });
  });

  it("a resolver that cannot be reached at delivery is ours: retried, not failed", async () => {
    // The DoH fake answers HTTP 500 for this name: the URL could not be checked this time.
    const { accountId, jobId, message } = await finishedJob(
      "https://http500.rebind.example.com/hook",
    );
    const result = await deliver("webhooks", [message], handler);
    expect(result.retryMessages).toHaveLength(1);
    expect(await webhookOf(accountId, jobId)).toMatchObject({
      status: "pending",
      attempts: 1,
      lastStatus: null,
      lastError: "the webhook URL could not be checked (DNS resolver unreachable)",
    });
  });

  it("dead-lettered: the delivery is recorded as failed; a delivered one stays delivered", async () => {
    const open = await finishedJob(webhookUrl(runId()));
    await deliver("webhooks-dlq", [open.message], handleWebhookDeadLetters);
    expect(await webhookOf(open.accountId, open.jobId)).toMatchObject({
      status: "failed",
      delivered: false,
    });
    const done = await finishedJob(webhookUrl(runId()));
    await deliver("webhooks", [done.message], handler);
    await deliver("webhooks-dlq", [done.message], handleWebhookDeadLetters);
    expect(await webhookOf(done.accountId, done.jobId)).toMatchObject({ status: "delivered" });
  });

  it("malformed messages and unknown deliveries are acked", async () => {
    const { accountId } = await createAccount("pro");
    const result = await deliver(
      "webhooks",
      [{}, { accountId, deliveryId: crypto.randomUUID() }],
      handler,
    );
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
  });
});
