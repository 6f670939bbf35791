/**
 * Configuration is checked at the entry, before any route runs: a bad or missing var or secret
 * is a logged configuration error and a 503 CONFIGURATION_ERROR on the first request — not on
 * whichever code path happens to read it first. The check runs once per environment object.
 */
import type { MiddlewareHandler } from "hono";
import { config } from "../../config";
import type { AppEnv } from "../types";

export const checkConfig = (): MiddlewareHandler<AppEnv> =>
  async function checkConfigMiddleware(c, next) {
    config(c.env);
    await next();
  };
