// Targets of "fast on real pages" (bench/README.md, "Targets"), beside targets.mjs's: read with
// its helpers — `cell(scenario, conc, rtt)`, `ok`, `why`, `ratioTarget` — into its `targets`.
import { median } from "./stats.mjs";

/**
 * The bars of "fast on real pages" ("fast on real pages"): the ~100-subresource page at 0 ms and at the
 * `--cdp-rtt` RTT, what must not regress, Chromium CPU per capture at c=4 (ours ÷ the floor's,
 * paired per repetition) and a small capture's own sequential CDP round trips (with --cdp-rtt).
 */
export function realPageTargets(results, { cell, ok, why, ratioTarget, targets }) {
  const rtts = [0, ...(results.options?.cdpRtt ? [results.options.cdpRtt] : [])];
  for (const rtt of rtts) {
    const at = rtt ? ` at ${rtt} ms CDP RTT` : "";
    ratioTarget(
      "real p50",
      `real page p50 (c=1)${at} ≤ 1.10× floor`,
      "real",
      1,
      "p50",
      "<=",
      1.1,
      rtt,
    );
    ratioTarget(
      "real c4",
      `real page captures/s (c=4)${at} ≥ 0.90× floor`,
      "real",
      4,
      "throughput",
      ">=",
      0.9,
      rtt,
    );
  }
  ratioTarget("small p50 37", "small page p50 (c=1) ≤ 1.10× floor", "small", 1, "p50", "<=", 1.1);
  ratioTarget("article p50 37", "article p50 (c=1) ≤ 1.0× floor", "article", 1, "p50", "<=", 1.0);
  ratioTarget(
    "render 37",
    "render-link hit p50 (c=1) ≤ 1.05× GET /health",
    "render",
    1,
    "p50",
    "<=",
    1.05,
  );
  for (const scenario of ["small", "real"]) {
    const label = `Chromium CPU per capture (c=4), ${scenario} ≤ 1.10× floor's`;
    const c = cell(scenario, 4);
    if (!ok(c)) {
      targets.push({ name: label, measured: why(c, scenario), result: "N/A" });
      continue;
    }
    const paired = c.edgeshot.reps
      .map((r, i) => r.cpuMs.serviceBrowser / c.floor.reps[i]?.cpuMs.floor)
      .filter((v) => Number.isFinite(v));
    const v = median(paired);
    targets.push({
      name: label,
      measured: `${v.toFixed(2)}× (per repetition ${paired.map((x) => x.toFixed(2)).join(", ")}; limit ≤ 1.10×)`,
      value: v,
      result: v <= 1.1 ? "PASS" : "MISS",
    });
  }
  const label = "own sequential CDP round trips per small capture (c=1) ≤ floor's + 4";
  const c = cell("small", 1);
  const floorRt = c?.floor.cdp?.roundTrips;
  const ourRt = c?.edgeshot.cdp?.roundTrips;
  if (!ok(c) || floorRt === undefined || ourRt === undefined) {
    targets.push({
      name: label,
      measured: ok(c) ? "counted with --cdp-rtt only" : why(c, "small"),
      result: "N/A",
    });
  } else {
    targets.push({
      name: label,
      measured: `${ourRt} against the floor's ${floorRt}`,
      value: ourRt - floorRt,
      result: ourRt <= floorRt + 4 ? "PASS" : "MISS",
    });
  }
}
