// The `crawl` scenario (bench/README.md, "Crawl"): service only, no floor. The crawl site
// (test/fixtures/crawl-site.ts in bench mode: `/` over a breadth-first tree of N pages, served by
// bench/crawl-site.mjs) is crawled through the real service — POST /v1/crawl, limit N, sitemap
// skip, formats markdown — and measured three ways:
//
// 1. pages per minute: POST /v1/crawl → the crawl's status `completed`, the crawl alone;
// 2. its per-page cost against one extraction of a tree page (POST /v1/extract, markdown, the
//    same wait): in time — the mean time a page is in flight (Little's law: pages in flight ×
//    wall ÷ pages) against the extraction's p50 at the same concurrency — and in CPU (the
//    service's Chromium + workerd per page against per extraction);
// 3. sync capture latency (POST /v1/screenshot of the small fixture page, p50) while a second
//    crawl of the same site runs, against idle — of the crawling account and of another one.
//
// Every answer is checked: PNGs whole and 1280 × 800, each extraction's Markdown carries its
// page's marker, the crawl rendered N pages with Markdown, and the site's own log shows no page
// fetched twice.
import { cpuPerCapture, cpuSnapshot } from "../lib/cpu.mjs";
import { fixtureUrl } from "../lib/fixture-client.mjs";
import { checkDeadline, log, sleep, state } from "../lib/lifecycle.mjs";
import { checkPng, median, summarize } from "../lib/stats.mjs";
import { REQUEST_TIMEOUT_MS, VIEWPORT } from "./catalog.mjs";
import { apiCall as call } from "../lib/service-client.mjs";

/** Tree pages of the crawl site (a quick run: fewer, to check the harness). */
export const CRAWL_PAGES = { full: 200, quick: 30 };
/** Pages of one host a crawl has in flight (src/tuning.ts `crawlPerHostInFlight`). */
const CRAWL_CONC = 2;
/** What every page is rendered with, in the crawl and in the extraction it is compared with. */
const PAGE_OPTIONS = { waitUntil: "load" };
export const CRAWL_TARGETS = { perPage: 1.25, sync: 1.5 };
const FINAL = new Set(["completed", "cancelled", "failed"]);
/** A crawl that takes longer than this is a failure of the run (200 pages take ~2–4 min here). */
const CRAWL_TIMEOUT_MS = 20 * 60_000;

