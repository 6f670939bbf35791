// The soak's console summary (bench/soak.mjs): the JSON report's tables and fault counts.
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
