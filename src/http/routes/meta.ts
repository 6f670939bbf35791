/**
 * Unauthenticated service routes: the health check, the service index (its endpoint list is
 * derived from the OpenAPI document) and the document itself.
 */
import { z } from "zod";
import pkg from "../../../package.json";
import openapi from "../../../schemas/openapi.json";
import {
  healthSchema,
  serviceIndexSchema,
  type Health,
  type ServiceIndex,
} from "../../../schemas/responses";
import { config } from "../../config";
import { endpoint, endpoints } from "../endpoint";
import { errorResponses, SERVICE_ERRORS } from "../openapi/registry";

/** Every operation of the contract (schemas/openapi.json), as "METHOD /path" by operationId. */
export const ENDPOINTS: Record<string, string> = Object.fromEntries(
  Object.entries(openapi.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== "head") // implied by GET
      .map(([method, op]) => [op.operationId, `${method.toUpperCase()} ${path}`]),
  ),
);

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
        endpoints: ENDPOINTS,
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
    handler: (c) => c.json(openapi),
  }),
);
