// Small, dependency-free statistics and output checks for the bench.

/** Percentile by linear interpolation between closest ranks (R type 7, numpy's default). */
function percentile(values, p) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return s[lo] + (s[hi] - s[lo]) * (h - lo);
}

export const median = (values) => percentile(values, 0.5);
export const mean = (values) =>
  values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN;

/** Summary of one batch: latencies in ms, wall time of the whole batch in ms. */
export function summarize(latencies, wallMs) {
  return {
    n: latencies.length,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    mean: mean(latencies),
    throughput: latencies.length / (wallMs / 1000),
    wallMs,
  };
}

/** Median over repetitions of each metric. */
export function medianOfReps(reps) {
  const keys = ["p50", "p95", "mean", "throughput"];
  return Object.fromEntries(keys.map((k) => [k, median(reps.map((r) => r[k]))]));
}

const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Checks that bytes are a complete PNG (signature, IHDR first, IEND last) and returns its size.
 * Throws with a precise reason otherwise.
 */
function pngSize(buf) {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf);
  if (b.length < 45) throw new Error(`not a PNG: only ${b.length} bytes`);
  if (!b.subarray(0, 8).equals(PNG_SIG))
    throw new Error(`not a PNG: starts with ${b.subarray(0, 8).toString("hex")}`);
  if (b.toString("latin1", 12, 16) !== "IHDR") throw new Error("PNG without IHDR first");
  if (b.toString("latin1", b.length - 8, b.length - 4) !== "IEND")
    throw new Error("PNG truncated: no IEND at the end");
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), bytes: b.length };
}

/** expect: {width, height} exact, or {width, minHeight}. Throws on mismatch. */
export function checkPng(buf, expect) {
  const s = pngSize(buf);
  if (s.width !== expect.width)
    throw new Error(`PNG is ${s.width}×${s.height}, expected width ${expect.width}`);
  if (expect.height !== undefined && s.height !== expect.height) {
    throw new Error(`PNG is ${s.width}×${s.height}, expected ${expect.width}×${expect.height}`);
  }
  if (expect.minHeight !== undefined && s.height < expect.minHeight) {
    throw new Error(
      `PNG is ${s.width}×${s.height}, expected height ≥ ${expect.minHeight} (full page)`,
    );
  }
  return s;
}

/** Parses a Server-Timing header into {name: durMs}. */
export function parseServerTiming(header) {
  const out = {};
  if (!header) return out;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().split(";");
    const dur = params.map((p) => /^\s*dur=([\d.]+)/.exec(p)).find(Boolean);
    if (name && dur) out[name.trim()] = Number(dur[1]);
  }
  return out;
}

/** Kilobytes (as /proc reports them) to megabytes, one decimal. */
export const mb = (kb) => Math.round((kb / 1024) * 10) / 10;
