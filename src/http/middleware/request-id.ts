/**
 * Request id middleware: every response carries `x-request-id`, and every envelope's
 * `meta.requestId` is the same value. A caller-supplied id is kept when it is short and plain.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";

const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/;

export const requestId = (): MiddlewareHandler<AppEnv> =>
  async function requestIdMiddleware(c, next) {
    const incoming = c.req.header("x-request-id");
    const id = incoming && SAFE_ID.test(incoming) ? incoming : `req_${crypto.randomUUID()}`;
    c.set("requestId", id);
    c.header("x-request-id", id);
    await next();
  };
