/**
 * The Account DO's job store: guarded transitions in SQL, batch completion exactly once (with
 * one batch.completed delivery) under racing finishes, undo of an admission, and recovery of a
 * webhook whose sender died before queueing it; a job's own credits (a recording's, by length).
 */
import { describe, expect, it } from "vitest";
import { accountDo, setClock } from "../helpers/account-do";
import { createAccount } from "../helpers/accounts";

const META = { width: 1, height: 1, loadTimeMs: 1, bytesSize: 1 };
const done = {
  status: "completed",
  resultUrl: "https://edgeshot.test/v1/images/j/a.png",
  meta: META,
} as const;
const failed = { status: "failed", error: "Screenshot capture failed." } as const;

async function setup(n: number, options: { batch?: boolean; webhookUrl?: string | null } = {}) {
  const { accountId } = await createAccount("pro");
  const account = accountDo(accountId);
  const ids = Array.from({ length: n }, () => crypto.randomUUID());
  const batchId = options.batch ? crypto.randomUUID() : null;
  const jobs = ids.map((id) => ({ id, url: "https://example.com/", format: "png" }));
  const admitted = await account.jobs().admit({
    jobs,
    batchId,
    webhookUrl: options.webhookUrl ?? null,
    reservationTtlMs: 60_000,
  });
  expect(admitted.ok).toBe(true);
  return { accountId, account, ids, batchId: batchId ?? "" };
}

describe("job transitions", () => {
  it("only queued → processing → completed|failed; every other move is refused", async () => {
    const { account, ids } = await setup(2);
    const [a = "", b = ""] = ids;
    expect(await account.jobs().finish(a, done)).toEqual({ changed: false, webhooks: [] }); // queued → completed
    expect((await account.jobs().start(a, 1)).ok).toBe(true);
    expect(await account.jobs().start(a, 1)).toMatchObject({ ok: false, status: "processing" }); // same attempt
    expect((await account.jobs().start(a, 2)).ok).toBe(true); // a later attempt takes over
    expect(await account.jobs().start(a, 2)).toMatchObject({ ok: false });
    expect((await account.jobs().finish(a, done)).changed).toBe(true);
    expect((await account.jobs().finish(a, failed)).changed).toBe(false); // completed → failed
    expect(await account.jobs().start(a, 9)).toMatchObject({ ok: false, status: "completed" }); // completed → processing
    expect(await account.jobs().start(crypto.randomUUID(), 1)).toMatchObject({
      ok: false,
      status: "unknown",
    });
    expect((await account.jobs().get(a))?.status).toBe("completed");
    expect((await account.jobs().get(b))?.status).toBe("queued");
  });

  it("racing finishes: exactly one wins, one credit committed, one slot released", async () => {
    const { account, ids } = await setup(1, { webhookUrl: "https://hooks.example.com/x" });
    const id = ids[0] ?? "";
    await account.jobs().start(id, 1);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => account.jobs().finish(id, i % 2 ? done : failed)),
    );
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect(results.flatMap((r) => r.webhooks)).toHaveLength(1);
    const summary = await account.summary();
    expect(summary?.activeJobs).toBe(0);
    const winner = results.findIndex((r) => r.changed);
    expect(summary?.usage.used).toBe(winner % 2 ? 1 : 0);
  });
});

describe("credits per job", () => {
  it("a job reserves its own credits (a recording's by its length): committed on completion, refunded on failure, refused past the balance", async () => {
    const { accountId } = await createAccount("free"); // 100 credits
    const account = accountDo(accountId);
    const admit = (credits: number) => {
      const id = crypto.randomUUID();
      const job = { id, url: "https://example.com/", format: "webm", credits };
      const input = { jobs: [job], batchId: null, webhookUrl: null, reservationTtlMs: 60_000 };
      return account
        .jobs()
        .admit(input)
        .then((result) => ({ id, result }));
    };
    const clip = await admit(3);
    expect(clip.result).toMatchObject({ ok: true, remaining: 97 });
    const lost = await admit(2);
    expect(lost.result).toMatchObject({ ok: true, remaining: 95 });
    expect(await admit(96)).toMatchObject({ result: { ok: false, reason: "credits" } });
    await account.jobs().start(clip.id, 1);
    await account.jobs().finish(clip.id, done);
    await account.jobs().start(lost.id, 1);
    await account.jobs().finish(lost.id, failed);
    expect((await account.summary())?.usage.used).toBe(3);
  });
});

