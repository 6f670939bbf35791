/**
 * Webhook delivery: the `webhooks` consumer and its dead-letter queue.
 *
 * A message names a delivery (`{accountId, deliveryId}`); the Account DO holds its URL, state
 * and the finished job/batch the event body is built from. Each attempt re-runs the URL guard,
 * is signed at send time with the ACCOUNT's key (HMAC-SHA256 of `<timestamp>.<raw body>`),
 * POSTs without following redirects (a 3xx is a failure) and gives up after 10 s. 5xx,
 * timeouts and network errors are retried (≈5 s, 15 s, 45 s with jitter, capped at 120 s);
 * 2xx delivers; 3xx/4xx and a refused URL fail at once. Every attempt and the final outcome
 * are recorded on the delivery (GET /v1/jobs/:id, /v1/batches/:id and the delivery log show
 * them, with the next retry's time). A test ping (`sendTestPing`) goes through the same `send`.
 */
import { accountStub } from "../accounts/directory";
import type { AttemptRecord, WebhookDelivery } from "./store/deliveries";
import type { WebhookDeliveryView } from "../../schemas/responses";
import { WEBHOOKS } from "../../schemas/limits";
import { z } from "zod";
import { plainId } from "../../schemas/primitives";
import { webhookSecretFor } from "./keys";
import { signWebhook } from "./sign";
import { checkWebhookUrl } from "./url";
import { log } from "../log";
import { TUNING } from "../tuning";

/** A `webhooks` queue message: the delivery's id only (its URL, state and body are in the DO). */
const webhookMessage = z.strictObject({ accountId: plainId, deliveryId: plainId });
type WebhookMessage = z.infer<typeof webhookMessage>;

export interface WebhookDeps {
  /** Per attempt (10 s); tests shorten it. */
  timeoutMs: number;
  /** Jitter source in [0, 1). */
  random: () => number;
  now: () => number;
}

const DEFAULT_DEPS: WebhookDeps = {
  timeoutMs: WEBHOOKS.timeoutMs,
  random: Math.random,
  now: Date.now,
};

/** Delay before retry `attempt` + 1 (attempt is 1-based): 5, 15, 45 s ± jitter, ≤ 120 s. */
export function webhookRetryDelay(attempt: number, random: () => number = Math.random): number {
  const base = WEBHOOKS.retryBaseSeconds * 3 ** Math.max(0, attempt - 1);
  const jittered = base * (1 + WEBHOOKS.jitter * (2 * random() - 1));
  return Math.max(1, Math.min(WEBHOOKS.retryCapSeconds, Math.round(jittered)));
}

/** Puts deliveries on the `webhooks` queue and marks them queued. */
export async function enqueueWebhooks(
  env: Env,
  accountId: string,
  deliveryIds: string[],
): Promise<void> {
  if (deliveryIds.length === 0) return;
  const messages: WebhookMessage[] = deliveryIds.map((deliveryId) => ({ accountId, deliveryId }));
  await env.WEBHOOKS.sendBatch(messages.map((body) => ({ body })));
  await accountStub(env, accountId).webhooks().markQueued(deliveryIds);
}

/**
 * A delivered or failed delivery of `accountId` queued again (same id and body, signed afresh
 * at its attempt); one still open is left as it is. Null when the account has no such delivery
 * in its log (another account's id included). The API's and the dashboard's redeliver.
 */
export async function redeliverWebhook(
  env: Env,
  accountId: string,
  deliveryId: string,
): Promise<WebhookDeliveryView | null> {
  const webhooks = accountStub(env, accountId).webhooks();
  const reopened = await webhooks.reopen(deliveryId);
  if (!reopened) return null;
  if (reopened.reopened) await enqueueWebhooks(env, accountId, [deliveryId]);
  return (await webhooks.entry(deliveryId)) ?? reopened.view;
}

type Sent = AttemptRecord & { retryable: boolean };

/** What one attempt sends: a stored delivery, or a test ping (POST /v1/webhooks/test). */
type Outgoing = Pick<WebhookDelivery, "deliveryId" | "body"> & { event: string };

