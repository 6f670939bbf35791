/** A sitemap read whole through src/crawl/sitemaps.ts's entry reader, for tests. */
import { readSitemap } from "../../src/crawl/sitemaps";

export type ReadSitemap =
  /** `lastmod`: the `<lastmod>` of the entries that have one, by `<loc>` as written. */
  | { kind: "urlset"; urls: string[]; lastmod?: Record<string, string> }
  | { kind: "index"; sitemaps: string[] };

/** Every entry of a sitemap's bytes; null when it is not a sitemap. */
export async function readWhole(
  bytes: Uint8Array,
  url = "https://a.com/sitemap.xml",
  contentType: string | null = null,
): Promise<ReadSitemap | null> {
  const locs: string[] = [];
  const lastmod: Record<string, string> = {};
  const kind = await readSitemap(bytes, url, contentType, (_, loc, modified) => {
    locs.push(loc);
    if (modified !== null) lastmod[loc] = modified;
    return true;
  });
  if (kind === null) return null;
  if (kind === "index") return { kind, sitemaps: locs };
  return Object.keys(lastmod).length > 0 ? { kind, urls: locs, lastmod } : { kind, urls: locs };
}
