/**
 * The capture-jobs consumer, driven deterministically: jobs are admitted and stored without
 * being queued (createJobs), then their messages delivered by hand — twice, concurrently, with
 * given attempt counts — to check the guarded transitions, retries, failures and the DLQ.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { failures } from "../../src/capture/failures";
import type { CaptureOutcome } from "../../src/capture/host/browser-host";
import { prepareCapture } from "../../src/capture-request/prepare";
import type { CaptureEngine } from "../../src/pipeline/engine";
import {
  captureRetryDelay,
  handleCaptureBatch,
  handleCaptureDeadLetters,
} from "../../src/queues/capture-jobs";
import { jobDocumentKey } from "../../src/jobs/job-document";
import { createJobs, type Admitted } from "../../src/jobs/submit";
import { accountDo } from "../helpers/account-do";
import { createAccount } from "../helpers/accounts";
import { SMALL_CAPTURE } from "../helpers/capture";
import { BASE, FIXTURES, fixtureLog, runId } from "../helpers/http";
import { authFor, deliver } from "../helpers/jobs";

async function admitted(
  url: string,
  extra: Record<string, unknown> = {},
): Promise<{ accountId: string; job: Admitted }> {
  const { accountId } = await createAccount("pro");
  const auth = authFor(accountId);
  const spec = await prepareCapture(env, auth, { url, ...SMALL_CAPTURE, ...extra });
  const job = await createJobs(env, auth, {
    specs: [spec],
    batch: false,
    webhookUrl: null,
    cacheTtl: 3600,
    origin: BASE,
  });
  return { accountId, job };
}

const usage = async (accountId: string) => (await accountDo(accountId).summary())?.usage;
const active = async (accountId: string) => (await accountDo(accountId).summary())?.activeJobs;

function failing(failure = failures.unreachable()): CaptureEngine & { calls: number } {
  const deps = {
    calls: 0,
    capture: async (): Promise<CaptureOutcome> => {
      deps.calls++;
      return { ok: false, failure };
    },
  };
  return deps;
}

describe("capture-jobs consumer", () => {
  it("messages carry ids only; the CaptureSpec waits in R2", async () => {
    const { accountId, job } = await admitted(`${FIXTURES}/boxes.html?run=${runId()}`);
    const [message] = job.messages;
    expect(message).toEqual({ kind: "capture-job", accountId, jobId: job.jobs[0]?.jobId });
    const doc = await env.OUTPUTS.get(jobDocumentKey(accountId, message?.jobId ?? ""));
    const stored = (await doc?.json()) as { spec: { source: { url: string } }; cacheTtl: number };
    expect(stored.spec.source.url).toContain("/boxes.html");
    expect(stored.cacheTtl).toBe(3600);
  });

  it("the same message delivered twice concurrently, then again: one capture, one credit", async () => {
    const run = runId();
    const { accountId, job } = await admitted(`${FIXTURES}/boxes.html?run=${run}`);
    const bodies = job.messages;
    const [a, b] = await Promise.all([
      deliver("capture-jobs", bodies, handleCaptureBatch),
      deliver("capture-jobs", bodies, handleCaptureBatch),
    ]);
    const again = await deliver("capture-jobs", bodies, handleCaptureBatch);
    for (const result of [a, b, again]) {
      expect(result.retryMessages).toEqual([]);
      expect(result.explicitAcks).toHaveLength(1);
    }
    const jobId = job.jobs[0]?.jobId ?? "";
    expect((await accountDo(accountId).jobs().get(jobId))?.status).toBe("completed");
    expect((await fixtureLog(run)).filter((r) => r.path === "/boxes.html")).toHaveLength(1);
    expect(await usage(accountId)).toMatchObject({ used: 1, remaining: 25_000 - 1 });
    expect(await active(accountId)).toBe(0);
    // The document is gone once the job finished.
    expect(await env.OUTPUTS.head(jobDocumentKey(accountId, jobId))).toBeNull();
  });

  it("transient failures retry with backoff (5 s, 15 s), then fail with a sanitized error and a refund", async () => {
    const { accountId, job } = await admitted(`${FIXTURES}/boxes.html?run=${runId()}`);
    const jobId = job.jobs[0]?.jobId ?? "";
    const deps = failing();
    // The default backoff (the test bindings shorten it to 1 s, 3 s for the suite's real queues).
    const handler = (batch: MessageBatch, e: Env) =>
      handleCaptureBatch(batch, { ...e, CAPTURE_RETRY_BASE_SECONDS: undefined } as Env, deps);
    const first = await deliver("capture-jobs", job.messages, handler, 1);
    expect(first.retryMessages).toEqual([expect.objectContaining({ delaySeconds: 5 })]);
    expect((await accountDo(accountId).jobs().get(jobId))?.status).toBe("processing");
    // A duplicate of attempt 1 while attempt 1 holds the job: refused, no capture.
    const dup = await deliver("capture-jobs", job.messages, handler, 1);
    expect(dup.explicitAcks).toHaveLength(1);
    expect(deps.calls).toBe(1);
    const second = await deliver("capture-jobs", job.messages, handler, 2);
    expect(second.retryMessages).toEqual([expect.objectContaining({ delaySeconds: 15 })]);
    const third = await deliver("capture-jobs", job.messages, handler, 3);
    expect(third.retryMessages).toEqual([]);
    expect(third.explicitAcks).toHaveLength(1);
    expect(deps.calls).toBe(3);
    const failed = await accountDo(accountId).jobs().get(jobId);
    expect(failed).toMatchObject({ status: "failed", error: "Could not reach the target URL." });
    expect(failed?.resultUrl).toBeUndefined();
    expect(await usage(accountId)).toMatchObject({ used: 0, remaining: 25_000 });
    expect(await active(accountId)).toBe(0);
    expect(captureRetryDelay(env, 1)).toBe(1); // CAPTURE_RETRY_BASE_SECONDS=1 (vitest.config.ts)
    expect(captureRetryDelay(env, 2)).toBe(3);
    // Longer than the default is a configuration error, not a slower retry.
    expect(() => captureRetryDelay({ ...env, CAPTURE_RETRY_BASE_SECONDS: "6" } as Env, 1)).toThrow(
      "not configured correctly",
    );
  });

  it("deterministic failures (element not found) fail at once", async () => {
    const { accountId, job } = await admitted(`${FIXTURES}/boxes.html?run=${runId()}`);
    const deps = failing(failures.elementNotFound());
    const result = await deliver("capture-jobs", job.messages, (b, e) =>
      handleCaptureBatch(b, e, deps),
    );
    expect(result.retryMessages).toEqual([]);
    expect(deps.calls).toBe(1);
    const jobView = await accountDo(accountId)
      .jobs()
      .get(job.jobs[0]?.jobId ?? "");
    expect(jobView).toMatchObject({
      status: "failed",
      error: "The specified element was not found.",
    });
    expect(await usage(accountId)).toMatchObject({ used: 0 });
  });

  it("a real capture failure: a missing selector fails the job naming the selector", async () => {
    const { accountId, job } = await admitted(`${FIXTURES}/boxes.html?run=${runId()}`, {
      selector: "#does-not-exist",
    });
    const result = await deliver("capture-jobs", job.messages, handleCaptureBatch);
    expect(result.retryMessages).toEqual([]);
    const jobView = await accountDo(accountId)
      .jobs()
      .get(job.jobs[0]?.jobId ?? "");
    expect(jobView).toMatchObject({
      status: "failed",
      error: "The specified element was not found.",
      errorDetail:
        'The specified element was not found. selector: No element matches "#does-not-exist".',
    });
  });

  it("a thrown script: the sync answer's message and hint, never the script's own text", async () => {
    const { accountId, job } = await admitted(`${FIXTURES}/boxes.html?run=${runId()}`);
    const deps = failing(failures.script());
    await deliver("capture-jobs", job.messages, (b, e) => handleCaptureBatch(b, e, deps));
    const jobView = await accountDo(accountId)
      .jobs()
      .get(job.jobs[0]?.jobId ?? "");
    expect(jobView).toMatchObject({
      status: "failed",
      error: "Screenshot capture failed.",
      errorDetail:
        "Screenshot capture failed. js: script_error: the custom script threw an exception.",
    });
  });

  it("dead-lettered: a queued job fails with the generic error and is refunded; a finished one is left alone", async () => {
    const { accountId, job } = await admitted(`${FIXTURES}/boxes.html?run=${runId()}`);
    const jobId = job.jobs[0]?.jobId ?? "";
    const result = await deliver("capture-jobs-dlq", job.messages, handleCaptureDeadLetters);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await accountDo(accountId).jobs().get(jobId)).toMatchObject({
      status: "failed",
      error: "Screenshot capture failed.",
    });
    expect(await usage(accountId)).toMatchObject({ used: 0, remaining: 25_000 });
    expect(await active(accountId)).toBe(0);
    // Dead-lettered again (or after completion): nothing moves.
    await deliver("capture-jobs-dlq", job.messages, handleCaptureDeadLetters);
    expect(await accountDo(accountId).jobs().get(jobId)).toMatchObject({ status: "failed" });
    expect(await active(accountId)).toBe(0);
  });

  it("malformed messages and unknown jobs are acked, not retried", async () => {
    const { accountId } = await createAccount("pro");
    const result = await deliver(
      "capture-jobs",
      [
        { jobId: 42 },
        "x",
        { kind: "capture-job", accountId, jobId: crypto.randomUUID() },
        { kind: "render", accountId, jobId: crypto.randomUUID() },
      ],
      handleCaptureBatch,
    );
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toHaveLength(4);
  });

  it("a job whose document is missing fails with the generic error", async () => {
    const { accountId, job } = await admitted(`${FIXTURES}/boxes.html?run=${runId()}`);
    const jobId = job.jobs[0]?.jobId ?? "";
    await env.OUTPUTS.delete(jobDocumentKey(accountId, jobId));
    await deliver("capture-jobs", job.messages, handleCaptureBatch);
    expect(await accountDo(accountId).jobs().get(jobId)).toMatchObject({
      status: "failed",
      error: "Screenshot capture failed.",
    });
  });
});
