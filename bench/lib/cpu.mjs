// CPU spent per batch, split by who spent it. On this machine throughput at c=4 is bounded by
// CPU, so "CPU milliseconds per capture" says what the latency columns cannot: how much work a
// capture costs, and where (floor browser, service browser, the service's runtime, the client).
//
// Read from /proc at batch boundaries (outside every timing): a process tree's CPU is the sum of
// utime + stime + cutime + cstime over its live processes. A renderer that exits is reaped by
// Chromium's zygote, so its CPU moves into the zygote's cutime and stays counted.
import { readFileSync, readdirSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux

function stat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    // fields after ")": state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14)
    return {
      ppid: Number(f[1]),
      ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]),
    };
  } catch {
    return null;
  }
}

/**
 * A Chromium process's kind: "browser", its --type (renderer, gpu-process, utility, zygote; a
 * zygote's CPU includes the renderers it reaped) or null for any other program.
 */
function chromiumKind(pid) {
  try {
    // Chromium rewrites its process title: the arguments may be one space-separated string.
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/[\0 ]/);
    const exe = argv[0] ?? "";
    if (!/(^|\/)(chromium|chrome)$/.test(exe) && !exe.includes("/chromium/chromium")) return null;
    const type = argv.find((a) => a.startsWith("--type="));
    return type ? type.slice("--type=".length) : "browser";
  } catch {
    return null;
  }
}

/** A runtime process's program name ("workerd", "node", …), from its comm. */
function runtimeKind(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "exited";
  }
}

/** Machine-wide busy time (all CPUs), in ms. */
function machineMs() {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3] + v[4]; // idle + iowait
  return (v.reduce((a, b) => a + b, 0) - idle) * TICK_MS;
}

/**
 * CPU so far (ms) of: the floor's browser tree, the service's browser tree (Chromium under
 * wrangler), the service's runtime (wrangler, workerd and their other children), this process,
 * and the whole machine.
 */
export function cpuSnapshot({ floorPid, wranglerPid }) {
  const procs = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    const s = stat(Number(d));
    if (s) procs.set(Number(d), s);
  }
  const under = (pid, root) => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
      if (p === root) return true;
      p = procs.get(p)?.ppid ?? 0;
    }
    return false;
  };
  /**
   * A Chromium process's kind; one whose cmdline is gone (a renderer exiting, or exited and not
   * yet reaped by its zygote) is "exited" when its parent is Chromium. It counted as the
   * runtime's, and its CPU moved to Chromium's at the next snapshot, once the zygote reaped it.
   */
  const kindOf = (pid, s) => chromiumKind(pid) ?? (chromiumKind(s.ppid) ? "exited" : null);
  const out = { floor: 0, serviceBrowser: 0, serviceRuntime: 0 };
  /** Per process kind, per system: "floor:renderer", "service:gpu-process", "service:workerd", … */
  const kinds = {};
  const add = (key, ms) => (kinds[key] = (kinds[key] ?? 0) + ms);
  for (const [pid, s] of procs) {
    const ms = s.ticks * TICK_MS;
    if (floorPid && under(pid, floorPid)) {
      out.floor += ms;
      add(`floor:${kindOf(pid, s)}`, ms);
    } else if (wranglerPid && under(pid, wranglerPid)) {
      const kind = kindOf(pid, s);
      out[kind ? "serviceBrowser" : "serviceRuntime"] += ms;
      add(`service:${kind ?? runtimeKind(pid)}`, ms);
    }
  }
  const own = process.cpuUsage();
  return { ...out, client: (own.user + own.system) / 1000, machine: machineMs(), kinds };
}

/** Per-capture CPU (ms) between two snapshots. */
export function cpuPerCapture(before, after, n) {
  const per = (k) => Math.round(((after[k] - before[k]) / n) * 10) / 10;
  return {
    floor: per("floor"),
    serviceBrowser: per("serviceBrowser"),
    serviceRuntime: per("serviceRuntime"),
    client: per("client"),
    machine: per("machine"),
    kinds: Object.fromEntries(
      Object.keys(after.kinds).map((k) => [
        k,
        Math.round((((after.kinds[k] ?? 0) - (before.kinds[k] ?? 0)) / n) * 10) / 10,
      ]),
    ),
  };
}
