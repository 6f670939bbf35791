/**
 * Where a render link's output lives once rendered, fastest first:
 *   0. this isolate's memory: small outputs (an og:image card, a thumbnail) read from tier 1,
 *      bounded in count of bytes, least recently used out first — a hot link is answered with
 *      no subrequest at all;
 *   1. the Workers Cache API (`caches.default`, this data centre), keyed by a synthetic URL;
 *   2. KV `RENDER_CACHE` `render:<cacheKey>` → RenderEntry (expirationTtl = cacheTtl);
 *   3. the R2 object the entry names (its own expiry in metadata, like every hosted output).
 * Every cache tier holds the response headers of the render, so a hit answers exactly as the
 * miss did. An output never changes under its key (the key is the hash of the signed
 * parameters), so the tiers need no invalidation: each entry only expires.
 */
import { z } from "zod";
import { TUNING } from "../tuning";
import { objectLifetime } from "./hosted";

export const renderEntrySchema = z.object({
  r2Key: z.string(),
  contentType: z.string(),
  size: z.number(),
  /** Unix seconds: when the cached output (R2 object, KV entry) expires. */
  expires: z.number(),
  /** The capture headers of the render (content type, x-screenshot-*, x-service-*). */
  headers: z.record(z.string(), z.string()),
});
export type RenderEntry = z.output<typeof renderEntrySchema>;

const kvKey = (cacheKey: string) => `render:${cacheKey}`;

export async function readEntry(env: Env, cacheKey: string): Promise<RenderEntry | null> {
  const parsed = renderEntrySchema.safeParse(await env.RENDER_CACHE.get(kvKey(cacheKey), "json"));
  return parsed.success ? parsed.data : null;
}

export function writeEntry(
  env: Env,
  cacheKey: string,
  entry: RenderEntry,
  ttlSeconds: number,
): Promise<void> {
  return env.RENDER_CACHE.put(kvKey(cacheKey), JSON.stringify(entry), {
    expirationTtl: ttlSeconds,
  });
}

/** The entry's R2 object with its bytes, or null when it is gone or past its expiry. */
export async function liveObject(env: Env, entry: RenderEntry): Promise<R2ObjectBody | null> {
  const object = await env.OUTPUTS.get(entry.r2Key);
  if (object && objectLifetime(object) > 0) return object;
  await object?.body.cancel();
  return null;
}

/** Same, without reading the bytes (the coalescer only needs to know the output is still there). */
export async function isLive(env: Env, entry: RenderEntry): Promise<boolean> {
  const object = await env.OUTPUTS.head(entry.r2Key);
  return object !== null && objectLifetime(object) > 0;
}

/** The edge-cache tier. Its key is not a URL anyone can request; it only names the cache key. */
const EDGE_ORIGIN = "https://render-cache.edgeshot.invalid";
/** Internal header on edge-cached copies: the output's expiry (Unix seconds). Never served. */
const EXPIRES_HEADER = "x-edgeshot-render-expires";

export const edgeRequest = (cacheKey: string): Request => new Request(`${EDGE_ORIGIN}/${cacheKey}`);

export interface EdgeHit {
  /** Bytes when the output came from (or just went into) this isolate's memory. */
  body: ReadableStream | Uint8Array | null;
  headers: Headers;
  /** Unix seconds. */
  expires: number;
}

/**
 * A cached output, from this isolate's memory or the edge cache. An edge hit small enough for
 * memory is read whole and kept there for the next request.
 */
export async function edgeMatch(cacheKey: string): Promise<EdgeHit | null> {
  const now = Math.floor(Date.now() / 1000);
  const kept = memory.get(cacheKey);
  if (kept) {
    forgetKept(cacheKey);
    if (kept.expires > now) {
      remember(cacheKey, kept); // most recently used last
      return { body: kept.body, headers: new Headers(kept.headers), expires: kept.expires };
    }
  }
  const cached = await caches.default.match(edgeRequest(cacheKey));
  if (!cached) return null;
  const headers = new Headers(cached.headers);
  const expires = Number(headers.get(EXPIRES_HEADER));
  headers.delete(EXPIRES_HEADER);
  if (!(expires > now)) {
    await cached.body?.cancel();
    return null;
  }
  const length = Number(headers.get("content-length"));
  if (!(length > 0 && length <= TUNING.renderMemoryEntryBytes)) {
    return { body: cached.body, headers, expires };
  }
  const body = new Uint8Array(await cached.arrayBuffer());
  remember(cacheKey, { body, headers: [...headers], expires });
  return { body, headers, expires };
}

interface KeptOutput {
  body: Uint8Array;
  headers: [string, string][];
  /** Unix seconds. */
  expires: number;
}

/** Tier 0: insertion order is recency (a hit moves its entry last). */
const memory = new Map<string, KeptOutput>();
let memoryBytes = 0;

/** Drops an output from this isolate's memory (tests walk the tiers below it). */
export function forgetKept(cacheKey: string): void {
  const kept = memory.get(cacheKey);
  if (!kept) return;
  memory.delete(cacheKey);
  memoryBytes -= kept.body.byteLength;
}

function remember(cacheKey: string, output: KeptOutput): void {
  memory.set(cacheKey, output);
  memoryBytes += output.body.byteLength;
  for (const [key, old] of memory) {
    if (memoryBytes <= TUNING.renderMemoryBytes) break;
    memory.delete(key);
    memoryBytes -= old.body.byteLength;
  }
}

/** Stores a copy of a served response (its body must be unread) until the output expires. */
export function edgePut(cacheKey: string, response: Response, expires: number): Promise<void> {
  const headers = new Headers(response.headers);
  const maxAge = expires - Math.floor(Date.now() / 1000);
  if (maxAge <= 0) return response.body?.cancel() ?? Promise.resolve();
  headers.set("cache-control", `public, max-age=${maxAge}`);
  headers.set(EXPIRES_HEADER, String(expires));
  headers.delete("x-service-cache");
  return caches.default.put(
    edgeRequest(cacheKey),
    new Response(response.body, { status: 200, headers }),
  );
}

/**
 * Headers of a served output: the render's, and a public cache lifetime that ends when the
 * cached output or the link expires, whichever comes first.
 */
export function servedHeaders(
  base: Headers | Record<string, string>,
  expires: number,
  linkExp: number,
  cache: "hit" | "miss",
): Headers {
  const headers = new Headers(base);
  const maxAge = Math.max(0, Math.min(expires, linkExp) - Math.floor(Date.now() / 1000));
  headers.set("cache-control", `public, max-age=${maxAge}, s-maxage=${maxAge}`);
  headers.set("x-service-cache", cache);
  return headers;
}
