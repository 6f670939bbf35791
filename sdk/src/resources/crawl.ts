/**
 * Crawls: a site rendered page by page into Markdown (and other formats), started, read,
 * paged through, cancelled, listed, or awaited. Bound onto the client as `edgeshot.crawl`;
 * `mapCall` is `edgeshot.map` (a site's URLs, synchronous, one credit).
 */
import type {
  Crawl,
  CrawlDryRun,
  CrawlPage,
  CrawlRequest,
  CrawlStarted,
  CrawlSummary,
  ListCrawlsData,
  MapRequest,
  MapResult,
} from "../generated/index.js";
import type { Transport, WaitOptions } from "../transport.js";

/** The statuses a crawl ends in: nothing changes after them. */
const FINAL: ReadonlySet<Crawl["status"]> = new Set(["completed", "cancelled", "failed"]);

export interface CrawlPagesOptions {
  /** Results per request, 1–100; default 100 (fewest requests). */
  limit?: number;
  /** Start after this `nextCursor` of an earlier answer; default the first result. */
  cursor?: string;
  /** Only pages that were rendered, skipped or failed (`pages` only). */
  status?: CrawlPage["status"];
}

const crawlPath = (crawlId: string) => `/v1/crawl/${encodeURIComponent(crawlId)}`;

export function crawlResource(t: Transport) {
  async function* results(path: string, options: CrawlPagesOptions): AsyncGenerator<CrawlPage> {
    let cursor = options.cursor;
    do {
      const answer = await t.json<{ pages: CrawlPage[]; nextCursor: string | null }>(
        "GET",
        path,
        undefined,
        { limit: options.limit ?? 100, cursor, status: options.status },
      );
      yield* answer.pages;
      cursor = answer.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
  const crawl = {
    /** POST /v1/crawl: queued (202); poll `get` or `wait`, read results with `pages`. */
    start: (request: Omit<CrawlRequest, "dryRun">) =>
      t.json<CrawlStarted>("POST", "/v1/crawl", request),
    /** POST /v1/crawl with `dryRun`: the URLs known now and the credits; nothing started. */
    dryRun: (request: Omit<CrawlRequest, "dryRun">) =>
      t.json<CrawlDryRun>("POST", "/v1/crawl", { ...request, dryRun: true }),
    /** GET /v1/crawl/{id}: status, counts, and the first page of results with `nextCursor`. */
    get: (crawlId: string) => t.json<Crawl>("GET", crawlPath(crawlId)),
    /**
     * Every result finished so far, one `CrawlPage` at a time, in the order pages finished:
     * GET /v1/crawl/{id}/pages, following `nextCursor` until it is null. On a running crawl it
     * ends with the last finished page; after `wait` it is every page of the crawl.
     */
    pages: (crawlId: string, options: CrawlPagesOptions = {}) =>
      results(`${crawlPath(crawlId)}/pages`, options),
    /**
     * GET /v1/crawl/{id}/errors, every result: failed pages, and pages robots.txt or the URL
     * guard refused or the credits left unrendered, each with its reason and `foundOn`.
     */
    errors: (crawlId: string, options: Omit<CrawlPagesOptions, "status"> = {}) =>
      results(`${crawlPath(crawlId)}/errors`, options),
    /** DELETE /v1/crawl/{id}: nothing new starts; pages not rendered are not charged. */
    cancel: (crawlId: string) => t.json<CrawlSummary>("DELETE", crawlPath(crawlId)),
    /** GET /v1/crawls: the account's crawls, newest first; follow `nextCursor` with `cursor`. */
    list: (query: NonNullable<ListCrawlsData["query"]> = {}) =>
      t.json<{ items: CrawlSummary[]; nextCursor: string | null }>(
        "GET",
        "/v1/crawls",
        undefined,
        query,
      ),
    /** Polls `get` until the crawl completed, was cancelled or failed (check `status`). */
    wait: (crawlId: string, options: WaitOptions = {}) =>
      t.poll(
        () => crawl.get(crawlId),
        (c) => FINAL.has(c.status),
        options,
      ),
  };
  return crawl;
}

/** POST /v1/map: the site's URLs from its sitemaps and its start page's links; one credit. */
export function mapCall(t: Transport) {
  return (request: MapRequest) => t.json<MapResult>("POST", "/v1/map", request);
}
