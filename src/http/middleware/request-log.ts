/**
 * Request log middleware: after a key-authenticated request is answered, its entry — method,
 * route pattern (`/v1/jobs/:jobId`: never the path's values or the query), status, error code,
 * credits charged, duration, request id, key — goes to the account's request log
 * (src/accounts/request-log.ts) once the answer has left, kept alive by `waitUntil`. A
 * request with no account caller (a 401, the dashboard's pages, signed links) is not logged;
 * the dashboard playground's calls, made as the session's account with no key, are.
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
    // Started on a later turn of the event loop, after this handler has returned the answer. A
    // Durable Object call started here is dispatched on the isolate's one thread ahead of the
    // answer's bytes: with wrangler dev, a small-page capture's answer reached the client 13–17
    // ms after its handler built it, against 5–6 ms with the call deferred. (The refund of unused
    // credits in ./authenticate.ts is not deferred: a caller reading its usage right after a 400
    // must find the credits back.)
    const write = new Promise((resolve) => setTimeout(resolve, 0))
      .then(() => auth.account.requests().record(entry))
      .catch((err: unknown) => log("error", "request log: not written", { error: String(err) }));
    try {
      c.executionCtx.waitUntil(write);
    } catch {
      // No execution context (a test calling app.fetch bare): the write still runs.
    }
  };
