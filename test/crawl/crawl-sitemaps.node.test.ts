/**
 * Sitemaps: urlset, index and text sitemaps parsed (namespaces, entities, CDATA), gzip read by
 * its magic bytes with the 50 MB cap, and the collection through indexes: depth, limits and
 * truncation, duplicates, no document fetched twice, non-http(s) locations left out.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  collectSitemapUrls,
  readSitemap,
  SITEMAP_MAX_BYTES,
  SitemapReadError,
} from "../../src/crawl/sitemaps";
import { readWhole } from "../helpers/sitemaps";

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
/** A urlset of `locs`; `lastmod` gives each entry (by position) a `<lastmod>`. */
const urlset = (locs: string[], lastmod: Array<string | null> = []) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>${locs
    .map((l, i) => {
      const modified = lastmod[i] ? `<lastmod>${lastmod[i]}</lastmod>` : "";
      return `<url><loc>${l}</loc>${modified}</url>`;
    })
    .join("")}</urlset>`;
const index = (locs: string[]) =>
  `<?xml version="1.0"?><sitemapindex ${NS}>${locs
    .map((l) => `<sitemap><loc>${l}</loc></sitemap>`)
    .join("")}</sitemapindex>`;
const utf8 = (s: string) => new TextEncoder().encode(s);
/** A sitemap's text read whole. */
const parseSitemap = (text: string) => readWhole(utf8(text));

describe("readSitemap: what a sitemap lists", () => {
  it("a urlset: its locations in order, entities decoded, whitespace trimmed", async () => {
    const xml = urlset(["https://a.com/1", "  https://a.com/2?x=1&amp;y=2  ", "https://a.com/3"]);
    expect(await parseSitemap(xml)).toEqual({
      kind: "urlset",
      urls: ["https://a.com/1", "https://a.com/2?x=1&y=2", "https://a.com/3"],
    });
  });

  it("a urlset's <lastmod>s, by location as written; none: no lastmod", async () => {
    const xml = urlset(
      ["https://a.com/1", "https://a.com/2", " https://a.com/3 "],
      ["2024-01-01", null, " 2025-02-03T04:05:06+01:00 "],
    );
    expect(await parseSitemap(xml)).toEqual({
      kind: "urlset",
      urls: ["https://a.com/1", "https://a.com/2", "https://a.com/3"],
      lastmod: { "https://a.com/1": "2024-01-01", "https://a.com/3": "2025-02-03T04:05:06+01:00" },
    });
  });

  it("one entry is still a list; an empty urlset is an empty list", async () => {
    expect(await parseSitemap(urlset(["https://a.com/only"]))).toEqual({
      kind: "urlset",
      urls: ["https://a.com/only"],
    });
    expect(await parseSitemap(`<urlset ${NS}></urlset>`)).toEqual({ kind: "urlset", urls: [] });
    expect(await parseSitemap(`<urlset ${NS}/>`)).toEqual({ kind: "urlset", urls: [] });
  });

  it("a sitemap index: its sitemaps", async () => {
    expect(await parseSitemap(index(["https://a.com/s1.xml", "https://a.com/s2.xml.gz"]))).toEqual({
      kind: "index",
      sitemaps: ["https://a.com/s1.xml", "https://a.com/s2.xml.gz"],
    });
  });

  it("prefixed namespaces, CDATA, a BOM, extension elements and entries without a loc", async () => {
    const xml =
      "\uFEFF<?xml version='1.0'?><sm:urlset xmlns:sm='http://www.sitemaps.org/schemas/sitemap/0.9' " +
      "xmlns:image='http://www.google.com/schemas/sitemap-image/1.1'>" +
      "<sm:url><sm:loc><![CDATA[https://a.com/c?x=1&y=2]]></sm:loc>" +
      "<image:image><image:loc>https://a.com/i.png</image:loc></image:image></sm:url>" +
      "<sm:url><sm:lastmod>2024</sm:lastmod></sm:url></sm:urlset>";
    expect(await parseSitemap(xml)).toEqual({ kind: "urlset", urls: ["https://a.com/c?x=1&y=2"] });
  });

  it("a text sitemap: one absolute URL a line", async () => {
    expect(await parseSitemap("https://a.com/1\r\nhttps://a.com/2\n\n")).toEqual({
      kind: "urlset",
      urls: ["https://a.com/1", "https://a.com/2"],
    });
  });

  it("null for what is not a sitemap", async () => {
    for (const body of [
      "",
      "<html><body>Not found</body></html>",
      '<rss version="2.0"><channel><item><link>https://a.com/</link></item></channel></rss>',
      "User-agent: *\nDisallow: /\n",
      "https://a.com/1\nnot a url\n",
      "{}",
    ]) {
      expect(await parseSitemap(body), body).toBeNull();
    }
  });

  it("a truncated sitemap (a cut transfer) still gives its complete locations", async () => {
    expect(
      await parseSitemap(
        `<urlset ${NS}><url><loc>https://a.com/1</loc></url><url><loc>https://a.co`,
      ),
    ).toEqual({ kind: "urlset", urls: ["https://a.com/1"] });
  });

  it("an entity bomb does not expand", async () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lollollollollollollollollollol">' +
      Array.from({ length: 9 }, (_, i) => {
        const prev = i === 0 ? "lol" : `lol${i}`;
        return `<!ENTITY lol${i + 1} "${`&${prev};`.repeat(10)}">`;
      }).join("") +
      `]><urlset ${NS}><url><loc>https://a.com/&lol9;</loc></url></urlset>`;
    const started = Date.now();
    const parsed = await parseSitemap(bomb);
    expect(Date.now() - started).toBeLessThan(2_000);
    if (parsed?.kind === "urlset") {
      for (const url of parsed.urls) expect(url.length).toBeLessThan(200_000);
    }
  });
});

