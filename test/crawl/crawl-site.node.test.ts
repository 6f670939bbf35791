/**
 * The crawl fixture site (test/fixtures/crawl-site.ts) keeps its word: a small reference crawl —
 * breadth first, robots.txt through src/crawl/robots.ts, links through src/crawl/urls.ts and
 * linkedom (base element, nofollow) — finds exactly the sets DEFAULT_CRAWL documents; the
 * sitemaps (the gzipped one too) give the sitemap pages; the log, the PDF and bench mode work.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseHTML } from "linkedom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRobots, type Robots } from "../../src/crawl/robots";
import { collectSitemapUrls } from "../../src/crawl/sitemaps";
import { inScope, normalizeUrl } from "../../src/crawl/urls";
import {
  articleText,
  articleTitle,
  crawlSite,
  DEFAULT_CRAWL,
  type CrawlLogEntry,
  type CrawlSiteOptions,
} from "../fixtures/crawl-site";

async function serve(options: CrawlSiteOptions = {}): Promise<{ server: Server; origin: string }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on("request", crawlSite({ ...options, origin, fixturePort: 4310 }).handle);
  return { server, origin };
}

const pathOf = (href: string) => {
  const url = new URL(href);
  return url.pathname + url.search;
};

interface Found {
  depth: string[][];
  redirected: Record<string, string>;
  refusedRedirect: string[];
  httpErrors: Record<string, number>;
  notHtml: Record<string, string>;
  robotsDisallowed: string[];
}

/** Links of an HTML page a crawler follows: through <base>, without rel=nofollow. */
function linksOf(html: string, pageUrl: string): string[] {
  const { document } = parseHTML(html);
  const baseHref = document.querySelector("base[href]")?.getAttribute("href");
  const base = baseHref ? (normalizeUrl(baseHref, pageUrl) ?? pageUrl) : pageUrl;
  const out: string[] = [];
  for (const a of document.querySelectorAll("a[href]")) {
    const rel = (a.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
    if (rel.includes("nofollow")) continue;
    const url = normalizeUrl(a.getAttribute("href") ?? "", base);
    if (url !== null) out.push(url);
  }
  return out;
}

/** Breadth first from `/`, host scope, robots obeyed, to `maxDepth`. */
async function referenceCrawl(origin: string, robots: Robots, maxDepth: number): Promise<Found> {
  const start = new URL(`${origin}/`);
  const found: Found = {
    depth: [],
    redirected: {},
    refusedRedirect: [],
    httpErrors: {},
    notHtml: {},
    robotsDisallowed: [],
  };
  const seen = new Set<string>([start.href]);
  let level = [start.href];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const loaded: string[] = [];
    const next: string[] = [];
    await Promise.all(
      level.map(async (href) => {
        let url = href;
        let res = await fetch(url, { redirect: "manual" });
        while (res.status >= 300 && res.status < 400) {
          const to = normalizeUrl(res.headers.get("location") ?? "", url);
          if (to === null || !inScope(start, new URL(to), "host")) {
            found.refusedRedirect.push(pathOf(href));
            return;
          }
          found.redirected[pathOf(href)] = pathOf(to);
          url = to;
          res = await fetch(url, { redirect: "manual" });
        }
        const type = (res.headers.get("content-type") ?? "").split(";")[0] ?? "";
        if (res.status !== 200) {
          found.httpErrors[pathOf(url)] = res.status;
          return;
        }
        if (type !== "text/html") {
          found.notHtml[pathOf(url)] = type;
          return;
        }
        loaded.push(pathOf(url));
        seen.add(url);
        if (depth === maxDepth) return;
        for (const link of linksOf(await res.text(), url)) {
          if (seen.has(link) || !inScope(start, new URL(link), "host")) continue;
          seen.add(link);
          if (robots.allowed(link)) next.push(link);
          else found.robotsDisallowed.push(pathOf(link));
        }
      }),
    );
    found.depth.push(loaded.sort());
    level = next;
  }
  return found;
}

const sorted = (list: readonly string[]) => [...list].sort();

