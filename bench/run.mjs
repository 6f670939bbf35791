#!/usr/bin/env node
// Edgeshot benchmark: the service over HTTP against the raw-CDP floor on the same machine.
// See bench/README.md. Usage: npm run bench [-- --quick] [-- --scenarios small,article] …
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { decode as decodePng } from "fast-png";
import { createService, freePort } from "../scripts/lib/service.mjs";
import { chromiumVersion, diffFlags, floorLaunchPlan } from "./lib/chromium.mjs";
import { cpuPerCapture, cpuSnapshot } from "./lib/cpu.mjs";
import { checkPng, median, medianOfReps, parseServerTiming, summarize } from "./lib/stats.mjs";

// The page scripts come from the service's sources (TypeScript with extension-less imports).
await import("./lib/ts-register.mjs");
const { autoScroll, hardening, pageHeight } = await import("../src/capture/page-scripts.ts");

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BENCH = join(ROOT, "bench");

// ───────────────────────────── options ─────────────────────────────

function parseOptions(argv) {
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
    else if (flag === "--update-results") opt.updateResults = true;
    else if (flag === "--no-update-results") opt.updateResults = false;
    else if (flag === "--help" || flag === "-h") {
      console.log(
        readFileSync(join(BENCH, "README.md"), "utf8").split("\n## ")[1] ?? "see bench/README.md",
      );
      process.exit(0);
    } else throw new Error(`unknown option ${argv[i]} (see bench/README.md)`);
  }
  opt.reps ??= opt.quick ? 1 : 3;
  opt.timeCapMin ??= opt.quick ? 15 : 45;
  // The endurance run belongs to the runs that rewrite RESULTS.md: complete, all scenarios.
  opt.endurance ??= !opt.quick && opt.scenarios === null ? ENDURANCE_DEFAULT : 0;
  if (!Number.isInteger(opt.endurance) || opt.endurance < 0)
    throw new Error("--endurance must be a non-negative integer");
  if (!Number.isInteger(opt.reps) || opt.reps < 1)
    throw new Error("--reps must be a positive integer");
  return opt;
}

// ───────────────────────────── scenarios ─────────────────────────────

const VIEWPORT = { width: 1280, height: 800, deviceScaleFactor: 1 };
/** Captures in the endurance run (small page, c=4, service only) of a complete run. */
const ENDURANCE_DEFAULT = 1000;
/** Idle RSS is read after every this many endurance captures. */
const ENDURANCE_STEP = 250;
const REQUEST_TIMEOUT_MS = 60_000;
/** The floor's networkidle2 wait in the default-wait scenarios (the spec's default timeout). */
const FLOOR_IDLE_TIMEOUT_MS = 30_000;

/** Capture scenarios: same page, same options on both systems. n = requests per batch. */
const CAPTURE_SCENARIOS = {
  small: {
    title: "small page, viewport",
    path: "/small.html",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    n: { 1: 20, 4: 24 },
    quickN: { 1: 4, 4: 8 },
  },
  article: {
    title: "2,000-word article, full page",
    path: "/article?words=2000",
    fullPage: true,
    expect: { width: 1280, minHeight: 801 },
    n: { 1: 15, 4: 20 },
    quickN: { 1: 3, 4: 8 },
  },
  lazy: {
    title: "12,000 px lazy page, full page",
    path: "/lazy?h=12000",
    fullPage: true,
    expect: { width: 1280, minHeight: 12000 },
    n: { 1: 8, 4: 12 },
    quickN: { 1: 2, 4: 4 },
  },
  // Default settings: Edgeshot without `waitUntil` (the spec's default, networkidle2), the floor
  // with puppeteer's networkidle2. Both systems' PNGs must match pixel for pixel.
  "default-url": {
    title: "small page, default wait (networkidle2)",
    path: "/small.html",
    wait: "default",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    n: { 1: 10, 4: 20 },
    quickN: { 1: 3, 4: 4 },
  },
  "default-html": {
    title: "inline HTML card, default wait (networkidle2)",
    path: "/",
    html: (run) => ogCard(run),
    wait: "default",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    n: { 1: 10, 4: 20 },
    quickN: { 1: 3, 4: 4 },
  },
  slow: {
    title: "page answering after 2 s, viewport",
    path: "/slow?ms=2000",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    n: { 1: 5, 4: 8 },
    quickN: { 1: 2, 4: 4 },
  },
};
/** An og:image-style card (the template case): inline HTML, no subresources. */
function ogCard(run) {
  return `<!doctype html><html><head><meta charset="utf-8"><!-- ${run} --><style>
html,body{margin:0;height:100%}
body{display:flex;flex-direction:column;justify-content:center;padding:0 96px;
background:linear-gradient(135deg,#0f172a,#1e3a8a);color:#f8fafc;font-family:sans-serif}
h1{font-size:72px;margin:0 0 24px}p{font-size:32px;margin:0;color:#cbd5e1}
</style></head><body><h1>Faster than driving Chromium by hand</h1>
<p>edgeshot.dev · screenshots, renders and extraction on the edge</p></body></html>`;
}

/**
 * Default-wait scenarios check that both systems render the same pixels: the first PNG decoded
 * is the reference of its scenario, every later one (either system) must equal it.
 */
const pixelReference = new Map();
function checkSamePixels(sc, buf) {
  const img = decodePng(buf);
  const ref = pixelReference.get(sc.title);
  if (!ref) return void pixelReference.set(sc.title, img);
  if (img.width !== ref.width || img.height !== ref.height)
    throw new Error(
      `${sc.title}: ${img.width}×${img.height}, the floor's is ${ref.width}×${ref.height}`,
    );
  let differ = 0;
  for (let i = 0; i < img.data.length; i++) if (Math.abs(img.data[i] - ref.data[i]) > 2) differ++;
  if (differ > 0)
    throw new Error(`${sc.title}: ${differ} channel values differ from the reference PNG`);
}

