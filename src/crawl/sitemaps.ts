/**
 * Sitemaps (sitemaps.org): the page URLs a site lists, read through sitemap indexes, gzipped or
 * not. XML is read with fast-xml-parser: pure JavaScript (no DOM, which a Worker lacks), fast on
 * the 50 MB a sitemap may weigh, and bounded against entity expansion and deep nesting by
 * default. Namespace prefixes are dropped, so `<sm:loc>` reads like `<loc>`. A plain-text
 * sitemap (one URL a line, also sitemaps.org) is read too.
 */
import { XMLParser } from "fast-xml-parser";
import { readAllCapped } from "../streams";
import { normalizeUrl } from "./urls";

/** The most one sitemap may weigh uncompressed (sitemaps.org: 50 MB). */
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** Index levels followed below a seed: seed (0) → listed sitemaps (1) → (2) → (3). */
export const SITEMAP_MAX_DEPTH = 3;

export type Sitemap =
  /** `lastmod`: the `<lastmod>` of the entries that have one, by `<loc>` as written. */
  | { kind: "urlset"; urls: string[]; lastmod?: Record<string, string> }
  | { kind: "index"; sitemaps: string[] };

/** A sitemap past SITEMAP_MAX_BYTES once decompressed, or gzip that does not decompress. */
export class SitemapReadError extends Error {
  override name = "SitemapReadError";
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => name === "url" || name === "sitemap",
});

