// The `crawl-peer` scenario (bench/README.md, "Crawl against a peer"): the crawler a customer
// would run instead of our crawl, side by side with it on one site, alone, no floor.
//
// The site: the crawl fixture site as a real site (test/fixtures/crawl-site.ts, PEER: a tree of
// N article pages linking their neighbours, robots.txt disallowing /private/, a stylesheet and an
// image per page). Four systems crawl it in turn, two rounds, alternating:
//
// - Crawlee's PuppeteerCrawler (Chromium from the same binary as the service's, 5 pages at once,
//   robots.txt respected, Markdown by Readability and Turndown in Node, as its users make it);
// - Edgeshot `POST /v1/crawl`, `formats: ["markdown"]`, `render: "always"` — against it;
// - Crawlee's CheerioCrawler (HTTP only, the same Readability and Turndown);
// - Edgeshot with `render: "auto"` — against it (the site is static: no page needs a browser).
//
// Crawlee runs in a process of its own (bench/peers/crawlee.mjs, its packages in bench/peers/,
// installed on first use): its CPU, with its Chromium's, is what the bench process reaps from it.
// The service's is its Chromium's and workerd's, read from /proc around the crawl.
//
// Reported: pages per minute (start to the last page), CPU per page, and each page's word
// agreement with its article text (the share of the article's words found in the Markdown; the
// median over pages). Every system must crawl every tree page and fetch no /private/ page.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuSnapshot } from "../lib/cpu.mjs";
import { checkDeadline, log, sleep, state } from "../lib/lifecycle.mjs";
import { median } from "../lib/stats.mjs";
import { apiCall } from "../lib/service-client.mjs";

/** An API call's envelope `data`. */
const call = async (...args) => (await apiCall(...args)).json.data;

/** Tree pages of the site (a quick run: fewer, to check the harness). */
export const PEER_PAGES = { full: 130, quick: 20 };
export const PEER_TARGETS = { rendered: 2, auto: 1 };
const ROUNDS = { full: 2, quick: 1 };
const PEERS = fileURLToPath(new URL("../peers/", import.meta.url));
const FINAL = new Set(["completed", "cancelled", "failed"]);
const CRAWL_TIMEOUT_MS = 20 * 60_000;

/** bench/peers/node_modules, from its lockfile, once: never part of the project's `npm ci`. */
function ensurePeers() {
  if (existsSync(join(PEERS, "node_modules", "@crawlee", "puppeteer"))) return;
  log("crawl-peer: installing Crawlee into bench/peers (npm ci, once) …");
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: PEERS, stdio: "inherit" });
}

/**
 * A CPU meter for one peer run, every process it starts included: a cgroup (v1 `cpuacct`) the
 * run's process joins before it starts anything, whose usage counts every process ever in it,
 * ended ones too. Reaped children's CPU (this process's `cutime`) was the first meter, and it
 * missed most of Crawlee's Chromium: a renderer or a browser its parent never waits for is not
 * reaped into anyone's `cutime` (a sampler of its processes measured ~210 ms of Chromium CPU a
 * page where `cutime` said ~150 ms in all). Null where no such cgroup can be made: the run then
 * falls back to `cutime`, which undercounts (the figures then say so).
 */
function peerMeter(name) {
  const dir = `/sys/fs/cgroup/cpuacct/edgeshot-bench-${process.pid}-${name}`;
  try {
    mkdirSync(dir, { recursive: true });
    const usageMs = () => Number(readFileSync(join(dir, "cpuacct.usage"), "utf8")) / 1e6;
    const start = usageMs();
    return {
      /** The command line that runs `argv` inside the cgroup. */
      wrap: (argv) => ["sh", ["-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir, ...argv]],
      usedMs: () => usageMs() - start,
      close: () => {
        try {
          rmdirSync(dir); // a cgroup goes with rmdir once it has no process left
        } catch {
          // A process of the run still exiting: the empty group is left behind.
        }
      },
    };
  } catch {
    return null;
  }
}

/** This process's reaped children's CPU so far (ms): the fallback meter (above). */
function childrenCpuMs() {
  const s = readFileSync("/proc/self/stat", "utf8");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return (Number(f[13]) + Number(f[14])) * 10; // cutime + cstime, in ticks of 10 ms
}

/** One Crawlee crawl of the site in a child process: its pages, wall time and CPU. */
async function crawlee(kind, siteBase, pages, chromium) {
  const out = join(mkdtempSync(join(os.tmpdir(), "crawl-peer-")), "out.json");
  const meter = peerMeter(kind);
  const cpuBefore = childrenCpuMs();
  const argv = [
    process.execPath,
    join(PEERS, "crawlee.mjs"),
    kind,
    `${siteBase}/`,
    String(pages + 1),
    out,
    chromium,
  ];
  const [command, args] = meter ? meter.wrap(argv) : [argv[0], argv.slice(1)];
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: PEERS, stdio: ["ignore", "ignore", "inherit"] });
  state.peerChild = child;
  const code = await new Promise((resolve) => child.on("exit", resolve));
  state.peerChild = null;
  const wallMs = performance.now() - t0;
  const cpuMs = meter ? meter.usedMs() : childrenCpuMs() - cpuBefore;
  meter?.close();
  if (code !== 0) throw new Error(`crawlee ${kind} exited with ${code}`);
  const result = JSON.parse(readFileSync(out, "utf8"));
  return { pages: result.pages, wallMs, cpuMs, cpuMeter: meter ? "cgroup" : "reaped" };
}

