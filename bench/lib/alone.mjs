// The runs that are not a floor-vs-service table (bench/run.mjs): a saved run re-reported
// (--report), the fairness scenario, the crawl scenario alone, the monitor scenario and the
// animate scenario — each
// writes its own results.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fixtureUrl } from "./fixture-client.mjs";
import { cleanup, log, samplerReport, state } from "./lifecycle.mjs";
import { renderResultsMd, renderSummary } from "./report.mjs";
import { aloneResults, fairnessResults, saveResults } from "./results.mjs";
import { createAccount } from "./service-client.mjs";
import { computeRatios, evaluateTargets } from "./targets.mjs";

const RESULTS_MD = fileURLToPath(new URL("../RESULTS.md", import.meta.url));

/** --report <results.json>: re-derive ratios, targets and the summary from a saved run. */
export function reReport(opt) {
  const path = opt.report;
  const results = JSON.parse(readFileSync(path, "utf8"));
  for (const sc of results.scenarios) {
    for (const cell of sc.cells) {
      cell.ratios = computeRatios(cell, sc.systems);
      cell.ratio = cell.ratios.edgeshot;
    }
  }
  results.targets = evaluateTargets(results);
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  const summary = renderSummary(results);
  console.log(summary);
  if (opt.updateResults) {
    writeFileSync(RESULTS_MD, renderResultsMd(results, summary, path));
    console.log("bench/RESULTS.md updated");
  }
  return 0;
}

/** The fairness scenario (bench/scenarios/fairness.mjs): service only, no floor. */
export async function runFairnessOnly(opt, svc, fixtureBase, started) {
  const { runFairness, fairnessTable } = await import("../scenarios/fairness.mjs");
  const fairness = await runFairness({
    base: svc.base,
    createAccount: () => createAccount(svc.base, svc.adminToken),
    smallUrl: () => fixtureUrl(fixtureBase, "/small.html").url,
    log,
    reps: opt.reps,
    quick: opt.quick,
  });
  const jsonPath = saveResults(started, fairnessResults(opt, started, fairness), "-fairness");
  console.log(`\n${fairnessTable(fairness)}\n\nresults: ${jsonPath}`);
  await cleanup();
  return 0;
}

/** A scenario run alone on the service: `run()` gives its results, `table` its report. */
async function runAlone(opt, machine, started, { name, run, table, wrong = () => false }) {
  const value = await run();
  const results = aloneResults(opt, started, machine, await samplerReport(), { [name]: value });
  const jsonPath = saveResults(started, results, `-${name}`);
  console.log(`\n${table(value)}\n\nresults: ${jsonPath}`);
  await cleanup();
  return wrong(value) ? 1 : 0;
}

/** The crawl scenario alone (bench/scenarios/crawl.mjs): service only, no floor. */
export async function runCrawlOnly(opt, machine, crawlRun, started) {
  const { crawlTable } = await import("../scenarios/crawl.mjs");
  return runAlone(opt, machine, started, { name: "crawl", run: crawlRun, table: crawlTable });
}

/** The monitor scenario (bench/scenarios/monitor.mjs): service only, alone, no floor. */
export async function runMonitorOnly(opt, machine, svc, siteBase, started) {
  const { runMonitorScenario, monitorTable } = await import("../scenarios/monitor.mjs");
  const run = () =>
    runMonitorScenario({
      base: svc.base,
      createAccount: () => createAccount(svc.base, svc.adminToken),
      siteBase,
      quick: opt.quick,
    });
  return runAlone(opt, machine, started, { name: "monitor", run, table: monitorTable });
}

/**
 * The crawl-peer scenario (bench/scenarios/crawl-peer.mjs): Crawlee's crawlers and the service
 * crawling the same site, alone, no floor. `chromium` is the binary both browsers run.
 */
export async function runCrawlPeerOnly(opt, machine, svc, siteBase, chromium, started) {
  const { runCrawlPeerScenario, crawlPeerTable } = await import("../scenarios/crawl-peer.mjs");
  const run = () =>
    runCrawlPeerScenario({
      base: svc.base,
      createAccount: () => createAccount(svc.base, svc.adminToken),
      siteBase,
      chromium,
      quick: opt.quick,
    });
  return runAlone(opt, machine, started, { name: "crawlPeer", run, table: crawlPeerTable });
}

/**
 * The crawl-scale scenario (bench/scenarios/crawl-scale.mjs): a crawl of 20,000 pages (`--quick`:
 * 2,000) over HTTP twice and a map of 100,000 URLs (10,000), alone, no floor.
 */
export async function runCrawlScaleOnly(opt, machine, svc, siteBase, started) {
  const { runCrawlScaleScenario, crawlScaleTable } = await import("../scenarios/crawl-scale.mjs");
  const run = () =>
    runCrawlScaleScenario({
      base: svc.base,
      createAccount: () => createAccount(svc.base, svc.adminToken),
      siteBase,
      wranglerPid: svc.pid,
      quick: opt.quick,
    });
  return runAlone(opt, machine, started, { name: "crawlScale", run, table: crawlScaleTable });
}

/**
 * The animate scenario (bench/scenarios/animate.mjs): the floor's screencast against the service's
 * recordings; `launch` starts the floor's browser. Exits 1 when a recording's file was wrong.
 */
export async function runAnimateOnly(opt, machine, svc, account, fixtureBase, launch, started) {
  const { runAnimateScenario, animateTable } = await import("../scenarios/animate.mjs");
  await launch();
  const run = () =>
    runAnimateScenario({
      browser: state.browser,
      base: svc.base,
      apiKey: account.apiKey,
      fixtureBase,
      wranglerPid: svc.pid,
      reps: opt.reps,
    });
  const wrong = (animate) => animate.rows.some((r) => r.wrong > 0);
  return runAlone(opt, machine, started, { name: "animate", run, table: animateTable, wrong });
}
