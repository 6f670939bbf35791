// One batch (bench/README.md, "The numbers"): a system's one-request function run n times with
// c in flight, timed, and summarised — latency percentiles, throughput, CPU per request around
// the batch (bench/lib/cpu.mjs) and what the outputs said (service timings, sizes, heights).
import { cpuPerCapture, cpuSnapshot } from "./cpu.mjs";
import { checkDeadline, state, withTimeout } from "./lifecycle.mjs";
import { median, summarize } from "./stats.mjs";
import { epochMs } from "./cdp-counter.mjs";
import { REQUEST_TIMEOUT_MS } from "../scenarios/catalog.mjs";

/** Runs `one` n times with c in flight; the first error stops new work and is rethrown. */
export async function runBatch(one, n, c) {
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
        const start = epochMs();
        const r = await withTimeout(one(i), REQUEST_TIMEOUT_MS + 30_000, "request");
        latencies.push(r.ms);
        extras.push({ ...r, window: [start, epochMs()] });
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
    // The complete scenario: how many captures passed their page's pixel checks, what the rest missed.
    complete: extras.some((e) => typeof e.complete === "boolean")
      ? {
          complete: extras.filter((e) => e.complete).length,
          of: extras.length,
          missing: [...new Set(extras.flatMap((e) => e.missing ?? []))],
        }
      : undefined,
    /** Each request's [start, end], epoch ms (the CDP proxy's own round trips per capture). */
    windows: extras.map((e) => e.window),
  };
}
