/**
 * Reading a crawl back: its summary (from its own DO while it is kept, else the account's index)
 * and a page of its results. The REST routes and the MCP `crawl_status` tool answer from here.
 * Another account's crawl is indistinguishable from an unknown one: CRAWL_NOT_FOUND.
 */
import type { Crawl, CrawlPages, CrawlSummary } from "../../schemas/crawl";
import { CRAWL } from "../../schemas/limits";
import type { AuthContext } from "../accounts/auth";
import { isUuid } from "../encoding";
import { ApiError } from "../errors";
import { crawlStub } from "./crawl-stub";
import type { PageFilter } from "./frontier";

const crawlNotFound = () => new ApiError("CRAWL_NOT_FOUND", "No crawl with this id.");

/** The crawl's summary, from its own DO while it is kept (the account's index otherwise); 404. */
async function crawlSummary(env: Env, auth: AuthContext, crawlId: string): Promise<CrawlSummary> {
  const indexed = isUuid(crawlId) ? await auth.account.crawls().get(crawlId) : null;
  if (!indexed) throw crawlNotFound();
  return (await crawlStub(env, auth.accountId, crawlId).summary()) ?? indexed;
}

/**
 * What GET /v1/crawl/:id/errors lists: failed pages, and pages skipped because they were refused
 * (robots.txt, the URL guard) or the credits ran out — not those the crawl's own rules left out
 * (scope, patterns, depth) nor documents that are not pages.
 */
export const ERROR_PAGES: PageFilter = {
  statuses: ["failed"],
  skippedFor: ["robots", "blocked", "credits"],
};

/** GET /v1/crawl/:id's answer: the summary and a page of results after `cursor`. */
export async function crawlView(
  env: Env,
  auth: AuthContext,
  crawlId: string,
  cursor = 0,
  limit: number = CRAWL.pagesPerList.default,
  filter: PageFilter = {},
): Promise<Crawl> {
  const summary = await crawlSummary(env, auth, crawlId);
  const pages = await crawlStub(env, auth.accountId, crawlId).pages(cursor, limit, filter);
  return { ...summary, ...pages };
}

/** GET /v1/crawl/:id/pages and /errors: a page of results after `cursor`, as `filter` keeps. */
export async function crawlResults(
  env: Env,
  auth: AuthContext,
  crawlId: string,
  query: { cursor?: number; limit?: number },
  filter: PageFilter,
): Promise<CrawlPages> {
  const { pages, nextCursor } = await crawlView(
    env,
    auth,
    crawlId,
    query.cursor ?? 0,
    query.limit ?? CRAWL.pagesPerList.default,
    filter,
  );
  return { pages, nextCursor };
}

/** Cancels the crawl: nothing new starts; its summary after. */
export async function cancelCrawl(
  env: Env,
  auth: AuthContext,
  crawlId: string,
): Promise<CrawlSummary> {
  await crawlSummary(env, auth, crawlId);
  const summary = await crawlStub(env, auth.accountId, crawlId).cancel();
  if (!summary) throw crawlNotFound();
  return summary;
}
