/**
 * The hop rule of the Worker's own fetches of URLs a customer named or a site led to — a
 * branding logo (artifacts/logo.ts), a crawl's robots.txt and sitemaps (security/guarded-fetch.ts): every
 * URL fetched, the first and each redirect target, is checked exactly as a capture target — the
 * URL guard as a "target" (http(s), a public host unless allowlisted), then the request-time
 * target check (unsafe-host list, DNS, Safe Browsing) — and carries no credentials. Callers
 * fetch with `redirect: "manual"` and run this on every Location they follow.
 *
 * Webhook deliveries are not this rule (webhooks/url.ts): the endpoint is the customer's own,
 * https-only and credential-free by the webhook guard, DNS-checked but never asked of the
 * unsafe-host list or Safe Browsing, and never redirected. Storage destinations
 * (storage/s3.ts) are checked when saved, against their own rules.
 */
import { config } from "../config";
import { ApiError } from "../errors";
import { readAllCapped, type CappedRead } from "../streams";
import { checkTarget, invalidTarget } from "./target-check";
import { checkUrl } from "./url-guard";

/** A URL with a user name or password: the Worker never sends URL credentials. */
function credentialsRefused(): ApiError {
  return new ApiError("VALIDATION_ERROR", "Invalid request: url: Must not carry credentials.", {
    details: [{ path: "url", message: "Must not carry credentials." }],
  });
}

/**
 * One hop of an outbound fetch: `raw` parsed and checked; returns the URL to fetch. Throws the
 * ApiError to answer with: INVALID_URL (refused by the guard, resolves to a blocked address,
 * or does not resolve: `UnresolvableTarget`), VALIDATION_ERROR (credentials), UNSAFE_URL
 * (unsafe-host list, Safe Browsing), URL_CHECK_UNAVAILABLE (the DNS check failed, 503).
 */
export async function checkOutboundHop(env: Env, raw: string): Promise<URL> {
  const verdict = checkUrl(raw, "target", config(env).targetAllowlist);
  if (!verdict.ok) throw invalidTarget(verdict.reason);
  if (verdict.url.username !== "" || verdict.url.password !== "") throw credentialsRefused();
  await checkTarget(env, verdict.url);
  return verdict.url;
}

/**
 * The body of an outbound fetch, never more than `max` bytes read: a declared Content-Length over
 * it is refused unread, and a body without one is cut as soon as it passes `max`.
 */
export async function readCapped(res: Response, max: number): Promise<CappedRead> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > max) {
    await res.body?.cancel().catch(() => {});
    return { ok: false, reason: "too-large" };
  }
  if (!res.body) return { ok: true, bytes: new Uint8Array(0) };
  return readAllCapped(res.body.getReader(), max);
}
