// The measured phases of a run over its scenario table (bench/README.md, "Order of a run"): the
// cold start, the warm-up (then "steady state" and the two browsers' flags compared), and the
// repetitions — systems interleaved per (scenario, concurrency), order alternating.
import { runBatch } from "./batch.mjs";
import { diffFlags } from "./chromium.mjs";
import { aroundBatch } from "./batch-extras.mjs";
import { TimeCap, log, samplerReport, sleep, state } from "./lifecycle.mjs";
import { fmt } from "./report.mjs";
import { NotAvailable } from "./service-client.mjs";
import { mb } from "./stats.mjs";
import { CAPTURE_SCENARIOS } from "../scenarios/catalog.mjs";

/** A system's failure in a scenario: reported in its row; a stop (cap, signal) ends the run. */
function markFailed(sc, sys, err) {
  if (err instanceof TimeCap) throw err;
  if (state.stopping) throw new TimeCap(`stopped by ${state.stopping}`);
  if (err instanceof NotAvailable)
    sc.status[sys] = { status: "not available", reason: err.message };
  else sc.status[sys] = { status: "FAILED", reason: err.message };
  log(`${sc.name} / ${sys}: ${sc.status[sys].status}: ${sc.status[sys].reason}`);
}

/**
 * The first capture with no browser running (what a request meets after the service released
 * its browser at the idle timeout): the service launches inside the request; the floor's
 * equivalent is its launch plus its first capture. Small page, load wait.
 */
export async function measureColdStart(service, floor, floorLaunchMs) {
  try {
    const svc = await service.capture(CAPTURE_SCENARIOS.small);
    const first = await floor.capture(CAPTURE_SCENARIOS.small);
    const coldStart = {
      serviceMs: Math.round(svc.ms),
      floorMs: Math.round(floorLaunchMs + first.ms),
    };
    log(
      `cold start: service ${coldStart.serviceMs} ms, floor launch + capture ${coldStart.floorMs} ms`,
    );
    return coldStart;
  } catch (err) {
    log(`cold start not measured: ${err.message}`);
    return { error: err.message };
  }
}

/**
 * Every system serves each scenario before anything is measured; then a few more concurrent
 * small-page captures (`service` null when it is not measured), so every browser the service
 * keeps is warm. Marks "steady state" and returns the sampler's report at that point.
 */
export async function warmUp(scenarios, service) {
  log("warm-up …");
  const warm = async (sc, sys) => {
    if (sc.status[sys].status !== "ok") return;
    try {
      if (sc.name === "render" && sys === "edgeshot") {
        const r = await service.prepareRenderLink();
        sc.firstCache = r.firstCache;
        if (service.renderLinkRewritten)
          sc.linkNote = `link origin ${new URL(service.renderLinkRewritten).origin} rewritten to the local service`;
      }
      await runBatch(sc.one[sys], 2, 1);
      await runBatch(sc.one[sys], 8, 4);
    } catch (err) {
      markFailed(sc, sys, err);
    }
  };
  for (const sc of scenarios) {
    for (const sys of sc.systems) await warm(sc, sys);
  }
  if (service) {
    await runBatch(() => service.capture(CAPTURE_SCENARIOS.small), 8, 4).catch((err) =>
      log(`extra warm-up: ${err.message}`),
    );
  }
  await sleep(1000);
  state.sampler.postMessage({ type: "steady" });
  return samplerReport();
}

/** The floor's and the service's Chromium command lines (`plan`: floorLaunchPlan), compared. */
export function compareFlags(plan, report) {
  const serviceBrowsers = report.browsers.filter((b) => b.group === "service");
  const flags = {
    floor: plan.args,
    miniflareArgsFrom: plan.miniflareSource,
    wrapper: plan.wrapperPath,
    service: serviceBrowsers[0]?.argv.slice(1) ?? null,
  };
  if (flags.service) {
    flags.diff = diffFlags(plan.args, flags.service);
    flags.identical = flags.diff.onlyFloor.length === 0 && flags.diff.onlyService.length === 0;
    log(
      `flags: floor and service Chromium ${flags.identical ? "identical" : `DIFFER: ${JSON.stringify(flags.diff)}`}`,
    );
  }
  const binaries = { floor: plan.binary, service: serviceBrowsers[0]?.argv[0] ?? null };
  return { flags, binaries };
}

