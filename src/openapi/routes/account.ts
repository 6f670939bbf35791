/** The contract of the account read-outs and storage destinations. */
import { z } from "zod";
import { accountSchema, credentialCheckSchema } from "../../../schemas/responses";
import { destinationRequestSchema, destinationSchema } from "../../../schemas/storage";
import {
  API_KEY,
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  jsonRequest,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
  type ApiRoute,
  TARGET_ERRORS,
} from "../registry";

const accountOp = (operationId: string, summary: string): ApiRoute["operation"] => ({
  operationId,
  summary,
  description: "Plan, monthly credits, rate limit and upgrade path; free of credit.",
  tags: ["Account"],
  security: API_KEY,
  responses: {
    "200": envelopeResponse("The account summary.", accountSchema, rateLimitHeaders),
    ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS]),
  },
});

const destinationPath = z.object({
  destinationId: z.string().meta({ description: "The destination id (dst_…)." }),
});
const DEST_ERRORS = [...KEY_ERRORS, ...SERVICE_ERRORS, "PLAN_UPGRADE_REQUIRED"] as const;

export const accountRoutes: ApiRoute[] = [
  { method: "get", path: "/v1/account", operation: accountOp("getAccount", "Get the account") },
  {
    method: "get",
    path: "/v1/usage",
    operation: accountOp("getUsage", "Get usage (alias of account)"),
  },
  {
    method: "get",
    path: "/v1/credential-check",
    operation: {
      operationId: "checkCredentials",
      summary: "Check the API key",
      description: "Answers 200 when the key is valid, with its account, plan and key id.",
      tags: ["Account"],
      security: API_KEY,
      responses: {
        "200": envelopeResponse("The key is valid.", credentialCheckSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS]),
      },
    },
  },
  {
    method: "post",
    path: "/v1/storage/destinations",
    operation: {
      operationId: "createDestination",
      summary: "Create a storage destination",
      description:
        "Pro and Enterprise: an S3-compatible bucket async results are delivered to. The endpoint is checked and a probe object written and deleted; the secret is sealed and never returned.",
      tags: ["Storage destinations"],
      security: API_KEY,
      requestBody: jsonRequest(destinationRequestSchema, {
        name: "reports",
        endpoint: "https://s3.us-east-1.amazonaws.com",
        region: "us-east-1",
        bucket: "my-captures",
        accessKeyId: "AKIAEXAMPLE",
        secretAccessKey: "example-secret",
      }),
      responses: {
        "201": envelopeResponse("Created.", destinationSchema, rateLimitHeaders),
        ...errorResponses([...BODY_ERRORS, ...DEST_ERRORS, ...TARGET_ERRORS]),
      },
    },
  },
  {
    method: "get",
    path: "/v1/storage/destinations",
    operation: {
      operationId: "listDestinations",
      summary: "List storage destinations",
      tags: ["Storage destinations"],
      security: API_KEY,
      responses: {
        "200": envelopeResponse(
          "Every destination of the account.",
          z.object({ items: z.array(destinationSchema) }),
          rateLimitHeaders,
        ),
        ...errorResponses(DEST_ERRORS),
      },
    },
  },
  {
    method: "get",
    path: "/v1/storage/destinations/{destinationId}",
    operation: {
      operationId: "getDestination",
      summary: "Get a storage destination",
      tags: ["Storage destinations"],
      security: API_KEY,
      requestParams: { path: destinationPath },
      responses: {
        "200": envelopeResponse("The destination.", destinationSchema, rateLimitHeaders),
        ...errorResponses([...DEST_ERRORS, "NOT_FOUND"]),
      },
    },
  },
  {
    method: "delete",
    path: "/v1/storage/destinations/{destinationId}",
    operation: {
      operationId: "deleteDestination",
      summary: "Delete a storage destination",
      tags: ["Storage destinations"],
      security: API_KEY,
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
  },
  {
    method: "post",
    path: "/v1/storage/destinations/{destinationId}/test",
    operation: {
      operationId: "testDestination",
      summary: "Test a storage destination",
      description: "Writes and deletes a probe object again.",
      tags: ["Storage destinations"],
      security: API_KEY,
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
  },
];