/** A field of an entry: two of it (an extension's, once prefixes are dropped) read as a list: the first is ours. */
function first(entry: Record<string, unknown>, name: string): string | null {
  const raw: unknown = entry[name];
  const value: unknown = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/**
 * `<loc>` of each entry (`<url>` or `<sitemap>`), trimmed; entries without one are skipped.
 * `lastmod` collects the `<lastmod>` of those that have one.
 */
function locs(entries: unknown, lastmod?: Record<string, string>): string[] {
  if (!Array.isArray(entries)) return [];
  const out: string[] = [];
  for (const entry of entries) {
    if (typeof entry !== "object" || entry === null) continue;
    const loc = first(entry as Record<string, unknown>, "loc");
    if (loc === null) continue;
    out.push(loc);
    const modified = lastmod && first(entry as Record<string, unknown>, "lastmod");
    if (lastmod && modified) lastmod[loc] = modified;
  }
  return out;
}

/** A text sitemap: every non-blank line an absolute http(s) URL. */
function textSitemap(text: string): Sitemap | null {
  const lines = text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (lines.length === 0 || !lines.every((l) => /^https?:\/\/\S+$/i.test(l))) return null;
  return { kind: "urlset", urls: lines };
}

/**
 * A `<urlset>` (its `<url><loc>`s), a `<sitemapindex>` (its `<sitemap><loc>`s) or a text
 * sitemap; null for anything else (HTML, a feed, XML that does not parse). Locations are
 * returned as written: `collectSitemapUrls` resolves and filters them.
 */
export function parseSitemap(xml: string): Sitemap | null {
  const text = xml.replace(/^\uFEFF/, "").trim();
  if (!text.startsWith("<")) return textSitemap(text);
  let doc: unknown;
  try {
    doc = parser.parse(text);
  } catch {
    return null;
  }
  if (typeof doc !== "object" || doc === null) return null;
  const root = doc as Record<string, unknown>;
  if ("urlset" in root) {
    const set = root.urlset;
    const lastmod: Record<string, string> = {};
    const urls =
      typeof set === "object" && set ? locs((set as Record<string, unknown>).url, lastmod) : [];
    return Object.keys(lastmod).length > 0
      ? { kind: "urlset", urls, lastmod }
      : { kind: "urlset", urls };
  }
  if ("sitemapindex" in root) {
    const index = root.sitemapindex;
    return {
      kind: "index",
      sitemaps:
        typeof index === "object" && index ? locs((index as Record<string, unknown>).sitemap) : [],
    };
  }
  return null;
}

const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** All of `stream`, throwing once it passes `max` bytes (and cancelling the rest). */
async function readCapped(stream: ReadableStream<Uint8Array>, max: number, url: string) {
  const read = await readAllCapped(stream.getReader(), max);
  if (read.ok) return read.bytes;
  throw new SitemapReadError(
    read.reason === "broken"
      ? `sitemap ${url}: gzip data does not decompress`
      : `sitemap ${url}: larger than ${max} bytes uncompressed`,
  );
}

/** The charset a Content-Type names, if TextDecoder knows it; UTF-8 otherwise (sitemaps.org). */
function decoderFor(contentType: string | null): TextDecoder {
  const label = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(label ?? "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

/**
 * The text of a fetched sitemap. gzip is recognised by its magic bytes (1f 8b), not by the
 * `.gz` name or a gzip Content-Type: a `.xml.gz` served with `Content-Encoding: gzip` arrives
 * already decoded by fetch, and XML never starts with 0x1f. Decompressed with
 * DecompressionStream, streamed and cut off past SITEMAP_MAX_BYTES (a gzip bomb stops there);
 * throws SitemapReadError past the cap or on corrupt gzip. `url` only names the document in
 * errors.
 */
export async function sitemapText(
  bytes: Uint8Array,
  url: string,
  contentType: string | null,
): Promise<string> {
  let plain = bytes;
  if (isGzip(bytes)) {
    const source = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    plain = await readCapped(source, SITEMAP_MAX_BYTES, url);
  } else if (bytes.byteLength > SITEMAP_MAX_BYTES) {
    throw new SitemapReadError(`sitemap ${url}: larger than ${SITEMAP_MAX_BYTES} bytes`);
  }
  return decoderFor(contentType).decode(plain);
}

export interface SitemapLimits {
  /** Page URLs to collect at most. */
  maxUrls: number;
  /** Sitemap documents to fetch at most (seeds included; a failed fetch counts). */
  maxDocuments: number;
}

/**
 * The page URLs the sitemaps at `seeds` list, breadth first through indexes (SITEMAP_MAX_DEPTH
 * levels below a seed), in document order: normalised (`normalizeUrl`, relative locations
 * resolved against their sitemap), http(s) only, without duplicates. No document is fetched
 * twice (an index listing itself, two indexes listing one sitemap). `truncated` is true when a
 * limit left something out: a URL past `maxUrls`, or a sitemap past `maxDocuments` or the depth.
 * `fetchDoc` returns a document's bytes, or null when it could not be fetched (it is skipped);
 * what does not read or parse as a sitemap is skipped too.
 */
export async function collectSitemapUrls(
  seeds: string[],
  fetchDoc: (url: string) => Promise<Uint8Array | null>,
  limits: SitemapLimits,
): Promise<SitemapUrls> {
  const urls = new Set<string>();
  // `<lastmod>` by normalised URL (epoch ms; the latest when a URL is listed twice).
  const lastmod: Record<string, number> = {};
  const done = (cut: boolean): SitemapUrls =>
    Object.keys(lastmod).length > 0
      ? { urls: [...urls], truncated: cut, lastmod }
      : { urls: [...urls], truncated: cut };
  const seen = new Set<string>();
  const queue: Array<{ url: string; depth: number }> = [];
  const enqueue = (loc: string, base: string | undefined, depth: number): void => {
    const url = normalizeUrl(loc, base);
    if (url === null || seen.has(url)) return;
    seen.add(url);
    queue.push({ url, depth });
  };
  for (const seed of seeds) enqueue(seed, undefined, 0);

  let fetched = 0;
  let truncated = false;
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (fetched >= limits.maxDocuments) return done(true);
    fetched++;
    const bytes = await fetchDoc(next.url).catch(() => null);
    if (bytes === null) continue;
    let sitemap: Sitemap | null;
    try {
      sitemap = parseSitemap(await sitemapText(bytes, next.url, null));
    } catch {
      continue;
    }
    if (sitemap === null) continue;
    if (sitemap.kind === "index") {
      if (next.depth >= SITEMAP_MAX_DEPTH) {
        truncated ||= sitemap.sitemaps.length > 0;
        continue;
      }
      for (const loc of sitemap.sitemaps) enqueue(loc, next.url, next.depth + 1);
      continue;
    }
    for (const loc of sitemap.urls) {
      const url = normalizeUrl(loc, next.url);
      if (url === null) continue;
      if (!urls.has(url)) {
        if (urls.size >= limits.maxUrls) return done(true);
        urls.add(url);
      }
      const modified = Date.parse(sitemap.lastmod?.[loc] ?? "");
      if (!Number.isNaN(modified)) lastmod[url] = Math.max(lastmod[url] ?? modified, modified);
    }
  }
  return done(truncated);
}

/**
 * The page URLs sitemaps list; `lastmod`, when any entry had one, their `<lastmod>` (epoch ms,
 * by normalised URL: an incremental crawl's `modifiedSince` skips those before it).
 */
export interface SitemapUrls {
  urls: string[];
  truncated: boolean;
  lastmod?: Record<string, number>;
}
