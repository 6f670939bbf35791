// Ratios and targets (bench/README.md, "The numbers" and "Targets"): each system against its
// floor, paired per repetition, and every target's PASS / MISS / N/A from a run's results.
import { median } from "./stats.mjs";
import { CAPTURE_SCENARIOS } from "../scenarios/catalog.mjs";
import { realPageTargets } from "./targets-real-pages.mjs";

/**
 * Ratios to the floor. Headline = the median over repetitions of the PAIRED ratio: in each
 * repetition the systems ran back to back, so pairing cancels the machine's drift between
 * repetitions. The ratio of the medians is kept alongside (`ofMedians`).
 */
export function computeRatios(sides, systems) {
  const f = sides.floor;
  const out = {};
  for (const sys of systems.filter((s) => s !== "floor")) {
    const e = sides[sys];
    if (f?.status !== "ok" || e?.status !== "ok") {
      out[sys] = null;
      continue;
    }
    const paired = (key) =>
      e.reps
        .map((r, i) => (f.reps[i] ? r[key] / f.reps[i][key] : null))
        .filter((v) => v !== null && Number.isFinite(v));
    const keys = ["p50", "p95", "mean", "throughput"];
    out[sys] = {
      ...Object.fromEntries(keys.map((k) => [k, median(paired(k))])),
      perRepetition: Object.fromEntries(keys.map((k) => [k, paired(k)])),
      ofMedians: Object.fromEntries(keys.map((k) => [k, e.median[k] / f.median[k]])),
    };
  }
  return out;
}

