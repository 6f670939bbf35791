/**
 * What the frontier makes of a URL found on a page or in a sitemap: dropped (not http(s), a
 * nofollow link not to be followed), skipped with its reason (scope, patterns, depth), or
 * pending. The checks that need the network (robots.txt, the URL guard) come at dispatch
 * (./politeness.ts).
 */
import type { PageReason } from "../../schemas/crawl";
import type { CrawlConfig } from "./config";
import { compilePatterns, inScope, normalizeUrl } from "./urls";

export interface Discovered {
  url: string;
  nofollow: boolean;
}

export type LinkVerdict = { url: URL; skip: PageReason | null } | null;

/** The crawl's rules for found URLs, compiled once per batch of links. */
export function linkRules(config: CrawlConfig): (link: Discovered, depth: number) => LinkVerdict {
  const start = new URL(config.url);
  const match = compilePatterns(config.include, config.exclude);
  return (link, depth) => {
    if (link.nofollow && !config.followNofollow) return null;
    const normal = normalizeUrl(link.url);
    if (normal === null) return null;
    const url = new URL(normal);
    if (!inScope(start, url, config.scope)) return { url, skip: "scope" };
    if (match(url) === "pattern") return { url, skip: "pattern" };
    if (depth > config.maxDepth) return { url, skip: "depth" };
    return { url, skip: null };
  };
}
