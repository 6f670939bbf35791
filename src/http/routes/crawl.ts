/**
 * Crawl and map (docs/CRAWL.md): POST /v1/crawl (202), GET /v1/crawl/:crawlId (summary and the
 * first page of results), GET /v1/crawl/:crawlId/pages, DELETE /v1/crawl/:crawlId (cancel),
 * GET /v1/crawls, POST /v1/map. Another account's crawl is indistinguishable from an unknown
 * one: 404 CRAWL_NOT_FOUND. The work is in src/crawl/.
 */
import { Hono } from "hono";
import {
  crawlListQuery,
  crawlPagesQuery,
  crawlRequestSchema,
  mapRequestSchema,
  type Crawl,
  type CrawlSummary,
} from "../../../schemas/crawl";
import { encodeCursor } from "../../../schemas/jobs";
import { CRAWL, LIMITS } from "../../../schemas/limits";
import type { Listing } from "../../../schemas/responses";
import type { AuthContext } from "../../accounts/auth";
import { mapSite, MAP_OUTPUT } from "../../crawl/map";
import { crawlStub } from "../../crawl/messages";
import { startCrawl } from "../../crawl/start";
import { ApiError } from "../../errors";
import { browserEngine } from "../../pipeline/engine";
import { publicOrigin } from "../../storage/hosted";
import { jsonBody, parseWith } from "../body";
import { successBody } from "../envelope";
import { authenticate } from "../middleware/authenticate";
import { idempotent } from "../middleware/idempotency";
import type { AppEnv } from "../types";
import { isUuid } from "../../encoding";

function query(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams);
}

/** The crawl's summary, from its own DO while it is kept (the account's index otherwise); 404. */
export async function crawlSummary(
  env: Env,
  auth: AuthContext,
  crawlId: string,
): Promise<CrawlSummary> {
  const indexed = isUuid(crawlId) ? await auth.account.crawls().get(crawlId) : null;
  if (!indexed) throw new ApiError("CRAWL_NOT_FOUND", "No crawl with this id.");
  return (await crawlStub(env, auth.accountId, crawlId).summary()) ?? indexed;
}

/** GET /v1/crawl/:id's answer: the summary and a page of results after `cursor`. */
export async function crawlView(
  env: Env,
  auth: AuthContext,
  crawlId: string,
  cursor = 0,
  limit: number = CRAWL.pagesPerList.default,
): Promise<Crawl> {
  const summary = await crawlSummary(env, auth, crawlId);
  const pages = await crawlStub(env, auth.accountId, crawlId).pages(cursor, limit);
  return { ...summary, ...pages };
}

export const crawlRoutes = new Hono<AppEnv>()
  .post("/crawl", authenticate(), idempotent(), async (c) => {
    const req = await jsonBody(c, crawlRequestSchema);
    const origin = publicOrigin(c.env, c.req.url);
    const started = await startCrawl(c.env, c.get("auth"), req, origin);
    return c.json(successBody(c.get("requestId"), started), 202);
  })
  .get("/crawl/:crawlId", authenticate(), async (c) => {
    const view = await crawlView(c.env, c.get("auth"), c.req.param("crawlId"));
    return c.json(successBody(c.get("requestId"), view));
  })
  .get("/crawl/:crawlId/pages", authenticate(), async (c) => {
    const q = parseWith(crawlPagesQuery, query(c.req.url));
    const { pages, nextCursor } = await crawlView(
      c.env,
      c.get("auth"),
      c.req.param("crawlId"),
      q.cursor ?? 0,
      q.limit ?? CRAWL.pagesPerList.default,
    );
    return c.json(successBody(c.get("requestId"), { pages, nextCursor }));
  })
  .delete("/crawl/:crawlId", authenticate(), async (c) => {
    const auth = c.get("auth");
    const crawlId = c.req.param("crawlId");
    await crawlSummary(c.env, auth, crawlId);
    const summary = await crawlStub(c.env, auth.accountId, crawlId).cancel();
    if (!summary) throw new ApiError("CRAWL_NOT_FOUND", "No crawl with this id.");
    return c.json(successBody(c.get("requestId"), summary));
  })
  .get("/crawls", authenticate(), async (c) => {
    const q = parseWith(crawlListQuery, query(c.req.url));
    const page = await c
      .get("auth")
      .account.crawls()
      .list({
        status: q.status ?? null,
        limit: q.limit ?? LIMITS.listDefault,
        before: q.cursor ?? null,
      });
    const data: Listing<CrawlSummary> = {
      items: page.items,
      nextCursor: page.nextBefore === null ? null : encodeCursor("crawl", page.nextBefore),
    };
    return c.json(successBody(c.get("requestId"), data));
  })
  .post("/map", authenticate({ reserveFor: [MAP_OUTPUT] }), idempotent(), async (c) => {
    const req = await jsonBody(c, mapRequestSchema);
    const { data, usage } = await mapSite(c.env, c.get("auth"), req, browserEngine(c.env));
    return c.json(successBody(c.get("requestId"), data, usage));
  });
