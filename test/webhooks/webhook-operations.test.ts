/**
 * Webhook operations through the API: the delivery log (GET /v1/webhooks/deliveries: the last
 * 7 days, newest first, paged, with attempts, the last answer, state and the next retry),
 * redelivery (POST …/{id}/redeliver: queued again on the real queue, same delivery id, 404 for
 * another account's id) and a test send (POST /v1/webhooks/test: a signed test.ping sent now
 * through the guarded delivery code, its result returned).
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Account } from "../../src/account-do/account";
import { handleWebhookBatch, type WebhookDeps } from "../../src/webhooks/deliver";
import { verifyWebhook } from "../../sdk/src/webhooks";
import { accountDo } from "../helpers/account-do";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { call, envelope, fixtureLog, postJson, runId } from "../helpers/http";
import { deliver, poll, scriptWebhook, waitForWebhooks, webhookUrl } from "../helpers/jobs";

interface DeliveryView {
  deliveryId: string;
  event: string;
  url: string;
  subject: { kind: string; id: string };
  state: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}
interface Listing {
  items: DeliveryView[];
  nextCursor: string | null;
}

const FAST: WebhookDeps = { timeoutMs: 600, random: () => 0.5, now: Date.now };
const handler = (batch: MessageBatch, env: Env) => handleWebhookBatch(batch, env, FAST);

/** A finished job of `account` whose job.completed delivery to `url` is emitted (not queued). */
async function finishedJob(account: TestAccount, url: string): Promise<string> {
  const stub = accountDo(account.accountId);
  const jobId = crypto.randomUUID();
  await stub.jobs().admit({
    jobs: [{ id: jobId, url: "https://example.com/", format: "png" }],
    batchId: null,
    webhookUrl: url,
    reservationTtlMs: 60_000,
  });
  await stub.jobs().start(jobId, 1);
  const meta = { width: 10, height: 10, loadTimeMs: 5, bytesSize: 100 };
  const { webhooks } = await stub.jobs().finish(jobId, {
    status: "completed",
    resultUrl: "https://edgeshot.test/v1/images/j/x.png",
    meta,
  });
  const [deliveryId] = webhooks;
  if (!deliveryId) throw new Error("no delivery emitted");
  return deliveryId;
}

async function list(account: TestAccount, query = ""): Promise<Listing> {
  const res = await call(`/v1/webhooks/deliveries${query}`, { headers: bearer(account.apiKey) });
  expect(res.status).toBe(200);
  return (await envelope<Listing>(res)).data ?? { items: [], nextCursor: null };
}

const entryOf = async (account: TestAccount, deliveryId: string) =>
  (await list(account, "?limit=100")).items.find((d) => d.deliveryId === deliveryId);

describe("GET /v1/webhooks/deliveries", () => {
  it("lists a delivery with its attempts, last answer, state and next retry", async () => {
    const account = await createAccount("pro");
    const run = runId();
    const deliveryId = await finishedJob(account, webhookUrl(run));
    expect(await entryOf(account, deliveryId)).toMatchObject({
      event: "job.completed",
      url: webhookUrl(run),
      subject: { kind: "job" },
      state: "pending",
      attempts: 0,
      lastStatus: null,
      nextAttemptAt: null,
    });

    await scriptWebhook(run, [503]);
    const before = Date.now();
    await deliver("webhooks", [{ accountId: account.accountId, deliveryId }], handler);
    const retrying = await entryOf(account, deliveryId);
    expect(retrying).toMatchObject({
      state: "queued",
      attempts: 1,
      lastStatus: 503,
      lastError: "HTTP 503",
    });
    // The first retry waits 5 s (jitter 0 with random 0.5).
    const next = Date.parse(retrying?.nextAttemptAt ?? "");
    expect(next - before).toBeGreaterThanOrEqual(4_000);
    expect(next - Date.now()).toBeLessThanOrEqual(6_000);

    await deliver("webhooks", [{ accountId: account.accountId, deliveryId }], handler, 2);
    expect(await entryOf(account, deliveryId)).toMatchObject({
      state: "delivered",
      attempts: 2,
      lastStatus: 200,
      lastError: null,
      nextAttemptAt: null,
    });
  });

  it("is newest first and paged by cursor; filters by state; only the last 7 days", async () => {
    const account = await createAccount("pro");
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await finishedJob(account, webhookUrl(runId())));
    const first = await list(account, "?limit=2");
    expect(first.items.map((d) => d.deliveryId)).toEqual([ids[2], ids[1]]);
    expect(first.nextCursor).not.toBeNull();
    const second = await list(account, `?limit=2&cursor=${first.nextCursor ?? ""}`);
    expect(second.items.map((d) => d.deliveryId)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
    expect((await list(account, "?status=delivered")).items).toEqual([]);
    expect((await list(account, "?status=pending")).items).toHaveLength(3);

    // A jobs cursor is not a deliveries cursor; an unknown state is named.
    const jobs = await call("/v1/jobs?limit=1", { headers: bearer(account.apiKey) });
    expect(jobs.status).toBe(200);
    const bad = await call("/v1/webhooks/deliveries?status=nope&cursor=am9iOjE", {
      headers: bearer(account.apiKey),
    });
    expect(bad.status).toBe(400);
    expect((await envelope(bad)).error?.details?.map((d) => d.path).sort()).toEqual([
      "cursor",
      "status",
    ]);

    // Eight days old: out of the log.
    const oldest = ids[0] ?? "";
    await runInDurableObject(accountDo(account.accountId), (_i: Account, state) => {
      state.storage.sql.exec(
        "UPDATE webhook_deliveries SET created_at = ? WHERE delivery_id = ?",
        Date.now() - 8 * 86_400_000,
        oldest,
      );
    });
    expect((await list(account)).items.map((d) => d.deliveryId)).toEqual([ids[2], ids[1]]);
  });

  it("shows only the caller's account", async () => {
    const mine = await createAccount("pro");
    const theirs = await createAccount("pro");
    const id = await finishedJob(theirs, webhookUrl(runId()));
    expect((await list(mine)).items.map((d) => d.deliveryId)).not.toContain(id);
  });
});

