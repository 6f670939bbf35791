// The bench's command line and environment (bench/README.md, "How to run"): what a run measures,
// how often, and for how long.
import { readFileSync } from "node:fs";
import { ALL_SCENARIOS } from "../scenarios/catalog.mjs";

/** Captures in the endurance run (small page, c=4, service only) of a complete run. */
const ENDURANCE_DEFAULT = 1000;

export function parseOptions(argv) {
  const opt = {
    quick: process.env.BENCH_QUICK === "1",
    scenarios: process.env.BENCH_SCENARIOS ? process.env.BENCH_SCENARIOS.split(",") : null,
    reps: process.env.BENCH_REPS ? Number(process.env.BENCH_REPS) : null,
    floorOnly: process.env.BENCH_FLOOR_ONLY === "1",
    timeCapMin: process.env.BENCH_TIME_CAP_MIN ? Number(process.env.BENCH_TIME_CAP_MIN) : null,
    fixturePort: process.env.BENCH_FIXTURE_PORT ? Number(process.env.BENCH_FIXTURE_PORT) : 4510,
    updateResults: null,
    rev: process.env.BENCH_REV || null,
    profile: process.env.BENCH_PROFILE === "1",
    endurance: process.env.BENCH_ENDURANCE ? Number(process.env.BENCH_ENDURANCE) : null,
    report: null,
    cdpRtt: process.env.BENCH_CDP_RTT ? Number(process.env.BENCH_CDP_RTT) : null,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i];
    if (flag === "--quick") opt.quick = true;
    else if (flag === "--scenarios")
      opt.scenarios = value()
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    else if (flag === "--reps") opt.reps = Number(value());
    else if (flag === "--floor-only") opt.floorOnly = true;
    else if (flag === "--time-cap-min") opt.timeCapMin = Number(value());
    else if (flag === "--fixture-port") opt.fixturePort = Number(value());
    else if (flag === "--rev") opt.rev = value();
    else if (flag === "--profile") opt.profile = true;
    else if (flag === "--endurance") opt.endurance = Number(value());
    else if (flag === "--report") opt.report = value();
    else if (flag === "--cdp-rtt") opt.cdpRtt = Number(value());
    else if (flag === "--update-results") opt.updateResults = true;
    else if (flag === "--no-update-results") opt.updateResults = false;
    else if (flag === "--help" || flag === "-h") {
      const readme = new URL("../README.md", import.meta.url);
      console.log(readFileSync(readme, "utf8").split("\n## ")[1] ?? "see bench/README.md");
      process.exit(0);
    } else throw new Error(`unknown option ${argv[i]} (see bench/README.md)`);
  }
  opt.reps ??= opt.quick ? 1 : 3;
  opt.timeCapMin ??= opt.quick ? 15 : 45;
  // The endurance run belongs to the runs that rewrite RESULTS.md: complete, all scenarios.
  opt.endurance ??= !opt.quick && opt.scenarios === null ? ENDURANCE_DEFAULT : 0;
  if (!Number.isInteger(opt.endurance) || opt.endurance < 0)
    throw new Error("--endurance must be a non-negative integer");
  if (opt.cdpRtt !== null && !(Number.isFinite(opt.cdpRtt) && opt.cdpRtt > 0 && opt.cdpRtt <= 1000))
    throw new Error("--cdp-rtt must be a round-trip time in ms, 0 < ms ≤ 1000");
  if (!Number.isInteger(opt.reps) || opt.reps < 1)
    throw new Error("--reps must be a positive integer");
  return opt;
}

/**
 * The scenarios the run measures (default: all but fairness and crawl, which are asked for by
 * name). `crawl` is service-only: it runs after the repetitions, or alone (no floor) when it is
 * all that is asked; it is not in the default set because one crawl of 200 pages took 15 min on
 * this loaded 2-core machine, and the scenario crawls twice (bench/README.md, "Crawl").
 */
/** The scenarios that run alone, on the service, each with a table of its own. */
const ALONE = ["fairness", "monitor", "crawl-peer", "crawl-scale", "animate"];

export function selectScenarios(opt) {
  const selected = opt.scenarios ?? ALL_SCENARIOS;
  const byName = ["crawl", ...ALONE];
  for (const s of selected)
    if (!ALL_SCENARIOS.includes(s) && !byName.includes(s))
      throw new Error(
        `unknown scenario "${s}" (known: ${ALL_SCENARIOS.join(", ")}, ${byName.join(", ")})`,
      );
  for (const s of ALONE)
    if (selected.includes(s) && (selected.length > 1 || opt.floorOnly))
      throw new Error(`the ${s} scenario runs alone, on the service: --scenarios ${s}`);
  if (selected.includes("crawl") && opt.floorOnly)
    throw new Error("the crawl scenario runs on the service: not with --floor-only");
  return selected;
}
