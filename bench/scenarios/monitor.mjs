// The `monitor` scenario (bench/README.md, "Monitor"): service only, alone, no floor. The crawl
// site in bench mode (`/` over a breadth-first tree of N static pages, bench/crawl-site.mjs) is
// monitored through the real service, and a check of it is measured against a crawl of the same
// pages:
//
// 1. a crawl: POST /v1/crawl, limit N, sitemap skip, formats text and screenshot (what a check
//    reads of each page: its text and a PNG of the viewport) → `completed`;
// 2. a monitor of the same site (POST /v1/monitors, limit N): its first check (the baseline,
//    each page captured twice to learn its noise) → `completed`, all N pages new;
// 3. a second check of the unchanged site (POST …/checks) → `completed`, N pages unchanged.
//
// Reported: per-page time (pages in flight × wall ÷ pages, as the crawl scenario) and per-page
// service CPU of the second check against the crawl's (target ≤ 1.3×), and the share of its pages
// the cheap unchanged-check settled by hash alone (`identical`: no decode, no pixel diff). The
// first check is reported beside them, for what learning costs.
import { cpuPerCapture, cpuSnapshot } from "../lib/cpu.mjs";
import { checkDeadline, log, sleep, state } from "../lib/lifecycle.mjs";
import { apiCall } from "../lib/service-client.mjs";

/** An API call's envelope `data`. */
const call = async (...args) => (await apiCall(...args)).json.data;

/** Tree pages monitored (a quick run: fewer, to check the harness). */
export const MONITOR_PAGES = { full: 100, quick: 20 };
/** Pages of one host a crawl (and a check) has in flight (src/tuning.ts `crawlPerHostInFlight`). */
const CONC = 2;
export const MONITOR_TARGET = 1.3;
const FINAL = new Set(["completed", "cancelled", "failed"]);
const TIMEOUT_MS = 30 * 60_000;
const PAGE_OPTIONS = { waitUntil: "load", width: 1280, height: 800 };

/** Polls `read` until its status is final; the wall time from `t0` and the service CPU per page. */
async function untilFinal(read, t0, cpuBefore, what) {
  for (;;) {
    checkDeadline();
    const value = await read();
    if (FINAL.has(value.status)) return value;
    if (performance.now() - t0 > TIMEOUT_MS) throw new Error(`${what}: not final after 30 min`);
    await sleep(500);
  }
}

async function measure(start, read, pagesOf, what) {
  const cpuBefore = cpuSnapshot(state);
  const t0 = performance.now();
  await start();
  const final = await untilFinal(read, t0, cpuBefore, what);
  const wallMs = performance.now() - t0;
  const pages = pagesOf(final);
  const cpu = cpuPerCapture(cpuBefore, cpuSnapshot(state), Math.max(1, pages));
  return { final, wallMs, pages, cpuMs: cpu.serviceBrowser + cpu.serviceRuntime };
}

const round = (v, d = 0) => Math.round(v * 10 ** d) / 10 ** d;

