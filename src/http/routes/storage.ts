/**
 * Storage destinations (Pro and Enterprise): the customer's own S3-compatible buckets that
 * async results are delivered to. Create (endpoint checked, probe written and deleted, secret
 * sealed), list, read, delete, and `test` (the probe again). The secret is never returned.
 * Another account's destination is indistinguishable from an unknown one: 404 NOT_FOUND.
 */
import { z } from "zod";
import { destinationRequestSchema, destinationSchema } from "../../../schemas/storage";
import { type DestinationRecord, destinationView } from "../../storage/destination-store";
import { requireFeature } from "../../accounts/policy";
import type { AuthContext } from "../../accounts/auth";
import { ApiError } from "../../errors";
import { createDestination, openDestination, probeBucket } from "../../storage/destinations";
import { endpoint, endpoints } from "../endpoint";
import { successBody } from "../envelope";
import {
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  idParam,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
  TARGET_ERRORS,
} from "../openapi/registry";

const ID = /^dst_[A-Za-z0-9]{1,40}$/;

const notFound = () => new ApiError("NOT_FOUND", "No storage destination with this id.");

async function record(auth: AuthContext, destinationId: string): Promise<DestinationRecord> {
  const found = ID.test(destinationId)
    ? await auth.account.destinations().record(destinationId)
    : null;
  if (!found) throw notFound();
  return found;
}

const destinationPath = idParam("destinationId", "The destination id (dst_…).");
const DEST_ERRORS = [...KEY_ERRORS, ...SERVICE_ERRORS, "PLAN_UPGRADE_REQUIRED"] as const;

export const storageRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/storage/destinations",
    auth: "key",
    body: {
      schema: destinationRequestSchema,
      example: {
        name: "reports",
        endpoint: "https://s3.us-east-1.amazonaws.com",
        region: "us-east-1",
        bucket: "my-captures",
        accessKeyId: "AKIAEXAMPLE",
        secretAccessKey: "example-secret",
      },
    },
    operation: {
      operationId: "createDestination",
      summary: "Create a storage destination",
      description:
        "Pro and Enterprise: an S3-compatible bucket async results are delivered to. The endpoint is checked and a probe object written and deleted; the secret is sealed and never returned.",
      tags: ["Storage destinations"],
      responses: {
        "201": envelopeResponse("Created.", destinationSchema, rateLimitHeaders),
        ...errorResponses([...BODY_ERRORS, ...DEST_ERRORS, ...TARGET_ERRORS]),
      },
    },
    handler: async (c) => {
      const auth = c.get("auth");
      requireFeature(auth, "storageDestinations");
      const created = await createDestination(c.env, auth, c.req.valid("json"));
      return c.json(successBody(c.get("requestId"), created), 201);
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/storage/destinations",
    auth: "key",
    operation: {
      operationId: "listDestinations",
      summary: "List storage destinations",
      tags: ["Storage destinations"],
      responses: {
        "200": envelopeResponse(
          "Every destination of the account.",
          z.object({ items: z.array(destinationSchema) }),
          rateLimitHeaders,
        ),
        ...errorResponses(DEST_ERRORS),
      },
    },
    handler: async (c) => {
      const auth = c.get("auth");
      requireFeature(auth, "storageDestinations");
      return c.json(
        successBody(c.get("requestId"), { items: await auth.account.destinations().list() }),
      );
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/storage/destinations/{destinationId}",
    auth: "key",
    operation: {
      operationId: "getDestination",
      summary: "Get a storage destination",
      tags: ["Storage destinations"],
      requestParams: { path: destinationPath },
      responses: {
        "200": envelopeResponse("The destination.", destinationSchema, rateLimitHeaders),
        ...errorResponses([...DEST_ERRORS, "NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const auth = c.get("auth");
      requireFeature(auth, "storageDestinations");
      const found = await record(auth, c.req.param("destinationId") ?? "");
      return c.json(successBody(c.get("requestId"), destinationView(found)));
    },
  }),
  endpoint({
    method: "delete",
    path: "/v1/storage/destinations/{destinationId}",
    auth: "key",
    operation: {
      operationId: "deleteDestination",
      summary: "Delete a storage destination",
      tags: ["Storage destinations"],
      requestParams: { path: destinationPath },
      responses: {
        "200": envelopeResponse(
          "Deleted.",
          z.object({ destinationId: z.string(), deleted: z.literal(true) }),
          rateLimitHeaders,
        ),
        ...errorResponses([...DEST_ERRORS, "NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const auth = c.get("auth");
      requireFeature(auth, "storageDestinations");
      const id = c.req.param("destinationId") ?? "";
      const deleted = ID.test(id) && (await auth.account.destinations().delete(id));
      if (!deleted) throw notFound();
      return c.json(successBody(c.get("requestId"), { destinationId: id, deleted: true }));
    },
  }),
  endpoint({
    method: "post",
    path: "/v1/storage/destinations/{destinationId}/test",
    auth: "key",
    operation: {
      operationId: "testDestination",
      summary: "Test a storage destination",
      description: "Writes and deletes a probe object again.",
      tags: ["Storage destinations"],
      requestParams: { path: destinationPath },
      responses: {
        "200": envelopeResponse(
          "The bucket accepted the probe.",
          z.object({ destinationId: z.string(), ok: z.literal(true) }),
          rateLimitHeaders,
        ),
        ...errorResponses([...DEST_ERRORS, "NOT_FOUND", "VALIDATION_ERROR", ...TARGET_ERRORS]),
      },
    },
    handler: async (c) => {
      const auth = c.get("auth");
      requireFeature(auth, "storageDestinations");
      const found = await record(auth, c.req.param("destinationId") ?? "");
      const open = await openDestination(c.env, found);
      await probeBucket(open.target, found);
      return c.json(
        successBody(c.get("requestId"), { destinationId: found.destinationId, ok: true }),
      );
    },
  }),
);
