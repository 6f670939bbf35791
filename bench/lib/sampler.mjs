// Chromium process sampler. Runs in a worker thread (its own event loop, synchronous /proc reads)
// so sampling never adds jitter to the timings taken on the main thread.
//
// Every `interval` ms it lists /proc, finds Chromium processes, groups each under its browser
// process (the topmost Chromium ancestor: renderers → zygote → browser), and classifies the
// browser: "floor" (the pid the bench launched), "service" (a descendant of the bench's wrangler
// process) or "foreign" (anyone else's — other test runs on the machine; reported as noise).
// It tracks VmRSS sums per group (current and peak) and every browser process ever seen with
// its first/last sighting, which is how browser launches are counted.
import { readFileSync, readdirSync } from "node:fs";
import { isMainThread, parentPort, workerData } from "node:worker_threads";

if (isMainThread) throw new Error("sampler.mjs runs as a worker thread");

const { interval = 200, wranglerPid = null } = workerData ?? {};
let floorPid = null;
let steadyAt = null;
const startedAt = Date.now();

/** pid -> {argv, chromium, browser} (argv read once per pid) */
const argvCache = new Map();
/** browser pid -> {group, argv, firstSeen, lastSeen, afterSteady} */
const browsers = new Map();
const peak = { service: 0, floor: 0, foreign: 0, ours: 0 };
/** Peak since the last "repReset" (one repetition of the bench). */
let repPeak = { service: 0, floor: 0, foreign: 0, ours: 0 };
let current = {
  service: 0,
  floor: 0,
  foreign: 0,
  ours: 0,
  procs: { service: 0, floor: 0, foreign: 0 },
};
let samples = 0;
let maxForeignBrowsers = 0;

function read(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function info(pid) {
  let e = argvCache.get(pid);
  if (e) return e;
  const raw = read(`/proc/${pid}/cmdline`);
  if (raw === null) return null;
  const argv = raw.split("\0").filter(Boolean);
  const exe = argv[0] ?? "";
  const chromium = /(^|\/)(chromium|chrome)( |$)/.test(exe) || /\/chromium\/chromium/.test(exe);
  e = { argv, chromium, browser: chromium && !argv.some((a) => a.startsWith("--type=")) };
  if (argv.length > 0) argvCache.set(pid, e); // zombies/kernel threads have no argv: don't cache
  return e;
}

function ppid(pid) {
  const s = read(`/proc/${pid}/stat`);
  if (!s) return 0;
  const rest = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return Number(rest[1]);
}

function rssKb(pid) {
  const s = read(`/proc/${pid}/status`);
  const m = s && /VmRSS:\s+(\d+)\s+kB/.exec(s);
  return m ? Number(m[1]) : 0;
}

function pssKb(pid) {
  const s = read(`/proc/${pid}/smaps_rollup`);
  const m = s && /^Pss:\s+(\d+)\s+kB/m.exec(s);
  return m ? Number(m[1]) : 0;
}

function isDescendantOf(pid, ancestor) {
  for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
    if (p === ancestor) return true;
    p = ppid(p);
  }
  return false;
}

function classify(browserPid) {
  if (floorPid !== null && browserPid === floorPid) return "floor";
  if (wranglerPid !== null && isDescendantOf(browserPid, wranglerPid)) return "service";
  return "foreign";
}

/** One pass over /proc. withPss: also read Pss (slower; only for per-repetition snapshots). */
function scan(withPss = false) {
  const now = Date.now();
  const pids = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const live = new Set(pids);
  for (const pid of argvCache.keys()) if (!live.has(pid)) argvCache.delete(pid);

  const chromium = [];
  for (const pid of pids) {
    const e = info(pid);
    if (e?.chromium) chromium.push(pid);
  }
  const parent = new Map(chromium.map((pid) => [pid, ppid(pid)]));
  const rootOf = (pid) => {
    let p = pid;
    for (let hops = 0; hops < 16; hops++) {
      const up = parent.get(p);
      if (up === undefined || !parent.has(up)) return p; // parent is not Chromium: p is the browser
      p = up;
    }
    return p;
  };

  const rss = { service: 0, floor: 0, foreign: 0 };
  const pss = { service: 0, floor: 0, foreign: 0 };
  const procs = { service: 0, floor: 0, foreign: 0 };
  const groupOfRoot = new Map();
  let foreignBrowsers = 0;
  for (const pid of chromium) {
    const root = rootOf(pid);
    let group = groupOfRoot.get(root);
    if (!group) {
      const known = browsers.get(root);
      group = known && known.group !== "foreign" ? known.group : classify(root);
      groupOfRoot.set(root, group);
      if (info(root)?.browser) {
        if (!known) {
          browsers.set(root, {
            group,
            argv: info(root).argv,
            firstSeen: now,
            lastSeen: now,
            afterSteady: steadyAt !== null,
          });
        } else {
          known.lastSeen = now;
          known.group = group;
        }
        if (group === "foreign") foreignBrowsers++;
      }
    }
    rss[group] += rssKb(pid);
    if (withPss) pss[group] += pssKb(pid);
    procs[group]++;
  }
  maxForeignBrowsers = Math.max(maxForeignBrowsers, foreignBrowsers);
  current = { ...rss, ours: rss.service + rss.floor, procs };
  for (const k of Object.keys(peak)) {
    peak[k] = Math.max(peak[k], current[k]);
    repPeak[k] = Math.max(repPeak[k], current[k]);
  }
  samples++;
  return { rss, pss, procs };
}

function report(withPss) {
  const snap = withPss ? scan(true) : null;
  const list = [...browsers.entries()].map(([pid, b]) => ({
    pid,
    group: b.group,
    firstSeenMs: b.firstSeen - startedAt,
    lastSeenMs: b.lastSeen - startedAt,
    afterSteady: b.afterSteady,
    argv: b.argv,
  }));
  return {
    samples,
    intervalMs: interval,
    currentKb: current,
    peakKb: { ...peak },
    repPeakKb: { ...repPeak },
    snapshot: snap,
    browsers: list,
    maxForeignBrowsers,
  };
}

const timer = setInterval(() => {
  try {
    scan(false);
  } catch {
    /* a process vanished mid-read: next tick */
  }
}, interval);

parentPort.on("message", (msg) => {
  if (msg.type === "floorPid") floorPid = msg.pid;
  else if (msg.type === "steady") steadyAt = Date.now();
  else if (msg.type === "repReset") repPeak = { service: 0, floor: 0, foreign: 0, ours: 0 };
  else if (msg.type === "report")
    parentPort.postMessage({ id: msg.id, report: report(Boolean(msg.pss)) });
  else if (msg.type === "stop") {
    clearInterval(timer);
    parentPort.postMessage({ id: msg.id, report: report(false) });
    parentPort.close();
  }
});
