/**
 * POST/GET /v1/screenshot (bytes, or JSON with a signed URL with `hosted: true`) and POST
 * /v1/screenshot/json (envelope with base64); with `async: true` a POST is queued (202). The
 * work: src/pipeline/captures.ts; here the request is read and the answer shaped.
 */
import { type Context } from "hono";
import { z } from "zod";
import { captureRequestSchema, type CaptureRequest } from "../../../schemas/capture";
import { captureQuerySchema, queryRecord } from "../../../schemas/capture-query";
import {
  captureJsonSchema,
  hostedCaptureSchema,
  jobAcceptedSchema,
  successEnvelope,
} from "../../../schemas/responses";
import { usageHeaders } from "../../accounts/credits";
import { submitAsyncCapture } from "../../jobs/submit";
import { bytesCapture, hostedCapture, IMAGE, jsonCapture } from "../../pipeline/captures";
import { publicOrigin } from "../../storage/hosted";
import { invalidFields, parseWith } from "../body";
import { endpoint, endpoints } from "../endpoint";
import { charged, successBody } from "../envelope";
import {
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  rateLimitHeaders,
} from "../openapi/registry";
import type { AppEnv } from "../types";
import { ASYNC_ERRORS, bytesContent, CAPTURE_ERRORS, captureHeaders } from "./capture-contract";

/** async: true — queued; 202 `{jobId, status: "queued"}` with the reserved credit in meta.usage. */
async function sendAsync(c: Context<AppEnv>, req: CaptureRequest) {
  const { data, usage } = await submitAsyncCapture(c.env, c.get("auth"), req, c.req.url);
  return c.json(successBody(c.get("requestId"), data, charged(c, usage)), 202);
}

async function sendBytes(c: Context<AppEnv>, req: CaptureRequest) {
  const { bytes, headers, usage } = await bytesCapture(c.env, c.get("auth"), req);
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    ...headers,
    ...usageHeaders(charged(c, usage)),
  });
}

async function sendHosted(c: Context<AppEnv>, req: CaptureRequest) {
  const origin = publicOrigin(c.env, c.req.url);
  const { data, usage } = await hostedCapture(c.env, c.get("auth"), req, origin);
  return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
}

/** A sync capture reserves with authentication what it bills: its image (an extraction is free). */
const ONE_OUTPUT = { reserveFor: [IMAGE] } as const;

const example = { url: "https://example.com", format: "png", width: 1280, height: 800 };

const accepted = envelopeResponse(
  "async: true — queued; poll GET /v1/jobs/{jobId}. meta.usage holds the reserved credit.",
  jobAcceptedSchema,
  rateLimitHeaders,
);

export const screenshotRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/screenshot",
    auth: { key: ONE_OUTPUT },
    idempotent: true,
    body: { schema: captureRequestSchema, example },
    operation: {
      operationId: "captureScreenshot",
      summary: "Capture a screenshot or PDF",
      description:
        "Renders a URL, HTML or Markdown and answers with the bytes (Content-Type per format) and the metadata headers. With `hosted: true` the output is stored and the answer is JSON with a signed URL; with `async: true` the capture is queued (202).",
      tags: ["Capture"],
      responses: {
        "200": {
          description: "The image or PDF bytes; with `hosted: true`, JSON with a signed URL.",
          headers: z.object(captureHeaders).partial(),
          content: {
            ...bytesContent(),
            "application/json": { schema: successEnvelope(hostedCaptureSchema) },
          },
        },
        "202": accepted,
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS, ...ASYNC_ERRORS]),
      },
    },
    handler: (c) => {
      const req = c.req.valid("json");
      if (req.async === true) return sendAsync(c, req);
      return req.hosted === true ? sendHosted(c, req) : sendBytes(c, req);
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/screenshot",
    auth: { key: { ...ONE_OUTPUT, allowQueryKey: true } },
    operation: {
      operationId: "captureScreenshotGet",
      summary: "Capture a screenshot (GET)",
      description:
        "The GET subset of the capture parameters as a query string, for image tags; the key may be given as `key`. Same bytes and headers as the POST.",
      tags: ["Capture"],
      // Not `query:`: the handler reads it (skips `key`, refuses repeated and POST-only names).
      requestParams: { query: captureQuerySchema },
      responses: {
        "200": {
          description: "The image or PDF bytes.",
          headers: z.object(captureHeaders),
          content: bytesContent(),
        },
        ...errorResponses(CAPTURE_ERRORS),
      },
    },
    handler: (c) => {
      const { record, issues } = queryRecord(new URL(c.req.url));
      if (issues.length > 0) throw invalidFields(issues);
      return sendBytes(c, parseWith(captureQuerySchema, record) as CaptureRequest);
    },
  }),
  endpoint({
    method: "post",
    path: "/v1/screenshot/json",
    auth: { key: ONE_OUTPUT },
    idempotent: true,
    body: { schema: captureRequestSchema, example: { ...example, extract: true } },
    operation: {
      operationId: "captureScreenshotJson",
      summary: "Capture as JSON (base64)",
      description:
        "Same parameters as POST /v1/screenshot; the image comes back base64 in the envelope, with the reader-mode article when `extract: true`.",
      tags: ["Capture"],
      responses: {
        "200": envelopeResponse("The capture, base64.", captureJsonSchema, rateLimitHeaders),
        "202": accepted,
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS, ...ASYNC_ERRORS]),
      },
    },
    handler: async (c) => {
      const req = c.req.valid("json");
      if (req.async === true) return sendAsync(c, req);
      const { data, usage } = await jsonCapture(c.env, c.get("auth"), req);
      return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
    },
  }),
);
