/**
 * The Worker's own fetches of pages and site files: the crawler's (robots.txt, sitemaps, the
 * documents of pages a crawl loads over HTTP) and POST /v1/extract's with `render` other than
 * "always" (src/pipeline/extract-page.ts).
 *
 * Originally the crawler's own server-side fetches — robots.txt, sitemaps, and the documents of pages a
 * crawl loads over HTTP (`render: "never"` or `"auto"`: ./http-page.ts; pages that need the
 * browser load there, under the browser guard). Plain `fetch` with `redirect: "manual"`: every hop,
 * the first URL and each Location followed (at most MAX_REDIRECTS), passes the outbound hop
 * rule (security/outbound.ts: the URL guard and the target check, exactly as a capture target)
 * BEFORE it is requested, so a redirect to a private address is refused without a request
 * reaching it. One deadline covers the hops and the body; the body is read up to a byte cap.
 */
import { ApiError } from "../errors";
import { log } from "../log";
import { checkOutboundHop, readCapped } from "./outbound";
import { UnresolvableTarget } from "./target-check";

/** The product token robots.txt groups name us by (`User-agent: Edgeshot`). */
export const SERVICE_TOKEN = "Edgeshot";
/** The User-Agent of these fetches (and of crawl pages in the browser); it carries the token. */
export const SERVICE_USER_AGENT = `Mozilla/5.0 (compatible; ${SERVICE_TOKEN}/1.0; +https://edgeshot.dev/docs/crawler)`;

/** Redirects followed at most (RFC 9309 §2.3.1.2 asks at least five for robots.txt). */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export type GuardedFetchResult =
  | {
      kind: "ok";
      status: number;
      contentType: string | null;
      body: Uint8Array;
      finalUrl: string;
      /** The final answer's headers (validators: ETag, Last-Modified). */
      headers: Headers;
    }
  /** A hop was refused before it was requested: "blocked" (not a public http(s) URL, a private
   *  address by DNS, credentials in it), "unsafe" (unsafe-host list, Safe Browsing). */
  | { kind: "refused"; reason: "blocked" | "unsafe" }
  /** No usable answer: network failure, timeout, a name that does not resolve or a DNS check that
   *  failed, too many redirects, a bad Location, a body past `maxBytes`. */
  | { kind: "error" };

export interface GuardedFetchOptions {
  /** The most body bytes read; a longer body is an error. */
  maxBytes: number;
  /** For all hops and the body together. */
  timeoutMs: number;
  /** Extra request headers for a hop (checked, about to be requested); the user agent is ours. */
  headers?: (url: URL) => Record<string, string>;
}

const ERROR: GuardedFetchResult = { kind: "error" };

function refusal(err: unknown): GuardedFetchResult {
  if (!(err instanceof ApiError)) throw err;
  if (err instanceof UnresolvableTarget) return ERROR; // cannot be reached: not a refusal
  switch (err.code) {
    case "INVALID_URL":
    case "VALIDATION_ERROR": // credentials in the URL
      return { kind: "refused", reason: "blocked" };
    case "UNSAFE_URL":
      return { kind: "refused", reason: "unsafe" };
    default:
      return ERROR;
  }
}

/** GET `url` (robots.txt, a sitemap, a page's document) hop by hop through the outbound rule; any status is "ok". */
export async function guardedFetch(
  env: Env,
  url: string,
  opts: GuardedFetchOptions,
): Promise<GuardedFetchResult> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let next = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let target: URL;
    try {
      target = await checkOutboundHop(env, next);
    } catch (err) {
      return refusal(err);
    }
    let res: Response;
    try {
      res = await fetch(target.href, {
        redirect: "manual",
        signal,
        headers: { ...opts.headers?.(target), "user-agent": SERVICE_USER_AGENT },
      });
    } catch (err) {
      log("info", "crawl fetch failed", { host: target.hostname, error: String(err) });
      return ERROR;
    }
    if (!REDIRECTS.has(res.status)) {
      const body = await readCapped(res, opts.maxBytes);
      if (!body.ok) {
        log("info", "crawl fetch: body unread or too large", { host: target.hostname });
        return ERROR;
      }
      const contentType = res.headers.get("content-type");
      return {
        kind: "ok",
        status: res.status,
        contentType,
        body: body.bytes,
        finalUrl: target.href,
        headers: res.headers,
      };
    }
    await res.body?.cancel().catch(() => {});
    const location = res.headers.get("location");
    if (location === null || !URL.canParse(location, target)) return ERROR;
    next = new URL(location, target).href;
  }
  log("info", "crawl fetch: too many redirects", { host: new URL(next).hostname });
  return ERROR;
}

export type FetchedHtml =
  | {
      kind: "document";
      status: number;
      finalUrl: string;
      html: string;
      /** The answer's validators, for a later conditional request (src/crawl/page-cache.ts). */
      etag: string | null;
      lastModified: string | null;
    }
  /** 304: unchanged since the validators the caller sent (a conditional request). */
  | { kind: "not_modified" }
  /** Answered with something that is not an HTML document (its Content-Type). */
  | { kind: "not_html"; contentType: string | null }
  /** A hop refused by the URL guard or the target check, before it was requested. */
  | { kind: "blocked" }
  /** No usable answer: unreachable, too slow, a body over the cap. */
  | { kind: "error" };

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)$/i;

/** GET a page's document hop by hop (as `guardedFetch`), decoded when it is HTML (no type: HTML). */
export async function fetchHtml(
  env: Env,
  url: string,
  opts: GuardedFetchOptions,
): Promise<FetchedHtml> {
  const answer = await guardedFetch(env, url, opts);
  if (answer.kind === "refused") return { kind: "blocked" };
  if (answer.kind === "error") return { kind: "error" };
  if (answer.status === 304) return { kind: "not_modified" };
  const type = (answer.contentType ?? "text/html").split(";")[0]?.trim() ?? "";
  if (!HTML_TYPES.test(type)) return { kind: "not_html", contentType: answer.contentType };
  const html = new TextDecoder().decode(answer.body);
  return {
    kind: "document",
    status: answer.status,
    finalUrl: answer.finalUrl,
    html,
    etag: answer.headers.get("etag"),
    lastModified: answer.headers.get("last-modified"),
  };
}