describe("readSitemap: bytes, gzip and the 50 MB cap", () => {
  const xml = urlset(["https://a.com/1"]);
  const one = { kind: "urlset", urls: ["https://a.com/1"] };

  it("gunzips by the magic bytes, whatever the name or type", async () => {
    const gz = new Uint8Array(gzipSync(xml));
    expect(await readWhole(gz, "https://a.com/s.xml.gz", "application/gzip")).toEqual(one);
    expect(await readWhole(gz, "https://a.com/s.xml", "text/xml")).toEqual(one);
  });

  it("a .gz name or gzip type on bytes already decoded (Content-Encoding) reads as text", async () => {
    expect(await readWhole(utf8(xml), "https://a.com/s.xml.gz", "application/x-gzip")).toEqual(one);
  });

  it("the Content-Type's charset; UTF-8 when none or unknown", async () => {
    const latin1 = new Uint8Array([...utf8("https://a.com/caf"), 0xe9]); // "café" in ISO-8859-1
    const cafe = { kind: "urlset", urls: ["https://a.com/café"] };
    expect(await readWhole(latin1, "u", "text/plain; charset=iso-8859-1")).toEqual(cafe);
    expect(await readWhole(utf8("https://a.com/café"), "u", null)).toEqual(cafe);
    expect(await readWhole(utf8("https://a.com/café"), "u", "text/xml; charset=bogus-7")).toEqual(
      cafe,
    );
  });

  it("entries, characters and markup cut across the slices it reads, gzipped or not", async () => {
    // ~1.2 MB: several slices; multi-byte characters and every entry's markup land on their edges.
    const locs = Array.from(
      { length: 12_000 },
      (_, i) => `https://a.com/é${"x".repeat(i % 97)}/${i}`,
    );
    const lastmod = locs.map((_, i) => (i % 3 === 0 ? "2024-01-01" : null));
    const text = urlset(locs, lastmod);
    expect(utf8(text).byteLength).toBeGreaterThan(1_000_000);
    for (const bytes of [utf8(text), new Uint8Array(gzipSync(text))]) {
      const read = await readWhole(bytes);
      expect(read?.kind === "urlset" && read.urls).toEqual(locs);
      expect(read?.kind === "urlset" && Object.keys(read.lastmod ?? {}).length).toBe(4_000);
    }
  });

  it("a line, tag or field's text past 1 MiB ends the read; what came before is kept", async () => {
    const long = "x".repeat(2 * 1024 * 1024);
    const text = urlset(["https://a.com/1", `https://a.com/${long}`, "https://a.com/3"]);
    // (Each URL's first characters: a failure does not print megabytes.)
    const heads = async (t: string) => {
      const read = await readWhole(utf8(t));
      return read?.kind === "urlset" ? read.urls.map((u) => u.slice(0, 20)) : read;
    };
    expect(await heads(text)).toEqual(["https://a.com/1"]);
    expect(await heads(`https://a.com/1\nhttps://a.com/${long}\nhttps://a.com/3\n`)).toEqual([
      "https://a.com/1",
    ]);
  });

  it("stops reading when told: no entry is read past the one that said so", async () => {
    const locs = Array.from({ length: 50_000 }, (_, i) => `https://a.com/${i}`);
    for (const bytes of [utf8(urlset(locs)), new Uint8Array(gzipSync(urlset(locs)))]) {
      const seen: string[] = [];
      const kind = await readSitemap(bytes, "u", null, (_, loc) => {
        seen.push(loc);
        return seen.length < 10;
      });
      expect(kind).toBe("urlset");
      expect(seen).toEqual(locs.slice(0, 10));
    }
  });

  it("throws past 50 MB uncompressed: a gzip bomb stops there", async () => {
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(SITEMAP_MAX_BYTES + 1024 * 1024, 0x20)));
    expect(bomb.byteLength).toBeLessThan(200 * 1024);
    await expect(readWhole(bomb, "https://a.com/bomb.xml.gz")).rejects.toThrow(SitemapReadError);
    // Exactly 50 MB is read (blanks: not a sitemap, but no error).
    const exactly = new Uint8Array(gzipSync(Buffer.alloc(SITEMAP_MAX_BYTES, 0x20)));
    expect(await readWhole(exactly, "https://a.com/ok.xml.gz")).toBeNull();
  });

  it("throws on plain bytes past 50 MB and on corrupt gzip", async () => {
    const big = new Uint8Array(SITEMAP_MAX_BYTES + 1);
    await expect(readWhole(big, "https://a.com/big.xml")).rejects.toThrow(SitemapReadError);
    const gz = new Uint8Array(gzipSync(xml));
    const corrupt = gz.slice(0, 12);
    await expect(readWhole(corrupt, "https://a.com/c.xml.gz")).rejects.toThrow(SitemapReadError);
  });
});

