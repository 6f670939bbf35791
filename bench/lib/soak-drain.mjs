// After the soak's load (bench/SOAK.md, "After the load"): the jobs nobody saw admitted, the
// drain until every job ends, the watch runs, the webhook retries, and the accounts' credits —
// waiting for the restart's stranded reservations to expire when that is near.
import { sleep } from "./soak-service.mjs";

/** How long an unsettled credit reservation holds credits (TUNING.creditReservationTtlMs). */
const RESERVATION_TTL_MS = 10 * 60_000;

const runsOf = (ctx, c) => (c.watch ? ctx.listAll(c, `/v1/watches/${c.watch.id}/runs`) : []);

/**
 * The account's own list of its jobs: every watch run's (the scheduled baseline's too), and any
 * admitted by a request the restart killed before its 202 reached us — the sweep runs those, so
 * they are charged and counted like the others. Returns how many of those the soak never saw.
 */
export async function adoptUnansweredJobs(ctx) {
  let unansweredJobs = 0;
  for (const c of ctx.customers) {
    const unknown = (await ctx.listAll(c, "/v1/jobs")).filter(
      (job) => !c.jobs.has(job.jobId) && !c.ended.has(job.jobId),
    );
    if (unknown.length === 0) continue;
    const runJobs = new Set((await runsOf(ctx, c)).map((r) => r.jobId));
    for (const job of unknown) {
      c.jobs.add(job.jobId);
      if (!runJobs.has(job.jobId)) unansweredJobs++;
    }
  }
  return unansweredJobs;
}

/** Polls every job until it ends (a completed one is billable); returns those still open. */
export async function drainJobs(ctx) {
  // Jobs lost to the restart end only after the stuck deadline (twice, if re-enqueued and lost).
  const drainMs = 60_000 + (ctx.opt.faults ? 2 * ctx.opt.stuckAfter * 1000 : 0);
  const drainUntil = Date.now() + drainMs;
  let open = [];
  do {
    open = [];
    for (const c of ctx.customers)
      for (const id of c.jobs) {
        const { data } = await ctx.get(c, `/v1/jobs/${id}`);
        if (data?.status === "completed") c.billable++;
        if (data?.status === "completed" || data?.status === "failed")
          (c.jobs.delete(id), c.ended.add(id));
        else open.push(id);
      }
    if (open.length === 0) break;
    await sleep(2000);
  } while (Date.now() < drainUntil);
  return { open, drainedMs: drainMs - Math.max(0, drainUntil - Date.now()) };
}

/** Watch runs: every run terminal; a changed or failed one is hooked (watch.changed/failed). */
export async function watchRuns(ctx) {
  const runs = { total: 0, byStatus: {}, byOutcome: {}, notTerminal: [] };
  for (const c of ctx.customers)
    for (const run of await runsOf(ctx, c)) {
      runs.total++;
      runs.byStatus[run.status] = (runs.byStatus[run.status] ?? 0) + 1;
      if (run.outcome) runs.byOutcome[run.outcome] = (runs.byOutcome[run.outcome] ?? 0) + 1;
      if (!["completed", "failed", "skipped"].includes(run.status)) runs.notTerminal.push(run.id);
      if (run.outcome === "changed" || run.status === "failed") c.hooked.add(run.id);
    }
  return runs;
}

/**
 * Webhook retries after the 500 fault (first retry ≈ 5 s): waits until each hooked
 * job/batch/run has a delivery that got a 200, at most 45 s. Returns every hooked subject.
 */
export async function awaitDeliveries(ctx) {
  const hookedAll = ctx.customers.flatMap((c) => [...c.hooked]);
  const delivered = () => {
    const ok = new Set(
      [...ctx.receiver.byDelivery.values()].filter((d) => d.ok > 0).map((d) => d.subject),
    );
    return hookedAll.every((s) => ok.has(s));
  };
  for (const until = Date.now() + 45_000; !delivered() && Date.now() < until;) await sleep(1000);
  return hookedAll;
}

/**
 * Each account's credits and active-job slots. Credits held by requests the restart killed
 * expire with their reservation's TTL: when that is near, wait for it and count again, so the
 * long run's invariant is a plain 0.
 */
export async function readAccounts(ctx) {
  const { customers, get, admin, restart } = ctx;
  const read = () =>
    Promise.all(
      customers.map(async (c) => {
        const { data } = await get(c, "/v1/account");
        const { data: summary } = await admin(`/accounts/${c.accountId}`);
        const u = data.usage;
        return {
          plan: c.plan,
          accountId: c.accountId,
          charged: u.used,
          billableDelivered: c.billable,
          openReservations: u.limit - u.used - u.remaining,
          killedInFlight: c.killedCredits,
          activeJobs: summary.activeJobs,
        };
      }),
    );
  let accounts = await read();
  const reservationsExpireAt = restart.killAt === null ? null : restart.killAt + RESERVATION_TTL_MS;
  if (
    accounts.some((a) => a.openReservations > 0) &&
    reservationsExpireAt !== null &&
    reservationsExpireAt - Date.now() < 150_000
  ) {
    console.log(`[soak] waiting for the killed requests' reservations to expire`);
    await sleep(Math.max(0, reservationsExpireAt - Date.now()) + 2000);
    accounts = await read();
  }
  return { accounts, reservationsExpireAt };
}
