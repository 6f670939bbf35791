/** The contract of render links (mint with a key, serve by signature) and hosted images. */
import { z } from "zod";
import { renderLinkRequestSchema } from "../../../schemas/render-link";
import { renderLinkSchema } from "../../../schemas/responses";
import {
  API_KEY,
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  jsonRequest,
  NO_KEY,
  rateLimitHeaders,
  SERVICE_ERRORS,
  type ApiRoute,
  TARGET_ERRORS,
} from "../registry";
import { bytesContent, CAPTURE_ERRORS, captureHeaders } from "./capture";

const h = (description: string) => z.string().meta({ description });

const imageHeaders = z.object({
  "cache-control": h("Derived from the URL's remaining lifetime."),
  etag: h("Entity tag; send it as If-None-Match for a 304."),
  "last-modified": h("When the output was stored."),
  "content-length": h("Bytes.").optional(),
});

const imageParams = {
  path: z.object({
    key: z.string().meta({ description: "The stored object's key (may contain /)." }),
  }),
  query: z.object({
    expires: z.string().meta({ description: "Unix seconds the URL expires at." }),
    sig: z.string().meta({ description: "HMAC signature over the key and expires." }),
  }),
};
const imageErrors = errorResponses([...SERVICE_ERRORS, "INVALID_URL", "FORBIDDEN", "NOT_FOUND"]);

export const renderRoutes: ApiRoute[] = [
  {
    method: "post",
    path: "/v1/render/link",
    operation: {
      operationId: "createRenderLink",
      summary: "Mint a render link",
      description:
        "Validates the capture parameters like a capture and returns a signed URL that renders on first request (charged to you) and serves the cached copy afterwards (free). async, webhookUrl, extract, hosted, geo, cookies and headers are refused. No credit now.",
      tags: ["Render links"],
      security: API_KEY,
      requestBody: jsonRequest(renderLinkRequestSchema, {
        url: "https://example.com",
        format: "png",
        width: 1200,
        height: 630,
        expiresIn: 604800,
      }),
      responses: {
        "200": envelopeResponse("The signed link.", renderLinkSchema, rateLimitHeaders),
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS]),
      },
    },
  },
  {
    method: "get",
    path: "/v1/render",
    operation: {
      operationId: "render",
      summary: "Serve a render link",
      description:
        "Signature-authenticated (no key): every parameter comes from the minted URL. `x-service-cache` is miss on the first render, hit afterwards. Supports If-None-Match (304).",
      tags: ["Render links"],
      security: NO_KEY,
      requestParams: {
        query: z.object({
          p: z.string().meta({ description: "Signed parameters token." }),
          uid: z.string().meta({ description: "Owning account id." }),
          exp: z.string().meta({ description: "Unix seconds the link expires at." }),
          sig: z.string().meta({ description: "HMAC signature over the parameters." }),
        }),
      },
      responses: {
        "200": {
          description: "The image or PDF bytes.",
          headers: z
            .object({
              ...captureHeaders,
              "x-service-cache": h("hit or miss."),
              etag: h("Entity tag."),
            })
            .partial(),
          content: bytesContent(),
        },
        "304": { description: "Not modified (If-None-Match matched)." },
        ...errorResponses([
          ...SERVICE_ERRORS,
          "FORBIDDEN",
          "USAGE_EXCEEDED",
          "TIMEOUT",
          ...TARGET_ERRORS,
          ["CAPTURE_FAILED", 400],
          ["CAPTURE_FAILED", 500],
          "PAYLOAD_TOO_LARGE",
          "VALIDATION_ERROR",
        ]),
      },
    },
  },
  {
    method: "get",
    path: "/v1/images/{key}",
    operation: {
      operationId: "getImage",
      summary: "Fetch a hosted output",
      description:
        "Signed URLs of hosted captures, async results and artifacts (expires + sig; no key). Supports If-None-Match (304).",
      tags: ["Hosted outputs"],
      security: NO_KEY,
      requestParams: imageParams,
      responses: {
        "200": {
          description: "The stored bytes (image, PDF, or an artifact's share page).",
          headers: imageHeaders,
          content: { ...bytesContent(), "text/html": { schema: { type: "string" } } },
        },
        "304": { description: "Not modified (If-None-Match matched)." },
        ...imageErrors,
      },
    },
  },
  {
    method: "head",
    path: "/v1/images/{key}",
    operation: {
      operationId: "headImage",
      summary: "Check a hosted output",
      description: "As GET, without the body.",
      tags: ["Hosted outputs"],
      security: NO_KEY,
      requestParams: imageParams,
      responses: {
        "200": { description: "The object exists; headers as GET.", headers: imageHeaders },
        "304": { description: "Not modified." },
        ...imageErrors,
      },
    },
  },
];
