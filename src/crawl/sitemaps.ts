/**
 * Sitemaps (sitemaps.org): the page URLs a site lists, read through sitemap indexes, gzipped or
 * not. A sitemap is read as a stream of entries, never as a whole: its bytes are decoded (and
 * gunzipped) a slice at a time and a small scanner hands each entry's `<loc>` and `<lastmod>` on
 * as its `</url>` (or `</sitemap>`) passes, so a read holds one slice and one entry whatever the
 * document's size, and stops as soon as its caller has enough. (A whole-document XML parser
 * built a tree of every entry: ~5 KB a URL, and a map of 100,000 sitemap URLs crashed workerd.)
 * The scanner knows only what a sitemap needs: elements by their local name (`<sm:loc>` reads
 * like `<loc>`), character data, CDATA, the five predefined entities and character references;
 * comments, processing instructions and a DOCTYPE (its internal subset too: no entity is ever
 * expanded) are skipped. A plain-text sitemap (one URL a line, also sitemaps.org) is read too.
 */
import { normalizeUrl } from "./urls";

/** The most one sitemap may weigh uncompressed (sitemaps.org: 50 MB). */
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** Index levels followed below a seed: seed (0) → listed sitemaps (1) → (2) → (3). */
export const SITEMAP_MAX_DEPTH = 3;
/** Bytes decoded and scanned at a time. */
const SLICE_BYTES = 256 * 1024;
/** The longest piece (a line, a tag, a comment, a field's text) read; past it the read ends. */
const PIECE_MAX_CHARS = 1024 * 1024;

/** A `<urlset>` (or a text sitemap) lists pages; a `<sitemapindex>` lists sitemaps. */
export type SitemapKind = "urlset" | "index";

/**
 * Each entry of a sitemap as it is read: `<url>` of a urlset (or a text sitemap's line),
 * `<sitemap>` of an index, with its first `<loc>` as written (entities decoded, trimmed) and its
 * `<lastmod>` (null when none). Entries without a `<loc>` are not handed on. Returning false
 * stops the read.
 */
export type SitemapEntry = (kind: SitemapKind, loc: string, lastmod: string | null) => boolean;

/** A sitemap past SITEMAP_MAX_BYTES once decompressed, or gzip that does not decompress. */
export class SitemapReadError extends Error {
  override name = "SitemapReadError";
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** The predefined entities and character references decoded; anything else left as written. */
function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (ref, name) => {
    if (!name.startsWith("#")) return ENTITIES[name] ?? ref;
    const code =
      name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ref;
  });
}

/** The local name of a tag's text (`sm:loc attr="…"` → `loc`). */
function localName(tag: string): string {
  const name = /^[^\s/>]+/.exec(tag)?.[0] ?? "";
  return name.slice(name.indexOf(":") + 1);
}

/**
 * Where the markup starting at `from` ends (its `>`), outside quoted values and, for a
 * DOCTYPE, outside its `[…]` internal subset; -1 when it is not all in `text` yet.
 */
function markupEnd(text: string, from: number): number {
  let quote = "";
  let brackets = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[") brackets++;
    else if (c === "]") brackets = Math.max(0, brackets - 1);
    else if (c === ">" && brackets === 0) return i;
  }
  return -1;
}

/**
 * The scanner: fed a sitemap's text a slice at a time, it hands each entry to `onEntry` as it
 * completes. `kind` is what the document turned out to be (null: not a sitemap, or not known
 * yet); `done` is set once nothing more is wanted (the root closed, the caller stopped, or the
 * document is not a sitemap).
 */
class SitemapScanner {
  kind: SitemapKind | null = null;
  done = false;
  /** A text sitemap with a line that is not a URL (what came before it was handed on). */
  invalid = false;
  private started = false;
  private textMode = false;
  private buf = "";
  /** Elements open. */
  private depth = 0;
  private inEntry = false;
  private field: "loc" | "lastmod" | null = null;
  private value = "";
  private loc: string | null = null;
  private lastmod: string | null = null;

  constructor(private readonly onEntry: SitemapEntry) {}

  feed(chunk: string, final: boolean): void {
    if (this.done) return;
    this.buf += chunk;
    if (!this.started) {
      this.buf = this.buf.replace(/^\uFEFF?\s*/, "");
      if (this.buf === "" && !final) return;
      this.started = true;
      this.textMode = !this.buf.startsWith("<");
    }
    const consumed = this.textMode ? this.lines(final) : this.markup();
    this.buf = this.buf.slice(consumed);
    // One line, markup or field's text larger than this is no sitemap's: the read ends there.
    if (final || this.buf.length > PIECE_MAX_CHARS || this.value.length > PIECE_MAX_CHARS)
      this.done = true;
  }

