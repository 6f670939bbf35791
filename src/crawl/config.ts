/**
 * What a crawl is asked to do, as its Crawl DO keeps it (the request normalised by the route,
 * src/http/routes/crawl.ts), and how each of its pages becomes a capture: the pipeline's
 * requested outputs for the crawl's formats and what one page costs.
 */
import { TUNING } from "../tuning";
import type {
  CrawlFormat,
  CrawlPageOptions,
  CrawlRequest,
  CRAWL_SCOPES,
  PageLoader,
  RenderMode,
  SITEMAP_MODES,
} from "../../schemas/crawl";
import { CRAWL } from "../../schemas/limits";
import type { FieldMap, MarkupKind } from "../../schemas/structured";
import type { AlertRule } from "../../schemas/watches";
import type { PlanId } from "../accounts/plans";
import type { RequestedOutput } from "../pipeline/pipeline";

export interface CrawlConfig {
  crawlId: string;
  accountId: string;
  plan: PlanId;
  /** The start URL, normalised. */
  url: string;
  limit: number;
  maxDepth: number;
  scope: (typeof CRAWL_SCOPES)[number];
  include: string[];
  exclude: string[];
  sitemap: (typeof SITEMAP_MODES)[number];
  formats: CrawlFormat[];
  /** The json format's fields and markup kind (POST /v1/json's). */
  fields?: FieldMap;
  kind?: MarkupKind;
  followNofollow: boolean;
  /** Pages of one host loaded at once, as asked (absent: `crawlConcurrency`'s default). */
  maxConcurrency?: number;
  /** How pages load (absent in a crawl stored before it: "always"). */
  render?: RenderMode;
  /** Incremental crawls (docs/CRAWL.md): reuse a page loaded within this many seconds. */
  maxAge?: number;
  /** Incremental crawls: pages not changed since then (epoch ms) are skipped. */
  modifiedSince?: number;
  /** The capture options of every page (headers and cookies: the start URL's origin only). */
  options: CrawlPageOptions;
  /** Origin of the signed URLs in results (screenshots, large bodies). */
  origin: string;
  /**
   * Set when the crawl is a site monitor's check (src/monitors/): its pages are rendered and
   * compared by the monitor's renderer, one credit each, and kept for the plan's retention.
   */
  monitor?: MonitorCheckConfig;
  /**
   * False when no `crawl.page` event is delivered (no webhook, or not asked for): the account's
   * index then takes the crawl's progress at most once every `TUNING.crawlProgressMs` while it
   * runs, not once a page (absent in crawls stored before it, and in monitors' checks: each page).
   */
  pageEvents?: false;
}

/** What a monitor's check carries for its pages (src/monitors/check.ts builds it). */
export interface MonitorCheckConfig {
  monitorId: string;
  checkId: string;
  compare: Array<"visual" | "text" | "fields">;
  fields: Array<{ name: string; selector: string; attribute?: string }>;
  /** Rules on the fields (../watches/alerts.ts); absent in checks started before alerts. */
  alerts?: AlertRule[];
  ignore: string[];
  ignoreRegions: Array<{ x: number; y: number; width: number; height: number }>;
  learnVolatile: boolean;
  minChangedPixels: number;
  minChangedWords: number;
  retentionDays: number;
}

/** Days a crawl's results are kept after it ends: a monitor check's, its plan's. */
export function retentionDays(config: CrawlConfig): number {
  return config.monitor?.retentionDays ?? CRAWL.retentionDays;
}

export function crawlConfig(
  req: CrawlRequest,
  ids: { crawlId: string; accountId: string; plan: PlanId; url: string; origin: string },
  options: CrawlPageOptions,
): CrawlConfig {
  return {
    ...ids,
    limit: req.limit ?? CRAWL.limit.default,
    maxDepth: req.maxDepth ?? CRAWL.maxDepth.default,
    scope: req.scope ?? "host",
    include: req.include ?? [],
    exclude: req.exclude ?? [],
    sitemap: req.sitemap ?? "include",
    formats: req.formats ?? ["markdown"],
    ...(req.fields !== undefined ? { fields: req.fields } : {}),
    ...(req.kind !== undefined ? { kind: req.kind } : {}),
    followNofollow: req.followNofollow ?? false,
    ...(req.maxConcurrency !== undefined ? { maxConcurrency: req.maxConcurrency } : {}),
    render: req.render ?? "always",
    ...(req.maxAge !== undefined ? { maxAge: req.maxAge } : {}),
    ...(req.modifiedSince !== undefined ? { modifiedSince: Date.parse(req.modifiedSince) } : {}),
    ...(req.webhookUrl !== undefined && req.webhookEvents?.includes("crawl.page")
      ? {}
      : { pageEvents: false as const }),
    options,
  };
}

