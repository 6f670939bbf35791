// The soak's faults (bench/SOAK.md, "Faults"), besides the slow target in the mix and the
// receiver's 500s: the service's Chromium killed every max(15 s, duration / 4), and the restart —
// `wrangler dev` killed once, early, with jobs queued and processing, and started again.
import { admitted, batchBody, post } from "./soak-load.mjs";
import { serviceChromium, sleep } from "./soak-service.mjs";

/** Kills the service's Chromium browser process now and then, until 10 s before `stopAt`. */
export function startBrowserKiller(ctx, stopAt) {
  const { opt, svc, kills } = ctx;
  return setInterval(
    () => {
      const [browser] = serviceChromium(svc.pid).browsers;
      if (browser && Date.now() < stopAt - 10_000) {
        try {
          process.kill(browser.pid, "SIGKILL");
          kills.push(Date.now());
          console.log(`[soak] fault: killed Chromium ${browser.pid}`);
        } catch {}
      }
    },
    Math.max(15_000, (opt.duration * 1000) / 4),
  );
}

/**
 * The restart fault, once, early in the load (so that in a long run the reservations it
 * strands expire before the final count): a burst of batches so jobs are queued and
 * processing, then SIGKILL of the whole wrangler dev and a start on the same port and state.
 * Then it follows each job open at the kill to its end. `serviceUp` resolves once the new
 * process answers (the drain waits for it), `done` once every job followed has ended.
 */
export function restartFault(ctx, stopAt) {
  let up;
  const serviceUp = new Promise((resolve) => (up = resolve));
  const done = killAndRestart(ctx, stopAt, up).finally(up);
  return { serviceUp, done };
}

async function killAndRestart(ctx, stopAt, up) {
  const { opt, svc, customers, call, api, restart } = ctx;
  await sleep(Math.max(15_000, opt.duration * 150));
  const paid = customers.filter((c) => c.plan !== "free").slice(0, 2);
  for (const c of paid) {
    const body = batchBody(ctx, 4);
    const { status, json } = await call(c, "batch", "/v1/screenshot/batch", post(body));
    if (status === 202) admitted(c, json.data, true);
  }
  await sleep(2000);
  const open = customers.flatMap((c) => [...c.jobs].map((id) => [c, id]));
  const views = await Promise.all(
    open.map(([c, id]) =>
      api(c, `/v1/jobs/${id}`)
        .then((r) => r.json())
        .then((j) => [c, id, j.data?.status]),
    ),
  );
  for (const [, , st] of views) restart.openJobsAtKill[st] = (restart.openJobsAtKill[st] ?? 0) + 1;
  restart.trackedJobs = views
    .filter(([, , st]) => st === "queued" || st === "processing")
    .map(([c, id, st]) => ({ c, id, atKill: st, endedAfterUpMs: null, final: null }));
  restart.killAt = Date.now();
  for (const c of customers) c.killedCredits = [...c.inflight].reduce((s, f) => s + f.cost, 0);
  await svc.kill();
  console.log(
    `[soak] fault: killed wrangler dev (jobs open: ${JSON.stringify(restart.openJobsAtKill)}); restarting`,
  );
  await svc.start();
  restart.upAt = Date.now();
  up();
  console.log(`[soak] service back after ${((restart.upAt - restart.killAt) / 1000).toFixed(1)} s`);
  // When each job open at the kill ends: right after the restart if its message survived,
  // only after the stuck deadline if the sweep had to re-enqueue it.
  while (restart.trackedJobs.some((j) => j.final === null) && Date.now() < stopAt + 300_000) {
    for (const j of restart.trackedJobs.filter((x) => x.final === null)) {
      const st = await api(j.c, `/v1/jobs/${j.id}`)
        .then((r) => r.json())
        .then(
          (x) => x.data?.status,
          () => null,
        );
      if (st === "completed" || st === "failed") {
        j.final = st;
        j.endedAfterUpMs = Date.now() - restart.upAt;
      }
    }
    await sleep(2000);
  }
}