/** One crawl by the service, start to `completed`: its pages' Markdown, wall time and CPU. */
async function edgeshot(base, apiKey, siteBase, pages, render) {
  const cpuBefore = cpuSnapshot(state);
  const t0 = performance.now();
  const { crawlId } = await call(base, apiKey, "POST", "/v1/crawl", {
    url: `${siteBase}/`,
    limit: pages + 1,
    maxDepth: 10,
    sitemap: "skip",
    formats: ["markdown"],
    render,
    // As many pages of the site at once as Crawlee is given (bench/peers/crawlee.mjs).
    maxConcurrency: 5,
  });
  let summary;
  for (;;) {
    checkDeadline();
    summary = await call(base, apiKey, "GET", `/v1/crawl/${crawlId}`);
    if (FINAL.has(summary.status)) break;
    if (performance.now() - t0 > CRAWL_TIMEOUT_MS)
      throw new Error(`crawl ${crawlId} not completed after ${CRAWL_TIMEOUT_MS / 60_000} min`);
    await sleep(250);
  }
  const wallMs = performance.now() - t0;
  const cpuAfter = cpuSnapshot(state);
  const browserCpuMs = cpuAfter.serviceBrowser - cpuBefore.serviceBrowser;
  const cpuMs = browserCpuMs + cpuAfter.serviceRuntime - cpuBefore.serviceRuntime;
  const kinds = Object.entries(cpuAfter.kinds).map(
    ([k, ms]) => `${k} ${Math.round((ms - (cpuBefore.kinds[k] ?? 0)) / pages)}`,
  );
  log(`crawl-peer: CPU a page, ms: ${kinds.join(", ")}`);
  if (summary.status !== "completed") throw new Error(`crawl ${crawlId}: ${summary.status}`);
  const done = [];
  let cursor = null;
  do {
    const q = `?limit=100&status=rendered${cursor ? `&cursor=${cursor}` : ""}`;
    const page = await call(base, apiKey, "GET", `/v1/crawl/${crawlId}/pages${q}`);
    for (const p of page.pages)
      done.push({ url: p.url, markdown: p.markdown ?? "", how: p.rendered });
    cursor = page.nextCursor;
  } while (cursor);
  return { pages: done, wallMs, cpuMs, browserCpuMs };
}

const words = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? [];

/** The share of `expected`'s words (with their counts) found in `markdown`. */
function agreement(expected, markdown) {
  const have = new Map();
  for (const w of words(markdown)) have.set(w, (have.get(w) ?? 0) + 1);
  const want = words(expected);
  let found = 0;
  for (const w of want) {
    const n = have.get(w) ?? 0;
    if (n > 0) {
      found++;
      have.set(w, n - 1);
    }
  }
  return want.length === 0 ? 1 : found / want.length;
}

/**
 * A crawl's figures, checked: every tree page crawled once, none of /private/ fetched (the
 * site's log since `since`), and the Markdown scored against each page's article text.
 */
async function score(run, siteBase, expected, since) {
  const paths = run.pages.map((p) => new URL(p.url).pathname);
  const missing = Object.keys(expected).filter((p) => !paths.includes(p));
  if (missing.length > 0) throw new Error(`pages not crawled: ${missing.slice(0, 5).join(", ")}`);
  const site = await (await fetch(`${siteBase}/__log?since=${since}`)).json();
  const privateHits = site.filter((e) => e.path.startsWith("/private/"));
  if (privateHits.length > 0) throw new Error(`fetched a disallowed page: ${privateHits[0].path}`);
  const scores = run.pages
    .filter((p) => expected[new URL(p.url).pathname] !== undefined)
    .map((p) => agreement(expected[new URL(p.url).pathname], p.markdown));
  const pages = run.pages.length;
  return {
    pages,
    wallMs: Math.round(run.wallMs),
    pagesPerMinute: Math.round((pages / run.wallMs) * 60_000 * 10) / 10,
    cpuPerPageMs: Math.round(run.cpuMs / pages),
    // A peer's: how its CPU was read (`cgroup`: all of it; `reaped`: what was reaped, less).
    ...(run.cpuMeter ? { cpuMeter: run.cpuMeter } : {}),
    // The service's: its Chromium's share (the rest is workerd and wrangler, which run the
    // Worker, and locally also simulate its Durable Objects, Queues and R2).
    ...(run.browserCpuMs !== undefined
      ? { browserCpuPerPageMs: Math.round(run.browserCpuMs / pages) }
      : {}),
    agreement: Math.round(median(scores) * 1000) / 1000,
    agreementMin: Math.round(Math.min(...scores) * 1000) / 1000,
    ...(run.pages[0]?.how
      ? { browserPages: run.pages.filter((p) => p.how === "browser").length }
      : {}),
  };
}