const OTHER_SCENARIOS = {
  render: {
    title: "render link, cache hit vs GET /health",
    n: { 1: 40, 16: 96 },
    quickN: { 1: 10, 16: 32 },
  },
  // Issue 20, target 4: extraction against a screenshot of the same page, both on the service.
  extract: {
    title: "extract article (markdown) vs a screenshot of the same page",
    path: "/article?words=2000",
    n: { 1: 10, 4: 12 },
    quickN: { 1: 3, 4: 4 },
  },
};
const ALL_SCENARIOS = [...Object.keys(CAPTURE_SCENARIOS), ...Object.keys(OTHER_SCENARIOS)];

// ───────────────────────────── errors ─────────────────────────────

/** The route does not exist (yet) in the service: the scenario is reported "not available". */
class NotAvailable extends Error {}
class TimeCap extends Error {}

// ───────────────────────────── process plumbing ─────────────────────────────

const state = {
  tmp: null,
  fixture: null, // ChildProcess
  wrangler: null, // ChildProcess (group leader)
  wranglerLog: null,
  browser: null, // puppeteer Browser (floor)
  floorPid: null,
  wranglerPid: null,
  sampler: null, // Worker
  lastReport: null,
  cleaning: null,
};

function log(...args) {
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...args);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

async function waitExit(pid, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await sleep(100);
  }
  return !alive(pid);
}

let samplerSeq = 0;
function samplerReport(pss = false, type = "report") {
  const w = state.sampler;
  if (!w) return Promise.resolve(state.lastReport);
  const id = ++samplerSeq;
  return withTimeout(
    new Promise((resolve) => {
      const onMsg = (m) => {
        if (m.id === id) {
          w.off("message", onMsg);
          state.lastReport = m.report;
          resolve(m.report);
        }
      };
      w.on("message", onMsg);
      w.postMessage({ type, id, pss });
    }),
    10_000,
    "sampler report",
  );
}

/** Stops everything this run started, by pid. Idempotent; never throws. */
function cleanup() {
  state.cleaning ??= (async () => {
    const report = await samplerReport().catch(() => state.lastReport);
    const servicePids = (report?.browsers ?? [])
      .filter((b) => b.group === "service")
      .map((b) => b.pid);

    if (state.browser) {
      await withTimeout(state.browser.close(), 5000, "floor browser close").catch(() => {});
    }
    if (state.floorPid && alive(state.floorPid)) {
      try {
        process.kill(state.floorPid, "SIGKILL");
      } catch {}
    }
    const w = state.wrangler;
    if (w?.pid && w.exitCode === null && w.signalCode === null) {
      try {
        process.kill(-w.pid, "SIGTERM");
      } catch {}
      if (!(await waitExit(w.pid, 8000))) {
        try {
          process.kill(-w.pid, "SIGKILL");
        } catch {}
      }
    }
    // miniflare starts its Chromium detached (own process group): stop the ones it left.
    await sleep(300);
    for (const pid of servicePids) {
      if (alive(pid) && /chrom/.test(cmdline(pid)[0] ?? "")) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {}
      }
    }
    if (state.fixture?.pid && state.fixture.exitCode === null) {
      try {
        state.fixture.kill("SIGTERM");
      } catch {}
    }
    if (state.sampler) {
      await state.sampler.terminate().catch(() => {});
      state.sampler = null;
    }
    if (state.tmp) {
      try {
        rmSync(state.tmp, { recursive: true, force: true, maxRetries: 3 });
      } catch {}
    }
  })();
  return state.cleaning;
}

/** Last-resort synchronous kill when the process exits without cleanup (e.g. a hard exit). */
process.on("exit", () => {
  for (const pid of [state.floorPid, state.fixture?.pid]) {
    if (pid && alive(pid)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
  }
  if (state.wrangler?.pid) {
    try {
      process.kill(-state.wrangler.pid, "SIGKILL");
    } catch {}
  }
});

let stopping = null;
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    if (stopping) {
      log(`${sig} again: exiting now`);
      process.exit(130);
    }
    stopping = sig;
    log(`${sig}: stopping`);
    cleanup().finally(() => process.exit(130));
  });
}
process.on("uncaughtException", (err) => {
  log("uncaught:", err?.stack ?? err);
  cleanup().finally(() => process.exit(1));
});
process.on("unhandledRejection", (err) => {
  log("unhandled rejection:", err?.stack ?? err);
  cleanup().finally(() => process.exit(1));
});

// ───────────────────────────── fixture server and service ─────────────────────────────

async function startFixture(preferredPort) {
  const port = await freePort(preferredPort);
  const child = spawn(
    process.execPath,
    [
      "--experimental-strip-types",
      "--no-warnings",
      "--import",
      join(BENCH, "lib", "ts-register.mjs"),
      join(BENCH, "fixture.mjs"),
      String(port),
    ],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  state.fixture = child;
  await withTimeout(
    new Promise((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("ready")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`fixture server exited with ${code}`)));
    }),
    20_000,
    "fixture server start",
  );
  return port;
}

