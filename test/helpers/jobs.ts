/** Async jobs in tests: polling job/batch records, waiting for webhook deliveries, fixture scripts. */
import { checkWebhookBody } from "./contract";
import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  type QueueResult,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { AuthContext } from "../../src/accounts/auth";
import type { BatchView, JobView } from "../../schemas/responses";
import { PLANS, type PlanId } from "../../src/accounts/plans";
import { accountDo } from "./account-do";
import { call, envelope, FIXTURES, fixtureLog, type LoggedRequest } from "./http";

export async function poll<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 45_000,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`poll timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export async function getJob(
  auth: Record<string, string>,
  jobId: string,
): Promise<{ status: number; job?: JobView }> {
  const res = await call(`/v1/jobs/${jobId}`, { headers: auth });
  const body = await envelope<JobView>(res);
  return { status: res.status, job: body.data };
}

const finished = (s: string | undefined) => s === "completed" || s === "failed";

/** Polls the DO directly (no rate limit) until the job finished. */
export function waitForJob(accountId: string, jobId: string, timeoutMs?: number): Promise<JobView> {
  return poll(
    async () => accountDo(accountId).jobs().get(jobId),
    (j) => finished(j?.status),
    timeoutMs,
  ) as Promise<JobView>;
}

export function waitForBatch(
  accountId: string,
  batchId: string,
  timeoutMs?: number,
): Promise<BatchView> {
  return poll(
    async () => accountDo(accountId).jobs().getBatch(batchId),
    (b) => b?.status === "completed",
    timeoutMs,
  ) as Promise<BatchView>;
}

/**
 * Webhook deliveries the fixture receiver logged for `run`, once there are at least `count`;
 * each body checked against the OpenAPI document's `webhooks` (test/helpers/contract.ts).
 */
export async function waitForWebhooks(
  run: string,
  count = 1,
  timeoutMs?: number,
): Promise<LoggedRequest[]> {
  const deliveries = await poll(
    async () => (await fixtureLog(run)).filter((r) => r.path === "/webhook"),
    (l) => l.length >= count,
    timeoutMs,
  );
  for (const delivery of deliveries)
    checkWebhookBody(JSON.parse(delivery.body) as Record<string, unknown>);
  return deliveries;
}

export function webhookUrl(run: string): string {
  return `${FIXTURES}/webhook?run=${run}`;
}

/** Makes the fixture receiver answer `statuses` in order for `run` (0 = never answer), then 200. */
export async function scriptWebhook(run: string, statuses: number[]): Promise<void> {
  const res = await fetch(`${FIXTURES}/__script`, {
    method: "POST",
    body: JSON.stringify({ run, statuses }),
  });
  if (!res.ok) throw new Error(`script: ${res.status}`);
}

/** An AuthContext for calling src/jobs functions directly (no HTTP). */
export function authFor(accountId: string, plan: PlanId = "pro"): AuthContext {
  return { accountId, keyId: "key_test", plan: PLANS[plan], account: accountDo(accountId) };
}

/**
 * Delivers `bodies` to `handler` as one batch from `queue`; returns what it acked/retried.
 * (The plugin's messages drop retry options, so `retry` is wrapped to keep `delaySeconds`.)
 */
export async function deliver(
  queue: string,
  bodies: unknown[],
  handler: (batch: MessageBatch, env: Env) => Promise<void>,
  attempts = 1,
): Promise<QueueResult> {
  const batch = createMessageBatch(
    queue,
    bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts, body })),
  );
  const delays = new Map<string, number | undefined>();
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    Object.defineProperty(message, "retry", {
      value: (options?: QueueRetryOptions) => {
        delays.set(message.id, options?.delaySeconds);
        retry(options);
      },
    });
  }
  const ctx = createExecutionContext();
  await handler(batch, env);
  const result = await getQueueResult(batch, ctx);
  return {
    ...result,
    retryMessages: result.retryMessages.map((m) => ({ ...m, delaySeconds: delays.get(m.msgId) })),
  };
}
