// The soak's report (bench/soak.mjs, bench/SOAK.md): the JSON report — requests by route, the
// accounts, jobs, watch runs, webhooks, faults, Chromium samples and the invariants — and its
// console summary: the tables and fault counts.
import { readFileSync } from "node:fs";
import os from "node:os";

/** Requests by route: count, statuses, p50 and p95 in ms. */
function routeStats(stats) {
  return Object.fromEntries(
    [...stats].map(([route, s]) => {
      const sorted = [...s.times].sort((a, b) => a - b);
      const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
      return [route, { statuses: s.statuses, count: sorted.length, p50: q(0.5), p95: q(0.95) }];
    }),
  );
}

/** The JSON report of a soak: `ctx` (options, customers, client, receiver, service) and counts. */
export function buildReport(ctx, r) {
  const { restart } = ctx;
  return {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      memGB: Math.round(os.totalmem() / 2 ** 30),
      loadavg: os.loadavg(),
    },
    options: ctx.opt,
    routes: routeStats(ctx.stats),
    unexpected5xx: ctx.unexpected5xx,
    accounts: r.accounts,
    drainedMs: r.drainedMs,
    jobsOpenAfterDrain: r.open,
    unansweredJobs: r.unansweredJobs,
    watchRuns: r.runs,
    renderLinks: ctx.renderLinks,
    webhooks: {
      deliveries: ctx.receiver.byDelivery.size,
      problems: r.webhookProblems,
      neverOk: r.neverOk,
    },
    faults: {
      chromiumKilled: ctx.kills.length,
      injected5xx: ctx.injected,
      restart: {
        killAt: restart.killAt && new Date(restart.killAt).toISOString(),
        downMs: restart.upAt && restart.upAt - restart.killAt,
        openJobsAtKill: restart.openJobsAtKill,
        killedInFlightCredits: ctx.customers.reduce((s, c) => s + c.killedCredits, 0),
        jobsOpenAtKill: restart.trackedJobs.map(({ id, atKill, final, endedAfterUpMs }) => ({
          id,
          atKill,
          final,
          endedAfterUpMs,
        })),
      },
    },
    chromium: {
      warmIdle: { rss: r.warm.rss, processes: r.warm.processes, contexts: r.warm.contexts },
      endIdle: { rss: r.end.rss, processes: r.end.processes, contexts: r.end.contexts },
      growth: r.rssGrowth,
      afterStop: r.stopped,
      samples: r.samples.rss,
      contextSamples: r.samples.contextSamples,
    },
    invariants: r.invariants,
    // What the service logged as errors and warnings (sanitized answers hide them).
    serviceLog: readFileSync(ctx.svc.log, "utf8")
      .split("\n")
      .filter((l) => /"level":"(error|warn)"/.test(l))
      .slice(-100),
  };
}
export function printReport(r) {
  console.log("\nroute                  count  p50 ms  p95 ms  statuses");
  for (const [route, x] of Object.entries(r.routes))
    console.log(
      `${route.padEnd(22)} ${String(x.count).padStart(5)} ${String(x.p50).padStart(7)} ${String(x.p95).padStart(7)}  ${JSON.stringify(x.statuses)}`,
    );
  console.log("\naccount plan      charged  delivered  reserved  killed  activeJobs");
  for (const a of r.accounts)
    console.log(
      `${a.accountId.slice(0, 7)} ${a.plan.padEnd(9)} ${String(a.charged).padStart(7)} ${String(a.billableDelivered).padStart(10)} ${String(a.openReservations).padStart(9)} ${String(a.killedInFlight).padStart(7)} ${String(a.activeJobs).padStart(11)}`,
    );
  const f = r.faults;
  console.log(
    `\nfaults: Chromium killed ${f.chromiumKilled}×; injected: ${JSON.stringify(tally(f.injected5xx.map((i) => `${i.fault}:${i.code ?? i.status}`)))}`,
  );
  console.log(`restart: ${JSON.stringify({ ...f.restart, jobsOpenAtKill: undefined })}`);
  const after = f.restart.jobsOpenAtKill.map((j) => j.endedAfterUpMs ?? Infinity);
  if (after.length)
    console.log(
      `jobs open at the kill: ${after.length}, ended ${(Math.min(...after) / 1000).toFixed(1)}–${(Math.max(...after) / 1000).toFixed(1)} s after the restart came up: ${JSON.stringify(tally(f.restart.jobsOpenAtKill.map((j) => j.final)))}`,
    );
  console.log(
    `watch runs: ${JSON.stringify(r.watchRuns.byStatus)} ${JSON.stringify(r.watchRuns.byOutcome)}; render links: ${JSON.stringify(r.renderLinks)}`,
  );
  const c = r.chromium;
  console.log(
    `Chromium idle RSS: warm ${mb(c.warmIdle.rss)} (${c.warmIdle.processes} procs) → end ${mb(c.endIdle.rss)} (${c.endIdle.processes} procs): ${(c.growth * 100).toFixed(1)}%; contexts at the end ${JSON.stringify(c.endIdle.contexts)}`,
  );
  console.log(
    `drained in ${r.drainedMs} ms; webhook deliveries ${r.webhooks.deliveries}; report: ${r.options.report}\n`,
  );
}

export const mb = (b) => (b ? `${(b / 2 ** 20).toFixed(0)} MB` : "n/a");

const tally = (xs) => xs.reduce((t, x) => ((t[x] = (t[x] ?? 0) + 1), t), {});
