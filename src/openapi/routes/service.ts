/** The contract of the unauthenticated service routes: index, health and this document. */
import { z } from "zod";
import { healthSchema, serviceIndexSchema } from "../../../schemas/responses";
import { errorResponses, NO_KEY, SERVICE_ERRORS, type ApiRoute } from "../registry";

export const serviceRoutes: ApiRoute[] = [
  {
    method: "get",
    path: "/",
    operation: {
      operationId: "getServiceIndex",
      summary: "Service index",
      description: "Name, version, links to the docs and this document, and every endpoint.",
      tags: ["Service"],
      security: NO_KEY,
      responses: {
        "200": {
          description: "The service index (not enveloped).",
          content: { "application/json": { schema: serviceIndexSchema } },
        },
        ...errorResponses(SERVICE_ERRORS),
      },
    },
  },
  {
    method: "get",
    path: "/health",
    operation: {
      operationId: "getHealth",
      summary: "Health check",
      tags: ["Service"],
      security: NO_KEY,
      responses: {
        "200": {
          description: "The service is up (not enveloped).",
          content: { "application/json": { schema: healthSchema } },
        },
        ...errorResponses(SERVICE_ERRORS),
      },
    },
  },
  {
    method: "get",
    path: "/openapi.json",
    operation: {
      operationId: "getOpenApiDocument",
      summary: "This OpenAPI document",
      tags: ["Service"],
      security: NO_KEY,
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
  },
];
