// A run's results (bench/README.md; `bench/results/<timestamp>.json`): the machine it ran on,
// each scenario cell's sides — medians over repetitions, service timings, lazy images, sizes —
// with their ratios to the floor, memory, browser launches and the targets; and the file.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { chromiumVersion } from "./chromium.mjs";
import { computeRatios, evaluateTargets } from "./targets.mjs";
import { mb, median, medianOfReps } from "./stats.mjs";

const RESULTS_DIR = fileURLToPath(new URL("../results", import.meta.url));

const loadAvg = () => os.loadavg().map((v) => Math.round(v * 100) / 100);
const version = (pkg) =>
  JSON.parse(readFileSync(new URL(`../../node_modules/${pkg}/package.json`, import.meta.url)))
    .version;

/** The machine and the software versions, with the load average at start. */
export function machineInfo(chromiumBinary) {
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    chromium: chromiumVersion(chromiumBinary),
    wrangler: version("wrangler"),
    puppeteerCore: version("puppeteer-core"),
    loadAvgAtStart: loadAvg(),
  };
}

/** One system's side of a cell: medians over its repetitions, or why it has none. */
function side(sc, cell, sys, aborted) {
  const st = sc.status[sys];
  const reps = cell[sys].reps;
  if (st.status !== "ok" || reps.length === 0) {
    return {
      status: st.status === "ok" ? "not measured" : st.status,
      reason: st.reason ?? aborted ?? "",
      reps,
    };
  }
  return {
    status: "ok",
    n: cell.n,
    reps,
    median: medianOfReps(reps),
    serverMsP50: reps.some((r) => typeof r.serverMsP50 === "number")
      ? median(reps.map((r) => r.serverMsP50).filter((v) => typeof v === "number"))
      : null,
    serverTiming: reps[0].serverTiming,
    autoScrolled: reps.some((r) => r.autoScrolled),
    hung: reps.reduce((sum, r) => sum + (r.hung ?? 0), 0) || undefined,
    lazyImages: reps[0].lazyImages
      ? {
          min: Math.min(...reps.map((r) => r.lazyImages.min)),
          max: Math.max(...reps.map((r) => r.lazyImages.max)),
          of: 12,
        }
      : undefined,
    complete: reps[0].complete
      ? {
          complete: reps.reduce((sum, r) => sum + r.complete.complete, 0),
          of: reps.reduce((sum, r) => sum + r.complete.of, 0),
          missing: [...new Set(reps.flatMap((r) => r.complete.missing))],
        }
      : undefined,
    maxHeight: Math.max(...reps.map((r) => r.maxHeight ?? 0)),
    bytesP50: reps[0].bytesP50 !== undefined ? median(reps.map((r) => r.bytesP50)) : undefined,
    requests: reps[0].requests
      ? {
          min: Math.min(...reps.map((r) => r.requests.min)),
          max: Math.max(...reps.map((r) => r.requests.max)),
          expected: reps[0].requests.expected,
        }
      : undefined,
    cdp: reps[0].cdp
      ? Object.fromEntries(
          ["commands", "events", "connections", "roundTrips"]
            .map((k) => [k, median(reps.map((r) => r.cdp[k]).filter((v) => v !== undefined))])
            .filter(([, v]) => !Number.isNaN(v)),
        )
      : undefined,
  };
}

/**
 * The results of a measured run. `run`: what main() gathered — options, machine, the scenario
 * table, the phases' outputs and the sampler's final report (`final`).
 */
export function buildResults(run) {
  const { opt, selected, started, machine, scenarios, final, aborted, serviceUnavailable } = run;
  const svcBrowsers = final.browsers.filter((b) => b.group === "service");
  const results = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    options: { ...opt, scenarios: selected },
    machine: { ...machine, loadAvgAtEnd: loadAvg() },
    noise: {
      foreignChromiumBrowsersMax: final.maxForeignBrowsers,
      note: "Other processes on this machine (e.g. test runs) share the 2 cores: see loadAvg and foreign Chromium count.",
    },
    serviceSource: run.serviceSource,
    coldStart: run.coldStart,
    endurance: run.endurance,
    crawl: run.crawl,
    rttCheck: run.rttCheck,
    binaries: run.binaries,
    flags: run.flags,
    serviceUnavailable,
    aborted,
    scenarios: scenarios.map((sc) => ({
      name: sc.name,
      title: sc.title,
      fullPage: sc.fullPage,
      labels: sc.labels,
      systems: sc.systems,
      firstCache: sc.firstCache,
      linkNote: sc.linkNote,
      cells: sc.cells.map((cell) => {
        const sides = Object.fromEntries(
          sc.systems.map((sys) => [sys, side(sc, cell, sys, aborted)]),
        );
        const ratios = computeRatios(sides, sc.systems);
        return { conc: cell.conc, rtt: cell.rtt, ...sides, ratio: ratios.edgeshot, ratios };
      }),
    })),
    memory: {
      peakRssMb: {
        service: mb(final.peakKb.service),
        floor: mb(final.peakKb.floor),
        both: mb(final.peakKb.ours),
      },
      perRepetition: run.perRepetition,
      samples: final.samples,
      sampleIntervalMs: final.intervalMs,
      note: "VmRSS summed over every process of each browser (browser, zygotes, renderers, utility); shared pages are counted once per process, so sums overstate; PSS is the fair-share figure.",
    },
    launches: serviceUnavailable
      ? null
      : {
          serviceTotal: svcBrowsers.length,
          serviceAfterWarmup: svcBrowsers.filter((b) => b.afterSteady).length,
          floorTotal: final.browsers.filter((b) => b.group === "floor").length,
          serviceCaptures: run.serviceRequests,
          serviceBrowsers: svcBrowsers.map(({ argv, ...b }) => b),
        },
  };
  results.targets = evaluateTargets(results);
  return results;
}

/** Writes `bench/results/<start time><suffix>.json` and returns its path. */
export function saveResults(started, results, suffix = "") {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = started.toISOString().replace(/[:.]/g, "-");
  const jsonPath = `${RESULTS_DIR}/${stamp}${suffix}.json`;
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  return jsonPath;
}

/** The fairness run's results: service only, its own table (bench/scenarios/fairness.mjs). */
export function fairnessResults(opt, started, fairness) {
  return {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    options: opt,
    loadAvgAtEnd: loadAvg(),
    fairness,
  };
}

/**
 * A scenario run alone on the service, its own table: `section` is its results under its name
 * ({ crawl } bench/scenarios/crawl.mjs, { monitor } monitor.mjs, { crawlPeer } crawl-peer.mjs).
 */
export function aloneResults(opt, started, machine, final, section) {
  return {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    options: opt,
    machine: { ...machine, loadAvgAtEnd: loadAvg() },
    noise: { foreignChromiumBrowsersMax: final.maxForeignBrowsers },
    ...section,
  };
}
