#!/usr/bin/env node
// Edgeshot soak: the whole service under mixed load while things break, then count everything.
// See bench/SOAK.md. Usage: npm run soak [-- --duration 300] [-- --concurrency 8] [-- --faults]
//   [-- --no-faults] [-- --report file.json] [-- --fixture-port 4520] [-- --port 4260]
// The JSON report goes to bench/results/soak-<time>.json (git-ignored) unless --report says.
//
// Starts the fixture server (bench/fixture.mjs), a local webhook receiver (answers 500 to the
// first try of every delivery id, then 200) and `wrangler dev` with its own --persist-to dir.
// N customers on different plans send a mix of captures, extractions, render links, artifacts,
// async jobs and batches with webhooks, watch runs and invalid requests. Faults (--faults, the
// default): the service's Chromium browser process killed mid-capture, `wrangler dev` killed
// and restarted once with jobs queued and processing, a slow target past its timeout, the
// webhook 500s. After the load stops it waits for every job to end, then checks the invariants
// and exits non-zero when one is broken. Writes a JSON report.
//
// This file is the runner: options and the order of things. The processes are in
// bench/lib/soak-service.mjs, the requests in soak-client.mjs, the load in soak-load.mjs, the
// faults in soak-faults.mjs, the drain in soak-drain.mjs, the invariants in soak-invariants.mjs
// and the report in soak-report.mjs (all under bench/lib/).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { soakClient } from "./lib/soak-client.mjs";
import { adoptUnansweredJobs, awaitDeliveries, drainJobs } from "./lib/soak-drain.mjs";
import { readAccounts, watchRuns } from "./lib/soak-drain.mjs";
import { restartFault, startBrowserKiller } from "./lib/soak-faults.mjs";
import { checkInvariants, webhookFindings } from "./lib/soak-invariants.mjs";
import { createCustomers, runLoad, warmUp } from "./lib/soak-load.mjs";
import { buildReport, mb, printReport } from "./lib/soak-report.mjs";
import { cleanup, freePort, idleChromium, sampleChromium } from "./lib/soak-service.mjs";
import { soakedService, startFixture, startReceiver } from "./lib/soak-service.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function options(argv) {
  const opt = { duration: 300, concurrency: 8, faults: true, report: null, port: null };
  opt.fixturePort = Number(process.env.FIXTURE_PORT ?? 4520);
  opt.stuckAfter = 45;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i];
    if (flag === "--duration") opt.duration = Number(value());
    else if (flag === "--concurrency") opt.concurrency = Number(value());
    else if (flag === "--faults") opt.faults = true;
    else if (flag === "--no-faults") opt.faults = false;
    else if (flag === "--report") opt.report = value();
    else if (flag === "--fixture-port") opt.fixturePort = Number(value());
    else if (flag === "--port") opt.port = Number(value());
    else if (flag === "--stuck-after") opt.stuckAfter = Number(value());
    else throw new Error(`unknown option ${argv[i]} (see bench/SOAK.md)`);
  }
  opt.report ??= join(
    ROOT,
    "bench/results",
    `soak-${new Date().toISOString().replace(/[:.]/g, "-")}.json`,
  );
  if (!(opt.duration > 0) || !(opt.concurrency > 0))
    throw new Error("bad --duration/--concurrency");
  return opt;
}

const opt = options(process.argv.slice(2));
const tmp = mkdtempSync(join(os.tmpdir(), "edgeshot-soak-"));

