// --cdp-rtt (bench/README.md, "CDP round trips and --cdp-rtt"): the CDP proxy's process
// (bench/cdp-proxy.mjs) from the bench's side — started, asked for listeners, its delay set, its
// counters read — the browser wrapper that puts it between wrangler's local browser binding and
// the service's Chromium, and the startup check that a bare round trip through it takes the RTT.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { log, state, withTimeout } from "./lifecycle.mjs";
import { median } from "./stats.mjs";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

/** Starts the proxy's process; returns its client. */
export async function startCdpProxy() {
  const child = spawn(process.execPath, [here("../cdp-proxy.mjs")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  state.cdpProxy = child;
  // A network's delay does not wait for a CPU: on this loaded machine the proxy's timers would
  // (both systems alike). A higher priority for this one small process, if allowed.
  try {
    os.setPriority(child.pid, -10);
  } catch {}
  const control = await withTimeout(
    new Promise((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        const m = /ready (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once("exit", (code) => reject(new Error(`CDP proxy exited with ${code}`)));
    }),
    10_000,
    "CDP proxy start",
  );
  const call = async (method, path, body) => {
    const res = await fetch(`http://127.0.0.1:${control}${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`CDP proxy ${path} → ${res.status}`);
    return res.json();
  };
  let rtt = null;
  return {
    control,
    /** A listener forwarding to 127.0.0.1:`target`, its traffic counted as `system`'s. */
    listen: async (system, target) =>
      (await call("POST", `/listen?system=${system}&target=${target}`)).port,
    /** Sets the round-trip time: half of it each way. */
    async setRtt(ms) {
      if (ms === rtt) return;
      await call("POST", `/delay?ms=${ms / 2}`);
      rtt = ms;
    },
    stats: () => call("GET", "/stats"),
    /** Each window's ([start, end], epoch ms: one capture's) own sequential CDP round trips. */
    ownRoundTrips: (system, windows) => call("POST", `/own-round-trips?system=${system}`, windows),
  };
}

/**
 * The service's browser through the proxy: a copy of the wrapper scripts/setup-browser.mjs
 * installed (`plan`: floorLaunchPlan), in a cache dir of the run's own (XDG_CACHE_HOME for
 * wrangler only, so other runs on the machine keep the installed one), whose exec line sends
 * Chromium's stderr through bench/cdp-filter.mjs: miniflare reads the DevTools endpoint from it,
 * rewritten to a proxy listener. The same binary and flags; `exec` keeps Chromium's pid the one
 * miniflare started. Returns the environment to start wrangler with.
 */
export function proxiedWrapperEnv(plan, control) {
  const cache = join(state.tmp, "cache");
  const installDir = join(cache, ".wrangler", "chrome", `linux-${plan.browserVersion}`);
  const path = join(installDir, "chrome-linux64", "chrome");
  const filter = `${JSON.stringify(process.execPath)} ${JSON.stringify(here("../cdp-filter.mjs"))} ${control}`;
  const text = readFileSync(plan.wrapperPath, "utf8")
    .replace(/^#!.*\n/, "#!/bin/bash\n")
    .replace(/^(exec\s+.*"\$@")\s*$/m, `$1 2> >(exec ${filter} >&2)`);
  if (!text.includes("cdp-filter.mjs")) throw new Error(`cannot adapt ${plan.wrapperPath}`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  writeFileSync(join(installDir, ".miniflare-install-complete"), "");
  return { XDG_CACHE_HOME: cache };
}

/** A CDP connection to `wsUrl`; `roundTrip()` times one Browser.getVersion (ms). */
async function cdpConnection(wsUrl) {
  const ws = new WebSocket(wsUrl);
  await withTimeout(
    new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error(`cannot open ${wsUrl}`));
    }),
    10_000,
    "CDP connection",
  );
  let id = 0;
  return {
    async roundTrip() {
      const t0 = performance.now();
      const mine = ++id;
      await withTimeout(
        new Promise((resolve) => {
          ws.onmessage = (e) => JSON.parse(e.data).id === mine && resolve();
          ws.send(JSON.stringify({ id: mine, method: "Browser.getVersion" }));
        }),
        10_000,
        "CDP round trip",
      );
      return performance.now() - t0;
    },
    close: () => ws.close(),
  };
}

/**
 * Median of (through the proxy − direct) over `pairs` interleaved round trips, so load on the
 * machine hits both sides of each pair.
 */
async function addedMs(direct, proxied, pairs) {
  const diffs = [];
  const both = { direct: [], proxied: [] };
  for (let i = 0; i < pairs + 2; i++) {
    const d = await direct.roundTrip();
    const p = await proxied.roundTrip();
    if (i < 2) continue; // the first two warm the connections up
    diffs.push(p - d);
    both.direct.push(d);
    both.proxied.push(p);
  }
  return { added: median(diffs), direct: median(both.direct), proxied: median(both.proxied) };
}

/**
 * The startup check: a bare CDP round trip (Browser.getVersion on the floor's browser endpoint
 * `directWs`) through a listener of the proxy at `rttMs` takes rttMs more than the direct one,
 * ± 1 ms (median of 30 interleaved pairs; up to 3 tries, as the machine's load can delay any
 * timer). Says so (`withinTolerance`) if not; leaves the delay at 0.
 */
export async function verifyRtt(proxy, directWs, rttMs) {
  const url = new URL(directWs);
  const port = await proxy.listen("check", url.port);
  const direct = await cdpConnection(directWs);
  const proxied = await cdpConnection(`ws://127.0.0.1:${port}${url.pathname}`);
  let check;
  try {
    await proxy.setRtt(0);
    const at0 = await addedMs(direct, proxied, 30);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await proxy.setRtt(rttMs);
      const at = await addedMs(direct, proxied, 30);
      check = {
        rttMs,
        directMs: round(at.direct),
        proxiedMs: round(at.proxied),
        addedMs: round(at.added),
        overheadAt0Ms: round(at0.added),
        attempt,
      };
      log(
        `CDP proxy check ${attempt}: a bare round trip takes ${check.proxiedMs} ms through the proxy at --cdp-rtt ${rttMs}, ${check.directMs} ms direct: ${check.addedMs} ms added (the proxy itself at 0 ms: ${check.overheadAt0Ms} ms)`,
      );
      if (Math.abs(at.added - rttMs) <= 1) break;
    }
  } finally {
    direct.close();
    proxied.close();
    await proxy.setRtt(0);
  }
  // Out of tolerance after 3 tries: the machine's load delays the proxy's timers. The run goes
  // on, and the report says so next to the measured RTT.
  check.withinTolerance = Math.abs(check.addedMs - rttMs) <= 1;
  if (!check.withinTolerance)
    log(`CDP proxy: WARNING added ${check.addedMs} ms per round trip, expected ${rttMs} ± 1`);
  return check;
}

const round = (v) => Math.round(v * 100) / 100;