describe("collectSitemapUrls", () => {
  /** A site of sitemap documents; records every fetch. */
  function site(docs: Record<string, string | Uint8Array>) {
    const fetched: string[] = [];
    const fetchDoc = async (url: string) => {
      fetched.push(url);
      const doc = docs[url];
      if (doc === undefined) return null;
      return typeof doc === "string" ? utf8(doc) : doc;
    };
    return { fetched, fetchDoc };
  }
  const LIMITS = { maxUrls: 1_000, maxDocuments: 100 };
  const A = "https://a.com";

  it("follows an index to urlsets (gzipped too), dedupes, normalises, drops non-http(s)", async () => {
    const { fetched, fetchDoc } = site({
      [`${A}/index.xml`]: index([`${A}/pages.xml`, `${A}/more.xml.gz`]),
      [`${A}/pages.xml`]: urlset([`${A}/1`, `${A}/2#frag`, "HTTPS://A.COM/3", "mailto:x@a.com"]),
      [`${A}/more.xml.gz`]: new Uint8Array(
        gzipSync(urlset([`${A}/2`, `${A}/4`, "ftp://a.com/f", "/5", "javascript:void(0)"])),
      ),
    });
    const result = await collectSitemapUrls([`${A}/index.xml`], fetchDoc, LIMITS);
    expect(result).toEqual({
      urls: [`${A}/1`, `${A}/2`, `${A}/3`, `${A}/4`, `${A}/5`],
      truncated: false,
    });
    expect(fetched).toEqual([`${A}/index.xml`, `${A}/pages.xml`, `${A}/more.xml.gz`]);
  });

  it("collects <lastmod> by normalised URL (the latest of a URL listed twice); unreadable ones left out", async () => {
    const { fetchDoc } = site({
      [`${A}/i.xml`]: index([`${A}/s1.xml`, `${A}/s2.xml`]),
      [`${A}/s1.xml`]: urlset(
        [`${A}/1`, "HTTPS://A.COM/2#x", `${A}/3`],
        ["2024-01-01", "2024-05-01T00:00:00Z", "not a date"],
      ),
      [`${A}/s2.xml`]: urlset([`${A}/2`, "/4"], ["2025-01-01T00:00:00Z", "2023-01-01"]),
    });
    const result = await collectSitemapUrls([`${A}/i.xml`], fetchDoc, LIMITS);
    expect(result).toEqual({
      urls: [`${A}/1`, `${A}/2`, `${A}/3`, `${A}/4`],
      truncated: false,
      lastmod: {
        [`${A}/1`]: Date.parse("2024-01-01"),
        [`${A}/2`]: Date.parse("2025-01-01T00:00:00Z"),
        [`${A}/4`]: Date.parse("2023-01-01"),
      },
    });
  });

  it("never fetches a document twice: cycles, repeats, a seed listed again", async () => {
    const { fetched, fetchDoc } = site({
      [`${A}/i1.xml`]: index([`${A}/i2.xml`, `${A}/s.xml`, `${A}/i1.xml`, `${A}/s.xml#x`]),
      [`${A}/i2.xml`]: index([`${A}/i1.xml`, `${A}/s.xml`, "HTTPS://a.com/i2.xml"]),
      [`${A}/s.xml`]: urlset([`${A}/p`]),
    });
    const result = await collectSitemapUrls(
      [`${A}/i1.xml`, `${A}/s.xml`, `${A}/i1.xml`],
      fetchDoc,
      LIMITS,
    );
    expect(result).toEqual({ urls: [`${A}/p`], truncated: false });
    expect(fetched).toEqual([`${A}/i1.xml`, `${A}/s.xml`, `${A}/i2.xml`]);
  });

  it("stops at maxUrls: truncated only when a further URL was left out", async () => {
    const docs = { [`${A}/s.xml`]: urlset([`${A}/1`, `${A}/2`, `${A}/2`, `${A}/3`]) };
    const three = await collectSitemapUrls([`${A}/s.xml`], site(docs).fetchDoc, {
      maxUrls: 3,
      maxDocuments: 10,
    });
    expect(three).toEqual({ urls: [`${A}/1`, `${A}/2`, `${A}/3`], truncated: false });
    const two = await collectSitemapUrls([`${A}/s.xml`], site(docs).fetchDoc, {
      maxUrls: 2,
      maxDocuments: 10,
    });
    expect(two).toEqual({ urls: [`${A}/1`, `${A}/2`], truncated: true });
  });

  it("stops at maxUrls without fetching further documents", async () => {
    const { fetched, fetchDoc } = site({
      [`${A}/i.xml`]: index([`${A}/s1.xml`, `${A}/s2.xml`]),
      [`${A}/s1.xml`]: urlset([`${A}/1`, `${A}/2`, `${A}/3`]),
      [`${A}/s2.xml`]: urlset([`${A}/4`]),
    });
    const result = await collectSitemapUrls([`${A}/i.xml`], fetchDoc, {
      maxUrls: 2,
      maxDocuments: 10,
    });
    expect(result).toEqual({ urls: [`${A}/1`, `${A}/2`], truncated: true });
    expect(fetched).toEqual([`${A}/i.xml`, `${A}/s1.xml`]);
  });

  it("100,000 URLs in ten urlsets: only kept URLs count, and the read stops at maxUrls", async () => {
    const files = Array.from({ length: 10 }, (_, f) => `${A}/s${f}.xml`);
    const docs: Record<string, string> = { [`${A}/i.xml`]: index(files) };
    files.forEach((file, f) => {
      docs[file] = urlset(Array.from({ length: 10_000 }, (_, i) => `${A}/p/${f * 10_000 + i}`));
    });
    const { fetched, fetchDoc } = site(docs);
    const kept: string[] = [];
    // A map's rules: every other URL out of scope.
    const keep = (url: string) => {
      kept.push(url);
      return Number(url.split("/").at(-1)) % 2 === 0 ? url : null;
    };
    const result = await collectSitemapUrls(
      [`${A}/i.xml`],
      fetchDoc,
      { maxUrls: 10_001, maxDocuments: 200 },
      keep,
    );
    expect(result.truncated).toBe(true);
    expect(result.urls.length).toBe(10_001);
    expect(result.urls.at(-1)).toBe(`${A}/p/20000`);
    // Three urlsets of ten fetched, and the third read only up to the URL past maxUrls.
    expect(fetched).toEqual([`${A}/i.xml`, ...files.slice(0, 3)]);
    expect(kept.length).toBe(20_003);
  });

  it("an index listing more sitemaps than maxDocuments lists no more of them to fetch", async () => {
    const files = Array.from({ length: 50_000 }, (_, f) => `${A}/s${f}.xml`);
    const { fetched, fetchDoc } = site({ [`${A}/i.xml`]: index(files) });
    const result = await collectSitemapUrls([`${A}/i.xml`], fetchDoc, {
      maxUrls: 100,
      maxDocuments: 200,
    });
    expect(result).toEqual({ urls: [], truncated: true });
    expect(fetched).toEqual([`${A}/i.xml`, ...files.slice(0, 199)]);
  });

  it("stops at maxDocuments (failed fetches count): truncated", async () => {
    const { fetched, fetchDoc } = site({
      [`${A}/i.xml`]: index([`${A}/gone.xml`, `${A}/s1.xml`, `${A}/s2.xml`]),
      [`${A}/s1.xml`]: urlset([`${A}/1`]),
      [`${A}/s2.xml`]: urlset([`${A}/2`]),
    });
    const result = await collectSitemapUrls([`${A}/i.xml`], fetchDoc, {
      maxUrls: 100,
      maxDocuments: 3,
    });
    expect(result).toEqual({ urls: [`${A}/1`], truncated: true });
    expect(fetched).toEqual([`${A}/i.xml`, `${A}/gone.xml`, `${A}/s1.xml`]);
  });

  it("exactly maxDocuments documents, nothing more to fetch: not truncated", async () => {
    const { fetchDoc } = site({
      [`${A}/i.xml`]: index([`${A}/s1.xml`]),
      [`${A}/s1.xml`]: urlset([`${A}/1`]),
    });
    expect(
      await collectSitemapUrls([`${A}/i.xml`], fetchDoc, { maxUrls: 100, maxDocuments: 2 }),
    ).toEqual({ urls: [`${A}/1`], truncated: false });
  });

  it("follows indexes three levels below the seed, not a fourth", async () => {
    const { fetched, fetchDoc } = site({
      [`${A}/d0.xml`]: index([`${A}/d1.xml`, `${A}/s0.xml`]),
      [`${A}/d1.xml`]: index([`${A}/d2.xml`]),
      [`${A}/d2.xml`]: index([`${A}/d3.xml`]),
      [`${A}/d3.xml`]: index([`${A}/d4.xml`]),
      [`${A}/d4.xml`]: urlset([`${A}/too-deep`]),
      [`${A}/s0.xml`]: urlset([`${A}/shallow`]),
    });
    const result = await collectSitemapUrls([`${A}/d0.xml`], fetchDoc, LIMITS);
    expect(result).toEqual({ urls: [`${A}/shallow`], truncated: true });
    expect(fetched).not.toContain(`${A}/d4.xml`);
    expect(fetched).toContain(`${A}/d3.xml`);

    const { fetchDoc: leafAtThree } = site({
      [`${A}/d0.xml`]: index([`${A}/d1.xml`]),
      [`${A}/d1.xml`]: index([`${A}/d2.xml`]),
      [`${A}/d2.xml`]: index([`${A}/d3.xml`]),
      [`${A}/d3.xml`]: urlset([`${A}/deepest`]),
    });
    expect(await collectSitemapUrls([`${A}/d0.xml`], leafAtThree, LIMITS)).toEqual({
      urls: [`${A}/deepest`],
      truncated: false,
    });
  });

  it("skips what does not fetch, read or parse, and a fetch that throws", async () => {
    const docs: Record<string, string | Uint8Array> = {
      [`${A}/i.xml`]: index([
        `${A}/html.xml`,
        `${A}/corrupt.xml.gz`,
        `${A}/missing.xml`,
        `${A}/throws.xml`,
        `${A}/ok.xml`,
        "file:///etc/passwd",
        "relative.xml",
      ]),
      [`${A}/html.xml`]: "<html>nope</html>",
      [`${A}/corrupt.xml.gz`]: new Uint8Array([0x1f, 0x8b, 1, 2, 3]),
      [`${A}/ok.xml`]: urlset([`${A}/fine`]),
      [`${A}/relative.xml`]: urlset([`${A}/via-relative`]),
    };
    const fetched: string[] = [];
    const fetchDoc = async (url: string) => {
      fetched.push(url);
      if (url.endsWith("/throws.xml")) throw new Error("boom");
      const doc = docs[url];
      return doc === undefined ? null : typeof doc === "string" ? utf8(doc) : doc;
    };
    const result = await collectSitemapUrls([`${A}/i.xml`, "mailto:x@a.com"], fetchDoc, LIMITS);
    expect(result).toEqual({ urls: [`${A}/fine`, `${A}/via-relative`], truncated: false });
    expect(fetched.every((u) => u.startsWith(`${A}/`))).toBe(true);
  });

  it("no seeds, nothing fetched", async () => {
    const { fetched, fetchDoc } = site({});
    expect(await collectSitemapUrls([], fetchDoc, LIMITS)).toEqual({ urls: [], truncated: false });
    expect(fetched).toEqual([]);
  });
});
