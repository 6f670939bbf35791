/**
 * GET/HEAD /v1/images/<key>?expires=&sig= — hosted outputs, authenticated by signature only.
 * 400 INVALID_URL for missing/malformed parameters, 403 FORBIDDEN for a bad or expired
 * signature, 404 NOT_FOUND for missing, deleted or expired objects; ETag + If-None-Match → 304.
 */
import { Hono, type Context } from "hono";
import { ApiError } from "../../errors";
import { hostedHeaders, objectLifetime, verifyImageAccess } from "../../storage/hosted";
import type { AppEnv } from "../types";

async function serve(c: Context<AppEnv>, head: boolean) {
  const url = new URL(c.req.url);
  const key = decodeKey(url.pathname.slice("/v1/images/".length));
  const access = await verifyImageAccess(c.env, key, url.searchParams);
  if (!access.ok) {
    throw access.reason === "malformed"
      ? new ApiError(
          "INVALID_URL",
          "The image URL is missing or has malformed expires/sig parameters.",
        )
      : new ApiError("FORBIDDEN", "The image URL signature is invalid or has expired.");
  }
  const object = head ? await c.env.OUTPUTS.head(key) : await c.env.OUTPUTS.get(key);
  const lifetime = object ? objectLifetime(object) : 0;
  if (!object || lifetime === 0)
    throw new ApiError("NOT_FOUND", "The image does not exist or has expired.");

  const maxAge = Math.max(0, Math.min(lifetime, access.expires - Math.floor(Date.now() / 1000)));
  const contentType = object.httpMetadata?.contentType ?? "application/octet-stream";
  const headers: Record<string, string> = {
    ...hostedHeaders(contentType),
    "content-type": contentType,
    "cache-control": `public, max-age=${maxAge}, s-maxage=${maxAge}, immutable`,
    etag: object.httpEtag,
    "last-modified": object.uploaded.toUTCString(),
  };
  const ifNoneMatch = c.req.header("if-none-match");
  if (
    ifNoneMatch &&
    ifNoneMatch.split(",").some((t) => t.trim() === object.httpEtag || t.trim() === "*")
  ) {
    return c.body(null, 304, headers);
  }
  headers["content-length"] = String(object.size);
  if (!hasBody(object)) return c.body(null, 200, headers);
  return c.body(object.body, 200, headers);
}

/** The object key from the path; a malformed escape (`%ZZ`) is a malformed URL, not a 500. */
function decodeKey(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError("INVALID_URL", "The image URL is not validly percent-encoded.");
  }
}

function hasBody(object: R2Object | R2ObjectBody): object is R2ObjectBody {
  return "body" in object;
}

export const imageRoutes = new Hono<AppEnv>()
  .get("/images/*", (c) => serve(c, false))
  .on("HEAD", "/images/*", (c) => serve(c, true));
