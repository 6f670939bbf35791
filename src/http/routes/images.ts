/**
 * GET/HEAD /v1/images/<key>?expires=&sig= — hosted outputs, authenticated by signature only.
 * 400 INVALID_URL for missing/malformed parameters, 403 FORBIDDEN for a bad or expired
 * signature, 404 NOT_FOUND for missing, deleted or expired objects; ETag + If-None-Match → 304.
 */
import type { Context } from "hono";
import { z } from "zod";
import { ApiError } from "../../errors";
import { hostedHeaders, objectLifetime, verifyImageAccess } from "../../storage/hosted";
import { endpoint, endpoints } from "../endpoint";
import { errorResponses, SERVICE_ERRORS } from "../openapi/registry";
import type { AppEnv } from "../types";
import { bytesContent } from "./capture-contract";

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

const h = (description: string) => z.string().meta({ description });

const imageHeaders = z.object({
  "cache-control": h("Derived from the URL's remaining lifetime."),
  etag: h("Entity tag; send it as If-None-Match for a 304."),
  "last-modified": h("When the output was stored."),
  "content-length": h("Bytes.").optional(),
});

// The key and the signed query are verified by serve(), so they are documented, not validated.
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

// Hono routes `{key}` as one segment; a key may contain `/`, hence the wildcard.
export const imageRoutes = endpoints(
  endpoint({
    method: "get",
    path: "/v1/images/{key}",
    route: "/v1/images/*",
    auth: "none",
    operation: {
      operationId: "getImage",
      summary: "Fetch a hosted output",
      description:
        "Signed URLs of hosted captures, async results and artifacts (expires + sig; no key). Supports If-None-Match (304).",
      tags: ["Hosted outputs"],
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
    // Hono 4 answers HEAD through this GET route (dropping the body): the request is still a
    // HEAD, so only the object's metadata is read.
    handler: (c) => serve(c, c.req.method === "HEAD"),
  }),
  // Not reached (HEAD is answered by the GET route above); here to publish headImage.
  endpoint({
    method: "head",
    path: "/v1/images/{key}",
    route: "/v1/images/*",
    auth: "none",
    operation: {
      operationId: "headImage",
      summary: "Check a hosted output",
      description: "As GET, without the body.",
      tags: ["Hosted outputs"],
      requestParams: imageParams,
      responses: {
        "200": { description: "The object exists; headers as GET.", headers: imageHeaders },
        "304": { description: "Not modified." },
        ...imageErrors,
      },
    },
    handler: (c) => serve(c, true),
  }),
);
