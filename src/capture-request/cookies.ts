/** The cookies of a capture, resolved against its target host. */
import type { CookieInput } from "../../schemas/capture";
import { ApiError } from "../errors";
import { siteOf } from "../hosts";
import { FAILURE } from "../capture/failures";
import type { SpecCookie } from "../capture/capture-spec";

const INVALID_COOKIE_DOMAIN = FAILURE.cookieDomain;

/**
 * A cookie's domain must equal the target host or be a parent of it that is not a public
 * suffix (`.com`, `co.uk`); omitted, it is the target host. Cookies need a URL target.
 */
export function resolveCookies(cookies: CookieInput[], target: string | undefined): SpecCookie[] {
  if (cookies.length === 0) return [];
  const host = target ? safeHostname(target) : null;
  if (!host) {
    throw new ApiError("VALIDATION_ERROR", "Cookies need a url target.", {
      details: [{ path: "cookies", message: "Cookies can only be set for a url capture." }],
    });
  }
  const registrable = siteOf(host);
  return cookies.map((cookie, i) => {
    const domain = (cookie.domain ?? host).toLowerCase().replace(/^\./, "");
    const isHost = domain === host;
    const isParent =
      host.endsWith(`.${domain}`) && (domain === registrable || domain.endsWith(`.${registrable}`));
    if (!isHost && !isParent) {
      throw new ApiError("VALIDATION_ERROR", INVALID_COOKIE_DOMAIN, {
        details: [{ path: `cookies[${i}].domain`, message: INVALID_COOKIE_DOMAIN }],
      });
    }
    const out: SpecCookie = {
      name: cookie.name,
      value: cookie.value,
      domain,
      path: cookie.path ?? "/",
    };
    if (cookie.httpOnly !== undefined) out.httpOnly = cookie.httpOnly;
    if (cookie.secure !== undefined) out.secure = cookie.secure;
    if (cookie.sameSite !== undefined) out.sameSite = cookie.sameSite;
    if (cookie.expires !== undefined) out.expires = cookie.expires;
    return out;
  });
}

function safeHostname(raw: string): string | null {
  try {
    return new URL(raw).hostname.toLowerCase();
  } catch {
    return null;
  }
}
