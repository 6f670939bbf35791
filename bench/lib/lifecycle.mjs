// The bench run's lifecycle (bench/run.mjs): what it started (one `state` object, filled in as
// things start), the sampler thread it asks for reports, the time cap and the stop signals, and
// the cleanup that stops everything by pid — on success, on errors, on signals and at the cap.
import { readFileSync, rmSync } from "node:fs";
import { Worker } from "node:worker_threads";

export const state = {
  tmp: null,
  fixture: null, // ChildProcess
  crawlSite: null, // ChildProcess (the crawl scenario's site)
  cdpProxy: null, // ChildProcess (--cdp-rtt: bench/cdp-proxy.mjs)
  peerChild: null, // ChildProcess (the crawl-peer scenario's Crawlee run: bench/peers/crawlee.mjs)
  wrangler: null, // ChildProcess (group leader)
  wranglerLog: null,
  browser: null, // puppeteer Browser (floor)
  floorPid: null,
  floorDirectWs: null, // the floor's DevTools endpoint, not through the CDP proxy
  wranglerPid: null,
  sampler: null, // Worker
  lastReport: null,
  cleaning: null,
  stopping: null, // the signal that asked the run to stop
  deadline: Infinity, // the overall time cap (ms since the epoch)
};

/** The run was stopped (time cap or signal): what was measured so far is reported. */
export class TimeCap extends Error {}

export function log(...args) {
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...args);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function checkDeadline() {
  if (state.stopping) throw new TimeCap(`stopped by ${state.stopping}`);
  if (Date.now() > state.deadline) throw new TimeCap("overall time cap reached");
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

/** The Chromium sampler (bench/lib/sampler.mjs) in its worker thread. */
export function startSampler(wranglerPid) {
  state.sampler = new Worker(new URL("./sampler.mjs", import.meta.url), {
    workerData: { interval: 200, wranglerPid },
  });
  state.sampler.on("error", (err) => log("sampler error:", err));
}

let samplerSeq = 0;
export function samplerReport(pss = false, type = "report") {
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
export function cleanup() {
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
    for (const child of [state.fixture, state.crawlSite, state.cdpProxy, state.peerChild]) {
      if (child?.pid && child.exitCode === null) {
        try {
          child.kill("SIGTERM");
        } catch {}
      }
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

/** Signals and crashes clean up before the process leaves; a hard exit still kills by pid. */
export function installExitHandlers() {
  process.on("exit", () => {
    const children = [state.fixture, state.crawlSite, state.cdpProxy, state.peerChild];
    for (const pid of [state.floorPid, ...children.map((c) => c?.pid)]) {
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
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(sig, () => {
      if (state.stopping) {
        log(`${sig} again: exiting now`);
        process.exit(130);
      }
      state.stopping = sig;
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
}

/** The overall cap: batches stop at `minutes`; a hang past it by 2 min cleans up and leaves. */
export function setTimeCap(minutes) {
  state.deadline = Date.now() + minutes * 60_000;
  setTimeout(
    () => {
      log(`hard time cap (${minutes} min + 2 min) reached: stopping`);
      cleanup().finally(() => process.exit(1));
    },
    minutes * 60_000 + 120_000,
  ).unref();
}