function logTail() {
  try {
    return readFileSync(state.wranglerLog, "utf8").split("\n").slice(-40).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * The service runs from a snapshot of the source, never from the live checkout: wrangler dev
 * watches its files and would reload the Worker (dropping warm browsers) whenever someone edits
 * src/ during a run. Default: the working tree as it is now (tracked + untracked, not ignored);
 * --rev <commit>: that commit (git archive). node_modules is a symlink to the checkout's.
 */
function prepareSnapshot(rev) {
  const dir = join(state.tmp, "service");
  mkdirSync(dir, { recursive: true });
  const git = (args, opts = {}) =>
    execFileSync("git", args, { cwd: ROOT, encoding: "utf8", maxBuffer: 256 * 2 ** 20, ...opts });
  let source;
  if (rev) {
    const commit = git(["rev-parse", "--verify", `${rev}^{commit}`]).trim();
    const tar = execFileSync("git", ["archive", "--format=tar", commit], {
      cwd: ROOT,
      maxBuffer: 512 * 2 ** 20,
    });
    execFileSync("tar", ["-x", "-C", dir], { input: tar });
    source = { kind: "commit", commit, subject: git(["log", "-1", "--format=%s", commit]).trim() };
  } else {
    const files = git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
      .split("\0")
      .filter((f) => f && !f.startsWith("bench/") && existsSync(join(ROOT, f)));
    for (const f of files) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      copyFileSync(join(ROOT, f), join(dir, f));
    }
    const head = git(["rev-parse", "HEAD"]).trim();
    const dirty =
      git([
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        "src",
        "wrangler.toml",
        "package.json",
      ]).trim() !== "";
    source = { kind: "working tree", commit: head, dirty, files: files.length };
  }
  rmSync(join(dir, "node_modules"), { recursive: true, force: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return { dir, source };
}

async function startService(fixturePort, serviceDir) {
  const adminToken = randomBytes(24).toString("base64url"); // 32 chars
  const secret = () => randomBytes(24).toString("base64url");
  state.wranglerLog = join(state.tmp, "wrangler.log");
  const service = await createService({
    cwd: serviceDir,
    persistTo: join(state.tmp, "state"),
    output: state.wranglerLog,
    args: ["--log-level", "log"],
    vars: {
      ADMIN_TOKEN: adminToken,
      URL_SIGNING_SECRET: secret(),
      WEBHOOK_SIGNING_SECRET: secret(),
      STORAGE_ENCRYPTION_KEY: secret(),
      TARGET_ALLOWLIST: `127.0.0.1:${fixturePort}`,
      // wrangler.toml ships the production pool (8); locally every browser shares the same cores.
      BROWSER_HOSTS: process.env.BENCH_BROWSER_HOSTS || "1",
    },
  });
  const started = service.start();
  state.wrangler = service.child; // spawned at once: cleanup() stops it from here on
  await started;
  return { base: service.base, port: service.port, adminToken, pid: service.pid };
}

async function readJson(res) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text.slice(0, 300) };
  }
}

/** Turns a non-2xx response into NotAvailable (route missing) or a descriptive error. */
function httpError(route, status, body) {
  const code = body?.error?.code;
  if (status === 404 && (code === "NOT_FOUND" || code === undefined)) {
    return new NotAvailable(
      `${route} → 404 ${code ?? ""} (route not in the service yet)`.replace("  ", " "),
    );
  }
  const msg = body?.error?.message ?? body?.raw ?? JSON.stringify(body).slice(0, 300);
  return new Error(`${route} → ${status} ${code ?? ""}: ${msg}`);
}

