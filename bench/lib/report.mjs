// The run's report (bench/README.md, "The numbers"): the markdown tables — latency and
// throughput, CPU per capture, targets — the summary printed after a run, and RESULTS.md, whose
// notes below the marker survive every rewrite.
import { existsSync, readFileSync } from "node:fs";
import { median } from "./stats.mjs";
import { FLOOR_IDLE_TIMEOUT_MS } from "../scenarios/catalog.mjs";
import { crawlTable } from "../scenarios/crawl.mjs";
import { requestsTable, rttCheckLine } from "./report-requests.mjs";

const RESULTS_MD = new URL("../RESULTS.md", import.meta.url);

export const fmt = (v, d = 0) =>
  v === null || v === undefined || !Number.isFinite(v) ? "—" : v.toFixed(d);
const fmtRatio = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : "—");

/** With --cdp-rtt every row says its CDP round-trip time, in a column after `conc`. */
const withRtt = (results) =>
  results.scenarios.some((s) => s.cells.some((c) => c.rtt !== null && c.rtt !== undefined));
const concCols = (cell, rtt) => (rtt ? `${cell.conc} | ${cell.rtt ?? 0}` : `${cell.conc}`);

function table(results) {
  const rtt = withRtt(results);
  const lines = [
    `| scenario | conc |${rtt ? " CDP RTT ms |" : ""} system | n×reps | p50 ms | p95 ms | mean ms | per s | p50 vs floor | per s vs floor | notes |`,
    `|---|---:|${rtt ? "---:|" : ""}---|---:|---:|---:|---:|---:|---:|---:|---|`,
  ];
  for (const sc of results.scenarios) {
    for (const cell of sc.cells) {
      for (const sys of sc.systems) {
        const r = cell[sys];
        const label = sc.labels[sys];
        if (r.status !== "ok") {
          lines.push(
            `| ${sc.name} | ${concCols(cell, rtt)} | ${label} | — | — | — | — | — | — | — | ${r.status}: ${r.reason ?? ""} |`,
          );
          continue;
        }
        const m = r.median;
        const ratio = sys === "floor" ? null : cell.ratios[sys];
        const notes = [];
        if (sys === "edgeshot" && r.serverMsP50 !== null && r.serverMsP50 !== undefined) {
          notes.push(`service-reported ${fmt(r.serverMsP50)} ms`);
        }
        if (r.serverTiming && Object.keys(r.serverTiming).length) {
          notes.push(
            Object.entries(r.serverTiming)
              .map(([k, v]) => `${k} ${fmt(v)}`)
              .join(", "),
          );
        }
        if (r.autoScrolled) notes.push("auto-scrolled");
        if (r.hung)
          notes.push(`${r.hung} hung until the ${FLOOR_IDLE_TIMEOUT_MS / 1000} s timeout`);
        if (r.lazyImages) {
          const li = r.lazyImages;
          notes.push(
            `lazy images fetched ${li.min === li.max ? li.min : `${li.min}–${li.max}`}/${li.of}`,
          );
        }
        if (r.complete)
          notes.push(
            `complete ${r.complete.complete}/${r.complete.of}${r.complete.missing.length ? ` (missing: ${r.complete.missing.join(", ")})` : ""}`,
          );
        if (r.requests && sc.name !== "small") notes.push(`${r.requests.max} requests per capture`);
        if (r.maxHeight && sc.fullPage) notes.push(`${r.maxHeight}px tall`);
        if (r.bytesP50) notes.push(`PNG ${fmt(r.bytesP50 / 1024)} KB`);
        lines.push(
          `| ${sc.name} | ${concCols(cell, rtt)} | ${label} | ${r.n}×${r.reps.length} | ${fmt(m.p50)} | ${fmt(m.p95)} | ${fmt(m.mean)} | ${fmt(m.throughput, 2)} | ${ratio ? fmtRatio(ratio.p50) : ""} | ${ratio ? fmtRatio(ratio.throughput) : ""} | ${notes.join("; ")} |`,
        );
      }
    }
  }
  return lines.join("\n");
}