  /** A text sitemap: every non-blank line an absolute http(s) URL. Returns what was consumed. */
  private lines(final: boolean): number {
    let pos = 0;
    const breaks = /\r\n|\r|\n/g;
    for (;;) {
      breaks.lastIndex = pos;
      const br = breaks.exec(this.buf);
      // A CR at the very end may be the first half of a CRLF.
      if (!br || (br[0] === "\r" && br.index === this.buf.length - 1 && !final)) {
        if (!final) return pos;
        this.line(this.buf.slice(pos));
        return this.buf.length;
      }
      this.line(this.buf.slice(pos, br.index));
      pos = br.index + br[0].length;
      if (this.done) return pos;
    }
  }

  private line(raw: string): void {
    const line = raw.trim();
    if (line === "" || this.done) return;
    if (!/^https?:\/\/\S+$/i.test(line)) {
      this.invalid = true;
      this.done = true;
      return;
    }
    this.kind = "urlset";
    if (!this.onEntry("urlset", line, null)) this.done = true;
  }

  /** XML: markup and character data up to the last complete piece. Returns what was consumed. */
  private markup(): number {
    const buf = this.buf;
    let pos = 0;
    while (!this.done) {
      const lt = buf.indexOf("<", pos);
      if (lt === -1) {
        // Character data runs on; inside a field it is kept whole until its markup comes.
        if (this.field === null) return buf.length;
        return pos;
      }
      if (this.field !== null && lt > pos) this.value += decodeEntities(buf.slice(pos, lt));
      pos = lt;
      if (buf.startsWith("<!--", lt)) {
        const end = buf.indexOf("-->", lt + 4);
        if (end === -1) return pos;
        pos = end + 3;
      } else if (buf.startsWith("<![CDATA[", lt)) {
        const end = buf.indexOf("]]>", lt + 9);
        if (end === -1) return pos;
        if (this.field !== null) this.value += buf.slice(lt + 9, end);
        pos = end + 3;
      } else if (buf.startsWith("<?", lt)) {
        const end = buf.indexOf("?>", lt + 2);
        if (end === -1) return pos;
        pos = end + 2;
      } else {
        const end = markupEnd(buf, lt + 1);
        if (end === -1) return pos;
        const tag = buf.slice(lt + 1, end);
        pos = end + 1;
        if (tag.startsWith("!")) continue; // a DOCTYPE
        if (tag.startsWith("/")) this.close();
        else this.open(localName(tag), tag.endsWith("/"));
      }
    }
    return pos;
  }

  private open(name: string, empty: boolean): void {
    if (this.depth === 0) {
      this.kind = name === "urlset" ? "urlset" : name === "sitemapindex" ? "index" : null;
      if (this.kind === null || empty) {
        this.done = true;
        return;
      }
    } else if (this.depth === 1) {
      this.inEntry = !empty && name === (this.kind === "urlset" ? "url" : "sitemap");
      this.loc = null;
      this.lastmod = null;
    } else if (
      this.depth === 2 &&
      this.inEntry &&
      !empty &&
      (name === "loc" || name === "lastmod")
    ) {
      this.field = name;
      this.value = "";
    }
    if (!empty) this.depth++;
  }

  private close(): void {
    this.depth = Math.max(0, this.depth - 1);
    if (this.depth === 2 && this.field !== null) {
      const value = this.value.trim();
      if (this.field === "loc") this.loc ??= value || null;
      else this.lastmod ??= value || null;
      this.field = null;
      this.value = "";
    } else if (this.depth === 1 && this.inEntry) {
      this.inEntry = false;
      if (
        this.loc !== null &&
        this.kind !== null &&
        !this.onEntry(this.kind, this.loc, this.lastmod)
      )
        this.done = true;
    } else if (this.depth === 0) this.done = true;
  }
}

const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

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
 * Reads a fetched sitemap, handing each entry to `onEntry` (which may stop the read); returns
 * what it was — null when it is not a sitemap (HTML, a feed, a text file with a line that is
 * not a URL: the URLs before that line were handed on). A document cut short still gives its
 * complete entries. gzip is recognised by its magic bytes (1f 8b), not by the `.gz` name or a
 * gzip Content-Type: a `.xml.gz` served with `Content-Encoding: gzip` arrives already decoded
 * by fetch, and XML never starts with 0x1f. Decompressed with DecompressionStream as it is
 * read, cut off past SITEMAP_MAX_BYTES (a gzip bomb stops there): throws SitemapReadError past
 * the cap or on corrupt gzip. The charset is the Content-Type's, else UTF-8. `url` only names
 * the document in errors.
 */
