/**
 * API-key authentication middleware for key-protected routes.
 *
 * The key comes from `Authorization: Bearer`, then `x-api-key`, then (only where the route
 * allows it: GET /v1/screenshot) the `key` query parameter. A well-formed key is hashed and
 * looked up by hash in KV; the Account DO then confirms its status and counts the call
 * against the per-minute limit, in one RPC — on capture routes the same RPC also reserves the
 * capture's credit (`reserve`). Every response to an authenticated call carries the rate-limit
 * headers of the limit that applied, errors included.
 *
 * Which limit applies is a rule by kind of call, not a list of paths (`rateBucketFor`): a read —
 * GET or HEAD that reserves no credit, so polling a job, batch, watch (or any later resource) and
 * reading the account — counts against the plan's read limit; everything else (captures,
 * `GET /v1/screenshot` included, and writes) against its request limit (src/accounts/plans.ts).
 */
import type { Context, MiddlewareHandler } from "hono";
import { accountStub, lookupKeyHash } from "../../accounts/directory";
import { hashApiKey, isWellFormedKey } from "../../accounts/keys";
import type { RateBucket, RateState } from "../../accounts/limiter";
import { PLANS } from "../../accounts/plans";
import {
  type BilledOutput,
  creditsFor,
  PrepaidCredits,
  refundUnclaimed,
} from "../../accounts/credits";
import { ApiError } from "../../errors";
import { MESSAGES } from "../../user-messages";
import type { AppEnv } from "../types";

export interface AuthenticateOptions {
  /** Accept `?key=` (GET /v1/screenshot only, so keys can sit in image tags). */
  allowQueryKey?: boolean;
  /**
   * The billable outputs the route's capture requests: their credits (`creditsFor`) are
   * reserved in the same Account DO call, claimed by the pipeline, and refunded after the
   * response when nothing claimed them (src/accounts/credits.ts).
   */
  reserveFor?: readonly BilledOutput[];
}

/** The presented key, or null when none was presented in an accepted place. */
export function presentedKey(req: Request, allowQueryKey: boolean): string | null {
  const authorization = req.headers.get("authorization");
  if (authorization !== null) {
    const bearer = /^Bearer[ \t]+(\S.*)$/is.exec(authorization);
    if (bearer?.[1]) return bearer[1];
  }
  const header = req.headers.get("x-api-key");
  if (header) return header;
  if (allowQueryKey) {
    const query = new URL(req.url).searchParams.get("key");
    if (query) return query;
  }
  return null;
}

/** The rate-limit bucket of a call: reads (GET/HEAD reserving no credit) count apart. */
export function rateBucketFor(method: string, reserve: number): RateBucket {
  return reserve === 0 && (method === "GET" || method === "HEAD") ? "read" : "request";
}

export function rateHeaders(rate: RateState): Record<string, string> {
  return {
    "x-ratelimit-limit": String(rate.limit),
    "x-ratelimit-remaining": String(rate.remaining),
    "x-ratelimit-reset": String(Math.ceil(rate.resetAt / 1000)),
  };
}

const invalid = (): ApiError => new ApiError("INVALID_API_KEY", MESSAGES.invalidApiKey);

export const authenticate = (options: AuthenticateOptions = {}): MiddlewareHandler<AppEnv> =>
  async function authenticateMiddleware(c, next) {
    const key = presentedKey(c.req.raw, options.allowQueryKey === true);
    if (key === null) {
      // An Authorization header without the Bearer scheme is the commonest first mistake: say so.
      const sent = c.req.header("authorization");
      throw new ApiError(
        "MISSING_API_KEY",
        sent === undefined
          ? "An API key is required: send it as `Authorization: Bearer <key>`."
          : "The Authorization header must be `Bearer <key>`: the word Bearer, a space, then the key.",
      );
    }
    if (!isWellFormedKey(key)) throw invalid();
    const keyHash = await hashApiKey(key);
    const entry = await lookupKeyHash(c.env, keyHash);
    if (!entry) throw invalid();
    const account = accountStub(c.env, entry.accountId);
    const reserve = creditsFor(options.reserveFor ?? []);
    const bucket = rateBucketFor(c.req.method, reserve);
    const result = await account.authorize(entry.keyId, keyHash, reserve, bucket);
    if (result.status === "unknown") throw invalid();
    if (result.status === "revoked") {
      throw new ApiError("KEY_DISABLED", "This API key has been revoked.");
    }
    const headers = rateHeaders(result.rate);
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    if (result.rate.limited) {
      const { retryAfter } = result.rate;
      throw new ApiError(
        "RATE_LIMITED",
        `${bucket === "read" ? "Read rate limit" : "Rate limit"} of ${result.rate.limit} ` +
          `requests per minute exceeded; retry in ${retryAfter} s.`,
        { headers: { ...headers, "retry-after": String(retryAfter) } },
      );
    }
    const prepaid = result.reservation && new PrepaidCredits(result.reservation, reserve);
    const auth = {
      accountId: result.accountId,
      keyId: entry.keyId,
      plan: PLANS[result.plan],
      account,
      ...(prepaid ? { prepaid } : {}),
    };
    c.set("auth", auth);
    try {
      await next();
    } finally {
      if (prepaid) background(c, refundUnclaimed(auth));
    }
    // A handler that returned its own Response (binary captures) bypassed the prepared headers.
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
  };

/** Work that must finish but not delay the response. */
function background(c: Context<AppEnv>, work: Promise<void>): void {
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    // No execution context (a direct app.request in tests): the promise runs on its own.
  }
}
