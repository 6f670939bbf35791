/**
 * Render links. POST /v1/render/link (API key, no credit) validates the capture parameters
 * exactly like a capture and mints a signed URL (src/render-links/mint.ts); GET /v1/render
 * (signature only) serves the render: edge cache → KV + R2 (`x-service-cache: hit`, free) → one
 * coalesced render charged to the link's owner (`miss`). Every failure to verify a link is the
 * same 403.
 */
import type { Context } from "hono";
import { z } from "zod";
import { renderLinkRequestSchema } from "../../../schemas/render-link";
import { renderLinkSchema } from "../../../schemas/responses";
import { FAILURE } from "../../capture/failures";
import { ApiError } from "../../errors";
import { fromWire } from "../../render-links/coalescer";
import { renderCacheKey, verifyRenderLink, type VerifiedLink } from "../../render-links/links";
import {
  edgeMatch,
  edgePut,
  liveObject,
  readEntry,
  servedHeaders,
  type RenderEntry,
} from "../../storage/render-cache";
import { renderLinkAnswer } from "../answers";
import { endpoint, endpoints } from "../endpoint";
import {
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  rateLimitHeaders,
  SERVICE_ERRORS,
  TARGET_ERRORS,
} from "../openapi/registry";
import type { AppEnv } from "../types";
import { bytesContent, CAPTURE_ERRORS, captureHeaders } from "./capture-contract";

const h = (description: string) => z.string().meta({ description });

/** 200 with the body, or 304 when the client's If-None-Match names the ETag. */
function respond(
  c: Context<AppEnv>,
  body: ReadableStream | Uint8Array | null,
  headers: Headers,
): Response {
  const etag = headers.get("etag");
  const tags =
    c.req
      .header("if-none-match")
      ?.split(",")
      .map((t) => t.trim()) ?? [];
  if (etag !== null && (tags.includes(etag) || tags.includes("*"))) {
    if (body instanceof ReadableStream) void body.cancel();
    headers.delete("content-length");
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers });
}

async function serve(c: Context<AppEnv>) {
  const link = await verifyRenderLink(c.env, new URL(c.req.url).searchParams);
  if (!link) throw new ApiError("FORBIDDEN", "The render link is invalid or has expired.");
  const cacheKey = await renderCacheKey(link);

  const edge = await edgeMatch(cacheKey);
  if (edge)
    return respond(c, edge.body, servedHeaders(edge.headers, edge.expires, link.exp, "hit"));

  let entry = await readEntry(c.env, cacheKey);
  let object = entry ? await liveObject(c.env, entry) : null;
  let cache: "hit" | "miss" = "hit";
  if (!entry || !object) {
    ({ entry, cache } = await coalescedRender(c.env, cacheKey, link));
    object = await liveObject(c.env, entry);
    if (!object) throw new ApiError("CAPTURE_FAILED", FAILURE.storage, { status: 500 });
  }
  const base = { ...entry.headers, etag: object.httpEtag, "content-length": String(object.size) };
  const served = new Response(object.body, {
    headers: servedHeaders(base, entry.expires, link.exp, cache),
  });
  c.executionCtx.waitUntil(edgePut(cacheKey, served.clone(), entry.expires).catch(() => {}));
  return respond(c, served.body, new Headers(served.headers));
}

async function coalescedRender(
  env: Env,
  cacheKey: string,
  link: VerifiedLink,
): Promise<{ entry: RenderEntry; cache: "hit" | "miss" }> {
  const stub = env.RENDER_COALESCER.get(env.RENDER_COALESCER.idFromName(cacheKey));
  const outcome = await stub.render({ cacheKey, uid: link.uid, p: link.p });
  if (!outcome.ok) throw fromWire(outcome.error);
  return { entry: outcome.entry, cache: outcome.rendered ? "miss" : "hit" };
}

export const renderRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/render/link",
    auth: "key",
    idempotent: true,
    body: {
      schema: renderLinkRequestSchema,
      example: {
        url: "https://example.com",
        format: "png",
        width: 1200,
        height: 630,
        expiresIn: 604800,
      },
    },
    operation: {
      operationId: "createRenderLink",
      summary: "Mint a render link",
      description:
        "Validates the capture parameters like a capture and returns a signed URL that renders on first request (charged to you) and serves the cached copy afterwards (free). async, webhookUrl, extract, hosted, geo, cookies and headers are refused. No credit now.",
      tags: ["Render links"],
      responses: {
        "200": envelopeResponse("The signed link.", renderLinkSchema, rateLimitHeaders),
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS]),
      },
    },
    // The link keeps the fields as sent (src/render-links/mint.ts): the body before its parse.
    handler: (c) => renderLinkAnswer(c, c.req.valid("json"), c.get("sentBody")),
  }),
  endpoint({
    method: "get",
    path: "/v1/render",
    // Signature-authenticated: serve() verifies the query, so it is documented, not validated.
    auth: "none",
    operation: {
      operationId: "render",
      summary: "Serve a render link",
      description:
        "Signature-authenticated (no key): every parameter comes from the minted URL. `x-service-cache` is miss on the first render, hit afterwards. Supports If-None-Match (304).",
      tags: ["Render links"],
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
    handler: serve,
  }),
);
