/**
 * The stuck-job sweep (Account DO alarm, src/jobs/store/sweep.ts): a job whose queue message
 * never comes back is re-enqueued once — and then really runs — and a job stuck again after
 * that fails with the spec's generic message, its credit refunded, its slot released and its
 * webhook queued exactly once.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Account } from "../../src/account-do/account";
import { smallSpec } from "../helpers/capture";
import { config } from "../../src/config";
import { writeJobDocument } from "../../src/jobs/job-document";
import { TUNING } from "../../src/tuning";
import { accountDo, dumpStorage, setClock } from "../helpers/account-do";
import { createAccount } from "../helpers/accounts";
import { FIXTURES, fixtureLog, runId } from "../helpers/http";
import { poll, webhookUrl } from "../helpers/jobs";
import { mustCreate, runs, waitForRun, watchAccount, watchBody } from "../helpers/watches";

const STUCK = TUNING.jobStuckAfterMs;

/**
 * A pro account with one admitted job whose queue message was never sent (lost); with
 * `stuckAfter`, JOB_STUCK_AFTER_SECONDS is set before admission, so the alarm it arms follows it.
 */
async function lostJob(webhookUrl: string | null = null, stuckAfter?: string) {
  const { accountId } = await createAccount("pro");
  if (stuckAfter !== undefined) await withStuckAfter(accountId, stuckAfter);
  const account = accountDo(accountId);
  const jobId = crypto.randomUUID();
  const admitted = await account.jobs().admit({
    jobs: [{ id: jobId, url: `${FIXTURES}/boxes.html`, format: "png" }],
    batchId: null,
    webhookUrl,
    reservationTtlMs: TUNING.jobReservationTtlMs,
  });
  expect(admitted.ok).toBe(true);
  return { accountId, account, jobId };
}

/** The job's stored document (what a redelivered message runs): a small fixture page. */
async function storeJobDocument(accountId: string, jobId: string): Promise<void> {
  const spec = smallSpec();
  await writeJobDocument(
    env,
    { v: 1, accountId, jobId, spec, cacheTtl: 3600, origin: "https://edgeshot.test" },
    3600,
  );
}

const alarmAt = (accountId: string) =>
  runInDurableObject(accountDo(accountId), (_i: Account, state) => state.storage.getAlarm());

/**
 * Gives the account's DO instance the test environment with `vars` on top, as `wrangler dev
 * --var` or a deployment's vars would (the instance keeps it for the test; called again, it
 * starts from the test environment, so a binding replaced before is restored).
 */
async function withEnv(accountId: string, vars: Record<string, unknown>) {
  await runInDurableObject(accountDo(accountId), (instance: Account) => {
    (instance as unknown as { env: Env }).env = { ...env, ...vars } as Env;
  });
}
const withStuckAfter = (accountId: string, seconds: string) =>
  withEnv(accountId, { JOB_STUCK_AFTER_SECONDS: seconds });

/** A queue binding whose messages are lost, as a runtime restart loses local ones. */
const dropped = { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };
const LOST: Pick<Queue, "send" | "sendBatch"> = {
  send: async () => dropped,
  sendBatch: async () => dropped,
};

