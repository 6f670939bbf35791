#!/usr/bin/env node
// Edgeshot benchmark: the service over HTTP against the raw-CDP floor on the same machine.
// See bench/README.md. Usage: npm run bench [-- --quick] [-- --scenarios small,article] …
//
// This file is the runner: options, then start everything (bench/lib/start.mjs, the floor in
// bench/lib/floor.mjs), run the phases (bench/lib/phases.mjs, bench/scenarios/), write the
// results and the report (bench/lib/results.mjs, bench/lib/report.mjs), stop everything.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  reReport,
  runAnimateOnly,
  runCrawlOnly,
  runCrawlPeerOnly,
  runCrawlScaleOnly,
  runFairnessOnly,
  runMonitorOnly,
} from "./lib/alone.mjs";
import { proxiedWrapperEnv, startCdpProxy, verifyRtt } from "./lib/cdp-rtt.mjs";
import { floorLaunchPlan } from "./lib/chromium.mjs";
import { launchFloor, makeFloor } from "./lib/floor.mjs";
import { TimeCap, cleanup, installExitHandlers, log, setTimeCap } from "./lib/lifecycle.mjs";
import { samplerReport, startSampler, state } from "./lib/lifecycle.mjs";
import { parseOptions, selectScenarios } from "./lib/options.mjs";
import { compareFlags, measureColdStart, runRepetitions, warmUp } from "./lib/phases.mjs";
import { renderResultsMd, renderSummary } from "./lib/report.mjs";
import { buildResults, machineInfo, saveResults } from "./lib/results.mjs";
import { NotAvailable, createAccount, makeService } from "./lib/service-client.mjs";
import { logTail, prepareSnapshot, startCrawlSite, startFixture } from "./lib/start.mjs";
import { startService } from "./lib/start.mjs";
import { ALL_SCENARIOS, CAPTURE_SCENARIOS, scenarioTable } from "./scenarios/catalog.mjs";
import { CRAWL_PAGES, runCrawlScenario } from "./scenarios/crawl.mjs";
import { runEndurance } from "./scenarios/endurance.mjs";
import { MONITOR_PAGES } from "./scenarios/monitor.mjs";
import { PEER_PAGES } from "./scenarios/crawl-peer.mjs";
import { SCALE_SIZES } from "./scenarios/crawl-scale.mjs";

const monitorPages = (opt) => (opt.quick ? MONITOR_PAGES.quick : MONITOR_PAGES.full);
const peerPages = (opt) => (opt.quick ? PEER_PAGES.quick : PEER_PAGES.full);

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RESULTS_MD = fileURLToPath(new URL("RESULTS.md", import.meta.url));

installExitHandlers();

