/**
 * Admin authentication: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time.
 * Anything else is 401 UNAUTHORIZED (the admin API does not say which part was wrong).
 */
import type { MiddlewareHandler } from "hono";
import { config } from "../../config";
import { timingSafeEqualStrings } from "../../signing/hmac";
import { ApiError } from "../../errors";
import type { AppEnv } from "../types";

export const adminToken = (): MiddlewareHandler<AppEnv> =>
  async function adminTokenMiddleware(c, next) {
    const expected = config(c.env).adminToken;
    const header = c.req.header("authorization") ?? "";
    const presented = /^Bearer[ \t]+(\S+)$/i.exec(header)?.[1] ?? "";
    if (!(await timingSafeEqualStrings(presented, expected))) {
      throw new ApiError("UNAUTHORIZED", "Admin token required.", {
        headers: { "www-authenticate": 'Bearer realm="admin"' },
      });
    }
    await next();
  };
