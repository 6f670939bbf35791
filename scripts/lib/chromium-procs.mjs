// Chromium processes, read from /proc: which browsers a process tree started, which of them are
// still alive, and reaping the ones that outlive their owner. One place for the soak
// (bench/lib/soak-service.mjs), the launcher (scripts/start.mjs) and the test run's teardown
// (test/fixtures/global-setup.ts). Linux only: elsewhere every list is empty.
//
// miniflare starts each local browser detached (a process group and session of its own), so
// killing wrangler's process group does not reach it; while its launcher lives, the browser is
// its child, so the process tree finds it. A browser is a Chromium process without `--type=`
// (its renderers, GPU and utility processes have one); zombies do not count as alive.
import { readdirSync, readFileSync } from "node:fs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @typedef {{pid: number, ppid: number, pgid: number, state: string, rss: number, cmd: string}} Proc */

/** Every live (non-zombie) process: pid, parent, process group, state, RSS and command line. */
export function processes() {
  /** @type {Proc[]} */
  const out = [];
  let pids = [];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const state = /State:\s+(\S)/.exec(status)?.[1] ?? "?";
      if (state === "Z" || state === "X") continue;
      // Field 5 of /proc/<pid>/stat is the process group (after the parenthesised command).
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const pgid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      out.push({
        pid: Number(pid),
        ppid: Number(/PPid:\s+(\d+)/.exec(status)?.[1]),
        pgid,
        state,
        rss: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024,
        cmd: readFileSync(`/proc/${pid}/cmdline`, "utf8"),
      });
    } catch {}
  }
  return out;
}

const isChromium = (p) => /chrom/i.test(p.cmd.split("\0")[0] ?? "");
const isBrowser = (p) => isChromium(p) && !p.cmd.includes("--type=");

/** The browser's profile directory (miniflare gives each launch its own). */
export function userDataDir(p) {
  return /--user-data-dir=([^\0]+)/.exec(p.cmd)?.[1] ?? null;
}

/**
 * Chromium processes descending from `rootPid`: `browsers` (no --type=), `all` of them, their
 * RSS and count.
 */
export function chromiumUnder(rootPid, all = processes()) {
  const byParent = new Map();
  for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const mine = [];
  const stack = [rootPid];
  while (stack.length) {
    for (const c of byParent.get(stack.pop()) ?? []) {
      if (isChromium(c)) mine.push(c);
      stack.push(c.pid);
    }
  }
  return {
    browsers: mine.filter(isBrowser),
    all: mine,
    rss: mine.reduce((s, p) => s + p.rss, 0),
    processes: mine.length,
  };
}

/**
 * Which of the browsers in `seen` (processes once listed by `chromiumUnder`) still run, with
 * every Chromium process of their process groups. Matched by pid and profile dir, so a recycled
 * pid is not mistaken for one of them.
 */
export function stillAlive(seen, all = processes()) {
  const key = (p) => `${p.pid} ${userDataDir(p)}`;
  const wanted = new Set(seen.filter(isBrowser).map(key));
  const browsers = all.filter((p) => isBrowser(p) && wanted.has(key(p)));
  const groups = new Set(browsers.map((b) => b.pgid));
  return { browsers, all: all.filter((p) => isChromium(p) && groups.has(p.pgid)) };
}

/**
 * Waits up to `graceMs` for the browsers in `seen` to exit, then SIGKILLs what is left (each
 * browser's process group, as miniflare itself does). `leftBehind`: the browsers that outlived
 * the grace period (what a check reports); `killed`: their pids; `gone`: whether none is left.
 */
export async function reapChromium(seen, { graceMs = 5000 } = {}) {
  let alive = stillAlive(seen);
  for (const until = Date.now() + graceMs; alive.browsers.length && Date.now() < until;) {
    await sleep(100);
    alive = stillAlive(seen);
  }
  const leftBehind = alive.browsers;
  for (const b of leftBehind) {
    for (const target of [-b.pgid, b.pid])
      try {
        process.kill(target, "SIGKILL");
      } catch {}
  }
  for (let i = 0; i < 50 && stillAlive(seen).browsers.length; i++) await sleep(100);
  return {
    leftBehind: leftBehind.map((p) => ({ pid: p.pid, userDataDir: userDataDir(p) })),
    killed: leftBehind.map((p) => p.pid),
    gone: stillAlive(seen).browsers.length === 0,
  };
}

/**
 * Records every browser that ever runs under `rootPid` (polling every `everyMs`), so the ones
 * that outlive it can be found after the process tree no longer leads to them.
 */
export function watchChromium(rootPid, everyMs = 1000) {
  const seen = new Map();
  const poll = () => {
    for (const b of chromiumUnder(rootPid).browsers) seen.set(`${b.pid} ${userDataDir(b)}`, b);
  };
  poll();
  const timer = setInterval(poll, everyMs);
  timer.unref?.();
  return {
    poll,
    /** Every browser seen so far. */
    seen: () => (poll(), [...seen.values()]),
    stop: () => clearInterval(timer),
  };
}
