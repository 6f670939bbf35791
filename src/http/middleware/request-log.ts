/**
 * Request log middleware: after a key-authenticated request is answered, its entry — method,
 * route pattern (`/v1/jobs/:jobId`: never the path's values or the query), status, error code,
 * credits charged, duration, request id, key — goes to the account's request log
 * (src/accounts/request-log.ts) through `waitUntil`, so the answer never waits for it. A
 * request that was not authenticated with a key (a 401, the dashboard, signed links) is not
 * an account's and is not logged.
 */
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AuthContext } from "../../accounts/auth";
import { log } from "../../log";
import type { AppEnv } from "../types";

export const requestLog = (): MiddlewareHandler<AppEnv> =>
  async function requestLogMiddleware(c, next) {
    const started = Date.now();
    await next();
    const auth = c.var.auth as AuthContext | undefined;
    if (!auth) return;
    const status = c.res.status;
    const entry = {
      at: started,
      method: c.req.method,
      route: routePath(c),
      status,
      errorCode: status >= 400 ? (c.var.errorCode ?? null) : null,
      credits: c.var.charged ?? null,
      durationMs: Date.now() - started,
      requestId: c.var.requestId,
      keyId: auth.keyId,
    };
    const write = auth.account
      .requests()
      .record(entry)
      .catch((err: unknown) => log("error", "request log: not written", { error: String(err) }));
    try {
      c.executionCtx.waitUntil(write);
    } catch {
      // No execution context (a test calling app.fetch bare): the write still runs.
    }
  };