describe("stuck-job sweep", () => {
  it("admission arms the alarm; nothing is touched before the job is stuck", async () => {
    const before = Date.now();
    const { accountId, account, jobId } = await lostJob();
    const at = await alarmAt(accountId);
    expect(at).toBeGreaterThanOrEqual(before + STUCK);
    expect(at).toBeLessThanOrEqual(Date.now() + STUCK);
    expect(await runDurableObjectAlarm(account)).toBe(true); // early: the job is not stuck yet
    expect((await account.jobs().get(jobId))?.status).toBe("queued");
    expect(await alarmAt(accountId)).toBeGreaterThan(Date.now()); // re-armed for when it would be
  });

  it("a lost message: the job is re-enqueued once and then completes for real, charged once", async () => {
    const { accountId, account, jobId } = await lostJob();
    await storeJobDocument(accountId, jobId);
    const later = Date.now() + STUCK + 1000;
    await setClock(accountId, () => later);
    expect(await runDurableObjectAlarm(account)).toBe(true);
    const job = await poll(
      () => account.jobs().get(jobId),
      (j) => j?.status === "completed" || j?.status === "failed",
    );
    expect(job?.status).toBe("completed");
    const summary = await account.summary();
    expect(summary?.activeJobs).toBe(0);
    expect(summary?.usage).toMatchObject({ used: 1 });
    const { jobs } = await dumpStorage(accountId);
    expect(jobs).toMatchObject([{ id: jobId, swept_at: later }]);
  });

  it("stuck again after its re-enqueue: failed with the generic message, refunded, slot and webhook back", async () => {
    const { accountId, account, jobId } = await lostJob("https://hooks.example.com/sweep");
    expect((await account.jobs().start(jobId, 1)).ok).toBe(true); // processing, then its worker died
    const now = Date.now();
    // The first sweep re-enqueued it (that message got lost too).
    await runInDurableObject(account, (_i: Account, state) => {
      state.storage.sql.exec("UPDATE jobs SET swept_at = ? WHERE id = ?", now, jobId);
    });
    await setClock(accountId, () => now + STUCK + 1000);
    expect(await runDurableObjectAlarm(account)).toBe(true);

    const job = await account.jobs().get(jobId);
    expect(job).toMatchObject({ status: "failed", error: "Screenshot capture failed." });
    const summary = await account.summary();
    expect(summary?.activeJobs).toBe(0);
    expect(summary?.usage).toMatchObject({ used: 0 });
    const { webhook_deliveries: deliveries, credit_reservations: reservations } =
      await dumpStorage(accountId);
    expect(deliveries).toHaveLength(1);
    expect(deliveries?.[0]).toMatchObject({ event: "job.failed", subject_id: jobId });
    expect((deliveries?.[0] as { state: string }).state).not.toBe("pending"); // queued
    expect(reservations).toEqual([]); // settled: no credit held
    // No job is active any more; the alarm stays armed only for the job.failed delivery (in
    // case its message is lost too); a second run changes nothing.
    expect(await alarmAt(accountId)).toBe(now + STUCK + 1000 + STUCK);
    await runInDurableObject(account, (instance: Account) => instance.alarm());
    expect((await dumpStorage(accountId)).webhook_deliveries).toHaveLength(1);
  });

  it("JOB_STUCK_AFTER_SECONDS sets the deadline: the alarm, the re-enqueue and the failure follow it", async () => {
    // Set before the job is admitted, so the alarm admission arms already follows it.
    const before = Date.now();
    const { accountId, account, jobId } = await lostJob(null, "40");
    const at = await alarmAt(accountId);
    expect(at).toBeGreaterThanOrEqual(before + 40_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 40_000); // not the 15-minute default
    await setClock(accountId, () => before + 39_000); // not stuck yet
    expect(await runDurableObjectAlarm(account)).toBe(true);
    expect((await dumpStorage(accountId)).jobs).toMatchObject([{ id: jobId, swept_at: null }]);
    // 41 s without moving: re-enqueued, and the new message really runs it.
    await storeJobDocument(accountId, jobId);
    const swept = before + 41_000;
    await setClock(accountId, () => swept);
    expect(await runDurableObjectAlarm(account)).toBe(true);
    const job = await poll(
      () => account.jobs().get(jobId),
      (j) => j?.status === "completed" || j?.status === "failed",
    );
    expect(job?.status).toBe("completed");
    expect((await dumpStorage(accountId)).jobs).toMatchObject([{ id: jobId, swept_at: swept }]);
    expect((await account.summary())?.usage).toMatchObject({ used: 1 });
  });

  it("JOB_STUCK_AFTER_SECONDS: swept once and stuck 40 s more, the job fails and is refunded", async () => {
    const { accountId } = await createAccount("pro");
    await withStuckAfter(accountId, "40");
    const account = accountDo(accountId);
    const jobId = crypto.randomUUID();
    expect(
      (
        await account.jobs().admit({
          jobs: [{ id: jobId, url: `${FIXTURES}/boxes.html`, format: "png" }],
          batchId: null,
          webhookUrl: "https://hooks.example.com/short",
          reservationTtlMs: TUNING.jobReservationTtlMs,
        })
      ).ok,
    ).toBe(true);
    const now = Date.now();
    // Its first sweep's message was lost too (no message is sent here).
    await runInDurableObject(account, (_i: Account, state) => {
      state.storage.sql.exec("UPDATE jobs SET swept_at = ? WHERE id = ?", now, jobId);
    });
    await setClock(accountId, () => now + 39_000);
    expect(await runDurableObjectAlarm(account)).toBe(true);
    expect((await account.jobs().get(jobId))?.status).toBe("queued"); // 39 s: not yet
    await setClock(accountId, () => now + 40_000);
    expect(await runDurableObjectAlarm(account)).toBe(true);
    expect(await account.jobs().get(jobId)).toMatchObject({
      status: "failed",
      error: "Screenshot capture failed.",
    });
    const summary = await account.summary();
    expect(summary?.activeJobs).toBe(0);
    expect(summary?.usage).toMatchObject({ used: 0 });
    const { webhook_deliveries: deliveries, credit_reservations: reservations } =
      await dumpStorage(accountId);
    expect(deliveries).toMatchObject([{ event: "job.failed", subject_id: jobId }]);
    expect(reservations).toEqual([]);
  });
  it("a job started again after its re-enqueue has moved: failed only a deadline after that start", async () => {
    const { accountId, account, jobId } = await lostJob(null, "40");
    const now = Date.now();
    // Swept at `now` (its message lost), then its re-enqueued message starts it 10 s later.
    await runInDurableObject(account, (_i: Account, state) => {
      state.storage.sql.exec("UPDATE jobs SET swept_at = ? WHERE id = ?", now, jobId);
    });
    await setClock(accountId, () => now + 10_000);
    expect((await account.jobs().start(jobId, 1)).ok).toBe(true);
    // 41 s after the sweep, 31 s after the new start: still being captured, not stuck.
    await setClock(accountId, () => now + 41_000);
    expect(await runDurableObjectAlarm(account)).toBe(true);
    expect((await account.jobs().get(jobId))?.status).toBe("processing");
    expect(await alarmAt(accountId)).toBe(now + 50_000);
    // 40 s after that start without moving: failed and refunded.
    await setClock(accountId, () => now + 50_000);
    expect(await runDurableObjectAlarm(account)).toBe(true);
    expect(await account.jobs().get(jobId)).toMatchObject({ status: "failed" });
    expect((await account.summary())?.usage).toMatchObject({ used: 0 });
  });
});

