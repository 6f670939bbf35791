/**
 * The checks of an authenticated call, inside the Account DO's transaction (src/account-do/):
 * the key's status, the rate limit of the bucket counted, and, for capture routes, the credits
 * held for the call — so every authenticated request makes exactly one round trip to its account.
 */
import { TUNING } from "../tuning";
import { checkKey } from "./keystore";
import { reserve as reserveCredits } from "./ledger";
import { bucketLimit, hitRateLimit, type RateBucket } from "./limiter";
import type { Plan } from "./plans";
import type { AuthorizeResult } from "./profile";

export interface KeyCall {
  keyId: string;
  keyHash: string;
  /** Credits to hold for an admitted call (capture routes; src/accounts/credits.ts); 0: none. */
  reserve: number;
  /** The rate limit counted: reads have their own (./limiter.ts). */
  bucket: RateBucket;
}

/** A call with an API key: its status, its rate limit, and its credits held when admitted. */
export function authorizeKey(
  sql: SqlStorage,
  account: { accountId: string; plan: Plan },
  call: KeyCall,
  now: number,
): AuthorizeResult {
  const status = checkKey(sql, call.keyId, call.keyHash, now);
  if (status !== "active") return { status: status === "revoked" ? "revoked" : "unknown" };
  const { plan } = account;
  const limit = bucketLimit(plan, call.bucket);
  const rate = hitRateLimit(sql, call.bucket, limit, now, TUNING.rateWindowMs);
  const result = { status: "ok", accountId: account.accountId, plan: plan.id, rate } as const;
  if (rate.limited || call.reserve <= 0) return result;
  const ttlMs = TUNING.creditReservationTtlMs;
  return {
    ...result,
    reservation: reserveCredits(sql, plan.monthlyCredits, call.reserve, ttlMs, now),
  };
}

/**
 * A call of the dashboard's playground: the rate limit counted as for a key (the session stands
 * in for it; src/http/dashboard/).
 */
export function authorizeSession(
  sql: SqlStorage,
  account: { accountId: string; plan: Plan },
  now: number,
): AuthorizeResult {
  const { plan } = account;
  const rate = hitRateLimit(sql, "request", plan.rateLimitPerMinute, now, TUNING.rateWindowMs);
  return { status: "ok", accountId: account.accountId, plan: plan.id, rate };
}
