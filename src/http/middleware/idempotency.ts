/**
 * `Idempotency-Key` on POSTs that spend credits or queue work (captures, async jobs, batches,
 * artifacts, extraction, render-link minting). Stripe's semantics, keys scoped per account and
 * kept in the Account DO (src/idempotency/store.ts) for 24 h:
 *
 *   - first request with a key: runs; its response (status, headers, body — bytes included) is
 *     kept, unless it is worth retrying (408, 429, 5xx), in which case the key is freed;
 *   - same key, same request (method, path, query and body): the kept response, not run, not
 *     charged, with `idempotent-replayed: true`;
 *   - same key, another request: 422 IDEMPOTENCY_KEY_REUSED;
 *   - same key while the first still runs: waits for its response (up to 2 minutes), else 409
 *     IDEMPOTENCY_KEY_IN_USE.
 *
 * Runs after `authenticate` (a key belongs to an account). Bodies over the inline size are kept
 * in R2 with the same expiry as the record (swept by the hourly cron like every output).
 */
import type { MiddlewareHandler } from "hono";
import {
  IDEMPOTENCY_HEADER,
  idempotencyKeySchema,
  REPLAYED_HEADER,
} from "../../../schemas/idempotency";
import { LIMITS } from "../../../schemas/limits";
import { accountStub } from "../../accounts/directory";
import type { StoredResponse } from "../../idempotency/store";
import { sha256Hex, toHex } from "../../encoding";
import { ApiError } from "../../errors";
import { readAllCapped } from "../../streams";
import { storeOutput } from "../../storage/hosted";
import { TUNING } from "../../tuning";
import type { AppEnv } from "../types";

/** Per-request headers never replayed: the replay gets its own. */
const FRESH_HEADERS = /^(x-ratelimit-|x-request-id$|set-cookie$)/i;

function invalidKey(message: string): ApiError {
  return new ApiError("VALIDATION_ERROR", `Invalid Idempotency-Key: ${message}`, {
    details: [{ path: "Idempotency-Key", message }],
  });
}

/**
 * The request's identity: method, path, query string and body bytes (at most the body cap; null
 * when over it or unreadable). The query is kept as sent (`?a=1&b=2` and `?b=2&a=1` are different requests);
 * without one the fingerprint is what it was before queries counted, so kept keys stay valid.
 */
async function fingerprint(req: Request): Promise<string | null> {
  const body = req.clone().body;
  let bytes = new Uint8Array(0);
  if (body) {
    const read = await readAllCapped(body.getReader(), LIMITS.bodyBytes);
    // Over the cap, or unreadable: the route's own read answers 413 or 400.
    if (!read.ok) return null;
    bytes = read.bytes;
  }
  const bodyHash = toHex(await crypto.subtle.digest("SHA-256", bytes));
  const { pathname, search } = new URL(req.url);
  return sha256Hex(`${req.method} ${pathname}${search}\n${bodyHash}`);
}

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

export const idempotent = (): MiddlewareHandler<AppEnv> =>
  async function idempotencyMiddleware(c, next) {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined) return next();
    const checked = idempotencyKeySchema.safeParse(key);
    if (!checked.success) throw invalidKey(checked.error.issues[0]?.message ?? "Invalid.");
    const print = await fingerprint(c.req.raw);
    if (print === null) return next(); // over the body cap: the route answers 413
    const account = accountStub(c.env, c.get("auth").accountId);

    const deadline = Date.now() + TUNING.idempotencyWaitMs;
    for (;;) {
      const claim = await account.idempotency().claim(key, print);
      if (claim.kind === "mismatch")
        throw new ApiError(
          "IDEMPOTENCY_KEY_REUSED",
          "This Idempotency-Key was already used with a different request.",
          { details: [{ path: "Idempotency-Key", message: "Already used with another request." }] },
        );
      if (claim.kind === "done") return replay(c.env, claim.response);
      if (claim.kind === "run") break;
      if (Date.now() >= deadline)
        throw new ApiError(
          "IDEMPOTENCY_KEY_IN_USE",
          "A request with this Idempotency-Key is still in progress; retry later.",
        );
      await new Promise((r) => setTimeout(r, TUNING.idempotencyPollMs));
    }

    try {
      await next();
    } catch (err) {
      await account.idempotency().release(key);
      throw err;
    }
    const res = c.res;
    if (retryable(res.status)) {
      await account.idempotency().release(key);
      return;
    }
    try {
      const stored = await keep(c.env, c.get("auth").accountId, res);
      await account.idempotency().complete(key, stored);
    } catch (err) {
      await account
        .idempotency()
        .release(key)
        .catch(() => {});
      throw err;
    }
  };

/** The response as kept: its headers (not the per-request ones) and body, inline or in R2. */
async function keep(env: Env, accountId: string, res: Response): Promise<StoredResponse> {
  const bytes = new Uint8Array(await res.clone().arrayBuffer());
  const headers = [...res.headers].filter(([name]) => !FRESH_HEADERS.test(name));
  if (bytes.byteLength <= TUNING.idempotencyInlineBytes)
    return { status: res.status, headers, body: bytes, bodyKey: null };
  const stored = await storeOutput(env, {
    bytes,
    contentType: res.headers.get("content-type") ?? "application/octet-stream",
    ttlSeconds: Math.ceil(TUNING.idempotencyTtlMs / 1000),
    accountId,
    prefix: "idem",
  });
  return { status: res.status, headers, body: null, bodyKey: stored.key };
}

async function replay(env: Env, stored: StoredResponse): Promise<Response> {
  let body: Uint8Array | ReadableStream | null = stored.body;
  if (stored.bodyKey !== null) {
    const object = await env.OUTPUTS.get(stored.bodyKey);
    if (!object) throw new Error("an idempotent response's stored body is missing");
    body = object.body;
  }
  const headers = new Headers(stored.headers);
  headers.set(REPLAYED_HEADER, "true");
  return new Response(body as BodyInit | null, { status: stored.status, headers });
}