async function createAccount(base, adminToken) {
  const res = await fetch(`${base}/admin/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ plan: "enterprise" }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = await readJson(res);
  if (res.status !== 201 && res.status !== 200)
    throw httpError("POST /admin/accounts", res.status, body);
  const key = body?.data?.apiKey;
  if (!key)
    throw new Error(`POST /admin/accounts: no apiKey in ${JSON.stringify(body).slice(0, 200)}`);
  return { apiKey: key, accountId: body.data.accountId };
}

// ───────────────────────────── the two systems ─────────────────────────────

let seqCounter = 0;
const runId = randomBytes(4).toString("hex");

/** A fresh URL per request: `run=` is unique, so no cache answers and the fixture log can tell requests apart. */
function fixtureUrl(fixtureBase, path) {
  const sep = path.includes("?") ? "&" : "?";
  const run = `bench-${runId}-${++seqCounter}`;
  return { url: `${fixtureBase}${path}${sep}run=${run}`, run };
}

/** How many of the lazy page's images the browser fetched for one capture (fixture server log). */
async function lazyImagesFetched(fixtureBase, run) {
  const res = await fetch(`${fixtureBase}/__log?run=${encodeURIComponent(run)}`, {
    signal: AbortSignal.timeout(10_000),
  });
  const entries = await res.json();
  return new Set(entries.filter((e) => e.path.startsWith("/img/lazy-")).map((e) => e.path)).size;
}

function makeFloor(browser, fixtureBase, userAgent) {
  return {
    async capture(sc) {
      const { url, run } = fixtureUrl(fixtureBase, sc.path);
      const t0 = performance.now();
      const ctx = await browser.createBrowserContext();
      let buf;
      let hung = false;
      let ms;
      try {
        const page = await ctx.newPage();
        await page.setViewport(VIEWPORT);
        if (sc.wait === "default") {
          // puppeteer's networkidle2 sometimes never fires for setContent documents under load:
          // like a customer's script would, take the page as it is after a 30 s timeout (counted).
          const options = { waitUntil: "networkidle2", timeout: FLOOR_IDLE_TIMEOUT_MS };
          try {
            if (sc.html) await page.setContent(sc.html(run), options);
            else await page.goto(url, options);
          } catch (err) {
            if (err?.name !== "TimeoutError") throw err;
            hung = true;
          }
        } else {
          const res = await page.goto(url, { waitUntil: "load", timeout: REQUEST_TIMEOUT_MS });
          if (!res?.ok()) throw new Error(`floor: ${url} answered ${res?.status()}`);
        }
        buf = await page.screenshot({ type: "png", fullPage: sc.fullPage });
        ms = performance.now() - t0; // the bytes are in hand: that is the latency
      } finally {
        await ctx.close().catch(() => {}); // counted in the batch's wall time, not in latency
      }
      const size = checkPng(buf, sc.expect);
      if (sc.wait === "default") checkSamePixels(sc, buf);
      return { ms, bytes: size.bytes, height: size.height, run, hung };
    },

    /**
     * --profile: the floor plus the page-level steps the service performs for the same request
     * (page preparation in parallel, the per-frame hardening script, request interception with a
     * continue() per request, dialog handler, auto-scroll + settle for full pages, clip
     * screenshot with optimizeForSpeed). The in-page scripts are imported from
     * src/capture/page-scripts.ts, so this row follows the service's code. Same browser, no Worker / DO / binding hop:
     * Edgeshot minus this row is the transport; this row minus the floor is the page steps.
     */
    async captureWithSteps(sc) {
      const { url, run } = fixtureUrl(fixtureBase, sc.path);
      const t0 = performance.now();
      const ctx = await browser.createBrowserContext();
      let buf;
      let ms;
      try {
        const page = await ctx.newPage();
        let started = 0;
        await Promise.all([
          page.setViewport(VIEWPORT),
          page.setUserAgent(userAgent),
          page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "light" }]),
          page.setBypassServiceWorker(true),
          page.setRequestInterception(true),
          page.evaluateOnNewDocument(hardening),
        ]);
        page.on("dialog", (d) => void d.dismiss().catch(() => {}));
        page.on("request", (req) => {
          started++;
          void req.continue().catch(() => {});
        });
        const res = await page.goto(url, { waitUntil: "load", timeout: REQUEST_TIMEOUT_MS });
        if (!res?.ok()) throw new Error(`floor+steps: ${url} answered ${res?.status()}`);
        if (sc.fullPage) {
          const before = started;
          const steps = await page.evaluate(`(${autoScroll})(16384)`);
          if (steps > 0 && started > before) await sleep(800);
          const height = await page.evaluate(`(${pageHeight})()`);
          buf = await page.screenshot({
            type: "png",
            optimizeForSpeed: true,
            captureBeyondViewport: true,
            clip: { x: 0, y: 0, width: VIEWPORT.width, height: Math.min(height, 16384) },
          });
        } else {
          buf = await page.screenshot({ type: "png", optimizeForSpeed: true });
        }
        ms = performance.now() - t0;
      } finally {
        await ctx.close().catch(() => {});
      }
      const size = checkPng(buf, sc.expect);
      return { ms, bytes: size.bytes, height: size.height, run };
    },
  };
}

function makeService(base, apiKey, fixtureBase) {
  const auth = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  let link = null;
  return {
    async capture(sc) {
      const { url, run } = fixtureUrl(fixtureBase, sc.path);
      const body = {
        ...(sc.html ? { html: sc.html(run) } : { url }),
        ...VIEWPORT,
        format: "png",
        // Default settings send no waitUntil: the service's default (networkidle2) applies.
        ...(sc.wait === "default" ? {} : { waitUntil: "load" }),
        fullPage: sc.fullPage,
        blockAds: false,
      };
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/screenshot`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      const ms = performance.now() - t0;
      if (!res.ok) {
        let parsed;
        try {
          parsed = JSON.parse(bytes.toString("utf8"));
        } catch {
          parsed = { raw: bytes.toString("utf8").slice(0, 300) };
        }
        throw httpError("POST /v1/screenshot", res.status, parsed);
      }
      const type = res.headers.get("content-type") ?? "";
      if (!type.startsWith("image/png"))
        throw new Error(`POST /v1/screenshot: content-type ${type}, expected image/png`);
      const quality = res.headers.get("x-service-quality");
      if (quality && quality !== "full")
        throw new Error(`POST /v1/screenshot: x-service-quality ${quality} (not a full capture)`);
      const size = checkPng(bytes, sc.expect);
      if (sc.wait === "default") checkSamePixels(sc, bytes);
      const serverMs = Number(res.headers.get("x-service-load-time-ms"));
      return {
        ms,
        run,
        bytes: size.bytes,
        height: size.height,
        serverMs:
          Number.isFinite(serverMs) && res.headers.has("x-service-load-time-ms") ? serverMs : null,
        timing: parseServerTiming(res.headers.get("server-timing")),
        autoScrolled: res.headers.get("x-service-auto-scrolled") === "true",
      };
    },

    /** Mints one render link and serves it once (the miss), so later GETs are cache hits. */
    async prepareRenderLink() {
      const { url } = fixtureUrl(fixtureBase, "/small.html");
      const body = { url, ...VIEWPORT, format: "png", waitUntil: "load", blockAds: false };
      const res = await fetch(`${base}/v1/render/link`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const json = await readJson(res);
      if (!res.ok) throw httpError("POST /v1/render/link", res.status, json);
      const raw = json?.data?.url;
      if (typeof raw !== "string")
        throw new Error(
          `POST /v1/render/link: no data.url in ${JSON.stringify(json).slice(0, 200)}`,
        );
      const u = new URL(raw, base);
      // Only loopback traffic: the link must point at this wrangler dev, whatever origin it names.
      const local = new URL(base);
      if (!["127.0.0.1", "localhost", "[::1]"].includes(u.hostname)) {
        u.protocol = local.protocol;
        u.host = local.host;
        this.renderLinkRewritten = raw;
      } else {
        u.host = local.host;
      }
      link = u.toString();
      const first = await fetch(link, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const firstBody = Buffer.from(await first.arrayBuffer());
      if (!first.ok) {
        let parsed;
        try {
          parsed = JSON.parse(firstBody.toString("utf8"));
        } catch {
          parsed = {};
        }
        throw httpError("GET /v1/render", first.status, parsed);
      }
      checkPng(firstBody, { width: 1280, height: 800 });
      return { firstCache: first.headers.get("x-service-cache") };
    },

    async renderHit() {
      const t0 = performance.now();
      const res = await fetch(link, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const bytes = Buffer.from(await res.arrayBuffer());
      const ms = performance.now() - t0;
      if (!res.ok)
        throw new Error(`GET /v1/render → ${res.status}: ${bytes.toString("utf8").slice(0, 200)}`);
      const cache = res.headers.get("x-service-cache");
      if (cache !== "hit")
        throw new Error(`GET /v1/render: x-service-cache ${cache}, expected hit`);
      const size = checkPng(bytes, { width: 1280, height: 800 });
      return { ms, bytes: size.bytes };
    },

    async health() {
      const t0 = performance.now();
      const res = await fetch(`${base}/health`, {
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const json = await readJson(res);
      const ms = performance.now() - t0;
      if (!res.ok || json?.status !== "ok")
        throw new Error(`GET /health → ${res.status} ${JSON.stringify(json).slice(0, 120)}`);
      return { ms };
    },

    async extract() {
      const { url } = fixtureUrl(fixtureBase, OTHER_SCENARIOS.extract.path);
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/extract`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ url, extractFormat: "markdown", waitUntil: "load" }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const json = await readJson(res);
      const ms = performance.now() - t0;
      if (!res.ok) throw httpError("POST /v1/extract", res.status, json);
      const content = json?.data?.content;
      const words = typeof content === "string" ? countWords(content) : 0;
      if (words < 1500)
        throw new Error(`POST /v1/extract: ${words} words of content, expected ≈2,000`);
      const serverMs = Number(json?.data?.loadTimeMs);
      return { ms, words, serverMs: Number.isFinite(serverMs) ? serverMs : null };
    },
  };
}

const countWords = (s) => s.split(/\s+/).filter((w) => /\w/.test(w)).length;

// ───────────────────────────── batches ─────────────────────────────

let deadline = Infinity;
function checkDeadline() {
  if (stopping) throw new TimeCap(`stopped by ${stopping}`);
  if (Date.now() > deadline) throw new TimeCap("overall time cap reached");
}

/** Runs `one` n times with c in flight; the first error stops new work and is rethrown. */
async function runBatch(one, n, c) {
  const latencies = [];
  const extras = [];
  let next = 0;
  let failure = null;
  const cpuBefore = cpuSnapshot(state);
  const t0 = performance.now();
  const worker = async () => {
    while (failure === null) {
      const i = next++;
      if (i >= n) return;
      try {
        checkDeadline();
        const r = await withTimeout(one(i), REQUEST_TIMEOUT_MS + 30_000, "request");
        latencies.push(r.ms);
        extras.push(r);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(c, n) }, worker));
  const wallMs = performance.now() - t0;
  if (failure) throw failure;
  const cpuMs = cpuPerCapture(cpuBefore, cpuSnapshot(state), n);
  const s = summarize(latencies, wallMs);
  const serverMs = extras.map((e) => e.serverMs).filter((v) => typeof v === "number");
  const timingNames = new Set(extras.flatMap((e) => Object.keys(e.timing ?? {})));
  return {
    ...s,
    cpuMs,
    latencies: latencies.map((v) => Math.round(v * 10) / 10),
    serverMsP50: serverMs.length ? median(serverMs) : null,
    serverTiming: Object.fromEntries(
      [...timingNames].map((k) => [
        k,
        median(extras.map((e) => e.timing?.[k]).filter((v) => v !== undefined)),
      ]),
    ),
    autoScrolled: extras.some((e) => e.autoScrolled) || undefined,
    hung: extras.filter((e) => e.hung).length || undefined,
    maxHeight: Math.max(0, ...extras.map((e) => e.height ?? 0)) || undefined,
    bytesP50: extras.some((e) => e.bytes) ? median(extras.map((e) => e.bytes ?? 0)) : undefined,
    runs: extras.map((e) => e.run).filter(Boolean),
  };
}

// ───────────────────────────── report ─────────────────────────────

/**
 * Ratios to the floor. Headline = the median over repetitions of the PAIRED ratio: in each
 * repetition the systems ran back to back, so pairing cancels the machine's drift between
 * repetitions. The ratio of the medians is kept alongside (`ofMedians`).
 */
function computeRatios(sides, systems) {
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

const fmt = (v, d = 0) =>
  v === null || v === undefined || !Number.isFinite(v) ? "—" : v.toFixed(d);
const fmtRatio = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : "—");

function table(results) {
  const lines = [
    "| scenario | conc | system | n×reps | p50 ms | p95 ms | mean ms | per s | p50 vs floor | per s vs floor | notes |",
    "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const sc of results.scenarios) {
    for (const cell of sc.cells) {
      for (const sys of sc.systems) {
        const r = cell[sys];
        const label = sc.labels[sys];
        if (r.status !== "ok") {
          lines.push(
            `| ${sc.name} | ${cell.conc} | ${label} | — | — | — | — | — | — | — | ${r.status}: ${r.reason ?? ""} |`,
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
        if (r.maxHeight && sc.fullPage) notes.push(`${r.maxHeight}px tall`);
        if (r.bytesP50) notes.push(`PNG ${fmt(r.bytesP50 / 1024)} KB`);
        lines.push(
          `| ${sc.name} | ${cell.conc} | ${label} | ${r.n}×${r.reps.length} | ${fmt(m.p50)} | ${fmt(m.p95)} | ${fmt(m.mean)} | ${fmt(m.throughput, 2)} | ${ratio ? fmtRatio(ratio.p50) : ""} | ${ratio ? fmtRatio(ratio.throughput) : ""} | ${notes.join("; ")} |`,
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
  const lines = [
    "| scenario | conc | system | machine | floor Chromium | service Chromium | workerd + wrangler | bench client |",
    "|---|---:|---|---:|---:|---:|---:|---:|",
  ];
  const keys = ["machine", "floor", "serviceBrowser", "serviceRuntime", "client"];
  for (const sc of results.scenarios) {
    for (const cell of sc.cells) {
      for (const sys of sc.systems) {
        const reps = (cell[sys].reps ?? []).filter((r) => r.cpuMs);
        if (cell[sys].status !== "ok" || reps.length === 0) continue;
        const cols = keys.map((k) => fmt(median(reps.map((r) => r.cpuMs[k]))));
        lines.push(`| ${sc.name} | ${cell.conc} | ${sc.labels[sys]} | ${cols.join(" | ")} |`);
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

function evaluateTargets(results) {
  const cell = (name, conc) =>
    results.scenarios.find((s) => s.name === name)?.cells.find((c) => c.conc === conc);
  const ok = (c) => c && c.floor.status === "ok" && c.edgeshot.status === "ok";
  const why = (c, name) =>
    !c
      ? `${name} not run`
      : c.edgeshot.status !== "ok"
        ? `${c.edgeshot.status}: ${c.edgeshot.reason}`
        : `floor ${c.floor.status}: ${c.floor.reason}`;
  const targets = [];
  const ratioTarget = (name, label, scenario, conc, key, cmp, limit) => {
    const c = cell(scenario, conc);
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

/**
 * The endurance run: `total` small-page captures at c=4, in steps of ENDURANCE_STEP, the
 * service Chromium's idle RSS (after 1 s of quiet, like the repetitions') read before the first
 * step and after each one.
 */
async function runEndurance(service, scenario, total) {
  const idleRssMb = async () => {
    await sleep(1000);
    const r = await samplerReport(true);
    return Math.round((r.snapshot.rss.service / 1024) * 10) / 10;
  };
  log(`endurance: ${total} small-page captures at c=4 …`);
  const series = [{ captures: 0, idleRssMb: await idleRssMb() }];
  const latencies = [];
  let wallMs = 0;
  for (let done = 0; done < total;) {
    const n = Math.min(ENDURANCE_STEP, total - done);
    const r = await runBatch(() => service.capture(scenario), n, 4);
    latencies.push(...r.latencies);
    wallMs += r.wallMs;
    done += n;
    series.push({ captures: done, idleRssMb: await idleRssMb() });
    log(`  endurance ${done}/${total}: idle RSS ${series.at(-1).idleRssMb} MB`);
  }
  return { captures: total, conc: 4, ...summarize(latencies, wallMs), series };
}

// ───────────────────────────── main ─────────────────────────────

/** --report <results.json>: re-derive ratios, targets and the summary from a saved run. */
function reReport(opt) {
  const path = opt.report;
  const results = JSON.parse(readFileSync(path, "utf8"));
  for (const sc of results.scenarios) {
    for (const cell of sc.cells) {
      cell.ratios = computeRatios(cell, sc.systems);
      cell.ratio = cell.ratios.edgeshot;
    }
  }
  results.targets = evaluateTargets(results);
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  const summary = renderSummary(results);
  console.log(summary);
  if (opt.updateResults) {
    writeFileSync(join(BENCH, "RESULTS.md"), renderResultsMd(results, summary, path));
    console.log("bench/RESULTS.md updated");
  }
  return 0;
}

async function main() {
  const opt = parseOptions(process.argv.slice(2));
  if (opt.report) return reReport(opt);
  const selected = opt.scenarios ?? ALL_SCENARIOS;
  for (const s of selected)
    if (!ALL_SCENARIOS.includes(s) && s !== "fairness")
      throw new Error(`unknown scenario "${s}" (known: ${ALL_SCENARIOS.join(", ")}, fairness)`);
  if (selected.includes("fairness") && (selected.length > 1 || opt.floorOnly))
    throw new Error("the fairness scenario runs alone, on the service: --scenarios fairness");
  const started = new Date();
  deadline = Date.now() + opt.timeCapMin * 60_000;
  // Hard stop: if something hangs past the cap despite per-request timeouts, clean up and leave.
  setTimeout(
    () => {
      log(`hard time cap (${opt.timeCapMin} min + 2 min) reached: stopping`);
      cleanup().finally(() => process.exit(1));
    },
    opt.timeCapMin * 60_000 + 120_000,
  ).unref();

  state.tmp = mkdtempSync(join(os.tmpdir(), "edgeshot-bench-"));
  const plan = floorLaunchPlan(ROOT, join(state.tmp, "floor-profile"));
  const machine = {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    chromium: chromiumVersion(plan.binary),
    wrangler: JSON.parse(
      readFileSync(join(ROOT, "node_modules", "wrangler", "package.json"), "utf8"),
    ).version,
    puppeteerCore: JSON.parse(
      readFileSync(join(ROOT, "node_modules", "puppeteer-core", "package.json"), "utf8"),
    ).version,
    loadAvgAtStart: os.loadavg().map((v) => Math.round(v * 100) / 100),
  };
  log(
    `machine: ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.chromium}, load ${machine.loadAvgAtStart.join(" ")}`,
  );
  log(
    `options: ${opt.quick ? "quick, " : ""}${opt.reps} repetition(s), scenarios ${selected.join(",")}, cap ${opt.timeCapMin} min`,
  );

  const fixturePort = await startFixture(opt.fixturePort);
  const fixtureBase = `http://127.0.0.1:${fixturePort}`;
  log(`fixture server on ${fixtureBase}`);

  let service = null;
  let serviceUnavailable = null;
  let svc = null;
  let serviceSource = null;
  if (opt.floorOnly) serviceUnavailable = "not run (--floor-only)";
  else {
    const snap = prepareSnapshot(opt.rev);
    serviceSource = snap.source;
    log(`service source: ${JSON.stringify(snap.source)}`);
    log("starting wrangler dev …");
    svc = await startService(fixturePort, snap.dir);
    log(`service on ${svc.base} (wrangler pid ${svc.pid})`);
    state.wranglerPid = svc.pid;
  }

  state.sampler = new Worker(new URL("./lib/sampler.mjs", import.meta.url), {
    workerData: { interval: 200, wranglerPid: svc?.pid ?? null },
  });
  state.sampler.on("error", (err) => log("sampler error:", err));

  if (svc) {
    try {
      const account = await createAccount(svc.base, svc.adminToken);
      service = makeService(svc.base, account.apiKey, fixtureBase);
      log(`enterprise account ${account.accountId}`);
    } catch (err) {
      if (!(err instanceof NotAvailable)) throw err;
      serviceUnavailable = `no account: ${err.message}`;
      log(`service not available: ${serviceUnavailable}`);
    }
  }

  if (selected.includes("fairness")) return runFairnessOnly(opt, svc, fixtureBase, started);

  const { default: puppeteer } = await import("puppeteer-core");
  const t0 = performance.now();
  state.browser = await puppeteer.launch({
    executablePath: plan.binary,
    ignoreDefaultArgs: true,
    args: plan.args,
    pipe: false,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    defaultViewport: null,
    protocolTimeout: REQUEST_TIMEOUT_MS,
    timeout: 60_000,
  });
  state.floorPid = state.browser.process()?.pid ?? null;
  state.sampler.postMessage({ type: "floorPid", pid: state.floorPid });
  const floorLaunchMs = performance.now() - t0;
  log(`floor Chromium pid ${state.floorPid} launched in ${floorLaunchMs.toFixed(0)} ms`);
  const floorUserAgent = (await state.browser.userAgent()).replace("HeadlessChrome", "Chrome");
  const floor = makeFloor(state.browser, fixtureBase, floorUserAgent);

  // Scenario table: for each, the two systems' one-request functions and the concurrencies.
  const scenarios = [];
  for (const name of selected) {
    const cap = CAPTURE_SCENARIOS[name];
    const spec = cap ?? OTHER_SCENARIOS[name];
    const n = opt.quick ? spec.quickN : spec.n;
    const concs = Object.keys(n).map(Number);
    let labels;
    let one;
    let systems = ["floor", "edgeshot"];
    if (cap) {
      labels = { floor: "floor (puppeteer-core → CDP)", edgeshot: "edgeshot POST /v1/screenshot" };
      one = { floor: () => floor.capture(cap), edgeshot: () => service.capture(cap) };
      if (opt.profile) {
        systems = ["floor", "steps", "edgeshot"];
        labels.steps = "floor + service's page steps";
        one.steps = () => floor.captureWithSteps(cap);
      }
    } else if (name === "render") {
      labels = { floor: "GET /health (static route)", edgeshot: "GET render link (cache hit)" };
      one = { floor: () => service.health(), edgeshot: () => service.renderHit() };
    } else {
      // The "floor" is a viewport screenshot of the same article page on the same service.
      const shot = {
        path: spec.path,
        fullPage: false,
        expect: { width: 1280, height: 800 },
      };
      labels = { floor: "POST /v1/screenshot, same page", edgeshot: "edgeshot POST /v1/extract" };
      one = { floor: () => service.capture(shot), edgeshot: () => service.extract() };
    }
    const status = {
      floor: { status: "ok" },
      steps: { status: "ok" },
      edgeshot: serviceUnavailable
        ? { status: "not available", reason: serviceUnavailable }
        : { status: "ok" },
    };
    // The render and extract scenarios' "floor" is a route of the same service.
    if ((name === "render" || name === "extract") && serviceUnavailable)
      status.floor = { status: "not available", reason: serviceUnavailable };
    scenarios.push({
      name,
      title: spec.title,
      fullPage: cap?.fullPage ?? false,
      labels,
      one,
      status,
      systems,
      cells: concs.map((conc) => ({
        conc,
        n: n[conc],
        ...Object.fromEntries(systems.map((sys) => [sys, { reps: [] }])),
      })),
    });
  }

  const markFailed = (sc, sys, err) => {
    if (err instanceof TimeCap) throw err;
    if (stopping) throw new TimeCap(`stopped by ${stopping}`);
    if (err instanceof NotAvailable)
      sc.status[sys] = { status: "not available", reason: err.message };
    else sc.status[sys] = { status: "FAILED", reason: err.message };
    log(`${sc.name} / ${sys}: ${sc.status[sys].status}: ${sc.status[sys].reason}`);
  };

  // ── cold start: the first capture with no browser running (what a request meets after the
  // service released its browser at the idle timeout): the service launches inside the request;
  // the floor's equivalent is its launch plus its first capture. Small page, load wait. ──
  let coldStart = null;
  if (service && !serviceUnavailable) {
    try {
      const svc = await service.capture(CAPTURE_SCENARIOS.small);
      const first = await floor.capture(CAPTURE_SCENARIOS.small);
      coldStart = { serviceMs: Math.round(svc.ms), floorMs: Math.round(floorLaunchMs + first.ms) };
      log(
        `cold start: service ${coldStart.serviceMs} ms, floor launch + capture ${coldStart.floorMs} ms`,
      );
    } catch (err) {
      coldStart = { error: err.message };
      log(`cold start not measured: ${err.message}`);
    }
  }

  // ── warm-up: every system serves each scenario before anything is measured ──
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
  // A few more concurrent small-page captures, so every browser the service keeps is warm.
  const small = { ...CAPTURE_SCENARIOS.small };
  if (service && !serviceUnavailable) {
    await runBatch(() => service.capture(small), 8, 4).catch((err) =>
      log(`extra warm-up: ${err.message}`),
    );
  }
  await sleep(1000);
  state.sampler.postMessage({ type: "steady" });
  const afterWarmup = await samplerReport();
  const serviceBrowsers = afterWarmup.browsers.filter((b) => b.group === "service");
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

  // ── measured repetitions: systems interleaved per (scenario, concurrency), order alternating ──
  const perRepetition = [];
  let serviceRequests = 0;
  let aborted = null;
  try {
    for (let rep = 1; rep <= opt.reps; rep++) {
      state.sampler.postMessage({ type: "repReset" });
      log(`repetition ${rep}/${opt.reps} (${rep % 2 === 1 ? "floor first" : "edgeshot first"})`);
      for (const sc of scenarios) {
        const order = rep % 2 === 1 ? sc.systems : [...sc.systems].reverse();
        for (const cell of sc.cells) {
          for (const sys of order) {
            if (sc.status[sys].status !== "ok") continue;
            try {
              const r = await runBatch(sc.one[sys], cell.n, cell.conc);
              if (sc.name === "lazy") {
                // After the batch (outside its timing): did the capture wait for the lazy images?
                const counts = await Promise.all(
                  r.runs.map((run) => lazyImagesFetched(fixtureBase, run)),
                );
                r.lazyImages = { min: Math.min(...counts), max: Math.max(...counts), of: 12 };
              }
              delete r.runs;
              if (sys === "edgeshot" || sc.name === "render") serviceRequests += cell.n;
              cell[sys].reps.push(r);
              log(
                `  ${sc.name} c=${cell.conc} ${sys}: p50 ${fmt(r.p50)} ms, p95 ${fmt(r.p95)} ms, ${fmt(r.throughput, 2)}/s; CPU ${fmt(r.cpuMs.machine)} ms per request`,
              );
            } catch (err) {
              markFailed(sc, sys, err);
            }
          }
        }
      }
      await sleep(1000); // idle: let contexts close and renderers exit before reading memory
      const rep_ = await samplerReport(true);
      const mb = (kb) => Math.round((kb / 1024) * 10) / 10;
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

  // ── endurance: many small-page captures at c=4 on the service alone; the service Chromium's
  // idle RSS is read after warm-up and after every ENDURANCE_STEP captures (flat = no leak) ──
  let endurance = null;
  if (opt.endurance > 0 && service && !serviceUnavailable && !aborted) {
    try {
      endurance = await runEndurance(service, small, opt.endurance);
      serviceRequests += endurance.captures;
    } catch (err) {
      if (!(err instanceof TimeCap)) throw err;
      aborted = err.message;
      log(`stopped early: ${aborted}`);
    }
  }

  // ── results ──
  const final = await samplerReport();
  const mb = (kb) => Math.round((kb / 1024) * 10) / 10;
  const svcBrowsers = final.browsers.filter((b) => b.group === "service");
  const results = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    options: { ...opt, scenarios: selected },
    machine: { ...machine, loadAvgAtEnd: os.loadavg().map((v) => Math.round(v * 100) / 100) },
    noise: {
      foreignChromiumBrowsersMax: final.maxForeignBrowsers,
      note: "Other processes on this machine (e.g. test runs) share the 2 cores: see loadAvg and foreign Chromium count.",
    },
    serviceSource,
    coldStart,
    endurance,
    binaries,
    flags,
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
        const side = (sys) => {
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
            maxHeight: Math.max(...reps.map((r) => r.maxHeight ?? 0)),
            bytesP50:
              reps[0].bytesP50 !== undefined ? median(reps.map((r) => r.bytesP50)) : undefined,
          };
        };
        const sides = Object.fromEntries(sc.systems.map((sys) => [sys, side(sys)]));
        const ratios = computeRatios(sides, sc.systems);
        return { conc: cell.conc, ...sides, ratio: ratios.edgeshot, ratios };
      }),
    })),
    memory: {
      peakRssMb: {
        service: mb(final.peakKb.service),
        floor: mb(final.peakKb.floor),
        both: mb(final.peakKb.ours),
      },
      perRepetition,
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
          serviceCaptures: serviceRequests,
          serviceBrowsers: svcBrowsers.map(({ argv, ...b }) => b),
        },
  };
  results.targets = evaluateTargets(results);
  const failed = results.scenarios
    .flatMap((s) => s.cells.flatMap((c) => s.systems.map((sys) => c[sys])))
    .filter((x) => x.status === "FAILED");

  mkdirSync(join(BENCH, "results"), { recursive: true });
  const stamp = started.toISOString().replace(/[:.]/g, "-");
  const jsonPath = join(BENCH, "results", `${stamp}.json`);
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);

  const summary = renderSummary(results);
  console.log(summary);
  console.log(`\nresults: ${jsonPath}`);

  const complete =
    !opt.quick && !opt.floorOnly && !aborted && selected.length === ALL_SCENARIOS.length;
  if (opt.updateResults ?? complete) {
    writeFileSync(join(BENCH, "RESULTS.md"), renderResultsMd(results, summary, jsonPath));
    console.log("bench/RESULTS.md updated");
  } else {
    console.log(
      "bench/RESULTS.md not updated (only a complete full run updates it; --update-results forces it)",
    );
  }

  await cleanup();
  if (failed.length) {
    console.error(
      `\nFAILED: ${failed.length} scenario side(s) gave wrong or failed outputs (see table).`,
    );
    return 1;
  }
  if (aborted) return 1;
  return 0;
}