/** One small-page capture as `apiKey`: its latency, the PNG checked. */
async function shoot(base, apiKey, fixtureBase) {
  const { url } = fixtureUrl(fixtureBase, "/small.html");
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/screenshot`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ url, ...VIEWPORT, format: "png", ...PAGE_OPTIONS, blockAds: false }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - t0;
  if (!res.ok)
    throw new Error(`POST /v1/screenshot → ${res.status}: ${bytes.toString().slice(0, 200)}`);
  checkPng(bytes, { width: 1280, height: 800 });
  return ms;
}

/** One extraction of tree page `k` (as the crawl renders it): its latency, its marker checked. */
async function extractPage(base, apiKey, siteBase, k) {
  const url = `${siteBase}/tree/${k}`;
  const { json, ms } = await call(base, apiKey, "POST", "/v1/extract", {
    url,
    extractFormat: "markdown",
    ...PAGE_OPTIONS,
  });
  const content = json?.data?.content ?? "";
  if (!content.includes(`crawl-article-${k}`))
    throw new Error(`POST /v1/extract ${url}: no marker crawl-article-${k} in its Markdown`);
  return { ms };
}

/** n extractions of distinct tree pages at c in flight: latencies, wall time, CPU per request. */
async function extractBatch(base, apiKey, siteBase, pages, n, c, from) {
  const latencies = [];
  let next = 0;
  const cpuBefore = cpuSnapshot(state);
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) {
      checkDeadline();
      const k = ((from + next++) % pages) + 1;
      latencies.push((await extractPage(base, apiKey, siteBase, k)).ms);
    }
  };
  await Promise.all(Array.from({ length: c }, worker));
  const wallMs = performance.now() - t0;
  return {
    ...summarize(latencies, wallMs),
    cpuMs: cpuPerCapture(cpuBefore, cpuSnapshot(state), n),
  };
}

/** Sequential small captures alternating between the accounts: p50 of each. */
async function idleCaptures(base, accounts, fixtureBase, n) {
  const samples = { crawler: [], other: [] };
  for (let i = 0; i < n; i++) {
    checkDeadline();
    for (const who of ["crawler", "other"])
      samples[who].push(await shoot(base, accounts[who].apiKey, fixtureBase));
  }
  return samples;
}

/**
 * One crawl of the site, start to `completed`; `during()`, if given, runs beside it and is told
 * to stop when the crawl is over. Checks what it rendered and what the site served.
 */
async function crawlOnce({ base, apiKey, siteBase, pages, during }) {
  const limit = pages;
  const since = Date.now();
  const cpuBefore = cpuSnapshot(state);
  const t0 = performance.now();
  const { json } = await call(base, apiKey, "POST", "/v1/crawl", {
    url: `${siteBase}/`,
    limit,
    maxDepth: 10,
    sitemap: "skip",
    formats: ["markdown"],
    ...PAGE_OPTIONS,
  });
  const crawlId = json?.data?.crawlId;
  if (!crawlId) throw new Error(`POST /v1/crawl: no crawlId in ${JSON.stringify(json)}`);
  const running = { done: false };
  // Settled at once (never an unhandled rejection while the crawl is polled); rethrown below.
  const side = (during ? during(running) : Promise.resolve(null)).then(
    (value) => ({ value }),
    (error) => ({ error }),
  );
  let summary;
  try {
    for (;;) {
      checkDeadline();
      summary = (await call(base, apiKey, "GET", `/v1/crawl/${crawlId}`)).json.data;
      if (FINAL.has(summary.status)) break;
      if (performance.now() - t0 > CRAWL_TIMEOUT_MS)
        throw new Error(`crawl ${crawlId} not completed after ${CRAWL_TIMEOUT_MS / 60_000} min`);
      await sleep(500);
    }
  } finally {
    running.done = true;
  }
  const wallMs = performance.now() - t0;
  const cpuMs = cpuPerCapture(cpuBefore, cpuSnapshot(state), Math.max(1, summary.counts.rendered));
  const sideOutcome = await side;
  if (sideOutcome.error) throw sideOutcome.error;
  const sideResult = sideOutcome.value;
  if (summary.status !== "completed" || summary.counts.rendered !== limit)
    throw new Error(
      `crawl ${crawlId}: ${summary.status}, ${JSON.stringify(summary.counts)} (expected ${limit} rendered)`,
    );
  await checkCrawl(base, apiKey, siteBase, crawlId, since);
  return {
    crawlId,
    wallMs,
    counts: summary.counts,
    stoppedBy: summary.stoppedBy,
    cpuMs,
    sideResult,
  };
}

/** Every rendered page has its Markdown; the site served each page at most once (GET). */
async function checkCrawl(base, apiKey, siteBase, crawlId, since) {
  let cursor = null;
  let rendered = 0;
  do {
    const q = `?limit=100${cursor ? `&cursor=${cursor}` : ""}`;
    const { json } = await call(base, apiKey, "GET", `/v1/crawl/${crawlId}/pages${q}`);
    for (const p of json.data.pages) {
      if (p.status !== "rendered") continue;
      rendered++;
      const k = /\/tree\/(\d+)$/.exec(p.url)?.[1];
      const marker = k ? `crawl-article-${k}` : "A tree of";
      if (!(p.markdown ?? "").includes(marker))
        throw new Error(`crawl ${crawlId}: ${p.url} without its Markdown (${marker})`);
    }
    cursor = json.data.nextCursor;
  } while (cursor);
  const site = await (await fetch(`${siteBase}/__log?since=${since}`)).json();
  const gets = new Map();
  for (const e of site)
    if (e.method === "GET" && e.path !== "/robots.txt")
      gets.set(e.path, (gets.get(e.path) ?? 0) + 1);
  const twice = [...gets].filter(([, n]) => n > 1);
  if (twice.length)
    throw new Error(
      `crawl ${crawlId}: fetched more than once: ${twice.map(([p]) => p).join(", ")}`,
    );
  return rendered;
}

/** Small captures, alternating accounts, one at a time, for as long as the crawl runs. */
function capturesWhile(base, accounts, fixtureBase) {
  return async (running) => {
    const samples = { crawler: [], other: [] };
    await sleep(2_000); // the crawl past its start page: pages in flight
    for (let i = 0; !running.done; i++) {
      const who = i % 2 === 0 ? "crawler" : "other";
      const ms = await shoot(base, accounts[who].apiKey, fixtureBase);
      if (!running.done) samples[who].push(ms); // only samples that ran beside the crawl
      await sleep(250);
    }
    return samples;
  };
}

const serviceCpu = (cpu) => cpu.serviceBrowser + cpu.serviceRuntime;
const round = (v, d = 0) => Math.round(v * 10 ** d) / 10 ** d;

/**
 * The scenario on a started service. `createAccount()` makes an enterprise account
 * ({ apiKey }); `siteBase` is the crawl site's origin, `fixtureBase` the fixture server's.
 */
export async function runCrawlScenario({ base, createAccount, siteBase, fixtureBase, quick }) {
  const pages = quick ? CRAWL_PAGES.quick : CRAWL_PAGES.full;
  const accounts = { crawler: await createAccount(), other: await createAccount() };
  const key = accounts.crawler.apiKey;
  log(`crawl: ${pages}-page site on ${siteBase}; warm-up …`);
  await idleCaptures(base, accounts, fixtureBase, 2);
  await extractBatch(base, key, siteBase, pages, 2, 1, 0);

  const n = quick ? { c1: 3, c2: 4, idle: 3 } : { c1: 10, c2: 12, idle: 8 };
  const extract1 = await extractBatch(base, key, siteBase, pages, n.c1, 1, 20);
  const extract2 = await extractBatch(base, key, siteBase, pages, n.c2, CRAWL_CONC, 60);
  log(
    `crawl: extraction p50 ${round(extract1.p50)} ms (c=1), ${round(extract2.p50)} ms (c=${CRAWL_CONC})`,
  );
  const idle = await idleCaptures(base, accounts, fixtureBase, n.idle);
  log(
    `crawl: idle small capture p50 ${round(median(idle.crawler))} / ${round(median(idle.other))} ms`,
  );

  log(`crawl: crawling ${pages} pages alone …`);
  const alone = await crawlOnce({ base, apiKey: key, siteBase, pages });
  log(`crawl: ${pages} pages in ${round(alone.wallMs / 1000, 1)} s`);
  log(`crawl: crawling ${pages} pages again, small captures beside it …`);
  const loaded = await crawlOnce({
    base,
    apiKey: key,
    siteBase,
    pages,
    during: capturesWhile(base, accounts, fixtureBase),
  });
  const during = loaded.sideResult;
  log(
    `crawl: ${round(loaded.wallMs / 1000, 1)} s; small capture p50 during it ${round(median(during.crawler))} / ${round(median(during.other))} ms`,
  );

  const perPageMs = (CRAWL_CONC * alone.wallMs) / alone.counts.rendered;
  const ratio = (a, b) => round(a / b, 2);
  const verdict = (r, limit) => (r <= limit ? "PASS" : "MISS");
  const rows = {
    pagesPerMinute: round((alone.counts.rendered / alone.wallMs) * 60_000, 1),
    pagesPerMinuteLoaded: round((loaded.counts.rendered / loaded.wallMs) * 60_000, 1),
    perPageTime: {
      crawl: round(perPageMs),
      extract: round(extract2.p50),
      ratio: ratio(perPageMs, extract2.p50),
    },
    perPageCpu: {
      crawl: round(serviceCpu(alone.cpuMs)),
      extract: round(serviceCpu(extract2.cpuMs)),
      ratio: ratio(serviceCpu(alone.cpuMs), serviceCpu(extract2.cpuMs)),
    },
    sync: Object.fromEntries(
      ["crawler", "other"].map((who) => {
        const a = median(idle[who]);
        const b = median(during[who]);
        return [
          who,
          { idle: round(a), during: round(b), n: during[who].length, ratio: ratio(b, a) },
        ];
      }),
    ),
  };
  const targets = [
    {
      name: `crawl per-page time ≤ ${CRAWL_TARGETS.perPage}× extraction p50 (c=${CRAWL_CONC})`,
      ratio: rows.perPageTime.ratio,
      limit: CRAWL_TARGETS.perPage,
    },
    {
      name: `crawl per-page service CPU ≤ ${CRAWL_TARGETS.perPage}× an extraction's`,
      ratio: rows.perPageCpu.ratio,
      limit: CRAWL_TARGETS.perPage,
    },
    {
      name: `sync capture p50 during a crawl ≤ ${CRAWL_TARGETS.sync}× idle, crawling account`,
      ratio: rows.sync.crawler.ratio,
      limit: CRAWL_TARGETS.sync,
    },
    {
      name: `sync capture p50 during a crawl ≤ ${CRAWL_TARGETS.sync}× idle, another account`,
      ratio: rows.sync.other.ratio,
      limit: CRAWL_TARGETS.sync,
    },
  ].map((t) => ({ ...t, result: verdict(t.ratio, t.limit) }));
  return {
    pages,
    conc: CRAWL_CONC,
    extract: { c1: extract1, c2: extract2 },
    idle,
    alone: { ...alone, sideResult: undefined },
    loaded: { ...loaded, sideResult: undefined },
    during,
    rows,
    targets,
  };
}