/**
 * CPU milliseconds per capture, medians over repetitions (bench/lib/cpu.mjs): on a machine where
 * throughput is bounded by CPU, this is what a capture costs and who pays it.
 */
function cpuTable(results) {
  const rtt = withRtt(results);
  const lines = [
    `| scenario | conc |${rtt ? " CDP RTT ms |" : ""} system | machine | floor Chromium | service Chromium | workerd + wrangler | bench client |`,
    `|---|---:|${rtt ? "---:|" : ""}---|---:|---:|---:|---:|---:|`,
  ];
  const keys = ["machine", "floor", "serviceBrowser", "serviceRuntime", "client"];
  for (const sc of results.scenarios) {
    for (const cell of sc.cells) {
      for (const sys of sc.systems) {
        const reps = (cell[sys].reps ?? []).filter((r) => r.cpuMs);
        if (cell[sys].status !== "ok" || reps.length === 0) continue;
        const cols = keys.map((k) => fmt(median(reps.map((r) => r.cpuMs[k]))));
        lines.push(
          `| ${sc.name} | ${concCols(cell, rtt)} | ${sc.labels[sys]} | ${cols.join(" | ")} |`,
        );
      }
    }
  }
  return lines.length > 2 ? lines.join("\n") : null;
}

function targetsTable(targets) {
  const lines = ["| target | measured | result |", "|---|---|---|"];
  for (const t of targets) lines.push(`| ${t.name} | ${t.measured} | ${t.result} |`);
  return lines.join("\n");
}

export function renderSummary(r) {
  const parts = [];
  parts.push(`## Edgeshot bench — ${r.startedAt.slice(0, 16).replace("T", " ")} UTC`);
  parts.push("");
  parts.push(
    `${r.options.quick ? "QUICK smoke run, " : ""}${r.options.reps} repetition(s), values are medians over repetitions. ` +
      `Machine: ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, ${r.machine.chromium}; load avg ${r.machine.loadAvgAtStart.join("/")} at start, ${r.machine.loadAvgAtEnd.join("/")} at end; ` +
      `other Chromium browsers seen on the machine (noise): up to ${r.noise.foreignChromiumBrowsersMax}.`,
  );
  if (r.serviceSource) {
    const src = r.serviceSource;
    parts.push(
      `Service built from ${src.kind === "commit" ? `commit ${src.commit.slice(0, 10)} (“${src.subject}”)` : `the working tree at ${src.commit.slice(0, 10)}${src.dirty ? " with uncommitted changes" : ""}`}.`,
    );
  }
  if (r.serviceUnavailable) parts.push(`\nService side: **${r.serviceUnavailable}**.`);
  if (r.aborted) parts.push(`\n**Run stopped early: ${r.aborted}.**`);
  parts.push("");
  parts.push(table(r));
  parts.push("");
  parts.push("### Targets");
  parts.push("");
  parts.push(targetsTable(r.targets));
  parts.push("");
  const requests = requestsTable(r);
  if (requests) {
    parts.push("### Requests and CDP round trips");
    parts.push("");
    parts.push(
      "Per capture, medians over repetitions: requests from the fixture servers' logs (every capture checked against the page's count), ms per request above the small page at the same concurrency and RTT, and the CDP messages the proxy counted (with --cdp-rtt; bench/README.md defines a sequential round trip).",
    );
    if (r.rttCheck) parts.push("", rttCheckLine(r.rttCheck));
    parts.push("");
    parts.push(requests);
    parts.push("");
  }
  const cpu = cpuTable(r);
  if (cpu) {
    parts.push("### CPU per capture (ms)");
    parts.push("");
    parts.push(
      "Busy CPU time per request, medians over repetitions, read from /proc around each batch (all cores; the machine column includes everything running, other test runs too).",
    );
    parts.push("");
    parts.push(cpu);
    parts.push("");
  }
  if (r.crawl) {
    parts.push("### Crawl");
    parts.push("");
    parts.push(crawlTable(r.crawl));
    parts.push("");
  }
  parts.push("### Browser processes");
  parts.push("");
  const m = r.memory;
  parts.push(
    `- Peak RSS (sum over processes, sampled every ${m.sampleIntervalMs} ms): service Chromium ${m.peakRssMb.service} MB, floor Chromium ${m.peakRssMb.floor} MB.`,
  );
  for (const p of m.perRepetition) {
    parts.push(
      `- Repetition ${p.rep}: service idle RSS ${p.idleRssMb.service} MB (PSS ${p.idlePssMb.service}, peak ${p.peakRssMb.service}); floor idle RSS ${p.idleRssMb.floor} MB (PSS ${p.idlePssMb.floor}, peak ${p.peakRssMb.floor}).`,
    );
  }
  if (r.launches) {
    parts.push(
      `- Browser launches: service ${r.launches.serviceTotal} in all, ${r.launches.serviceAfterWarmup} after warm-up, over ${r.launches.serviceCaptures} measured service requests; floor ${r.launches.floorTotal}.`,
    );
  }
  if (r.flags?.service) {
    parts.push(
      `- Floor and service Chromium command lines: ${r.flags.identical ? "identical flags" : `differ — only floor: ${r.flags.diff.onlyFloor.join(" ") || "none"}; only service: ${r.flags.diff.onlyService.join(" ") || "none"}`} (binary ${r.binaries.floor} vs ${r.binaries.service}).`,
    );
  }
  if (r.endurance) {
    const e = r.endurance;
    parts.push(
      `- Endurance: ${e.captures} small-page captures at c=${e.conc} on the service: p50 ${fmt(e.p50)} ms, p95 ${fmt(e.p95)} ms, ${fmt(e.throughput, 2)}/s; idle RSS ${e.series.map((p) => `${p.idleRssMb} MB after ${p.captures}`).join(", ")}.`,
    );
  }
  if (r.coldStart?.serviceMs !== undefined) {
    const { serviceMs, floorMs } = r.coldStart;
    parts.push(
      `- Cold start (first capture with no browser running, small page): service ${serviceMs} ms (browser launch inside the request), floor ${floorMs} ms (launch + first capture): ${fmtRatio(serviceMs / floorMs)}.`,
    );
  } else if (r.coldStart?.error) {
    parts.push(`- Cold start: not measured (${r.coldStart.error}).`);
  }
  const render = r.scenarios.find((s) => s.name === "render");
  if (render?.firstCache)
    parts.push(
      `- Render link: first GET answered x-service-cache: ${render.firstCache}.${render.linkNote ? ` ${render.linkNote}.` : ""}`,
    );
  return parts.join("\n");
}

