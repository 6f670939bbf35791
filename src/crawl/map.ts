/**
 * POST /v1/map: a site's URLs without rendering them all — its sitemaps (robots.txt `Sitemap:`
 * lines and /sitemap.xml, followed through indexes and .xml.gz) and the links of its rendered
 * start page, filtered by the crawl's own rules (scope, include/exclude, robots.txt, nofollow).
 * One credit: the start page's render is the billed output (refunded if it fails); a map of
 * sitemaps only is billed the same.
 */
import type { MapRequest, MapResult } from "../../schemas/crawl";
import { CRAWL } from "../../schemas/limits";
import type { Usage } from "../../schemas/responses";
import type { AuthContext } from "../accounts/auth";
import { withCredits } from "../accounts/credits";
import { prepareCapture } from "../capture-request/prepare";
import { validationError } from "../errors";
import type { CaptureEngine } from "../pipeline/engine";
import { runCapture, runPrepaidCapture } from "../pipeline/pipeline";
import { crawlConfig } from "./config";
import { type Discovered, linkRules } from "./links";
import { fetchRobots, robotsOf } from "./politeness";
import { CRAWLER_USER_AGENT } from "./robots";
import { sitemapUrls } from "./seeds";
import { normalizeUrl } from "./urls";

/** The links output map bills (and routes reserve with authentication). */
export const MAP_OUTPUT = { kind: "links", billable: true } as const;

export async function mapSite(
  env: Env,
  auth: AuthContext,
  req: MapRequest,
  engine: CaptureEngine,
): Promise<{ data: MapResult; usage: Usage }> {
  const limit = req.limit ?? CRAWL.mapLimit.default;
  if (limit > auth.plan.mapUrlCap)
    throw validationError(
      "limit",
      `Must be at most ${auth.plan.mapUrlCap} on the ${auth.plan.name} plan.`,
    );
  const mapped = await discover(env, auth, req, engine, true);
  if (mapped.usage === null) throw new Error("map: charged without usage");
  return { data: mapped.data, usage: mapped.usage };
}

/** The site a crawl or a monitor's check covers, as its request gives it. */
export type SiteScope = Pick<MapRequest, "url" | "scope" | "include" | "exclude" | "sitemap"> & {
  limit: number;
  maxDepth: number;
};

/**
 * What a crawl of `site` (or a monitor's check) would render, as far as it is known before
 * rendering: the start URL (unless it reads sitemaps only), then the map's URLs — charging
 * nothing. The dry runs of POST /v1/crawl and POST /v1/monitors answer it before anything is
 * bought. With `maxDepth` 0 a crawl renders the start page alone (sitemap URLs enter at depth 1).
 */
export async function siteCoverage(
  env: Env,
  auth: AuthContext,
  site: SiteScope,
  engine: CaptureEngine,
): Promise<{ urls: string[]; truncated: boolean }> {
  const { limit, maxDepth, ...scope } = site;
  const map =
    maxDepth === 0
      ? { urls: [], truncated: false }
      : (
          await discover(
            env,
            auth,
            { ...scope, limit: Math.min(limit, CRAWL.mapLimit.max) },
            engine,
            false,
          )
        ).data;
  const urls = map.urls.map((u) => u.url);
  if (site.sitemap !== "only" && !urls.includes(site.url)) urls.unshift(site.url);
  return { urls: urls.slice(0, limit), truncated: map.truncated || urls.length > limit };
}

async function discover(
  env: Env,
  auth: AuthContext,
  req: MapRequest,
  engine: CaptureEngine,
  charge: boolean,
): Promise<{ data: MapResult; usage: Usage | null }> {
  const spec = await prepareCapture(env, auth, { url: req.url, userAgent: CRAWLER_USER_AGENT });
  const start = spec.source.kind === "url" ? normalizeUrl(spec.source.url) : null;
  if (start === null) throw validationError("url", "Must be a public http or https URL.");
  const limit = req.limit ?? CRAWL.mapLimit.default;
  const ids = {
    crawlId: "map",
    accountId: auth.accountId,
    plan: auth.plan.id,
    url: start,
    origin: "",
  };
  const config = crawlConfig({ ...req, limit: undefined, maxDepth: 1 }, ids, {});
  const startUrl = new URL(start);
  const robots = robotsOf(startUrl, await fetchRobots(env, startUrl));

  // The crawl's rules and robots.txt decide each URL as it is read: a sitemap's URLs are kept
  // only when they pass, and its read stops at limit + 1 of them (one more tells truncated).
  const rules = linkRules(config);
  const keep = (link: Discovered): string | null => {
    const verdict = rules(link, 1);
    if (verdict === null || verdict.skip !== null) return null;
    return robots.allowed(verdict.url.href) ? verdict.url.href : null;
  };
  const sitemaps = () =>
    config.sitemap === "skip"
      ? Promise.resolve({ urls: [], truncated: false })
      : sitemapUrls(env, startUrl, robots, limit + 1, (url) => keep({ url, nofollow: false }));
  const collect = (sitemap: { urls: string[]; truncated: boolean }, found: Discovered[]) => {
    const seen = new Set<string>();
    const urls: MapResult["urls"] = [];
    let truncated = sitemap.truncated;
    // The answer's URLs, in characters: bounded (CRAWL.mapChars) whatever the URLs' lengths.
    let chars = 0;
    const add = (href: string, source: "sitemap" | "links") => {
      if (seen.has(href)) return;
      seen.add(href);
      if (urls.length < limit && chars + href.length <= CRAWL.mapChars) {
        urls.push({ url: href, source });
        chars += href.length;
      } else truncated = true;
    };
    for (const url of sitemap.urls) add(url, "sitemap");
    for (const link of found) {
      const href = keep(link);
      if (href !== null) add(href, "links");
    }
    return { urls, truncated };
  };

  // Sitemaps only (or a start page robots.txt disallows): the one credit is billed here.
  if (config.sitemap === "only" || !robots.allowed(start)) {
    if (!charge) return { data: collect(await sitemaps(), []), usage: null };
    const { value, usage } = await withCredits(auth, 1, async () => collect(await sitemaps(), []));
    return { data: value, usage };
  }
  // Otherwise the start page's links are the billed output (refunded if the render fails).
  const input = {
    spec,
    outputs: [{ ...MAP_OUTPUT, visibleOnly: false, internalOnly: false, includeNonHttp: false }],
    storage: { kind: "none" } as const,
    engine,
  };
  const [sitemap, run] = await Promise.all([
    sitemaps(),
    charge
      ? runCapture(env, auth, input)
      : runPrepaidCapture(env, auth.accountId, input).then((r) => ({ ...r, usage: null })),
  ]);
  const [output] = run.outputs;
  if (!output?.ok) throw output?.failure.error ?? new Error("map: no links output");
  if (output.kind !== "links") throw new Error("map: not a links output");
  const found = output.links.map((l) => ({ url: l.url, nofollow: /\bnofollow\b/i.test(l.rel) }));
  return { data: collect(sitemap, found), usage: run.usage };
}