describe("batches", () => {
  it("queued → processing with the first job → completed once, with a single batch.completed", async () => {
    const { account, ids, batchId } = await setup(3, {
      batch: true,
      webhookUrl: "https://hooks.example.com/b",
    });
    expect((await account.jobs().getBatch(batchId))?.status).toBe("queued");
    for (const id of ids) await account.jobs().start(id, 1);
    expect((await account.jobs().getBatch(batchId))?.status).toBe("processing");
    const [a = "", b = "", c = ""] = ids;
    expect((await account.jobs().finish(a, done)).webhooks).toEqual([]);
    expect((await account.jobs().finish(b, failed)).webhooks).toEqual([]);
    const last = await Promise.all([
      account.jobs().finish(c, done),
      account.jobs().finish(c, failed),
      account.jobs().finish(c, done),
    ]);
    const emitted = last.flatMap((r) => r.webhooks);
    expect(emitted).toHaveLength(1);
    const batch = await account.jobs().getBatch(batchId);
    expect(batch).toMatchObject({
      status: "completed",
      totalJobs: 3,
      failedJobs: 1,
      completedJobs: 2,
      outcome: "partial",
    });
    expect(batch?.webhook).toMatchObject({
      deliveryId: emitted[0],
      status: "pending",
      attempts: 0,
    });
    // No per-job events for batch jobs.
    expect(batch?.jobs?.every((j) => j.webhook === undefined)).toBe(true);
    const delivery = await account.webhooks().get(emitted[0] ?? "");
    expect(delivery?.event).toBe("batch.completed");
    expect(JSON.parse(delivery?.body ?? "{}")).toMatchObject({
      batchId,
      totalJobs: 3,
      completedJobs: 2,
      failedJobs: 1,
    });
  });

  it("outcome succeeded / failed; no webhook without a webhookUrl", async () => {
    const good = await setup(2, { batch: true });
    for (const id of good.ids) await good.account.jobs().start(id, 1);
    for (const id of good.ids)
      expect((await good.account.jobs().finish(id, done)).webhooks).toEqual([]);
    expect(await good.account.jobs().getBatch(good.batchId)).toMatchObject({
      outcome: "succeeded",
      status: "completed",
    });
    const bad = await setup(1, { batch: true });
    await bad.account.jobs().abort(bad.ids[0] ?? "", "Screenshot capture failed.");
    expect(await bad.account.jobs().getBatch(bad.batchId)).toMatchObject({
      outcome: "failed",
      failedJobs: 1,
    });
  });
});

describe("admission", () => {
  it("abandonJobs deletes still-queued jobs and their batch, refunds and frees the slots", async () => {
    const { account, ids, batchId } = await setup(3, { batch: true });
    expect((await account.summary())?.activeJobs).toBe(3);
    expect((await account.summary())?.usage.remaining).toBe(25_000 - 3);
    expect(await account.jobs().abandon(ids, batchId)).toBe(3);
    expect((await account.summary())?.activeJobs).toBe(0);
    expect((await account.summary())?.usage.remaining).toBe(25_000);
    expect(await account.jobs().getBatch(batchId)).toBeNull();
  });
});

describe("retention", () => {
  it("jobs and batches finished more than 30 days ago are forgotten at the next admission", async () => {
    const { accountId, account, ids } = await setup(2, {
      webhookUrl: "https://hooks.example.com/x",
    });
    const [old = "", open = ""] = ids;
    await account.jobs().start(old, 1);
    await account.jobs().finish(old, done);
    const batch = await setup(1, { batch: true });
    const now = Date.now();
    await setClock(accountId, () => now + 29 * 86_400_000);
    await account.jobs().admit({
      jobs: [{ id: crypto.randomUUID(), url: null, format: "png" }],
      batchId: null,
      webhookUrl: null,
      reservationTtlMs: 60_000,
    });
    expect(await account.jobs().get(old)).not.toBeNull();
    await setClock(accountId, () => now + 31 * 86_400_000);
    await account.jobs().admit({
      jobs: [{ id: crypto.randomUUID(), url: null, format: "png" }],
      batchId: null,
      webhookUrl: null,
      reservationTtlMs: 60_000,
    });
    expect(await account.jobs().get(old)).toBeNull();
    expect(await account.jobs().get(open)).not.toBeNull(); // unfinished jobs stay
    expect(await batch.account.jobs().getBatch(batch.batchId)).not.toBeNull(); // other accounts untouched
  });
});

describe("stranded webhooks", () => {
  it("a delivery emitted but never queued is handed to a later delivery of the job's message", async () => {
    const { accountId, account, ids } = await setup(1, {
      webhookUrl: "https://hooks.example.com/x",
    });
    const id = ids[0] ?? "";
    await account.jobs().start(id, 1);
    const { webhooks } = await account.jobs().finish(id, done);
    expect(await account.jobs().start(id, 2)).toMatchObject({ ok: false, pendingWebhooks: [] }); // too fresh
    const now = Date.now();
    await setClock(accountId, () => now + 61_000);
    expect(await account.jobs().start(id, 2)).toMatchObject({
      ok: false,
      pendingWebhooks: webhooks,
    });
    await account.webhooks().markQueued(webhooks);
    expect(await account.jobs().start(id, 3)).toMatchObject({ ok: false, pendingWebhooks: [] });
  });
});