/**
 * The measured repetitions: in each, for each (scenario, concurrency, CDP RTT), every system runs
 * one batch, back to back; odd repetitions start with the floor, even ones with Edgeshot. After
 * each repetition, 1 s idle, then the browsers' memory. A stop (cap, signal) ends them early.
 * `ctx`: {fixtureBase, fixture, proxy} (bench/lib/batch-extras.mjs; `proxy` null without
 * --cdp-rtt).
 */
export async function runRepetitions(scenarios, reps, ctx) {
  const perRepetition = [];
  let serviceRequests = 0;
  let aborted = null;
  try {
    for (let rep = 1; rep <= reps; rep++) {
      state.sampler.postMessage({ type: "repReset" });
      log(`repetition ${rep}/${reps} (${rep % 2 === 1 ? "floor first" : "edgeshot first"})`);
      for (const sc of scenarios) {
        const order = rep % 2 === 1 ? sc.systems : [...sc.systems].reverse();
        for (const cell of sc.cells) {
          for (const sys of order) {
            if (sc.status[sys].status !== "ok") continue;
            try {
              const after = await aroundBatch(sc, sys, cell, ctx);
              const r = await after(await runBatch(sc.one[sys], cell.n, cell.conc));
              if (sys === "edgeshot" || sc.name === "render") serviceRequests += cell.n;
              cell[sys].reps.push(r);
              const rtt = cell.rtt === null ? "" : ` rtt=${cell.rtt}`;
              log(
                `  ${sc.name} c=${cell.conc}${rtt} ${sys}: p50 ${fmt(r.p50)} ms, p95 ${fmt(r.p95)} ms, ${fmt(r.throughput, 2)}/s; CPU ${fmt(r.cpuMs.machine)} ms per request${r.requests ? `; ${r.requests.max} requests` : ""}${r.complete ? `; complete ${r.complete.complete}/${r.complete.of}${r.complete.missing.length ? ` (missing: ${r.complete.missing.join(", ")})` : ""}` : ""}${r.cdp ? `; CDP ${fmt(r.cdp.commands)} commands${r.cdp.roundTrips === undefined ? "" : `, ${fmt(r.cdp.roundTrips)} own round trips`} per capture` : ""}`,
              );
            } catch (err) {
              markFailed(sc, sys, err);
            }
          }
        }
      }
      await sleep(1000); // idle: let contexts close and renderers exit before reading memory
      const rep_ = await samplerReport(true);
      perRepetition.push({
        rep,
        idleRssMb: { service: mb(rep_.snapshot.rss.service), floor: mb(rep_.snapshot.rss.floor) },
        idlePssMb: { service: mb(rep_.snapshot.pss.service), floor: mb(rep_.snapshot.pss.floor) },
        peakRssMb: { service: mb(rep_.repPeakKb.service), floor: mb(rep_.repPeakKb.floor) },
        processes: rep_.snapshot.procs,
      });
      log(
        `  memory: service idle ${mb(rep_.snapshot.rss.service)} MB (peak ${mb(rep_.repPeakKb.service)}), floor idle ${mb(rep_.snapshot.rss.floor)} MB (peak ${mb(rep_.repPeakKb.floor)})`,
      );
    }
  } catch (err) {
    if (!(err instanceof TimeCap)) throw err;
    aborted = err.message;
    log(`stopped early: ${aborted}`);
  }
  return { perRepetition, serviceRequests, aborted };
}
