/**
 * Reading a byte stream whole, never more than a cap: the one capped reader (request bodies,
 * idempotency fingerprints, outbound fetches, gzipped sitemaps). A leaf: it imports nothing.
 */

/** A stream read whole, or why not: past the cap, or an error mid-way (a reset, bad gzip). */
export type CappedRead =
  { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; reason: "too-large" | "broken" };

/**
 * All of `reader`'s stream, never more than `max` bytes. Past `max` the rest is cancelled, or
 * left to the caller (to drain it, say) with `{ keepRest: true }`.
 */
export async function readAllCapped(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  max: number,
  { keepRest = false }: { keepRest?: boolean } = {},
): Promise<CappedRead> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch {
      return { ok: false, reason: "broken" };
    }
    if (step.done) break;
    total += step.value.byteLength;
    if (total > max) {
      if (!keepRest) await reader.cancel().catch(() => {});
      return { ok: false, reason: "too-large" };
    }
    chunks.push(step.value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}