/** The fairness scenario (bench/scenarios/fairness.mjs): service only, no floor. */
async function runFairnessOnly(opt, svc, fixtureBase, started) {
  const { runFairness, fairnessTable } = await import("./scenarios/fairness.mjs");
  const fairness = await runFairness({
    base: svc.base,
    createAccount: () => createAccount(svc.base, svc.adminToken),
    smallUrl: () => fixtureUrl(fixtureBase, "/small.html").url,
    log,
    reps: opt.reps,
    quick: opt.quick,
  });
  const results = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    options: opt,
    loadAvgAtEnd: os.loadavg().map((v) => Math.round(v * 100) / 100),
    fairness,
  };
  mkdirSync(join(BENCH, "results"), { recursive: true });
  const stamp = started.toISOString().replace(/[:.]/g, "-");
  const jsonPath = join(BENCH, "results", `${stamp}-fairness.json`);
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\n${fairnessTable(fairness)}\n\nresults: ${jsonPath}`);
  await cleanup();
  return 0;
}

function renderSummary(r) {
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

function renderResultsMd(r, summary, jsonPath) {
  const file = join(BENCH, "RESULTS.md");
  const existing = existsSync(file) ? readFileSync(file, "utf8") : "";
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

main().then(
  (code) => process.exit(code),
  async (err) => {
    log(`error: ${err?.stack ?? err}`);
    if (state.wranglerLog && existsSync(state.wranglerLog)) log(`wrangler log tail:\n${logTail()}`);
    await cleanup();
    process.exit(1);
  },
);
