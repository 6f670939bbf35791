/**
 * The building blocks of operations (../endpoint.ts): security requirements, the error codes
 * each kind of route can answer with, error and success responses, rate-limit headers.
 *
 * Layer: imports `schemas/` and `src/errors.ts` only.
 */
import { z } from "zod";
import type {
  oas31,
  ZodOpenApiOperationObject,
  ZodOpenApiResponseObject,
  ZodOpenApiResponsesObject,
} from "zod-openapi";
import { errorDetailSchema, metaSchema, successEnvelope } from "../../../schemas/responses";
import { ERROR_STATUS, type ErrorCode } from "../../errors";

/** Security requirements: the API key as a Bearer token or `x-api-key` (and `?key=` where allowed). */
export const API_KEY: ZodOpenApiOperationObject["security"] = [
  { bearerAuth: [] },
  { apiKeyHeader: [] },
];
export const API_KEY_OR_QUERY: ZodOpenApiOperationObject["security"] = [
  ...(API_KEY ?? []),
  { apiKeyQuery: [] },
];
/** Signature-authenticated and public routes: no key. */
export const NO_KEY: ZodOpenApiOperationObject["security"] = [];

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    description: "`Authorization: Bearer svc_…` (recommended).",
  },
  apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "The API key." },
  apiKeyQuery: {
    type: "apiKey",
    in: "query",
    name: "key",
    description: "The API key as a query parameter: GET /v1/screenshot only (for image tags).",
  },
} as const;

/** Error codes every key-authenticated route can answer with (authentication, rate limit). */
export const KEY_ERRORS: ErrorCode[] = [
  "MISSING_API_KEY",
  "INVALID_API_KEY",
  "KEY_DISABLED",
  "RATE_LIMITED",
];
/** Errors any route can answer with. */
export const SERVICE_ERRORS: ErrorCode[] = ["INTERNAL_ERROR", "CONFIGURATION_ERROR"];
/** A target URL's refusals (guard, DNS, reputation) and the DNS check failing (ours, 503). */
export const TARGET_ERRORS: ErrorCode[] = ["INVALID_URL", "UNSAFE_URL", "URL_CHECK_UNAVAILABLE"];
/** Errors of reading a JSON body (`readJsonBody`, then the endpoint's schema). */
export const BODY_ERRORS: ErrorCode[] = ["VALIDATION_ERROR", "INVALID_JSON", "PAYLOAD_TOO_LARGE"];

/** An error code at a status other than its usual one (CAPTURE_FAILED is 400, 500 or 502). */
export type ErrorAt = ErrorCode | readonly [ErrorCode, number];

const REASONS: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  408: "Timeout",
  409: "Conflict",
  413: "Payload too large",
  422: "Unprocessable",
  429: "Too many requests",
  500: "Internal error",
  502: "Bad gateway",
  503: "Service unavailable",
};

/** The error envelope, as a component every error response refers to. */
export const ERROR_ENVELOPE = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().describe("Machine-readable error code."),
      message: z.string().describe("Human-readable reason; names the field at fault."),
      details: z.array(errorDetailSchema).optional().describe("Per-field problems."),
      docs: z
        .string()
        .describe(
          "Where the code is explained: `/docs/errors#<CODE>` (what it means, what to do).",
        ),
    }),
    meta: metaSchema,
  })
  .meta({ id: "ErrorEnvelope" });

/** The error envelope with `error.code` limited to `codes`. */
export function errorEnvelope(codes: readonly ErrorCode[]): oas31.SchemaObject {
  return {
    allOf: [
      { $ref: "#/components/schemas/ErrorEnvelope" },
      {
        type: "object",
        properties: { error: { type: "object", properties: { code: { enum: [...codes] } } } },
      },
    ],
  };
}

const retryAfter = z.object({
  "retry-after": z.string().optional().meta({
    description:
      "Seconds to wait before retrying (429 RATE_LIMITED; 503 SERVICE_BUSY, URL_CHECK_UNAVAILABLE).",
  }),
});

/** One response per status, each listing the codes it carries. */
export function errorResponses(codes: readonly ErrorAt[]): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const entry of codes) {
    const [code, status] = typeof entry === "string" ? [entry, ERROR_STATUS[entry]] : entry;
    const list = byStatus.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    byStatus.set(status, list);
  }
  const out: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: `${REASONS[status] ?? "Error"}: ${list.join(", ")}.`,
      ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
      content: { "application/json": { schema: errorEnvelope(list) } },
    };
  }
  return out as ZodOpenApiResponsesObject;
}

/** Rate-limit headers sent on every key-authenticated answer. */
export const rateLimitHeaders = {
  "x-ratelimit-limit": z
    .string()
    .meta({ description: "Requests allowed per minute (on reads: the read limit)." }),
  "x-ratelimit-remaining": z.string().meta({ description: "Requests left in this minute." }),
  "x-ratelimit-reset": z
    .string()
    .meta({ description: "Unix seconds when the rate-limit window resets." }),
};

/** A success envelope response. */
export function envelopeResponse(
  description: string,
  data: z.ZodType,
  headers: Record<string, z.ZodType> = {},
): ZodOpenApiResponseObject {
  return {
    description,
    ...(Object.keys(headers).length > 0 ? { headers: z.object(headers) } : {}),
    content: { "application/json": { schema: successEnvelope(data) } },
  };
}

/** A JSON request body with its runnable example. */
export function jsonRequest(schema: z.ZodType, example: Record<string, unknown>) {
  return { required: true, content: { "application/json": { schema, example } } };
}

/** Media types of image/PDF bytes. */
export const BINARY_SCHEMA = { type: "string", format: "binary" } as const;

/** A path parameter naming a resource: `{jobId}` ("The jobId (a UUID).") unless described. */
export function idParam(name: string, description = `The ${name} (a UUID).`) {
  return z.object({ [name]: z.string().meta({ description }) });
}