const NOTES_MARKER =
  "<!-- notes: everything below this line is kept when the bench rewrites this file -->";

export function renderResultsMd(r, summary, jsonPath) {
  const existing = existsSync(RESULTS_MD) ? readFileSync(RESULTS_MD, "utf8") : "";
  const at = existing.indexOf(NOTES_MARKER);
  const notes =
    at >= 0
      ? existing.slice(at)
      : `${NOTES_MARKER}\n\n## Notes\n\n(Analysis of the runs: where the time goes, what is noise.)\n`;
  return [
    "# Bench results (latest)",
    "",
    "Written by `npm run bench` (a complete, non-quick run). How to read it: [README.md](README.md).",
    `Raw data of this run: \`bench/results/${jsonPath.split("/").pop()}\` (not committed).`,
    "",
    "Machine notes:",
    "",
    `- ${r.machine.cores} cores (${r.machine.cpu}), ${r.machine.memoryGiB} GiB RAM, ${r.machine.kernel}`,
    `- ${r.machine.chromium} (floor and service: ${r.binaries.floor}), Node ${r.machine.node}, wrangler ${r.machine.wrangler}, puppeteer-core ${r.machine.puppeteerCore}`,
    `- Load average ${r.machine.loadAvgAtStart.join("/")} at start, ${r.machine.loadAvgAtEnd.join("/")} at end; up to ${r.noise.foreignChromiumBrowsersMax} other Chromium browser(s) running on the machine during the run. The machine is shared: treat small differences as noise.`,
    "",
    summary.replace(/^## /, "## Run of "),
    "",
    notes,
  ].join("\n");
}
