/**
 * Polling async work, all free of credit: GET /v1/jobs/:jobId, GET /v1/jobs, GET
 * /v1/batches/:batchId (summary counts plus every job) and GET /v1/batches. Listings are newest
 * first, `{items, nextCursor}`. Another account's job or batch is indistinguishable from an
 * unknown one: 404 NOT_FOUND.
 */
import { Hono } from "hono";
import { batchListQuery, encodeCursor, jobListQuery } from "../../../schemas/jobs";
import { LIMITS } from "../../../schemas/limits";
import type { BatchView, JobView, Listing } from "../../../schemas/responses";
import { parseWith } from "../body";
import { successBody } from "../envelope";
import { ApiError } from "../../errors";
import { authenticate } from "../middleware/authenticate";
import type { AppEnv } from "../types";
import { isUuid } from "../../encoding";

const notFound = (what: "job" | "batch") => new ApiError("NOT_FOUND", `No ${what} with this id.`);

function query(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams);
}

export const jobRoutes = new Hono<AppEnv>()
  .get("/jobs/:jobId", authenticate(), async (c) => {
    const jobId = c.req.param("jobId");
    const job = isUuid(jobId) ? await c.get("auth").account.jobs().get(jobId) : null;
    if (!job) throw notFound("job");
    return c.json(successBody(c.get("requestId"), job));
  })
  .get("/jobs", authenticate(), async (c) => {
    const q = parseWith(jobListQuery, query(c.req.url));
    const page = await c
      .get("auth")
      .account.jobs()
      .list({
        status: q.status ?? null,
        limit: q.limit ?? LIMITS.listDefault,
        before: q.cursor ?? null,
      });
    const data: Listing<JobView> = {
      items: page.items,
      nextCursor: page.nextBefore === null ? null : encodeCursor("job", page.nextBefore),
    };
    return c.json(successBody(c.get("requestId"), data));
  })
  .get("/batches/:batchId", authenticate(), async (c) => {
    const batchId = c.req.param("batchId");
    const batch = isUuid(batchId) ? await c.get("auth").account.jobs().getBatch(batchId) : null;
    if (!batch) throw notFound("batch");
    return c.json(successBody(c.get("requestId"), batch));
  })
  .get("/batches", authenticate(), async (c) => {
    const q = parseWith(batchListQuery, query(c.req.url));
    const page = await c
      .get("auth")
      .account.jobs()
      .listBatches({
        status: q.status ?? null,
        limit: q.limit ?? LIMITS.listDefault,
        before: q.cursor ?? null,
      });
    const data: Listing<BatchView> = {
      items: page.items,
      nextCursor: page.nextBefore === null ? null : encodeCursor("batch", page.nextBefore),
    };
    return c.json(successBody(c.get("requestId"), data));
  });