export async function readSitemap(
  bytes: Uint8Array,
  url: string,
  contentType: string | null,
  onEntry: SitemapEntry,
): Promise<SitemapKind | null> {
  const scanner = new SitemapScanner(onEntry);
  const decoder = decoderFor(contentType);
  if (!isGzip(bytes)) {
    if (bytes.byteLength > SITEMAP_MAX_BYTES)
      throw new SitemapReadError(`sitemap ${url}: larger than ${SITEMAP_MAX_BYTES} bytes`);
    for (let at = 0; at < bytes.byteLength && !scanner.done; at += SLICE_BYTES)
      scanner.feed(decoder.decode(bytes.subarray(at, at + SLICE_BYTES), { stream: true }), false);
  } else {
    const reader = new Blob([bytes])
      .stream()
      .pipeThrough(new DecompressionStream("gzip"))
      .getReader();
    let total = 0;
    while (!scanner.done) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch {
        throw new SitemapReadError(`sitemap ${url}: gzip data does not decompress`);
      }
      if (step.done) break;
      total += step.value.byteLength;
      if (total > SITEMAP_MAX_BYTES) {
        await reader.cancel().catch(() => {});
        throw new SitemapReadError(
          `sitemap ${url}: larger than ${SITEMAP_MAX_BYTES} bytes uncompressed`,
        );
      }
      scanner.feed(decoder.decode(step.value, { stream: true }), false);
    }
    if (scanner.done) await reader.cancel().catch(() => {});
  }
  scanner.feed(decoder.decode(), true);
  return scanner.invalid ? null : scanner.kind;
}

export interface SitemapLimits {
  /** Page URLs to collect at most (URLs `keep` left out do not count). */
  maxUrls: number;
  /** Sitemap documents to fetch at most (seeds included; a failed fetch counts). */
  maxDocuments: number;
}

/**
 * The page URLs the sitemaps at `seeds` list, breadth first through indexes (SITEMAP_MAX_DEPTH
 * levels below a seed), in document order: normalised (`normalizeUrl`, relative locations
 * resolved against their sitemap), http(s) only, without duplicates. `keep` decides each URL
 * as it is read (the URL to keep, or null to leave it out: a map's rules), so only the URLs
 * kept are held, and the read stops once `maxUrls` of them are. No document is fetched twice
 * (an index listing itself, two indexes listing one sitemap), and no more are listed to fetch
 * than `maxDocuments`. `truncated` is true when a limit left something out: a URL past
 * `maxUrls`, or a sitemap past `maxDocuments` or the depth. `fetchDoc` returns a document's
 * bytes, or null when it could not be fetched (it is skipped); what does not read as a sitemap
 * is skipped too (the URLs read before a text sitemap's first line that is not one are kept).
 */
export async function collectSitemapUrls(
  seeds: string[],
  fetchDoc: (url: string) => Promise<Uint8Array | null>,
  limits: SitemapLimits,
  keep: (url: string) => string | null = (url) => url,
): Promise<SitemapUrls> {
  const urls = new Set<string>();
  // `<lastmod>` by URL kept (epoch ms; the latest when a URL is listed twice).
  const lastmod: Record<string, number> = {};
  const done = (cut: boolean): SitemapUrls =>
    Object.keys(lastmod).length > 0
      ? { urls: [...urls], truncated: cut, lastmod }
      : { urls: [...urls], truncated: cut };
  const seen = new Set<string>();
  const queue: Array<{ url: string; depth: number }> = [];
  let truncated = false;
  const enqueue = (loc: string, base: string | undefined, depth: number): void => {
    const url = normalizeUrl(loc, base);
    if (url === null || seen.has(url)) return;
    if (seen.size >= limits.maxDocuments) {
      truncated = true;
      return;
    }
    seen.add(url);
    queue.push({ url, depth });
  };
  for (const seed of seeds) enqueue(seed, undefined, 0);

  let full = false;
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { url: doc, depth } = next;
    const bytes = await fetchDoc(doc).catch(() => null);
    if (bytes === null) continue;
    const onEntry = (kind: SitemapKind, loc: string, modified: string | null): boolean => {
      if (kind === "index") {
        if (depth >= SITEMAP_MAX_DEPTH) {
          truncated = true;
          return false;
        }
        enqueue(loc, doc, depth + 1);
        return true;
      }
      const normal = normalizeUrl(loc, doc);
      const url = normal === null ? null : keep(normal);
      if (url === null) return true;
      if (!urls.has(url)) {
        if (urls.size >= limits.maxUrls) {
          full = true;
          return false;
        }
        urls.add(url);
      }
      const time = Date.parse(modified ?? "");
      if (!Number.isNaN(time)) lastmod[url] = Math.max(lastmod[url] ?? time, time);
      return true;
    };
    try {
      await readSitemap(bytes, doc, null, onEntry);
    } catch {
      continue;
    }
    if (full) return done(true);
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
