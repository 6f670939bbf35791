/**
 * GET /v1/requests: the account's request log — its last 200 API requests of the last 7 days,
 * newest first, `status` keeping one class (2xx, 4xx, 5xx). Free of credit.
 */
import { Hono } from "hono";
import { LIMITS } from "../../../schemas/limits";
import { requestLogQuery } from "../../../schemas/request-log";
import { parseWith } from "../body";
import { successBody } from "../envelope";
import { authenticate } from "../middleware/authenticate";
import type { AppEnv } from "../types";

export const requestRoutes = new Hono<AppEnv>().get("/requests", authenticate(), async (c) => {
  const q = parseWith(requestLogQuery, Object.fromEntries(new URL(c.req.url).searchParams));
  const items = await c
    .get("auth")
    .account.requests()
    .list({ status: q.status ?? null, limit: q.limit ?? LIMITS.requestLogEntries });
  return c.json(successBody(c.get("requestId"), { items }));
});
