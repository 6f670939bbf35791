/**
 * Tier 0 of the render cache (src/storage/render-cache.ts): an output small enough is kept in
 * the isolate's memory after its first edge-cache hit and answered from there — until it
 * expires, and within the memory bound (least recently used out first).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { edgeMatch, edgePut, edgeRequest, forgetKept } from "../../src/storage/render-cache";
import { TUNING } from "../../src/tuning";

const now = () => Math.floor(Date.now() / 1000);
let seq = 0;
const newKey = () => `memory-test-${Date.now()}-${seq++}`;

function output(bytes: number, fill: number): Response {
  return new Response(new Uint8Array(bytes).fill(fill), {
    headers: { "content-type": "image/png", etag: `"e${fill}"` },
  });
}

async function bytesOf(hit: Awaited<ReturnType<typeof edgeMatch>>): Promise<Uint8Array | null> {
  if (!hit) return null;
  return new Uint8Array(await new Response(hit.body).arrayBuffer());
}

/** Stores an output at the edge and reads it once (which is what puts it in memory). */
async function cachedAndRead(key: string, bytes: number, fill: number, ttl = 60) {
  await edgePut(key, output(bytes, fill), now() + ttl);
  return bytesOf(await edgeMatch(key));
}

afterEach(() => {
  vi.useRealTimers();
});

describe("render outputs in the isolate's memory", () => {
  it("an edge hit is kept: served with its headers when the edge entry is gone", async () => {
    const key = newKey();
    expect(await cachedAndRead(key, 2048, 7)).toEqual(new Uint8Array(2048).fill(7));
    await caches.default.delete(edgeRequest(key));
    const hit = await edgeMatch(key);
    expect(hit?.headers.get("etag")).toBe('"e7"');
    expect(hit?.headers.get("content-type")).toBe("image/png");
    expect(await bytesOf(hit)).toEqual(new Uint8Array(2048).fill(7));
    forgetKept(key);
    expect(await edgeMatch(key)).toBeNull();
  });

  it("an expired output is not served from memory", async () => {
    const key = newKey();
    await cachedAndRead(key, 1024, 1, 30);
    await caches.default.delete(edgeRequest(key));
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 31_000 });
    expect(await edgeMatch(key)).toBeNull();
  });

  it("an output over the per-entry bound is not kept", async () => {
    const key = newKey();
    const size = TUNING.renderMemoryEntryBytes + 1;
    expect((await cachedAndRead(key, size, 3))?.byteLength).toBe(size);
    await caches.default.delete(edgeRequest(key));
    expect(await edgeMatch(key)).toBeNull();
  });

  it("past the memory bound the least recently used outputs go first", async () => {
    const size = TUNING.renderMemoryEntryBytes;
    // One more than fits: exactly one output has to go.
    const count = Math.floor(TUNING.renderMemoryBytes / size) + 1;
    const keys = Array.from({ length: count }, newKey);
    await cachedAndRead(keys[0] ?? "", size, 0);
    await cachedAndRead(keys[1] ?? "", size, 1);
    // Using the first again makes the second the least recently used.
    await caches.default.delete(edgeRequest(keys[0] ?? ""));
    expect(await edgeMatch(keys[0] ?? "")).not.toBeNull();
    for (const [i, key] of keys.slice(2).entries()) await cachedAndRead(key, size, (i + 2) % 256);
    for (const key of keys) await caches.default.delete(edgeRequest(key));

    expect(await edgeMatch(keys[1] ?? "")).toBeNull();
    expect(await bytesOf(await edgeMatch(keys[0] ?? ""))).toEqual(new Uint8Array(size).fill(0));
    expect(await bytesOf(await edgeMatch(keys[2] ?? ""))).toEqual(new Uint8Array(size).fill(2));
    const last = keys[count - 1] ?? "";
    expect(await bytesOf(await edgeMatch(last))).toEqual(
      new Uint8Array(size).fill((count - 1) % 256),
    );
    for (const key of keys) forgetKept(key);
  });
});