async function main() {
  const opt = parseOptions(process.argv.slice(2));
  if (opt.report) return reReport(opt);
  const selected = selectScenarios(opt);
  const started = new Date();
  setTimeCap(opt.timeCapMin);

  state.tmp = mkdtempSync(join(os.tmpdir(), "edgeshot-bench-"));
  const plan = floorLaunchPlan(ROOT, join(state.tmp, "floor-profile"));
  const machine = machineInfo(plan.binary);
  log(
    `machine: ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.chromium}, load ${machine.loadAvgAtStart.join(" ")}`,
  );
  log(
    `options: ${opt.quick ? "quick, " : ""}${opt.reps} repetition(s), scenarios ${selected.join(",")}, cap ${opt.timeCapMin} min`,
  );

  const fixture = await startFixture(opt.fixturePort);
  const fixturePort = fixture.port;
  const fixtureBase = `http://127.0.0.1:${fixturePort}`;
  fixture.realPerOrigin = (
    await (await fetch(`${fixtureBase}/real/expected.json`)).json()
  ).perOrigin;
  log(`fixture server on ${fixtureBase}, real page's origins on ${fixture.realPorts.join(", ")}`);
  // --cdp-rtt: both systems' CDP connections through the delaying proxy (bench/lib/cdp-rtt.mjs).
  const proxy = opt.cdpRtt === null ? null : await startCdpProxy();
  // The crawl scenario's site: a port of its own, allowlisted beside the fixture server's.
  const crawlPages = opt.quick ? CRAWL_PAGES.quick : CRAWL_PAGES.full;
  const monitored = selected.includes("monitor");
  const peer = selected.includes("crawl-peer");
  const scale = selected.includes("crawl-scale") ? SCALE_SIZES[opt.quick ? "quick" : "full"] : null;
  const sitePages = monitored
    ? monitorPages(opt)
    : peer
      ? peerPages(opt)
      : scale
        ? scale.pages
        : crawlPages;
  const flavour = peer ? "peer" : scale ? `scale:${scale.mapUrls}` : null;
  const crawlPort =
    selected.includes("crawl") || monitored || peer || scale
      ? await startCrawlSite(fixturePort + 11, sitePages, flavour)
      : null;
  if (crawlPort) log(`crawl site (${sitePages} pages) on http://127.0.0.1:${crawlPort}`);

  let account = null;
  let service = null;
  let serviceUnavailable = null;
  let svc = null;
  let serviceSource = null;
  if (opt.floorOnly) serviceUnavailable = "not run (--floor-only)";
  else {
    const snap = prepareSnapshot(opt.rev);
    serviceSource = snap.source;
    log(`service source: ${JSON.stringify(snap.source)}`);
    log("starting wrangler dev …");
    const allowlist = [...fixture.allowlist, ...(crawlPort ? [`127.0.0.1:${crawlPort}`] : [])];
    svc = await startService(
      allowlist,
      snap.dir,
      proxy ? proxiedWrapperEnv(plan, proxy.control) : {},
    );
    log(`service on ${svc.base} (wrangler pid ${svc.pid})`);
    state.wranglerPid = svc.pid;
  }

  startSampler(svc?.pid ?? null);

  if (svc) {
    try {
      account = await createAccount(svc.base, svc.adminToken);
      service = makeService(svc.base, account.apiKey, fixtureBase);
      log(`enterprise account ${account.accountId}`);
    } catch (err) {
      if (!(err instanceof NotAvailable)) throw err;
      serviceUnavailable = `no account: ${err.message}`;
      log(`service not available: ${serviceUnavailable}`);
    }
  }

  if (selected.includes("fairness")) return runFairnessOnly(opt, svc, fixtureBase, started);
  if (selected.includes("animate") && account) {
    const launch = async () => {
      const ms = await launchFloor(plan, proxy);
      log(`floor Chromium pid ${state.floorPid} launched in ${ms.toFixed(0)} ms`);
    };
    return runAnimateOnly(opt, machine, svc, account, fixtureBase, launch, started);
  }
  if (monitored) return runMonitorOnly(opt, machine, svc, `http://127.0.0.1:${crawlPort}`, started);
  if (scale) return runCrawlScaleOnly(opt, machine, svc, `http://127.0.0.1:${crawlPort}`, started);
  if (peer)
    return runCrawlPeerOnly(
      opt,
      machine,
      svc,
      `http://127.0.0.1:${crawlPort}`,
      plan.binary,
      started,
    );
  const crawlRun = () =>
    runCrawlScenario({
      base: svc.base,
      createAccount: () => createAccount(svc.base, svc.adminToken),
      siteBase: `http://127.0.0.1:${crawlPort}`,
      fixtureBase,
      quick: opt.quick,
    });
  if (selected.length === 1 && selected[0] === "crawl")
    return runCrawlOnly(opt, machine, crawlRun, started);

  const floorLaunchMs = await launchFloor(plan, proxy);
  log(`floor Chromium pid ${state.floorPid} launched in ${floorLaunchMs.toFixed(0)} ms`);
  const rttCheck = proxy ? await verifyRtt(proxy, state.floorDirectWs, opt.cdpRtt) : null;
  const floorUserAgent = (await state.browser.userAgent()).replace("HeadlessChrome", "Chrome");
  const floor = makeFloor(state.browser, fixtureBase, floorUserAgent);

  const tableScenarios = selected.filter((s) => s !== "crawl");
  const scenarios = scenarioTable(tableScenarios, { opt, floor, service, serviceUnavailable });
  // `service` is null when it is not measured (--floor-only, or no account).
  const coldStart = service ? await measureColdStart(service, floor, floorLaunchMs) : null;
  const { flags, binaries } = compareFlags(plan, await warmUp(scenarios, service));
  if (proxy && service && !((await proxy.stats()).edgeshot?.connections > 0))
    throw new Error("--cdp-rtt: the service's CDP connection does not go through the proxy");
  const reps = await runRepetitions(scenarios, opt.reps, { fixtureBase, fixture, proxy });
  let { serviceRequests, aborted } = reps;

  // The crawl scenario (service only) after the repetitions, before the endurance run.
  let crawl = null;
  if (selected.includes("crawl") && service && !aborted) {
    try {
      crawl = await crawlRun();
    } catch (err) {
      if (!(err instanceof TimeCap)) throw err;
      aborted = err.message;
      log(`stopped early: ${aborted}`);
    }
  }

  let endurance = null;
  if (opt.endurance > 0 && service && !aborted) {
    try {
      endurance = await runEndurance(service, CAPTURE_SCENARIOS.small, opt.endurance);
      serviceRequests += endurance.captures;
    } catch (err) {
      if (!(err instanceof TimeCap)) throw err;
      aborted = err.message;
      log(`stopped early: ${aborted}`);
    }
  }

  const results = buildResults({
    opt,
    selected,
    started,
    machine,
    scenarios,
    final: await samplerReport(),
    aborted,
    serviceUnavailable,
    serviceSource,
    coldStart,
    endurance,
    crawl,
    rttCheck,
    binaries,
    flags,
    perRepetition: reps.perRepetition,
    serviceRequests,
  });
  const failed = results.scenarios
    .flatMap((s) => s.cells.flatMap((c) => s.systems.map((sys) => c[sys])))
    .filter((x) => x.status === "FAILED");

  const jsonPath = saveResults(started, results);
  const summary = renderSummary(results);
  console.log(summary);
  console.log(`\nresults: ${jsonPath}`);

  const complete =
    !opt.quick && !opt.floorOnly && !aborted && ALL_SCENARIOS.every((s) => selected.includes(s));
  if (opt.updateResults ?? complete) {
    writeFileSync(RESULTS_MD, renderResultsMd(results, summary, jsonPath));
    console.log("bench/RESULTS.md updated");
  } else {
    console.log(
      "bench/RESULTS.md not updated (only a complete full run updates it; --update-results forces it)",
    );
  }

  await cleanup();
  if (failed.length) {
    console.error(
      `\nFAILED: ${failed.length} scenario side(s) gave wrong or failed outputs (see table).`,
    );
    return 1;
  }
  if (aborted) return 1;
  return 0;
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    log(`error: ${err?.stack ?? err}`);
    if (state.wranglerLog && existsSync(state.wranglerLog)) log(`wrangler log tail:\n${logTail()}`);
    await cleanup();
    process.exit(1);
  },
);
