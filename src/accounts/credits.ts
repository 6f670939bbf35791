/**
 * Spending credits: reserve before the work, commit when it succeeded, refund when it failed,
 * so a failed render never costs a credit. `withCredits` does all three for synchronous work;
 * async jobs reserve at submit (`reserveCredits`) and settle later (`settleReservation`).
 */
import { ApiError } from "../errors";
import { MESSAGES } from "../messages";
import type { Usage } from "../../schemas/responses";
import type { Account } from "./account";
import type { AuthContext } from "./auth";
import { log } from "../log";

export interface Reservation {
  reservationId: string;
  cost: number;
  /** Credits left once this reservation is committed; null = unlimited. */
  remaining: number | null;
}

export interface ReserveOptions {
  /** How long the credits stay held if never settled (default TUNING.creditReservationTtlMs). */
  ttlMs?: number;
}

/** Holds `cost` credits; 429 USAGE_EXCEEDED when the month's credits do not cover them. */
export async function reserveCredits(
  account: DurableObjectStub<Account>,
  cost: number,
  options: ReserveOptions = {},
): Promise<Reservation> {
  const result = await account.reserveCredits(cost, options.ttlMs);
  if (!result.ok) {
    const { usage } = result;
    throw new ApiError("USAGE_EXCEEDED", MESSAGES.creditsExhausted(cost, usage));
  }
  return { reservationId: result.reservationId, cost, remaining: result.remaining };
}

/** Commits (`ok`) or refunds a reservation; returns what the caller was charged. */
export async function settleReservation(
  account: DurableObjectStub<Account>,
  reservation: Reservation,
  ok: boolean,
): Promise<Usage> {
  const result = await account.settleCredits(reservation.reservationId, ok);
  return {
    credits: ok && result.settled ? reservation.cost : 0,
    remaining: result.usage.remaining,
  };
}

/** Reserve `cost` credits, run `work`, commit on success, refund if it throws (then rethrow). */
export async function withCredits<T>(
  auth: AuthContext,
  cost: number,
  work: () => Promise<T>,
): Promise<{ value: T; usage: Usage }> {
  const reservation = await reserveCredits(auth.account, cost);
  let value: T;
  try {
    value = await work();
  } catch (err) {
    await settleReservation(auth.account, reservation, false).catch((refundError: unknown) => {
      // The reservation expires on its own; the caller sees the work's error, not this one.
      logSettleFailure(auth, "refund", refundError);
    });
    throw err;
  }
  try {
    return { value, usage: await settleReservation(auth.account, reservation, true) };
  } catch (commitError) {
    // The work is done: deliver it. Uncommitted, the held credits lapse with the reservation.
    logSettleFailure(auth, "commit", commitError);
    const { remaining, cost: held } = reservation;
    return {
      value,
      usage: { credits: 0, remaining: remaining === null ? null : remaining + held },
    };
  }
}

function logSettleFailure(auth: AuthContext, step: string, err: unknown): void {
  log("error", `credit ${step} failed`, { accountId: auth.accountId, error: String(err) });
}

/** Headers carrying the same numbers as meta.usage on binary responses. */
export function usageHeaders(usage: Usage): Record<string, string> {
  return {
    "x-service-credits-charged": String(usage.credits),
    "x-service-credits-remaining": usage.remaining === null ? "unlimited" : String(usage.remaining),
  };
}
