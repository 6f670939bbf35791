// The one launcher of `wrangler dev` for this repository: `npm start` (scripts/start.mjs), the
// end-to-end tests (test/fixtures/e2e-service.ts), the bench (bench/lib/start.mjs) and the soak
// (bench/lib/soak-service.mjs) all start the service through it, and take their ports from `freePort`.
//
// wrangler runs as `node node_modules/wrangler/bin/wrangler.js`, in its own process group, with
// node_modules/.bin on PATH and metrics off (and, for `createService`, its local observability
// collector off). The local browser binding starts Chromium in a
// session of its own, so stopping wrangler's process group alone would leave Chromium running,
// orphaned: `stop` and `kill` first find the Chromium processes under the service (while the
// process tree still leads to them) and kill those too.
import { spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "../..");
const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");
const BIN = join(ROOT, "node_modules/.bin");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** `port` on 127.0.0.1 when it is free (0: one the system picks), else null. */
const tryPort = (port) =>
  new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(null));
    srv.listen(port, "127.0.0.1", () => {
      const { port: got } = srv.address();
      srv.close(() => resolve(got));
    });
  });

/** A free TCP port on 127.0.0.1: `preferred` when it is free, else one the system picks. */
export async function freePort(preferred = 0) {
  const got = (preferred && (await tryPort(preferred))) || (await tryPort(0));
  if (!got) throw new Error("no free port");
  return got;
}

/**
 * The first free port of `first` and the `count - 1` after it, or null: a port that stays the
 * same from one start to the next while the same ports are taken (the demo site's).
 */
export async function firstFreePort(first, count) {
  for (let port = first; port < first + count && port <= 65535; port++)
    if (await tryPort(port)) return port;
  return null;
}

/**
 * Spawns `wrangler <args>`. `output`: "inherit", "pipe" (the child's stdout/stderr streams) or a
 * file path the output is appended to. `detached`: its own process group (stopped as a whole).
 */
export function spawnWrangler(
  args,
  { cwd = ROOT, output = "pipe", detached = true, env = {} } = {},
) {
  const fd = output === "inherit" || output === "pipe" ? undefined : openSync(output, "a");
  const stdio = fd === undefined ? output : ["ignore", fd, fd];
  const child = spawn(process.execPath, [WRANGLER, ...args], {
    cwd,
    detached,
    stdio,
    env: {
      ...process.env,
      PATH: `${BIN}:${process.env.PATH}`,
      ...env,
    },
  });
  if (fd !== undefined) closeSync(fd);
  return child;
}

/**
 * Resolves once `${base}/health` answers 2xx; rejects when `child` exits first, when
 * `failed()` returns an error message (e.g. a build failure found in the log), or after
 * `timeoutMs`.
 */