describe("POST /v1/webhooks/deliveries/{id}/redeliver", () => {
  it("queues a finished delivery again: the receiver gets it again, same id, freshly signed", async () => {
    const account = await createAccount("pro");
    const run = runId();
    const deliveryId = await finishedJob(account, webhookUrl(run));
    await deliver("webhooks", [{ accountId: account.accountId, deliveryId }], handler);
    expect((await entryOf(account, deliveryId))?.state).toBe("delivered");

    const res = await postJson(
      `/v1/webhooks/deliveries/${deliveryId}/redeliver`,
      {},
      bearer(account.apiKey),
    );
    expect(res.status).toBe(202);
    const queued = (await envelope<DeliveryView>(res)).data;
    expect(queued?.deliveryId).toBe(deliveryId);
    // Queued, unless the real queue was quicker than the read-back.
    expect(queued?.state).toMatch(/^(queued|delivered)$/);
    // Through the real webhooks queue this time.
    const received = await waitForWebhooks(run, 2, 30_000);
    expect(received.map((r) => r.headers["x-service-delivery-id"])).toEqual([
      deliveryId,
      deliveryId,
    ]);
    expect(received[1]?.body).toBe(received[0]?.body);
    const done = await poll(
      () => entryOf(account, deliveryId),
      (d) => d?.state === "delivered" && d.attempts === 2,
      30_000,
    );
    expect(done).toMatchObject({ lastStatus: 200 });
  }, 60_000);

  it("404 for another account's delivery, an unknown id or a malformed one", async () => {
    const mine = await createAccount("pro");
    const theirs = await createAccount("pro");
    const run = runId();
    const id = await finishedJob(theirs, webhookUrl(run));
    await deliver("webhooks", [{ accountId: theirs.accountId, deliveryId: id }], handler);
    for (const target of [id, crypto.randomUUID(), "nope"]) {
      const res = await postJson(
        `/v1/webhooks/deliveries/${target}/redeliver`,
        {},
        bearer(mine.apiKey),
      );
      expect(res.status, target).toBe(404);
      expect((await envelope(res)).error?.code).toBe("NOT_FOUND");
    }
    // Nothing was sent again for the other account.
    expect((await fixtureLog(run)).filter((r) => r.path === "/webhook")).toHaveLength(1);
  });
});

describe("POST /v1/webhooks/test", () => {
  it("sends a signed test.ping now and returns the receiver's answer", async () => {
    const account = await createAccount("pro");
    const run = runId();
    const res = await postJson(
      "/v1/webhooks/test",
      { url: webhookUrl(run) },
      bearer(account.apiKey),
    );
    expect(res.status).toBe(200);
    expect((await envelope(res)).data).toEqual({ delivered: true, status: 200 });
    const [ping] = await waitForWebhooks(run, 1);
    expect(ping?.headers["x-service-event"]).toBe("test.ping");
    expect(JSON.parse(ping?.body ?? "{}")).toMatchObject({
      event: "test.ping",
      accountId: account.accountId,
    });
    const acc = await envelope<{ webhooks: { signingSecret: string } }>(
      await call("/v1/account", { headers: bearer(account.apiKey) }),
    );
    expect(
      await verifyWebhook({
        body: ping?.body ?? "",
        signature: String(ping?.headers["x-service-signature"]),
        timestamp: String(ping?.headers["x-service-timestamp"]),
        secret: acc.data?.webhooks.signingSecret ?? "",
      }),
    ).toMatchObject({ ok: true });

    await scriptWebhook(run, [500]);
    const failed = await postJson(
      "/v1/webhooks/test",
      { url: webhookUrl(run) },
      bearer(account.apiKey),
    );
    expect((await envelope(failed)).data).toEqual({
      delivered: false,
      status: 500,
      error: "HTTP 500",
    });
  });

  it("refuses a private URL or a missing one, naming url", async () => {
    const account = await createAccount("pro");
    const priv = await postJson(
      "/v1/webhooks/test",
      { url: "https://10.0.0.1/hook" },
      bearer(account.apiKey),
    );
    expect(priv.status).toBe(400);
    expect((await envelope(priv)).error).toMatchObject({
      code: "INVALID_WEBHOOK_URL",
      details: [{ path: "url" }],
    });
    const missing = await postJson("/v1/webhooks/test", {}, bearer(account.apiKey));
    expect(missing.status).toBe(400);
    expect((await envelope(missing)).error?.details).toEqual([
      { path: "url", message: "Required (string)." },
    ]);
  });

  it("a resolver that cannot be reached is ours: 503 naming url, not a refused URL", async () => {
    const account = await createAccount("pro");
    // The DoH fake answers HTTP 500 for this name: the check could not be made.
    const url = "https://http500.rebind.example.com/hook";
    for (const [path, body] of [
      ["url", { url }],
      ["webhookUrl", { url: "https://example.com", async: true, webhookUrl: url }],
    ] as const) {
      const route = path === "url" ? "/v1/webhooks/test" : "/v1/screenshot";
      const res = await postJson(route, body, bearer(account.apiKey));
      expect(res.status, path).toBe(503);
      expect(res.headers.get("retry-after"), path).toMatch(/^\d+$/);
      expect((await envelope(res)).error, path).toMatchObject({
        code: "URL_CHECK_UNAVAILABLE",
        details: [{ path, message: "Not checked: the DNS resolver could not be reached." }],
      });
    }
  });
});
