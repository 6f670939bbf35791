/**
 * Watches (docs/WATCHES.md): POST/GET /v1/watches, GET/PATCH/DELETE /v1/watches/:watchId,
 * POST /v1/watches/:watchId/run (202, the schedule untouched) and GET /v1/watches/:watchId/runs.
 * Another account's watch is indistinguishable from an unknown one: 404 WATCH_NOT_FOUND.
 */
import { Hono } from "hono";
import { encodeCursor } from "../../../schemas/jobs";
import { LIMITS } from "../../../schemas/limits";
import type { Listing } from "../../../schemas/responses";
import {
  runListQuery,
  watchCreateSchema,
  watchListQuery,
  watchPatchSchema,
  type WatchDeleted,
  type WatchRunAccepted,
  type WatchRunView,
  type WatchView,
} from "../../../schemas/watches";
import { ApiError } from "../../errors";
import { publicOrigin } from "../../storage/hosted";
import { prepareChange, prepareWatch, watchNotFound, watchRefusal } from "../../watches/prepare";
import { deleteWatchOutputs } from "../../watches/outputs";
import { jsonBody, parseWith } from "../body";
import { successBody } from "../envelope";
import { authenticate } from "../middleware/authenticate";
import type { AppEnv } from "../types";
import { isUuid } from "../../encoding";

function query(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams);
}

function watchId(raw: string): string {
  if (!isUuid(raw)) throw watchNotFound();
  return raw;
}

export const watchRoutes = new Hono<AppEnv>()
  .post("/watches", authenticate(), async (c) => {
    const auth = c.get("auth");
    const body = await jsonBody(c, watchCreateSchema);
    const input = await prepareWatch(c.env, auth, body, publicOrigin(c.env, c.req.url));
    const result = await auth.account.watches().create(input);
    if (!result.ok) throw watchRefusal(result, auth.plan);
    return c.json(successBody(c.get("requestId"), result.watch), 201);
  })
  .get("/watches", authenticate(), async (c) => {
    const q = parseWith(watchListQuery, query(c.req.url));
    const page = await c
      .get("auth")
      .account.watches()
      .list({
        status: q.status ?? null,
        limit: q.limit ?? LIMITS.listDefault,
        before: q.cursor ?? null,
      });
    const data: Listing<WatchView> = {
      items: page.items,
      nextCursor: page.nextBefore === null ? null : encodeCursor("watch", page.nextBefore),
    };
    return c.json(successBody(c.get("requestId"), data));
  })
  .get("/watches/:watchId", authenticate(), async (c) => {
    const watch = await c
      .get("auth")
      .account.watches()
      .get(watchId(c.req.param("watchId")));
    if (!watch) throw watchNotFound();
    return c.json(successBody(c.get("requestId"), watch));
  })
  .patch("/watches/:watchId", authenticate(), async (c) => {
    const auth = c.get("auth");
    const id = watchId(c.req.param("watchId"));
    const patch = await jsonBody(c, watchPatchSchema);
    const current = await auth.account.watches().get(id);
    if (!current) throw watchNotFound();
    const change = await prepareChange(
      c.env,
      auth,
      {
        url: current.url,
        capture: current.capture,
        changeDetection: current.changeDetection,
      },
      patch,
    );
    const result = await auth.account.watches().update(id, change);
    if (!result.ok) throw watchRefusal(result, auth.plan);
    return c.json(successBody(c.get("requestId"), result.watch));
  })
  .delete("/watches/:watchId", authenticate(), async (c) => {
    const id = watchId(c.req.param("watchId"));
    const keys = await c.get("auth").account.watches().delete(id);
    if (keys === null) throw watchNotFound();
    await deleteWatchOutputs(c.env, keys);
    const data: WatchDeleted = { id, deleted: true };
    return c.json(successBody(c.get("requestId"), data));
  })
  .post("/watches/:watchId/run", authenticate(), async (c) => {
    const id = watchId(c.req.param("watchId"));
    const result = await c.get("auth").account.watches().runNow(id);
    if (!result.ok) {
      if (!("cause" in result)) {
        if (result.reason === "not_found") throw watchNotFound();
        throw new ApiError("WATCH_PAUSED", "This watch is paused; resume it to run it.");
      }
      // Recorded as a skipped run; answered like an async capture refused for the same cause.
      if (result.cause === "credits") throw new ApiError("USAGE_EXCEEDED", result.reason);
      if (result.cause === "queue_limit") throw new ApiError("QUEUE_LIMIT_REACHED", result.reason);
      throw new ApiError("INTERNAL_ERROR", "The run could not be queued; nothing was charged.");
    }
    const data: WatchRunAccepted = { runId: result.runId, jobId: result.jobId, status: "queued" };
    return c.json(successBody(c.get("requestId"), data), 202);
  })
  .get("/watches/:watchId/runs", authenticate(), async (c) => {
    const id = watchId(c.req.param("watchId"));
    const q = parseWith(runListQuery, query(c.req.url));
    const page = await c
      .get("auth")
      .account.watches()
      .listRuns(id, {
        status: q.status ?? null,
        limit: q.limit ?? LIMITS.listDefault,
        before: q.cursor ?? null,
      });
    if (!page) throw watchNotFound();
    const data: Listing<WatchRunView> = {
      items: page.items,
      nextCursor: page.nextBefore === null ? null : encodeCursor("run", page.nextBefore),
    };
    return c.json(successBody(c.get("requestId"), data));
  });