describe("the default crawl site", () => {
  let site: { server: Server; origin: string };
  let log: () => Promise<CrawlLogEntry[]>;
  beforeAll(async () => {
    site = await serve();
    log = async () => (await (await fetch(`${site.origin}/__log`)).json()) as CrawlLogEntry[];
  });
  afterAll(() => new Promise<void>((resolve) => site.server.close(() => resolve())));

  it("robots.txt: our group disallows /private/ and /no-edgeshot/, 100 ms delay, the index", async () => {
    const body = await (await fetch(`${site.origin}/robots.txt`)).text();
    const robots = parseRobots(`${site.origin}/robots.txt`, body);
    expect(robots.crawlDelayMs).toBe(100);
    expect(robots.sitemaps).toEqual([`${site.origin}/sitemap-index.xml`]);
    expect(robots.allowed(`${site.origin}/private/secret`)).toBe(false);
    expect(robots.allowed(`${site.origin}/no-edgeshot/page`)).toBe(false);
    expect(robots.allowed(`${site.origin}/star-only/page`)).toBe(true);
    // Another crawler (the * group) is kept out of /private/ and /star-only/, not /no-edgeshot/.
    const other = (path: string) =>
      parseRobots(`${site.origin}/robots.txt`, body.replaceAll("Edgeshot", "Other")).allowed(
        `${site.origin}${path}`,
      );
    expect([other("/private/x"), other("/star-only/page"), other("/no-edgeshot/page")]).toEqual([
      false,
      false,
      true,
    ]);
  });

  it("a reference crawl to depth 2 finds exactly DEFAULT_CRAWL", async () => {
    const since = Date.now();
    const robots = parseRobots(
      `${site.origin}/robots.txt`,
      await (await fetch(`${site.origin}/robots.txt`)).text(),
    );
    const found = await referenceCrawl(site.origin, robots, 2);
    expect(found.depth).toEqual([
      sorted(DEFAULT_CRAWL.depth0),
      sorted(DEFAULT_CRAWL.depth1),
      sorted(DEFAULT_CRAWL.depth2),
    ]);
    expect(found.redirected).toEqual(DEFAULT_CRAWL.redirected);
    expect(found.refusedRedirect).toEqual(DEFAULT_CRAWL.refusedRedirect);
    expect(found.httpErrors).toEqual(DEFAULT_CRAWL.httpErrors);
    expect(found.notHtml).toEqual(DEFAULT_CRAWL.notHtml);
    expect(sorted(found.robotsDisallowed)).toEqual(sorted(DEFAULT_CRAWL.robotsDisallowed));
    const requested = new Set((await log()).filter((e) => e.at >= since).map((e) => e.path));
    for (const path of [...DEFAULT_CRAWL.neverRequested, ...DEFAULT_CRAWL.robotsDisallowed])
      expect(requested.has(path), path).toBe(false);
    const total = found.depth.flat().length;
    expect(total).toBeLessThanOrEqual(100);
  }, 20_000);

  it("the sitemaps (index → pages and a real gzip) name the sitemap pages", async () => {
    const seen: string[] = [];
    const { urls, truncated } = await collectSitemapUrls(
      [`${site.origin}/sitemap-index.xml`],
      async (url) => {
        seen.push(pathOf(url));
        const res = await fetch(url);
        return res.ok ? new Uint8Array(await res.arrayBuffer()) : null;
      },
      { maxUrls: 100, maxDocuments: 10 },
    );
    expect(truncated).toBe(false);
    expect(seen).toEqual(["/sitemap-index.xml", "/sitemap-pages.xml", "/sitemap-more.xml.gz"]);
    const gz = new Uint8Array(
      await (await fetch(`${site.origin}/sitemap-more.xml.gz`)).arrayBuffer(),
    );
    expect([gz[0], gz[1]]).toEqual([0x1f, 0x8b]);
    const paths = urls.map(pathOf);
    const known = new Set<string>([
      ...DEFAULT_CRAWL.depth0,
      ...DEFAULT_CRAWL.depth1,
      ...DEFAULT_CRAWL.depth2,
    ]);
    expect(sorted(paths.filter((p) => !known.has(p) && !p.startsWith("/private/")))).toEqual(
      sorted(DEFAULT_CRAWL.sitemapPages),
    );
    expect(paths.filter((p) => p.startsWith("/private/"))).toEqual(DEFAULT_CRAWL.sitemapDisallowed);
    // Every sitemap page loads and links only to pages met at depth ≤ 1.
    const shallow = new Set<string>([...DEFAULT_CRAWL.depth0, ...DEFAULT_CRAWL.depth1]);
    for (const path of DEFAULT_CRAWL.sitemapPages) {
      const res = await fetch(`${site.origin}${path}`);
      expect(res.status, path).toBe(200);
      for (const link of linksOf(await res.text(), `${site.origin}${path}`))
        expect(shallow.has(pathOf(link)), `${path} → ${link}`).toBe(true);
    }
    const plain = await (await fetch(`${site.origin}/sitemap.xml`)).text();
    expect(plain).toContain(`${site.origin}/orphan`);
  });

  it("articles: 48 pages of unique title and text, listed ten a page", async () => {
    const titles = new Set<string>();
    for (let n = 1; n <= 48; n++) titles.add(articleTitle(n));
    expect(titles.size).toBe(48);
    const html = await (await fetch(`${site.origin}/articles/7`)).text();
    expect(html).toContain(`<h1>${articleTitle(7)}</h1>`);
    expect(html).toContain(articleText(7));
    expect((await fetch(`${site.origin}/articles/49`)).status).toBe(404);
    const page5 = linksOf(
      await (await fetch(`${site.origin}/articles?page=5`)).text(),
      site.origin,
    );
    expect(page5.map(pathOf)).toEqual([
      ...Array.from({ length: 8 }, (_, i) => `/articles/${41 + i}`),
      "/articles?page=4",
    ]);
  });

  it("a real PDF, a PNG, a 3 s page held until another is asked for, and the log since a time, never logging itself", async () => {
    const pdf = await fetch(`${site.origin}/file.pdf`);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await pdf.arrayBuffer()).toString("latin1");
    expect(bytes.startsWith("%PDF-1.4")).toBe(true);
    const xref = Number(/startxref\n(\d+)/.exec(bytes)?.[1]);
    expect(bytes.slice(xref, xref + 4)).toBe("xref");
    const png = await fetch(`${site.origin}/image.png`);
    expect([...new Uint8Array(await png.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);

    // The log's `since` is inclusive to the millisecond: step past the PNG's request first.
    await new Promise((r) => setTimeout(r, 5));
    const since = Date.now();
    const started = performance.now();
    const slow = fetch(`${site.origin}/slow`).then((r) => [r.status, performance.now() - started]);
    // /slow answers after 3 s, and not before another page was asked for (at most 10 s): that
    // one is asked for at 3.5 s, so /slow answers then.
    await new Promise((r) => setTimeout(r, 3_500));
    await fetch(`${site.origin}/about`);
    const [status, took] = await slow;
    expect(status).toBe(200);
    expect(took).toBeGreaterThan(3_400);
    expect(took).toBeLessThan(9_000);
    await fetch(`${site.origin}/__health`);
    const entries = (await (
      await fetch(`${site.origin}/__log?since=${since}`)
    ).json()) as CrawlLogEntry[];
    expect(entries.map((e) => e.path)).toEqual(["/slow", "/about"]);
    expect((await log()).some((e) => e.path.startsWith("/__"))).toBe(false);
  }, 15_000);
});

describe("bench mode", () => {
  it("crawlSite({ pages: 25 }): a breadth-first tree of 25 pages below /", async () => {
    const site = await serve({ pages: 25 });
    try {
      const robots = parseRobots(
        `${site.origin}/robots.txt`,
        await (await fetch(`${site.origin}/robots.txt`)).text(),
      );
      const found = await referenceCrawl(site.origin, robots, 10);
      expect(found.depth.flat().length).toBe(26);
      expect(found.depth[1]).toEqual(
        sorted(Array.from({ length: 10 }, (_, i) => `/tree/${i + 1}`)),
      );
      expect(found.depth[2]).toEqual(
        sorted(Array.from({ length: 15 }, (_, i) => `/tree/${i + 11}`)),
      );
      const html = await (await fetch(`${site.origin}/tree/25`)).text();
      expect(html).toContain(articleText(25));
      expect((await fetch(`${site.origin}/tree/26`)).status).toBe(404);
    } finally {
      await new Promise<void>((resolve) => site.server.close(() => resolve()));
    }
  });
});

describe("scale mode", () => {
  it("serves the tree links only and a sitemap index of M URLs through src/crawl/sitemaps.ts; counts its log", async () => {
    const { server, origin } = await serve({ pages: 30, scale: 25_000 });
    try {
      const robots = await (await fetch(`${origin}/robots.txt`)).text();
      expect(robots).toContain(`Sitemap: ${origin}/sitemap-index.xml`);
      const fetchDoc = async (url: string) =>
        new Uint8Array(await (await fetch(url)).arrayBuffer());
      const sitemap = await collectSitemapUrls([`${origin}/sitemap-index.xml`], fetchDoc, {
        maxUrls: 100_000,
        maxDocuments: 10,
      });
      expect(sitemap.urls.length).toBe(25_000);
      expect(sitemap.urls.at(-1)).toBe(`${origin}/tree/25000`);
      expect(sitemap.truncated).toBe(false);
      const home = await (await fetch(`${origin}/`)).text();
      expect(home).toContain('href="/tree/10"');
      expect(home).not.toContain("<script");
      expect((await fetch(`${origin}/tree/30`)).status).toBe(200);
      expect((await fetch(`${origin}/tree/31`)).status).toBe(404);
      const counts = await (await fetch(`${origin}/__log?counts=1`)).json();
      expect(counts).toMatchObject({ "/": 1, "/tree/30": 1, "/sitemap-index.xml": 1 });
    } finally {
      server.close();
    }
  });
});
