/**
 * URLs a site lists for crawlers: its robots.txt `Sitemap:` lines and `/sitemap.xml`, sitemap
 * indexes and gzipped sitemaps followed (./sitemaps.ts), every document fetched through the URL
 * guard (src/security/guarded-fetch.ts). Crawl seeds (sitemap URLs enter at depth 1) and map results
 * alike; `keep` (a map's rules) decides each URL as it is read (./sitemaps.ts).
 */
import { TUNING } from "../tuning";
import { guardedFetch } from "../security/guarded-fetch";
import type { Robots } from "./robots";
import { collectSitemapUrls, SITEMAP_MAX_BYTES, type SitemapUrls } from "./sitemaps";

export async function sitemapUrls(
  env: Env,
  start: URL,
  robots: Robots,
  maxUrls: number,
  keep?: (url: string) => string | null,
): Promise<SitemapUrls> {
  const seeds = [...new Set([...robots.sitemaps, `${start.origin}/sitemap.xml`])];
  const fetchDoc = async (url: string): Promise<Uint8Array | null> => {
    const answer = await guardedFetch(env, url, {
      maxBytes: SITEMAP_MAX_BYTES,
      timeoutMs: TUNING.crawlFetchTimeoutMs,
    });
    return answer.kind === "ok" && answer.status >= 200 && answer.status < 300 ? answer.body : null;
  };
  return collectSitemapUrls(
    seeds,
    fetchDoc,
    { maxUrls, maxDocuments: TUNING.crawlSitemapDocuments },
    keep,
  );
}
