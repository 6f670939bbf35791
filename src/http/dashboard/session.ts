/**
 * Dashboard sessions: the cookie, reading it back, and the guards of every page — session
 * required, same-origin for state changes, the session's CSRF token on every form.
 *
 * The cookie holds `<DashboardUser DO id>.<random token>`; only the token's sha256 is stored
 * (src/accounts/users.ts). Over https it is `__Secure-edgeshot_session` with `Secure`; the
 * `__Host-` prefix would force `Path=/`, and the cookie is kept to `Path=/dashboard` instead, so
 * no API route ever sees it. Over plain http (local `wrangler dev`) it goes without `Secure`.
 */
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { LIMITS } from "../../../schemas/limits";
import type { DashboardUser, SessionView } from "../../accounts/users";
import { sha256Hex } from "../../encoding";
import { ApiError } from "../../errors";
import { timingSafeEqualDigests } from "../../signing/hmac";
import type { AppEnv } from "../types";

export const DASHBOARD = "/dashboard";

export interface ActiveSession extends SessionView {
  tokenHash: string;
  user: DurableObjectStub<DashboardUser>;
}

export interface DashboardEnv {
  Bindings: Env;
  Variables: AppEnv["Variables"] & { session: ActiveSession };
}

export type DashboardContext = Context<DashboardEnv>;

const isHttps = (c: Context): boolean => new URL(c.req.url).protocol === "https:";
const cookieName = (c: Context): string =>
  isHttps(c) ? "__Secure-edgeshot_session" : "edgeshot_session";
const COOKIE_VALUE = /^([0-9a-f]{64})\.([0-9a-f]{64})$/;

/** The user object of a (normalised) email address: one per address. */
export function userByEmail(env: Env, email: string): DurableObjectStub<DashboardUser> {
  return env.DASHBOARD_USER.get(env.DASHBOARD_USER.idFromName(email));
}

export function setSessionCookie(c: Context, userId: string, token: string): void {
  setCookie(c, cookieName(c), `${userId}.${token}`, {
    httpOnly: true,
    secure: isHttps(c),
    sameSite: "Lax",
    path: DASHBOARD,
    maxAge: LIMITS.sessionTtlMs / 1000,
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, cookieName(c), { path: DASHBOARD, secure: isHttps(c) });
}

/** The session of the request's cookie, or null (no cookie, malformed, unknown or expired). */
export async function readSession(c: Context): Promise<ActiveSession | null> {
  const match = COOKIE_VALUE.exec(getCookie(c, cookieName(c)) ?? "");
  if (!match?.[1] || !match[2]) return null;
  const env = c.env as Env;
  let user: DurableObjectStub<DashboardUser>;
  try {
    user = env.DASHBOARD_USER.get(env.DASHBOARD_USER.idFromString(match[1]));
  } catch {
    return null; // well-formed hex that is not an id of this namespace
  }
  const tokenHash = await sha256Hex(match[2]);
  const view = await user.session(tokenHash);
  if (!view) return null;
  // Sliding expiry: the cookie is renewed with the server-side session.
  setSessionCookie(c, match[1], match[2]);
  return { ...view, tokenHash, user };
}

/** Pages: no session → the login page. The JSON endpoint gets 401 instead. */
export const requireSession: MiddlewareHandler<DashboardEnv> = async (c, next) => {
  const session = await readSession(c);
  if (!session) {
    if (c.req.path.startsWith(`${DASHBOARD}/api/`)) {
      throw new ApiError("UNAUTHORIZED", "Sign in to the dashboard first.");
    }
    return c.redirect(`${DASHBOARD}/login`, 303);
  }
  c.set("session", session);
  await next();
};

/**
 * Every state-changing request must come from a dashboard page: the browser's Origin (or
 * Sec-Fetch-Site) must say same-origin. Refused with 403 FORBIDDEN otherwise.
 */
export const sameOrigin: MiddlewareHandler = async (c, next) => {
  if (!["GET", "HEAD"].includes(c.req.method)) {
    const origin = c.req.header("origin");
    const site = c.req.header("sec-fetch-site");
    const own = new URL(c.req.url).origin;
    if (origin !== own && !(origin === undefined && site === "same-origin")) {
      throw new ApiError("FORBIDDEN", "Cross-site request refused.");
    }
  }
  await next();
};

/** The session's CSRF token must come with the form (`_csrf`) or the request (`x-csrf-token`). */
export async function checkCsrf(c: DashboardContext, presented: string | undefined): Promise<void> {
  const expected = c.get("session").csrf;
  if (!presented || !timingSafeEqualDigests(presented, expected)) {
    throw new ApiError("FORBIDDEN", "Missing or wrong CSRF token; reload the page and retry.");
  }
}

/** Security headers of every dashboard response. */
export const dashboardHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  c.header(
    "content-security-policy",
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: blob:",
      // The playground's recording preview: the clip's bytes as a blob: URL in a <video>.
      "media-src blob:",
      "frame-src blob:",
      "connect-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
  );
  c.header("x-content-type-options", "nosniff");
  c.header("referrer-policy", "same-origin");
  c.header("x-frame-options", "DENY");
  if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
};