export function evaluateTargets(results) {
  // Targets are read at the machine's own CDP latency: the cells at 0 ms (--cdp-rtt) or the only ones.
  const cell = (name, conc, rtt = 0) =>
    results.scenarios
      .find((s) => s.name === name)
      ?.cells.find((c) => c.conc === conc && (c.rtt ?? 0) === rtt);
  const ok = (c) => c && c.floor.status === "ok" && c.edgeshot.status === "ok";
  const why = (c, name) =>
    !c
      ? `${name} not run`
      : c.edgeshot.status !== "ok"
        ? `${c.edgeshot.status}: ${c.edgeshot.reason}`
        : `floor ${c.floor.status}: ${c.floor.reason}`;
  const targets = [];
  const ratioTarget = (name, label, scenario, conc, key, cmp, limit, rtt = 0) => {
    const c = cell(scenario, conc, rtt);
    if (!ok(c)) return targets.push({ name: label, measured: why(c, scenario), result: "N/A" });
    const v = c.ratio[key];
    const pass = cmp === "<=" ? v <= limit : v >= limit;
    targets.push({
      name: label,
      measured: `${v.toFixed(2)}× (limit ${cmp === "<=" ? "≤" : "≥"} ${limit}×)`,
      value: v,
      result: pass ? "PASS" : "MISS",
    });
  };
  ratioTarget(
    "small p50",
    "warm capture p50, small page (c=1) ≤ 1.3× floor",
    "small",
    1,
    "p50",
    "<=",
    1.3,
  );
  ratioTarget(
    "article p50",
    "warm capture p50, article full page (c=1) ≤ 1.2× floor",
    "article",
    1,
    "p50",
    "<=",
    1.2,
  );
  // Default settings (issue: "faster than driving Chromium by hand"): the floor waits for
  // puppeteer's networkidle2, Edgeshot for its own idle rule (docs/CAPTURE.md, "Waiting").
  ratioTarget(
    "default-url p50",
    "default wait p50, small page URL (c=1) ≤ 0.6× floor's networkidle2",
    "default-url",
    1,
    "p50",
    "<=",
    0.6,
  );
  ratioTarget(
    "default-html p50",
    "default wait p50, inline HTML card (c=1) ≤ 0.4× floor's networkidle2",
    "default-html",
    1,
    "p50",
    "<=",
    0.4,
  );
  for (const s of Object.keys(CAPTURE_SCENARIOS)) {
    ratioTarget(`${s} c4`, `throughput at c=4, ${s} ≥ 0.8× floor`, s, 4, "throughput", ">=", 0.8);
  }
  // Issue 20's tighter bars on the pinned path and the cached render.
  ratioTarget(
    "small c4 tight",
    "throughput at c=4, small ≥ 0.95× floor",
    "small",
    4,
    "throughput",
    ">=",
    0.95,
  );
  ratioTarget(
    "render c1 tight",
    "render-link hit p50 (c=1) ≤ 1.2× GET /health",
    "render",
    1,
    "p50",
    "<=",
    1.2,
  );
  ratioTarget(
    "render c1",
    "render-link hit p50 (c=1) ≤ 2× GET /health",
    "render",
    1,
    "p50",
    "<=",
    2,
  );
  ratioTarget(
    "render c16",
    "render-link hit p50 (c=16) ≤ 2× GET /health",
    "render",
    16,
    "p50",
    "<=",
    2,
  );

  ratioTarget(
    "extract p50",
    "extract p50 ≤ 1.1× capture of the same page (c=1)",
    "extract",
    1,
    "p50",
    "<=",
    1.1,
  );
  ratioTarget(
    "fields p50",
    "POST /v1/json fields p50 ≤ 1.1× the floor's goto + $$eval (c=1)",
    "fields",
    1,
    "p50",
    "<=",
    1.1,
  );
  // Issue 54: Edgeshot complete on every page, within 1.3× of the (incomplete) floor's time.
  ratioTarget(
    "complete mean",
    "complete captures: mean time ≤ 1.3× the floor's goto + screenshot (c=1; 4 pages in turn)",
    "complete",
    1,
    "mean",
    "<=",
    1.3,
  );
  const cc = cell("complete", 1)?.edgeshot;
  targets.push(
    cc?.status !== "ok" || !cc.complete
      ? {
          name: "complete captures: Edgeshot complete on every page",
          measured: cc ? `${cc.status}: ${cc.reason ?? ""}` : "complete not run",
          result: "N/A",
        }
      : {
          name: "complete captures: Edgeshot complete on every page",
          measured: `${cc.complete.complete}/${cc.complete.of} complete${cc.complete.missing.length ? `; missing: ${cc.complete.missing.join(", ")}` : ""}`,
          value: cc.complete.complete / cc.complete.of,
          result: cc.complete.complete === cc.complete.of ? "PASS" : "MISS",
        },
  );

  // Scaling of extraction with itself: c=4 throughput ÷ c=1 throughput, paired per repetition.
  const e1 = cell("extract", 1)?.edgeshot;
  const e4 = cell("extract", 4)?.edgeshot;
  const scaleLabel = "extract throughput c=4 ≥ 1.5× its c=1";
  if (e1?.status !== "ok" || e4?.status !== "ok") {
    targets.push({
      name: scaleLabel,
      measured: !e1 || !e4 ? "extract not run" : `${e4.status}: ${e4.reason ?? e1.reason}`,
      result: "N/A",
    });
  } else {
    const paired = e4.reps
      .map((r, i) => (e1.reps[i] ? r.throughput / e1.reps[i].throughput : null))
      .filter((v) => v !== null && Number.isFinite(v));
    const v = median(paired);
    targets.push({
      name: scaleLabel,
      measured: `${v.toFixed(2)}× (${e1.median.throughput.toFixed(2)}/s → ${e4.median.throughput.toFixed(2)}/s; limit ≥ 1.5×)`,
      value: v,
      result: v >= 1.5 ? "PASS" : "MISS",
    });
  }

  realPageTargets(results, { cell, ok, why, ratioTarget, targets });

  const l = results.launches;
  const serviceCaptured = results.scenarios.some(
    (s) =>
      Object.hasOwn(CAPTURE_SCENARIOS, s.name) && s.cells.some((c) => c.edgeshot.status === "ok"),
  );
  if (!l || results.serviceUnavailable || !serviceCaptured) {
    targets.push({
      name: "no browser launch per request in steady state",
      measured: results.serviceUnavailable ?? "no service capture was measured",
      result: "N/A",
    });
  } else {
    targets.push({
      name: "no browser launch per request in steady state",
      measured: `${l.serviceAfterWarmup} service launches after warm-up (${l.serviceTotal} in all, ${l.serviceCaptures} service requests)`,
      result: l.serviceAfterWarmup === 0 ? "PASS" : "MISS",
    });
  }
  const reps = results.memory.perRepetition;
  if (results.serviceUnavailable || !serviceCaptured || reps.length < 2) {
    targets.push({
      name: "service Chromium RSS does not grow across repetitions",
      measured:
        results.serviceUnavailable ??
        (!serviceCaptured ? "no service capture was measured" : "needs ≥ 2 repetitions"),
      result: "N/A",
    });
  } else {
    const first = reps[0].idleRssMb.service;
    const last = reps[reps.length - 1].idleRssMb.service;
    const series = reps.map((r) => r.idleRssMb.service.toFixed(0)).join(" → ");
    // Growth allowance: 20 % or 64 MB, whichever is larger (page caches and V8 heaps breathe).
    const pass = last <= Math.max(first * 1.2, first + 64);
    targets.push({
      name: "service Chromium RSS does not grow across repetitions",
      measured: `idle RSS after each repetition: ${series} MB`,
      result: pass ? "PASS" : "MISS",
    });
  }
  const e = results.endurance;
  const enduranceName = "service Chromium RSS flat over the endurance run (≤ +10 % or +64 MB)";
  if (!e?.series) {
    targets.push({
      name: enduranceName,
      measured: results.serviceUnavailable ?? "not run (--endurance 0)",
      result: "N/A",
    });
  } else {
    const first = e.series[0].idleRssMb;
    const last = e.series[e.series.length - 1].idleRssMb;
    targets.push({
      name: enduranceName,
      measured: `idle RSS after ${e.series.map((p) => p.captures).join(" / ")} captures: ${e.series.map((p) => p.idleRssMb.toFixed(0)).join(" → ")} MB`,
      result: last <= Math.max(first * 1.1, first + 64) ? "PASS" : "MISS",
    });
  }
  return targets;
}
