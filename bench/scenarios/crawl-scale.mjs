// The `crawl-scale` scenario (bench/README.md, "Crawl at scale"): service only, alone, no floor.
// The crawl site in its SCALE flavour (test/fixtures/crawl-site.ts: `/` over a breadth-first
// tree of N links-only pages, and a sitemap index of M URLs, generated on the fly) is crawled
// through the real service — POST /v1/crawl, limit N + 1, sitemap skip, formats markdown — with
// `render: "never"`, then `"auto"`, and mapped (POST /v1/map, limit M). Measured:
//
// - pages per minute, sampled every few seconds: the series per minute, and "steady" = the rate
//   of the crawl's last quarter (in time) is at least half its first quarter's;
// - the Crawl DOs' storage on disk (wrangler dev's SQLite files) and workerd's RSS, at the start
//   and end of each crawl and after the map;
// - the map: time, response bytes, URLs (all of the sitemaps', each once).
//
// Every crawl is checked: completed with N + 1 pages rendered over HTTP, and the site's own log
// shows each page requested exactly once.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkDeadline, log, sleep, state } from "../lib/lifecycle.mjs";
import { apiCall as call } from "../lib/service-client.mjs";

/**
 * Tree pages crawled and sitemap URLs mapped (a quick run: fewer, to check the harness). The
 * crawl's `limit` is the tree and `/`: 20,000 in all, Enterprise's cap.
 */
export const SCALE_SIZES = {
  full: { pages: 19_999, mapUrls: 100_000, mapLimit: 10_000 },
  quick: { pages: 2_000, mapUrls: 10_000, mapLimit: 10_000 },
};
const FINAL = new Set(["completed", "cancelled", "failed"]);
const SAMPLE_MS = 5_000;
/** A crawl slower than this is a failure of the run (20,000 pages at ≥ 100 pages/min). */
const CRAWL_TIMEOUT_MS = 200 * 60_000;

/** workerd's resident memory (MiB): every workerd process under wrangler, summed. */
export function workerdRssMiB(wranglerPid) {
  const parents = new Map();
  const names = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      names.set(Number(d), stat.slice(stat.indexOf("(") + 1, close));
      parents.set(Number(d), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const under = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; hops++, p = parents.get(p) ?? 0)
      if (p === wranglerPid) return true;
    return false;
  };
  let kb = 0;
  for (const [pid, name] of names) {
    if (name !== "workerd" || !under(pid)) continue;
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return Math.round(kb / 102.4) / 10;
}

/**
 * The Crawl DOs' databases under wrangler dev's state, read as SQLite reads them (the WAL
 * included): bytes (page_count × page_size) and page rows, of all of them and of the largest.
 */
export async function crawlStorage(persistDir) {
  const { DatabaseSync } = await import("node:sqlite");
  const dir = join(persistDir, "v3", "do", "edgeshot-Crawl");
  let files = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  } catch {
    // no crawl yet
  }
  const dbs = [];
  for (const f of files) {
    try {
      const db = new DatabaseSync(join(dir, f), { readOnly: true });
      const bytes =
        db.prepare("PRAGMA page_count").get().page_count *
        db.prepare("PRAGMA page_size").get().page_size;
      const rows = db.prepare("SELECT COUNT(*) AS n FROM pages").get().n;
      db.close();
      dbs.push({ bytes, rows });
    } catch {
      // being written or not a crawl's yet
    }
  }
  const mib = (b) => Math.round((b / 2 ** 20) * 100) / 100;
  const largest = dbs.reduce((a, b) => (b.bytes > a.bytes ? b : a), { bytes: 0, rows: 0 });
  return {
    totalMiB: mib(dbs.reduce((a, b) => a + b.bytes, 0)),
    largestMiB: mib(largest.bytes),
    largestRows: largest.rows,
    bytesPerRow: largest.rows ? Math.round(largest.bytes / largest.rows) : null,
    objects: dbs.length,
  };
}

async function probe(ctx) {
  return { rssMiB: workerdRssMiB(ctx.wranglerPid), storage: await crawlStorage(ctx.persistDir) };
}