describe("stuck-work sweep: what a restart loses", () => {
  it("a watch run's lost job is re-enqueued as that watch's run: the run completes", async () => {
    const acc = await watchAccount("pro");
    // Every capture message this account sends is lost, as in a restart.
    await withEnv(acc.accountId, { JOB_STUCK_AFTER_SECONDS: "40", CAPTURE_JOBS: LOST });
    const watch = await mustCreate(
      acc,
      watchBody({ url: `${FIXTURES}/boxes.html?run=${runId()}` }),
    );
    expect(await runDurableObjectAlarm(accountDo(acc.accountId))).toBe(true); // the baseline is due
    const [baseline] = await runs(acc.accountId, watch.id);
    expect(baseline).toMatchObject({ status: "queued" }); // admitted; its message never came
    await withStuckAfter(acc.accountId, "40"); // the queue works again
    // 41 s after its admission, on the account's clock (watch accounts run on their own).
    const [job] = (await dumpStorage(acc.accountId)).jobs as Array<{ created_at: number }>;
    const later = (job?.created_at ?? 0) + 41_000;
    await setClock(acc.accountId, () => later);
    expect(await runDurableObjectAlarm(accountDo(acc.accountId))).toBe(true);
    expect((await dumpStorage(acc.accountId)).jobs).toMatchObject([{ swept_at: later }]);
    const run = await waitForRun(acc.accountId, baseline?.id ?? "");
    expect(run).toMatchObject({ status: "completed", outcome: "baseline" });
    expect(
      await accountDo(acc.accountId)
        .jobs()
        .get(run.jobId ?? ""),
    ).toMatchObject({
      status: "completed",
    });
  });

  it("a webhook delivery whose message was lost is sent again, same delivery id", async () => {
    const { accountId } = await createAccount("pro");
    await withStuckAfter(accountId, "40");
    const account = accountDo(accountId);
    const jobId = crypto.randomUUID();
    const hook = runId();
    const admitted = await account.jobs().admit({
      jobs: [{ id: jobId, url: `${FIXTURES}/boxes.html`, format: "png" }],
      batchId: null,
      webhookUrl: webhookUrl(hook),
      reservationTtlMs: TUNING.jobReservationTtlMs,
    });
    expect(admitted.ok).toBe(true);
    expect((await account.jobs().start(jobId, 1)).ok).toBe(true);
    // It finishes, and its job.failed delivery is emitted but never put on the queue.
    const finished = await account.jobs().finish(jobId, { status: "failed", error: "x" });
    const [deliveryId] = finished.webhooks;
    expect(deliveryId).toBeDefined();
    const now = Date.now();
    await setClock(accountId, () => now + 39_000);
    expect(await runDurableObjectAlarm(account)).toBe(true);
    expect((await dumpStorage(accountId)).webhook_deliveries).toMatchObject([
      { delivery_id: deliveryId, state: "pending", swept_at: null },
    ]);
    // The alarm stays armed for the open delivery although no job is active any more.
    expect(await alarmAt(accountId)).not.toBeNull();
    await setClock(accountId, () => now + 41_000);
    expect(await runDurableObjectAlarm(account)).toBe(true);
    const posts = await poll(
      () => fixtureLog(hook),
      (log) => log.some((e) => e.method === "POST"),
    );
    expect(posts.map((e) => e.headers["x-service-delivery-id"])).toEqual([deliveryId]);
    const [row] = (await dumpStorage(accountId)).webhook_deliveries ?? [];
    expect(row).toMatchObject({ delivery_id: deliveryId, swept_at: now + 41_000 });
  });
});

describe("JOB_STUCK_AFTER_SECONDS", () => {
  const withVar = (value: string | undefined) =>
    ({ ...env, JOB_STUCK_AFTER_SECONDS: value }) as unknown as Env;

  it("defaults to TUNING.jobStuckAfterMs and accepts 30 s to a day", () => {
    expect(config(withVar(undefined)).jobStuckAfterMs).toBe(TUNING.jobStuckAfterMs);
    expect(config(withVar("30")).jobStuckAfterMs).toBe(30_000);
    expect(config(withVar("86400")).jobStuckAfterMs).toBe(86_400_000);
  });

  it.each(["29", "86401", "1.5", "soon"])("refuses %j as a configuration error", (value) => {
    expect(() => config(withVar(value))).toThrow("not configured correctly");
  });
});