export async function waitForHealth(base, { child, timeoutMs = 180_000, failed = () => "" }) {
  for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(250)) {
    if (child && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(`wrangler dev exited (${child.exitCode ?? child.signalCode}) before serving`);
    const reason = failed();
    if (reason) throw new Error(reason);
    const ok = await fetch(`${base}/health`, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
  }
  throw new Error(`${base}/health did not answer within ${timeoutMs / 1000} s`);
}

/** `createService(options)` started: resolves once /health answers. */
export async function startService(options = {}) {
  const service = await createService(options);
  await service.start();
  return service;
}

/**
 * A `wrangler dev` of the service, not started yet: `start()` spawns it and resolves once
 * /health answers (metrics off); `stop()` ends it; `kill()` SIGKILLs it.
 *
 * - `port`, `inspectorPort`: default free ports. `start()` again after `kill()` brings the
 *   service back on the same ports, vars and `persistTo`, where clients and persisted state
 *   expect it, the way an operator's restart would.
 * - `vars`: `--var NAME:value` each (empty values are left out, so wrangler.toml's apply).
 * - `output`: a log file path (appended; `service.output()` reads it) or "pipe" (kept in memory).
 * - `args`: more wrangler flags; `cwd`: the checkout to run (default this one); `env`: more
 *   environment for wrangler.
 */
export async function createService({
  cwd = ROOT,
  port,
  inspectorPort,
  persistTo,
  vars = {},
  output = "pipe",
  args = [],
  env = {},
  timeoutMs = 180_000,
} = {}) {
  port ??= await freePort();
  inspectorPort ??= await freePort();
  const argv = [
    "dev",
    ...["--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort)],
    ...(persistTo ? ["--persist-to", persistTo] : []),
    "--show-interactive-dev-session=false",
    ...args,
    ...Object.entries(vars).flatMap(([k, v]) => (v ? ["--var", `${k}:${v}`] : [])),
  ];
  let memory = "";
  const service = {
    base: `http://127.0.0.1:${port}`,
    port,
    inspectorPort,
    child: null,
    pid: 0,
    output: () => (output === "pipe" ? memory : readLog(output)),
  };
  service.start = async () => {
    const child = spawnWrangler(argv, {
      cwd,
      output,
      // X_LOCAL_OBSERVABILITY: wrangler's local observability collector, a streaming tail of
      // every invocation (each DO call, fetch and log) kept for its local dashboard, was ~60% of
      // workerd's CPU in a crawl over HTTP (docs/CRAWL.md): production has no such collector.
      env: { WRANGLER_SEND_METRICS: "false", X_LOCAL_OBSERVABILITY: "false", ...env },
    });
    child.stdout?.on("data", (d) => (memory += d));
    child.stderr?.on("data", (d) => (memory += d));
    service.child = child;
    service.pid = child.pid;
    try {
      await waitForHealth(service.base, {
        child,
        timeoutMs,
        failed: () => (/Build failed/.test(service.output()) ? "the service does not build" : ""),
      });
    } catch (err) {
      await service.kill();
      throw new Error(`${err.message}:\n${tail(service.output())}`);
    }
  };
  /** SIGKILL: its process group and every Chromium under it; resolves once the port is free. */
  service.kill = async () => {
    const { child } = service;
    if (!child) return;
    const chromium = serviceChromium(child.pid).all;
    signalGroup(child.pid, "SIGKILL");
    for (const p of chromium) signal(p.pid, "SIGKILL");
    while (child.exitCode === null && child.signalCode === null) await sleep(100);
    for (let i = 0; i < 100 && !(await portIsFree(port)); i++) await sleep(100);
  };
  /**
   * SIGTERM to the process group, SIGKILL after `graceMs`; then any Chromium left. Resolves to
   * the count of Chromium processes the service ran at the stop, how many outlived wrangler's
   * own exit (and were killed here), and how many are still alive after that (should be 0).
   */
  service.stop = async (graceMs = 8000) => {
    const { child } = service;
    if (!child || child.exitCode !== null || child.signalCode !== null)
      return { chromium: 0, outlived: 0, alive: 0 };
    const chromium = serviceChromium(child.pid).all;
    const exited = new Promise((r) => child.once("exit", r));
    signalGroup(child.pid, "SIGTERM");
    await Promise.race([exited, sleep(graceMs)]);
    signalGroup(child.pid, "SIGKILL");
    await sleep(300);
    const outlived = chromium.filter(running);
    for (const p of outlived) signal(p.pid, "SIGKILL");
    for (let i = 0; i < 30 && chromium.some(running); i++) await sleep(100);
    return {
      chromium: chromium.length,
      outlived: outlived.length,
      alive: chromium.filter(running).length,
    };
  };
  return service;
}

function readLog(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

const tail = (text) => text.split("\n").slice(-40).join("\n");

function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {}
}

function signalGroup(pid, sig) {
  signal(-pid, sig);
}

/** Is `p` (a process once listed by `procs`) still running: same pid, same command, no zombie? */
function running(p) {
  try {
    const state = /State:\s+(\S)/.exec(readFileSync(`/proc/${p.pid}/status`, "utf8"))?.[1];
    return state !== "Z" && readFileSync(`/proc/${p.pid}/cmdline`, "utf8") === p.cmd;
  } catch {
    return false;
  }
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

function procs() {
  const out = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      out.push({ pid: Number(pid), ppid, rss, cmd });
    } catch {}
  }
  return out;
}

/**
 * Chromium processes descending from a service's wrangler (pid `rootPid`): the browsers (no
 * --type), all of them, their summed RSS and count.
 */
export function serviceChromium(rootPid) {
  const byParent = new Map();
  for (const p of procs()) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const mine = [];
  const stack = [rootPid];
  while (stack.length) {
    for (const c of byParent.get(stack.pop()) ?? []) {
      if (/chrom/i.test(c.cmd)) mine.push(c);
      stack.push(c.pid);
    }
  }
  const browsers = mine.filter((p) => !p.cmd.includes("--type="));
  return { browsers, all: mine, rss: mine.reduce((s, p) => s + p.rss, 0), processes: mine.length };
}