/** Pages per minute over each minute of the crawl, and the steady check (quarters in time). */
export function rateSeries(samples) {
  if (samples.length < 2) return { perMinute: [], firstQuarter: null, lastQuarter: null };
  const t0 = samples[0].t;
  const end = samples[samples.length - 1].t;
  const at = (t) => {
    // Pages done at time t, linear between samples.
    let i = 0;
    while (i < samples.length - 1 && samples[i + 1].t < t) i++;
    const a = samples[i];
    const b = samples[Math.min(i + 1, samples.length - 1)];
    if (b.t === a.t) return a.done;
    return a.done + ((b.done - a.done) * (t - a.t)) / (b.t - a.t);
  };
  const rate = (from, to) => ((at(to) - at(from)) / (to - from)) * 60_000;
  const perMinute = [];
  for (let t = t0; t < end; t += 60_000)
    perMinute.push(Math.round(rate(t, Math.min(end, t + 60_000))));
  const q = (end - t0) / 4;
  return {
    perMinute,
    firstQuarter: Math.round(rate(t0, t0 + q)),
    lastQuarter: Math.round(rate(end - q, end)),
  };
}

async function crawlOnce(ctx, render) {
  const { base, apiKey, siteBase, pages } = ctx;
  const limit = pages + 1;
  const since = Date.now();
  const before = await probe(ctx);
  const t0 = performance.now();
  const { json } = await call(base, apiKey, "POST", "/v1/crawl", {
    url: `${siteBase}/`,
    limit,
    maxDepth: 10,
    sitemap: "skip",
    formats: ["markdown"],
    render,
  });
  const crawlId = json?.data?.crawlId;
  if (!crawlId) throw new Error(`POST /v1/crawl: no crawlId in ${JSON.stringify(json)}`);
  const samples = [{ t: 0, done: 0 }];
  let summary;
  let peakRssMiB = before.rssMiB;
  for (;;) {
    checkDeadline();
    await sleep(SAMPLE_MS);
    summary = (await call(base, apiKey, "GET", `/v1/crawl/${crawlId}`)).json.data;
    const { rendered, skipped, failed } = summary.counts;
    samples.push({ t: performance.now() - t0, done: rendered + skipped + failed });
    peakRssMiB = Math.max(peakRssMiB, workerdRssMiB(ctx.wranglerPid));
    if (samples.length % 12 === 0)
      log(
        `crawl-scale ${render}: ${rendered}/${limit} after ${Math.round(samples.at(-1).t / 1000)} s`,
      );
    if (FINAL.has(summary.status)) break;
    if (performance.now() - t0 > CRAWL_TIMEOUT_MS)
      throw new Error(`crawl ${crawlId} not completed after ${CRAWL_TIMEOUT_MS / 60_000} min`);
  }
  const wallMs = performance.now() - t0;
  const after = await probe(ctx);
  if (summary.status !== "completed")
    throw new Error(`crawl ${crawlId}: ${summary.status}, ${JSON.stringify(summary.counts)}`);
  // What went wrong, by reason (a failed page's links are not followed: its subtree is missing).
  const errors = [];
  let cursor = null;
  do {
    const q = `?limit=100${cursor ? `&cursor=${cursor}` : ""}`;
    const { json } = await call(base, apiKey, "GET", `/v1/crawl/${crawlId}/errors${q}`);
    errors.push(
      ...json.data.pages.map((p) => ({ url: p.url, status: p.status, reason: p.reason })),
    );
    cursor = json.data.nextCursor;
  } while (cursor);
  // Each page requested at most once, each page the crawl finished exactly once; robots.txt once.
  const counts = await (await fetch(`${siteBase}/__log?counts=1&since=${since}`)).json();
  // A page `auto` sent to the browser (its fetch got no answer) also asks for /favicon.ico.
  const browserOnly = (path) => render === "auto" && path === "/favicon.ico";
  const wrong = Object.entries(counts)
    .filter(
      ([path, n]) =>
        !browserOnly(path) &&
        (n !== 1 || (path !== "/" && path !== "/robots.txt" && !/^\/tree\/\d+$/.test(path))),
    )
    .map(([path, n]) => `${path} ×${n}`);
  const finished = summary.counts.rendered + summary.counts.failed;
  const requested = Object.keys(counts).filter(
    (p) => p !== "/robots.txt" && !browserOnly(p),
  ).length;
  // Every rendered page was requested; a failed one may not have been (a failure of ours).
  if (wrong.length || requested < summary.counts.rendered || requested > finished)
    throw new Error(
      `crawl ${crawlId}: ${requested} pages requested for ${finished} finished; ${wrong.slice(0, 10).join(", ")}`,
    );
  if (summary.counts.rendered !== limit)
    log(
      `crawl-scale ${render}: ${summary.counts.rendered} of ${limit} rendered; errors ${JSON.stringify(errors.slice(0, 10))}`,
    );
  const series = rateSeries(samples);
  return {
    render,
    crawlId,
    pages: limit,
    wallMs: Math.round(wallMs),
    pagesPerMin: Math.round((finished / wallMs) * 60_000),
    ...series,
    steady: series.lastQuarter !== null && series.lastQuarter >= series.firstQuarter / 2,
    counts: summary.counts,
    errors: errors.slice(0, 50),
    creditsUsed: summary.creditsUsed,
    rssMiB: { start: before.rssMiB, end: after.rssMiB, peak: peakRssMiB },
    storage: { start: before.storage, end: after.storage },
  };
}

