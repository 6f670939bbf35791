/**
 * Unauthenticated service routes: the health check, the service index (its endpoint list is
 * every endpoint's definition) and the OpenAPI document, the committed `schemas/openapi.json`
 * served as a static asset (scripts/lib/assets.mjs copies it to public/): 47 kB of the gzipped
 * upload the Worker no longer bundles.
 */
import { z } from "zod";
import pkg from "../../../package.json";
import {
  healthSchema,
  serviceIndexSchema,
  type Health,
  type ServiceIndex,
} from "../../../schemas/responses";
import { config } from "../../config";
import { definedEndpoints, endpoint, endpoints } from "../endpoint";
import { staticAsset } from "../static-asset";
import { errorResponses, SERVICE_ERRORS } from "../openapi/registry";

/** Every operation of the contract, as "METHOD /path" by operationId (HEAD is implied by GET). */
export function endpointIndex(): Record<string, string> {
  return Object.fromEntries(
    definedEndpoints()
      .filter((d) => d.method !== "head" && d.operation.operationId !== undefined)
      .map((d) => [d.operation.operationId, `${d.method.toUpperCase()} ${d.path}`]),
  );
}

export const metaRoutes = endpoints(
  endpoint({
    method: "get",
    path: "/",
    auth: "none",
    operation: {
      operationId: "getServiceIndex",
      summary: "Service index",
      description: "Name, version, links to the docs and this document, and every endpoint.",
      tags: ["Service"],
      responses: {
        "200": {
          description: "The service index (not enveloped).",
          content: { "application/json": { schema: serviceIndexSchema } },
        },
        ...errorResponses(SERVICE_ERRORS),
      },
    },
    handler: (c) => {
      const index: ServiceIndex = {
        name: "Edgeshot",
        version: pkg.version,
        docs: config(c.env).docsUrl,
        openapi: "/openapi.json",
        health: "/health",
        endpoints: endpointIndex(),
      };
      return c.json(index);
    },
  }),
  endpoint({
    method: "get",
    path: "/health",
    auth: "none",
    operation: {
      operationId: "getHealth",
      summary: "Health check",
      tags: ["Service"],
      responses: {
        "200": {
          description: "The service is up (not enveloped).",
          content: { "application/json": { schema: healthSchema } },
        },
        ...errorResponses(SERVICE_ERRORS),
      },
    },
    handler: (c) => {
      const health: Health = {
        status: "ok",
        product: "Edgeshot",
        version: config(c.env).deploymentId,
        timestamp: new Date().toISOString(),
      };
      return c.json(health);
    },
  }),
  endpoint({
    method: "get",
    path: "/openapi.json",
    auth: "none",
    operation: {
      operationId: "getOpenApiDocument",
      summary: "This OpenAPI document",
      tags: ["Service"],
      responses: {
        "200": {
          description: "The OpenAPI 3.1 document.",
          content: {
            "application/json": {
              schema: z.object({ openapi: z.string() }).loose(),
            },
          },
        },
        ...errorResponses(SERVICE_ERRORS),
      },
    },
    handler: (c) =>
      staticAsset(c, {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "public, max-age=300",
      }),
  }),
);
