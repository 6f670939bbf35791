/**
 * Render links. POST /v1/render/link (API key, no credit) validates the capture parameters
 * exactly like a capture and mints a signed URL; GET /v1/render (signature only) serves the
 * render: edge cache → KV + R2 (`x-service-cache: hit`, free) → one coalesced render charged
 * to the link's owner (`miss`). Every failure to verify a link is the same 403.
 */
import { Hono, type Context } from "hono";
import type { AuthContext } from "../../accounts/auth";
import { renderLinkRequestSchema } from "../../../schemas/render-link";
import type { RenderLinkData } from "../../../schemas/responses";
import { FAILURE } from "../../capture/failures";
import { prepareCapture } from "../../capture/request";
import { LIMITS } from "../../../schemas/limits";
import { publicOrigin } from "../../storage/hosted";
import { fromWire } from "../../render-links/coalescer";
import {
  edgeMatch,
  edgePut,
  liveObject,
  readEntry,
  servedHeaders,
  type RenderEntry,
} from "../../storage/render-cache";
import {
  mintRenderLink,
  renderCacheKey,
  verifyRenderLink,
  type VerifiedLink,
} from "../../render-links/links";
import { parseWith, readJsonBody } from "../body";
import { successBody } from "../envelope";
import { ApiError } from "../../errors";
import { authenticate } from "../middleware/authenticate";
import { idempotent } from "../middleware/idempotency";
import type { AppEnv } from "../types";

/**
 * Mints a render link for `auth`'s key from the parameters as sent (`raw`, validated here).
 * Also the MCP `render_link` tool's (src/http/mcp/).
 */
export async function mintLinkFor(
  env: Env,
  auth: AuthContext,
  origin: string,
  raw: unknown,
): Promise<RenderLinkData> {
  const { expiresIn, ...req } = parseWith(renderLinkRequestSchema, raw);
  const cacheTtl = req.cacheTtl ?? LIMITS.cacheTtl.default;
  // The parameters as sent (validated: only known keys), minus expiresIn, plus the effective cacheTtl.
  const { expiresIn: _omitted, ...params } = raw as Record<string, unknown>;
  const link = await mintRenderLink(env, origin, {
    uid: auth.accountId,
    keyId: auth.keyId,
    params: { ...params, cacheTtl },
    expiresIn: expiresIn ?? req.cacheTtl ?? LIMITS.renderLinkExpiry.default,
  });
  if (link.url.length > LIMITS.renderLinkChars) {
    throw new ApiError(
      "PAYLOAD_TOO_LARGE",
      `The render link would be ${link.url.length} characters; the limit is ${LIMITS.renderLinkChars}.`,
    );
  }
  // Plan gates, URL guard, DNS and reputation, templates: refused now, not on first view.
  const spec = await prepareCapture(env, auth, req);
  return {
    url: link.url,
    expiresAt: new Date(link.exp * 1000).toISOString(),
    format: spec.format,
    cacheTtl,
  };
}

/** Mints a render link for the caller's key (also the dashboard playground's, for a key of its account). */
export async function mintLink(c: Context<AppEnv>): Promise<Response> {
  const raw = await readJsonBody(c);
  const data = await mintLinkFor(c.env, c.get("auth"), publicOrigin(c.env, c.req.url), raw);
  return c.json(successBody(c.get("requestId"), data));
}

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

export const renderRoutes = new Hono<AppEnv>()
  .post("/render/link", authenticate(), idempotent(), mintLink)
  .get("/render", serve);