async function send(
  env: Env,
  accountId: string,
  delivery: Outgoing,
  url: URL,
  deps: WebhookDeps,
): Promise<Sent> {
  const { body } = delivery;
  const timestamp = Math.floor(deps.now() / 1000);
  const signature = await signWebhook(await webhookSecretFor(env, accountId), timestamp, body);
  let res: Response;
  try {
    res = await fetch(url.href, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(deps.timeoutMs),
      headers: {
        "content-type": "application/json",
        "user-agent": WEBHOOKS.userAgent,
        "x-service-event": delivery.event,
        "x-service-delivery-id": delivery.deliveryId,
        "x-service-timestamp": String(timestamp),
        "x-service-signature": signature,
      },
      body,
    });
  } catch (err) {
    const timedOut =
      err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    const error = timedOut ? `no answer within ${deps.timeoutMs / 1000} s` : "connection failed";
    return { status: null, error, outcome: "retry", retryable: true };
  }
  await res.body?.cancel().catch(() => {});
  const { status } = res;
  if (status >= 200 && status < 300)
    return { status, error: null, outcome: "delivered", retryable: false };
  if (status >= 500) return { status, error: `HTTP ${status}`, outcome: "retry", retryable: true };
  const error =
    status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
  return { status, error, outcome: "failed", retryable: false };
}

export async function handleWebhookBatch(
  batch: MessageBatch,
  env: Env,
  deps: WebhookDeps = DEFAULT_DEPS,
): Promise<void> {
  await Promise.all(batch.messages.map((message) => handleWebhookMessage(message, env, deps)));
}

async function handleWebhookMessage(message: Message, env: Env, deps: WebhookDeps): Promise<void> {
  const parsed = webhookMessage.safeParse(message.body);
  if (!parsed.success) {
    log("error", "webhooks: malformed message dropped", { id: message.id });
    message.ack();
    return;
  }
  const { accountId, deliveryId } = parsed.data;
  try {
    const account = accountStub(env, accountId);
    const delivery = await account.webhooks().get(deliveryId);
    if (!delivery || delivery.state === "delivered" || delivery.state === "failed") {
      message.ack(); // unknown, or a duplicate of a finished delivery
      return;
    }
    const verdict = await checkWebhookUrl(env, delivery.url);
    const sent: Sent = verdict.ok
      ? await send(env, accountId, delivery, verdict.url, deps)
      : verdict.unavailable
        ? {
            status: null,
            error: "the webhook URL could not be checked (DNS resolver unreachable)",
            outcome: "retry",
            retryable: true,
          }
        : {
            status: null,
            error: "the webhook URL is no longer allowed",
            outcome: "failed",
            retryable: false,
          };
    const last = message.attempts >= WEBHOOKS.attempts;
    const outcome = sent.outcome === "retry" && last ? "failed" : sent.outcome;
    const delaySeconds = webhookRetryDelay(message.attempts, deps.random);
    await account.webhooks().recordAttempt(deliveryId, {
      status: sent.status,
      error: sent.error,
      outcome,
      retryAt: outcome === "retry" ? deps.now() + delaySeconds * 1000 : null,
    });
    if (outcome === "retry") message.retry({ delaySeconds });
    else message.ack();
  } catch (err) {
    log("error", "webhooks: delivery error, retrying", { deliveryId, error: String(err) });
    message.retry({ delaySeconds: webhookRetryDelay(message.attempts, deps.random) });
  }
}

/**
 * POST /v1/webhooks/test: a signed `test.ping` to `url`, sent now through the same guard,
 * signing and attempt as every delivery (one attempt, no retry, nothing stored).
 */
export async function sendTestPing(
  env: Env,
  accountId: string,
  raw: string,
  deps: WebhookDeps = DEFAULT_DEPS,
): Promise<{ delivered: boolean; status: number | null; error?: string }> {
  const verdict = await checkWebhookUrl(env, raw);
  if (!verdict.ok)
    return {
      delivered: false,
      status: null,
      error: verdict.unavailable
        ? "the URL could not be checked: the DNS resolver could not be reached (nothing was sent)"
        : "not a public https URL (nothing was sent)",
    };
  const deliveryId = crypto.randomUUID();
  const body = JSON.stringify({
    event: "test.ping",
    deliveryId,
    accountId,
    sentAt: new Date(deps.now()).toISOString(),
  });
  const sent = await send(
    env,
    accountId,
    { deliveryId, event: "test.ping", body },
    verdict.url,
    deps,
  );
  const delivered = sent.outcome === "delivered";
  return delivered || sent.error === null
    ? { delivered, status: sent.status }
    : { delivered, status: sent.status, error: sent.error };
}

/** `webhooks-dlq`: the delivery is given up on (recorded as failed) if still open. */
export async function handleWebhookDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = webhookMessage.safeParse(message.body);
    if (!parsed.success) {
      message.ack();
      continue;
    }
    const { accountId, deliveryId } = parsed.data;
    try {
      await accountStub(env, accountId)
        .webhooks()
        .fail(deliveryId, "delivery abandoned after repeated errors");
      message.ack();
    } catch (err) {
      log("error", "webhooks-dlq: could not record", { deliveryId, error: String(err) });
      message.retry({ delaySeconds: TUNING.deadLetterRetrySeconds });
    }
  }
}