/**
 * The scenario on a started service. `createAccount()` makes an enterprise account
 * ({ apiKey }); `siteBase` serves the site in its PEER flavour; `chromium` is the service's binary.
 */
export async function runCrawlPeerScenario({ base, createAccount, siteBase, chromium, quick }) {
  ensurePeers();
  const pages = quick ? PEER_PAGES.quick : PEER_PAGES.full;
  const { apiKey } = await createAccount();
  const expected = await (await fetch(`${siteBase}/__expected.json`)).json();
  const pairs = {
    rendered: {
      puppeteer: () => crawlee("puppeteer", siteBase, pages, chromium),
      always: () => edgeshot(base, apiKey, siteBase, pages, "always"),
    },
    auto: {
      cheerio: () => crawlee("cheerio", siteBase, pages, chromium),
      auto: () => edgeshot(base, apiKey, siteBase, pages, "auto"),
    },
  };
  const only = process.env.BENCH_CRAWL_PEER_PAIR;
  if (only && !(only in pairs)) throw new Error(`BENCH_CRAWL_PEER_PAIR: rendered or auto`);
  const systems = only ? pairs[only] : { ...pairs.rendered, ...pairs.auto };
  const rounds = Object.fromEntries(Object.keys(systems).map((k) => [k, []]));
  for (let round = 1; round <= (quick ? ROUNDS.quick : ROUNDS.full); round++) {
    // Alternating, and each round in the other order: neither side always runs on a warmer machine.
    const order = Object.keys(systems);
    if (round % 2 === 0) order.reverse();
    for (const name of order) {
      checkDeadline();
      log(`crawl-peer: round ${round}, ${name} …`);
      const since = Date.now();
      const figures = await score(await systems[name](), siteBase, expected, since);
      log(`crawl-peer: ${name}: ${JSON.stringify(figures)}`);
      rounds[name].push(figures);
    }
  }
  const med = (name, key) => median((rounds[name] ?? []).map((r) => r[key]));
  const ratio = (a, b) => Math.round((a / b) * 100) / 100;
  const rendered = ratio(med("always", "pagesPerMinute"), med("puppeteer", "pagesPerMinute"));
  const auto = ratio(med("auto", "pagesPerMinute"), med("cheerio", "pagesPerMinute"));
  const targets = [
    "always" in systems && {
      name: `render always: pages/min ≥ ${PEER_TARGETS.rendered}× PuppeteerCrawler's, agreement ≥ its`,
      ratio: rendered,
      result:
        rendered >= PEER_TARGETS.rendered &&
        med("always", "agreement") >= med("puppeteer", "agreement")
          ? "PASS"
          : "MISS",
    },
    "auto" in systems && {
      name: `render auto: pages/min ≥ ${PEER_TARGETS.auto}× CheerioCrawler's, agreement ≥ its`,
      ratio: auto,
      result:
        auto >= PEER_TARGETS.auto && med("auto", "agreement") >= med("cheerio", "agreement")
          ? "PASS"
          : "MISS",
    },
  ].filter(Boolean);
  return { pages, rounds, targets };
}

/** The scenario's table (markdown). */
export function crawlPeerTable(r) {
  const label = {
    puppeteer: "Crawlee PuppeteerCrawler (5 at once)",
    always: "Edgeshot /v1/crawl, render always",
    cheerio: "Crawlee CheerioCrawler (5 at once)",
    auto: "Edgeshot /v1/crawl, render auto",
  };
  const cell = (runs, key) => runs.map((x) => x[key]).join(" / ");
  return [
    `Crawl of the ${r.pages}-page peer site (+ its home page), Markdown; rounds alternating (figures per round).`,
    "",
    "| system | pages/min | CPU per page, ms | word agreement (median) | lowest page |",
    "|---|---:|---:|---:|---:|",
    ...Object.entries(r.rounds).map(
      ([name, runs]) =>
        `| ${label[name]} | ${cell(runs, "pagesPerMinute")} | ${cell(runs, "cpuPerPageMs")} | ${cell(runs, "agreement")} | ${cell(runs, "agreementMin")} |`,
    ),
    "",
    "| target | measured | result |",
    "|---|---|---|",
    ...r.targets.map((t) => `| ${t.name} | ${t.ratio.toFixed(2)}× | ${t.result} |`),
  ].join("\n");
}