/** The scenario's tables (markdown). */
export function crawlTable(r) {
  const x = (v) => `${v.toFixed(2)}×`;
  const s = r.rows;
  return [
    `Crawl of ${r.pages} tree pages (limit ${r.pages}, sitemap skip, formats markdown, waitUntil load), ${r.conc} pages in flight (one host); one run.`,
    "",
    "| measure | crawl | against | ratio | target |",
    "|---|---:|---:|---:|---|",
    `| pages per minute, crawl alone | ${s.pagesPerMinute} (${r.pages} in ${(r.alone.wallMs / 1000).toFixed(1)} s) | | | |`,
    `| pages per minute, small captures beside it | ${s.pagesPerMinuteLoaded} (${(r.loaded.wallMs / 1000).toFixed(1)} s) | | | |`,
    `| per-page time (${r.conc} × wall ÷ pages) vs extraction p50 at c=${r.conc}, ms | ${s.perPageTime.crawl} | ${s.perPageTime.extract} | ${x(s.perPageTime.ratio)} | ≤ ${CRAWL_TARGETS.perPage}× |`,
    `| per-page service CPU (Chromium + workerd) vs an extraction's, ms | ${s.perPageCpu.crawl} | ${s.perPageCpu.extract} | ${x(s.perPageCpu.ratio)} | ≤ ${CRAWL_TARGETS.perPage}× |`,
    `| extraction p50 at c=1 (reference), ms | | ${Math.round(r.extract.c1.p50)} | | |`,
    `| small capture p50 during the crawl vs idle, crawling account, ms | ${s.sync.crawler.during} (n=${s.sync.crawler.n}) | ${s.sync.crawler.idle} | ${x(s.sync.crawler.ratio)} | ≤ ${CRAWL_TARGETS.sync}× |`,
    `| small capture p50 during the crawl vs idle, another account, ms | ${s.sync.other.during} (n=${s.sync.other.n}) | ${s.sync.other.idle} | ${x(s.sync.other.ratio)} | ≤ ${CRAWL_TARGETS.sync}× |`,
    "",
    "| target | measured | result |",
    "|---|---|---|",
    ...r.targets.map((t) => `| ${t.name} | ${x(t.ratio)} (limit ≤ ${t.limit}×) | ${t.result} |`),
  ].join("\n");
}
