/**
 * Unauthenticated service routes: the health check, the service index (its endpoint list is
 * derived from the OpenAPI document) and the document itself.
 */
import { Hono } from "hono";
import pkg from "../../../package.json";
import openapi from "../../../schemas/openapi.json";
import type { Health, ServiceIndex } from "../../../schemas/responses";
import { config } from "../../config";
import type { AppEnv } from "../types";

/** Every operation of the contract (schemas/openapi.json), as "METHOD /path" by operationId. */
export const ENDPOINTS: Record<string, string> = Object.fromEntries(
  Object.entries(openapi.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== "head") // implied by GET
      .map(([method, op]) => [op.operationId, `${method.toUpperCase()} ${path}`]),
  ),
);

export const metaRoutes = new Hono<AppEnv>()
  .get("/health", (c) => {
    const health: Health = {
      status: "ok",
      product: "Edgeshot",
      version: config(c.env).deploymentId,
      timestamp: new Date().toISOString(),
    };
    return c.json(health);
  })
  .get("/openapi.json", (c) => c.json(openapi))
  .get("/", (c) => {
    const index: ServiceIndex = {
      name: "Edgeshot",
      version: pkg.version,
      docs: config(c.env).docsUrl,
      openapi: "/openapi.json",
      health: "/health",
      endpoints: ENDPOINTS,
    };
    return c.json(index);
  });