async function main() {
  const started = Date.now();
  await startFixture(opt.fixturePort);
  const fixture = `http://127.0.0.1:${opt.fixturePort}`;
  // --port P: wrangler dev on P, its inspector on P+1, the webhook receiver on P+2.
  const receiver = await startReceiver(opt.faults, opt.port ? opt.port + 2 : 0);
  const hook = `http://127.0.0.1:${receiver.port}/hook`;
  const svc = await soakedService({
    root: ROOT,
    tmp,
    port: opt.port ?? (await freePort()),
    inspectorPort: opt.port ? opt.port + 1 : await freePort(),
    allow: [`127.0.0.1:${opt.fixturePort}`, `127.0.0.1:${receiver.port}`],
    vars: {
      // wrangler.toml ships the production pool (8 browsers); on a laptop or CI box every
      // browser shares the same cores, and the RSS invariant compares like with like only when
      // the pool is warm from the start. SOAK_BROWSER_HOSTS overrides.
      BROWSER_HOSTS: process.env.SOAK_BROWSER_HOSTS || "1",
      // Jobs whose queue messages the restart lost are swept (re-enqueued, then failed and
      // refunded) after this, so they end within the drain rather than after 15 minutes.
      JOB_STUCK_AFTER_SECONDS: String(opt.stuckAfter),
    },
  });
  await svc.start();
  console.log(`[soak] service ${svc.base}, fixtures ${fixture}, webhooks ${hook}`);
  const ctx = { opt, started, svc, fixture, hook, receiver, ...soakClient(svc) };
  ctx.customers = await createCustomers(ctx);

  // Warm-up: one capture per customer, then the idle RSS every later value is compared with.
  await warmUp(ctx);
  const warm = await idleChromium(svc);
  console.log(
    `[soak] warm: Chromium idle RSS ${mb(warm.rss)} in ${warm.processes} processes, contexts ${JSON.stringify(warm.contexts)}`,
  );
  const loadStart = Date.now();
  const stopAt = loadStart + opt.duration * 1000;
  const samples = sampleChromium(svc, started);
  const killer = opt.faults ? startBrowserKiller(ctx, stopAt) : null;
  const restart = opt.faults ? restartFault(ctx, stopAt) : null;
  await runLoad(ctx, stopAt);
  if (killer) clearInterval(killer);
  console.log(`[soak] load stopped after ${opt.duration} s; draining`);

  // ─────────────────────────── drain, then count ───────────────────────────
  // The drain reads the service: on a slow machine the restarted one may not answer yet.
  await restart?.serviceUp;
  const unansweredJobs = await adoptUnansweredJobs(ctx);
  const { open, drainedMs } = await drainJobs(ctx);
  await restart?.done;
  const runs = await watchRuns(ctx);
  const hookedAll = await awaitDeliveries(ctx);
  samples.stop();
  const { accounts, reservationsExpireAt } = await readAccounts(ctx);
  const end = await idleChromium(svc);
  const webhooks = webhookFindings(receiver, hookedAll);
  const stillHeld = reservationsExpireAt !== null && Date.now() < reservationsExpireAt;
  // The service stopped as an operator stops it; the launcher kills Chromium that outlives
  // wrangler's own exit (the browser binding starts it in a session of its own) and counts.
  const stopped = await svc.stop();
  console.log(
    `[soak] service stopped: ${stopped.chromium} Chromium process(es), ${stopped.outlived} outlived wrangler dev (killed), ${stopped.alive} still alive`,
  );
  const checked = checkInvariants({
    ...ctx,
    ...webhooks,
    accounts,
    open,
    runs,
    warm,
    end,
    stillHeld,
    stopped,
  });
  const report = buildReport(ctx, {
    ...checked,
    ...webhooks,
    accounts,
    drainedMs,
    open,
    unansweredJobs,
    runs,
    warm,
    end,
    stopped,
    samples,
  });
  mkdirSync(dirname(opt.report), { recursive: true });
  writeFileSync(opt.report, JSON.stringify(report, null, 2));
  printReport(report);
  let ok = true;
  for (const [name, held] of Object.entries(checked.invariants)) {
    console.log(`${held ? "PASS" : "FAIL"}  ${name}`);
    ok &&= held;
  }
  return ok;
}

main().then(
  (ok) => {
    cleanup();
    // A failed soak keeps the service's whole log beside its report, for the post-mortem.
    if (!ok) copyFileSync(join(tmp, "wrangler.log"), opt.report.replace(/\.json$/, ".log"));
    rmSync(tmp, { recursive: true, force: true });
    process.exit(ok ? 0 : 1);
  },
  (err) => {
    console.error(err);
    cleanup();
    rmSync(tmp, { recursive: true, force: true });
    process.exit(2);
  },
);