/** The scenario on a started service: `createAccount()` makes an enterprise account. */
export async function runMonitorScenario({ base, createAccount, siteBase, quick }) {
  // The tree's pages and `/` above them: the whole site fits the limit, so every check covers
  // the same pages (with fewer, two checks may reach different ones: docs/MONITORS.md).
  const n = (quick ? MONITOR_PAGES.quick : MONITOR_PAGES.full) + 1;
  const { apiKey } = await createAccount();
  const site = { url: `${siteBase}/`, limit: n, maxDepth: 10, sitemap: "skip", ...PAGE_OPTIONS };

  log(`monitor: crawling ${n} pages (text + screenshot) …`);
  let crawlId = null;
  const crawl = await measure(
    async () => {
      crawlId = (
        await call(base, apiKey, "POST", "/v1/crawl", { ...site, formats: ["text", "screenshot"] })
      ).crawlId;
    },
    () => call(base, apiKey, "GET", `/v1/crawl/${crawlId}`),
    (s) => s.counts.rendered,
    "crawl",
  );
  if (crawl.pages !== n) throw new Error(`crawl: ${crawl.pages} pages rendered, expected ${n}`);
  log(`monitor: crawl ${round(crawl.wallMs / 1000, 1)} s`);

  let monitorId = null;
  let checkId = null;
  const lastCheck = async () => {
    const monitor = await call(base, apiKey, "GET", `/v1/monitors/${monitorId}`);
    return monitor.lastCheck ?? { status: "queued" };
  };
  const renderedOf = (check) => check.counts.new + check.counts.changed + check.counts.unchanged;
  log("monitor: the first check (baseline, noise learnt) …");
  const first = await measure(
    async () => {
      monitorId = (await call(base, apiKey, "POST", "/v1/monitors", site)).monitorId;
    },
    lastCheck,
    renderedOf,
    "first check",
  );
  if (first.final.counts.new !== n)
    throw new Error(`first check: ${JSON.stringify(first.final.counts)}, expected ${n} new`);
  log(`monitor: first check ${round(first.wallMs / 1000, 1)} s`);

  log("monitor: a second check of the unchanged site …");
  const second = await measure(
    async () => {
      checkId = (await call(base, apiKey, "POST", `/v1/monitors/${monitorId}/checks`)).checkId;
    },
    () => call(base, apiKey, "GET", `/v1/monitors/${monitorId}/checks/${checkId}`),
    renderedOf,
    "second check",
  );
  const c = second.final.counts;
  if (c.unchanged !== n || c.changed + c.new + c.removed + c.failed !== 0)
    throw new Error(`second check of an unchanged site: ${JSON.stringify(c)}`);
  log(
    `monitor: second check ${round(second.wallMs / 1000, 1)} s, ${second.final.identical} identical`,
  );
  await call(base, apiKey, "DELETE", `/v1/monitors/${monitorId}`);

  const perPage = (r) => (CONC * r.wallMs) / r.pages;
  const rows = {
    perPageTime: {
      crawl: round(perPage(crawl)),
      first: round(perPage(first)),
      check: round(perPage(second)),
      ratio: round(perPage(second) / perPage(crawl), 2),
    },
    perPageCpu: {
      crawl: round(crawl.cpuMs),
      first: round(first.cpuMs),
      check: round(second.cpuMs),
      ratio: round(second.cpuMs / crawl.cpuMs, 2),
    },
    identicalShare: round(second.final.identical / n, 3),
  };
  const targets = [
    {
      name: `check per-page time ≤ ${MONITOR_TARGET}× a crawl page's`,
      ratio: rows.perPageTime.ratio,
    },
    {
      name: `check per-page service CPU ≤ ${MONITOR_TARGET}× a crawl page's`,
      ratio: rows.perPageCpu.ratio,
    },
  ].map((t) => ({
    ...t,
    limit: MONITOR_TARGET,
    result: t.ratio <= MONITOR_TARGET ? "PASS" : "MISS",
  }));
  return { pages: n, conc: CONC, crawl, first, second, rows, targets };
}

/** The scenario's table (markdown). */
export function monitorTable(r) {
  const s = r.rows;
  const x = (v) => `${v.toFixed(2)}×`;
  return [
    `Monitor of ${r.pages} static tree pages (1280 × 800, waitUntil load), ${r.conc} pages in flight (one host); one run.`,
    "",
    "| measure | crawl (text + screenshot) | first check (learning) | second check (unchanged site) | check ÷ crawl | target |",
    "|---|---:|---:|---:|---:|---|",
    `| wall, s | ${(r.crawl.wallMs / 1000).toFixed(1)} | ${(r.first.wallMs / 1000).toFixed(1)} | ${(r.second.wallMs / 1000).toFixed(1)} | | |`,
    `| per-page time (${r.conc} × wall ÷ pages), ms | ${s.perPageTime.crawl} | ${s.perPageTime.first} | ${s.perPageTime.check} | ${x(s.perPageTime.ratio)} | ≤ ${MONITOR_TARGET}× |`,
    `| per-page service CPU (Chromium + workerd), ms | ${s.perPageCpu.crawl} | ${s.perPageCpu.first} | ${s.perPageCpu.check} | ${x(s.perPageCpu.ratio)} | ≤ ${MONITOR_TARGET}× |`,
    `| pages settled by hash alone (identical) | | | ${r.second.final.identical} of ${r.pages} (${(s.identicalShare * 100).toFixed(1)} %) | | |`,
    "",
    "| target | measured | result |",
    "|---|---|---|",
    ...r.targets.map((t) => `| ${t.name} | ${x(t.ratio)} | ${t.result} |`),
  ].join("\n");
}
