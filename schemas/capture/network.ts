/** The request state a capture sends with its navigation: cookies and extra headers. */
import { z } from "zod";
import { LIMITS } from "../limits";
import { byteLength, hasControlChars, isPlainObject, maxChars, NOT_EMPTY } from "../primitives";

/**
 * Request headers a customer may never set: Host, Connection, Content-Length and
 * Transfer-Encoding (they describe our request, not the customer's), plus the hop-by-hop and
 * proxy headers Chromium's network stack will not send (with one of them set, the navigation
 * stalls until the timeout instead of failing). `Proxy-*` as a whole.
 */
export const FORBIDDEN_HEADERS = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "cookie2",
]);
const isForbiddenHeader = (name: string): boolean => {
  const lower = name.toLowerCase();
  return FORBIDDEN_HEADERS.has(lower) || lower.startsWith("proxy-");
};
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Cookies are checked here against what Chromium will accept (Network.setCookies answers a
 * bare "Invalid cookie fields" otherwise, after a credit was reserved): no control characters
 * (tab included) or `;`, no leading/trailing whitespace (the browser would trim it and then
 * refuse the changed cookie), name + value at most 4,096 UTF-8 bytes, a path at most 1,024
 * bytes once percent-encoded, and the `__Secure-` / `__Host-` prefix rules (any letter case).
 */
const COOKIE_CONTROL = /[\u0000-\u001f\u007f;]/;
const EDGE_SPACE = /^[ \t]|[ \t]$/;

/** Length of a cookie path once the browser percent-encodes it (non-ASCII bytes and a few
 *  ASCII characters become `%XX`). */
function encodedPathBytes(path: string): number {
  let n = 0;
  for (const byte of new TextEncoder().encode(path))
    n += byte >= 0x80 || ' "<>`{}'.includes(String.fromCharCode(byte)) ? 3 : 1;
  return n;
}

export const cookieSchema = z
  .strictObject({
    name: maxChars(LIMITS.cookieNameChars)
      .min(1, NOT_EMPTY)
      .refine((s) => !COOKIE_CONTROL.test(s) && !/[=\s,]/.test(s), "Invalid cookie name."),
    value: maxChars(LIMITS.cookieValueChars).refine(
      (s) => !COOKIE_CONTROL.test(s) && !EDGE_SPACE.test(s),
      "Invalid cookie value: no control characters, `;` or leading/trailing spaces.",
    ),
    domain: maxChars(LIMITS.cookieDomainChars).optional(),
    path: maxChars(LIMITS.cookiePathChars)
      .startsWith("/", "Must start with /.")
      .refine(
        (s) => !COOKIE_CONTROL.test(s) && !EDGE_SPACE.test(s),
        "Invalid cookie path: no control characters, `;` or trailing spaces.",
      )
      .refine(
        (s) => encodedPathBytes(s) <= LIMITS.cookieAttributeBytes,
        `Must be at most ${LIMITS.cookieAttributeBytes} bytes percent-encoded.`,
      )
      .optional(),
    httpOnly: z.boolean().optional(),
    secure: z.boolean().optional(),
    sameSite: z.enum(["Strict", "Lax", "None"]).optional(),
    expires: z
      .number()
      .int("Must be a Unix timestamp in seconds.")
      .min(0)
      .max(253402300799)
      .optional(),
  })
  .superRefine((cookie, ctx) => {
    if (byteLength(cookie.name) + byteLength(cookie.value) > LIMITS.cookieNameValueBytes) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: `Name and value together must be at most ${LIMITS.cookieNameValueBytes} bytes (UTF-8).`,
      });
    }
    const name = cookie.name.toLowerCase();
    if ((name.startsWith("__secure-") || name.startsWith("__host-")) && cookie.secure !== true) {
      ctx.addIssue({
        code: "custom",
        path: ["secure"],
        message: "A __Secure- or __Host- cookie needs secure: true.",
      });
    }
    if (name.startsWith("__host-") && cookie.path !== undefined && cookie.path !== "/") {
      ctx.addIssue({
        code: "custom",
        path: ["path"],
        message: "A __Host- cookie must have path /.",
      });
    }
    if (name.startsWith("__host-") && cookie.domain !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["domain"],
        message: "A __Host- cookie cannot set a domain.",
      });
    }
  });
export type CookieInput = z.infer<typeof cookieSchema>;

/**
 * Custom request headers: validated by hand (not z.record) so a `__proto__` key can never be
 * assigned onto an object; the output is a list of pairs.
 */
export const headersSchema = z
  .unknown()
  .transform((value, ctx): Array<[string, string]> => {
    if (!isPlainObject(value)) {
      ctx.addIssue({
        code: "custom",
        message: "Must be an object of header names to string values.",
      });
      return z.NEVER;
    }
    const entries = Object.entries(value);
    if (entries.length > LIMITS.headers) {
      ctx.addIssue({ code: "custom", message: `At most ${LIMITS.headers} headers.` });
      return z.NEVER;
    }
    const out: Array<[string, string]> = [];
    for (const [name, v] of entries) {
      const path = [name];
      if (!HEADER_NAME.test(name)) {
        ctx.addIssue({ code: "custom", path, message: "Invalid header name." });
      } else if (isForbiddenHeader(name)) {
        ctx.addIssue({ code: "custom", path, message: `The ${name} header cannot be overridden.` });
      } else if (typeof v !== "string") {
        ctx.addIssue({ code: "custom", path, message: "Header values must be strings." });
      } else if (v.length > LIMITS.headerValueChars) {
        ctx.addIssue({
          code: "custom",
          path,
          message: `Must be at most ${LIMITS.headerValueChars} characters.`,
        });
      } else if (hasControlChars(v) || /[^\u0009\u0020-\u00ff]/.test(v)) {
        ctx.addIssue({
          code: "custom",
          path,
          message: "Header values must be printable Latin-1 without CR or LF.",
        });
      } else {
        out.push([name, v]);
      }
    }
    return out;
  })
  .meta({
    override: {
      type: "object",
      maxProperties: LIMITS.headers,
      additionalProperties: { type: "string", maxLength: LIMITS.headerValueChars },
    },
  });