async function mapOnce(ctx) {
  // The site lists mapUrls; the map asks for mapLimit of them (Enterprise's cap: 100,000).
  const { base, apiKey, siteBase, mapUrls, mapLimit } = ctx;
  const before = workerdRssMiB(ctx.wranglerPid);
  const { json, ms, bytes } = await call(
    base,
    apiKey,
    "POST",
    "/v1/map",
    { url: `${siteBase}/`, limit: mapLimit },
    10 * 60_000,
  );
  const urls = json.data.urls;
  const unique = new Set(urls.map((u) => u.url)).size;
  const fromSitemap = urls.filter((u) => u.source === "sitemap").length;
  if (
    unique !== urls.length ||
    fromSitemap !== mapLimit ||
    json.data.truncated !== mapUrls > mapLimit
  )
    throw new Error(`map: ${urls.length} URLs, ${unique} unique, ${fromSitemap} from sitemaps`);
  return {
    ms: Math.round(ms),
    urls: urls.length,
    truncated: json.data.truncated,
    responseMiB: Math.round((bytes / 2 ** 20) * 100) / 100,
    rssMiB: { before, after: workerdRssMiB(ctx.wranglerPid) },
  };
}

export async function runCrawlScaleScenario({ base, createAccount, siteBase, wranglerPid, quick }) {
  const size = quick ? SCALE_SIZES.quick : SCALE_SIZES.full;
  const { apiKey } = await createAccount();
  const ctx = {
    base,
    apiKey,
    siteBase,
    wranglerPid,
    persistDir: join(state.tmp, "state"),
    ...size,
    // BENCH_SCALE_MAP_LIMIT: the map's `limit` (default the plans' cap above).
    ...(process.env.BENCH_SCALE_MAP_LIMIT && {
      mapLimit: Number(process.env.BENCH_SCALE_MAP_LIMIT),
    }),
  };
  const crawls = [];
  // BENCH_SCALE_RENDERS=auto: one of the two crawls only; =none: the map alone.
  const renders = (process.env.BENCH_SCALE_RENDERS ?? "never,auto")
    .split(",")
    .filter((r) => r === "never" || r === "auto");
  for (const render of renders) {
    log(`crawl-scale: ${size.pages + 1} pages, render ${render}`);
    crawls.push(await crawlOnce(ctx, render));
    log(`crawl-scale ${render}: ${JSON.stringify(crawls.at(-1))}`);
  }
  log(`crawl-scale: map of ${size.mapUrls} URLs`);
  const map = await mapOnce(ctx);
  log(`crawl-scale map: ${JSON.stringify(map)}`);
  return { size, crawls, map, storageAtEnd: await crawlStorage(ctx.persistDir) };
}

export function crawlScaleTable(r) {
  const lines = [
    `crawl-scale: ${r.size.pages + 1} pages, map of ${r.size.mapUrls} URLs`,
    "",
    "| render | pages/min | first ¼ | last ¼ | steady | Crawl DO MiB (rows, B/row) at end | workerd RSS MiB start → end (peak) |",
    "|---|---:|---:|---:|---|---:|---|",
  ];
  for (const c of r.crawls)
    lines.push(
      `| ${c.render} | ${c.pagesPerMin} | ${c.firstQuarter} | ${c.lastQuarter} | ${c.steady ? "yes" : "NO"} | ${c.storage.end.largestMiB} (${c.storage.end.largestRows}, ${c.storage.end.bytesPerRow}) | ${c.rssMiB.start} → ${c.rssMiB.end} (${c.rssMiB.peak}) |`,
    );
  lines.push("");
  for (const c of r.crawls) lines.push(`${c.render} per minute: ${c.perMinute.join(", ")}`);
  const m = r.map;
  lines.push(
    "",
    `map: ${m.urls} URLs in ${m.ms} ms, ${m.responseMiB} MiB, truncated ${m.truncated}, workerd RSS ${m.rssMiB.before} → ${m.rssMiB.after} MiB`,
  );
  return lines.join("\n");
}
