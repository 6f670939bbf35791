/**
 * What the frontier makes of a URL found on a page or in a sitemap: dropped (not http(s), a
 * nofollow link not to be followed), skipped with its reason (scope, patterns, the patterns'
 * work budget, depth), or pending. The checks that need the network (robots.txt, the URL guard) come at dispatch
 * (./politeness.ts).
 */
import type { PageReason } from "../../schemas/crawl";
import { log } from "../log";
import { TUNING } from "../tuning";
import type { CrawlConfig } from "./config";
import type { GlobMeter } from "./glob";
import { compilePatterns, inScope, normalizeUrl } from "./urls";

export interface Discovered {
  url: string;
  nofollow: boolean;
}

export type LinkVerdict = { url: URL; skip: PageReason | null } | null;

/** A batch's rules; `stats.budgetSkipped`: links it skipped as `pattern_budget` so far. */
export type LinkRules = ((link: Discovered, depth: number) => LinkVerdict) & {
  stats: { budgetSkipped: number };
};

/**
 * The crawl's rules for found URLs, compiled once per batch of links (a page's, the sitemaps').
 * The batch shares one glob work budget (TUNING.crawlPatternSteps): once it is spent, every
 * further link the globs would have to judge is skipped as `pattern_budget`, never fetched (fail
 * closed), so a crawl's globs cannot keep the Worker busy for more than that a batch.
 */
export function linkRules(config: CrawlConfig): LinkRules {
  const start = new URL(config.url);
  const match = compilePatterns(config.include, config.exclude);
  const meter: GlobMeter = { steps: 0, limit: TUNING.crawlPatternSteps };
  const stats = { budgetSkipped: 0 };
  const rules = (link: Discovered, depth: number): LinkVerdict => {
    if (link.nofollow && !config.followNofollow) return null;
    const normal = normalizeUrl(link.url);
    if (normal === null) return null;
    const url = new URL(normal);
    if (!inScope(start, url, config.scope)) return { url, skip: "scope" };
    const verdict = match(url, meter);
    if (verdict === "budget") {
      stats.budgetSkipped++;
      return { url, skip: "pattern_budget" };
    }
    if (verdict === "pattern") return { url, skip: "pattern" };
    if (depth > config.maxDepth) return { url, skip: "depth" };
    return { url, skip: null };
  };
  return Object.assign(rules, { stats });
}

/** A warn line when a batch skipped links for the glob budget: which crawl, how many. */
export function logPatternBudget(config: CrawlConfig, rules: LinkRules, batch: string): void {
  const skipped = rules.stats.budgetSkipped;
  if (skipped === 0) return;
  log("warn", "crawl: glob work budget spent, links skipped", {
    crawlId: config.crawlId,
    batch,
    skipped,
    steps: TUNING.crawlPatternSteps,
  });
}