/** The config as the Crawl DO stored it (written by `crawlConfig`, from a validated request). */
export function readConfig(json: string): CrawlConfig {
  return JSON.parse(json) as CrawlConfig;
}

/**
 * What a crawl's pages cost — the one place (docs/CRAWL.md, "Credits"):
 *
 * | page | credits |
 * | --- | --- |
 * | rendered in the browser | 1 (+1 with `screenshot`) |
 * | loaded over HTTP, converted without a browser | ½: the crawl's 1st, 3rd, 5th… HTTP page commits 1, the others 0 |
 * | a monitor's page | 1 |
 * | skipped or failed | 0 |
 *
 * `pageCost` is what is held before a page loads (under `auto` it is not yet known which way it
 * loads, so the browser's price is held); `committedCredits` what it commits once loaded.
 */
export function pageCost(config: Pick<CrawlConfig, "formats" | "monitor">): number {
  if (config.monitor) return 1;
  return 1 + (config.formats.includes("screenshot") ? 1 : 0);
}

/** The credits a rendered page commits, given the crawl's HTTP pages committed before it. */
export function committedCredits(
  config: Pick<CrawlConfig, "formats" | "monitor">,
  loader: PageLoader,
  httpPagesBefore: number,
): number {
  if (loader === "browser") return pageCost(config);
  return httpPagesBefore % 2 === 0 ? 1 : 0;
}

/** The most `pages` rendered pages can cost (a dry run's figures): HTTP pages with `never`. */
export function crawlCredits(
  config: Pick<CrawlConfig, "formats" | "monitor" | "render">,
  pages: number,
): number {
  if (config.render === "never") return Math.ceil(pages / 2);
  return pages * pageCost(config);
}

/**
 * The pipeline's outputs for a crawl page: its links always (the frontier needs them), the
 * formats asked for, the screenshot last. None is billed by the pipeline: a page's credits are
 * reserved and settled by the crawl (./page-run.ts), once per page.
 */
export function pageOutputs(
  config: Pick<CrawlConfig, "formats" | "fields" | "kind">,
): RequestedOutput[] {
  const { formats } = config;
  const outputs: RequestedOutput[] = [
    {
      kind: "links",
      visibleOnly: false,
      internalOnly: false,
      includeNonHttp: false,
      billable: false,
    },
  ];
  // Markdown: the article, or on a page with none (a listing, a short page) the whole page.
  if (formats.includes("markdown"))
    outputs.push({ kind: "extraction", format: "markdown", billable: false, wholePage: true });
  if (formats.includes("text")) outputs.push({ kind: "text", billable: false });
  if (formats.includes("html")) outputs.push({ kind: "html", stripScripts: true, billable: false });
  if (formats.includes("json")) {
    const fields = config.fields ?? null;
    outputs.push({
      kind: "structured",
      fields,
      markup: config.kind !== undefined,
      billable: false,
    });
  }
  if (formats.includes("screenshot")) outputs.push({ kind: "image", format: "png" });
  return outputs;
}

/**
 * Whether a crawl's pages load text-only in the browser (../pipeline/extraction.ts
 * `textOnlySpec`: no images, media or fonts fetched), as POST /v1/extract's do: every format but
 * the screenshot is read from the DOM, which those never change.
 */
export function loadsTextOnly(config: Pick<CrawlConfig, "formats">): boolean {
  return !config.formats.includes("screenshot");
}

/**
 * Pages of a crawl in flight at once, and of one host: more when its pages are fetched over
 * HTTP first (`never`, `auto`: a page `auto` sends to the browser still waits for a browser slot
 * under the account's fairness). A monitor's check renders every page. The request's
 * `maxConcurrency` sets the pages of a host, and the crawl's go up to it.
 */
export function crawlConcurrency(
  config: Pick<CrawlConfig, "render" | "monitor" | "maxConcurrency">,
): { inFlight: number; perHost: number } {
  const http = !config.monitor && (config.render === "never" || config.render === "auto");
  const base = http
    ? { inFlight: TUNING.crawlHttpInFlight, perHost: TUNING.crawlHttpPerHostInFlight }
    : { inFlight: TUNING.crawlInFlight, perHost: TUNING.crawlPerHostInFlight };
  const perHost = config.maxConcurrency ?? base.perHost;
  return { inFlight: Math.max(base.inFlight, perHost), perHost };
}

/**
 * The most of a page's bodies (Markdown, HTML, text, json) its row in the Crawl DO holds; past
 * it they go to R2 behind `contentUrl`. `CRAWL.inlineBytes`, less in a crawl whose `limit` of
 * pages at that size would pass `CRAWL.inlineBudget`: the Crawl DO's storage stays bounded.
 */
export function inlineBytes(config: Pick<CrawlConfig, "limit">): number {
  return Math.min(CRAWL.inlineBytes, Math.floor(CRAWL.inlineBudget / Math.max(1, config.limit)));
}
