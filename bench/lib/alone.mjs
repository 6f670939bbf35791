// The runs that are not a floor-vs-service table (bench/run.mjs): a saved run re-reported
// (--report), the fairness scenario, the crawl scenario alone and the monitor scenario — each
// writes its own results.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fixtureUrl } from "./fixture-client.mjs";
import { cleanup, log, samplerReport } from "./lifecycle.mjs";
import { renderResultsMd, renderSummary } from "./report.mjs";
import { crawlResults, fairnessResults, monitorResults, saveResults } from "./results.mjs";
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

/** The crawl scenario alone (bench/scenarios/crawl.mjs): service only, no floor. */
export async function runCrawlOnly(opt, machine, crawlRun, started) {
  const { crawlTable } = await import("../scenarios/crawl.mjs");
  const crawl = await crawlRun();
  const results = crawlResults(opt, started, machine, crawl, await samplerReport());
  const jsonPath = saveResults(started, results, "-crawl");
  console.log(`\n${crawlTable(crawl)}\n\nresults: ${jsonPath}`);
  await cleanup();
  return 0;
}

/** The monitor scenario (bench/scenarios/monitor.mjs): service only, alone, no floor. */
export async function runMonitorOnly(opt, machine, svc, siteBase, started) {
  const { runMonitorScenario, monitorTable } = await import("../scenarios/monitor.mjs");
  const monitor = await runMonitorScenario({
    base: svc.base,
    createAccount: () => createAccount(svc.base, svc.adminToken),
    siteBase,
    quick: opt.quick,
  });
  const results = monitorResults(opt, started, machine, monitor, await samplerReport());
  const jsonPath = saveResults(started, results, "-monitor");
  console.log(`\n${monitorTable(monitor)}\n\nresults: ${jsonPath}`);
  await cleanup();
  return 0;
}
