/**
 * Spending credits: reserve before the work, commit when it succeeded, refund when it failed,
 * so a failed render never costs a credit. `withCredits` does all three for synchronous work
 * (the capture pipeline is its caller); async jobs reserve at admission, in the Account DO, and
 * settle with the job's guarded transition.
 */
import { ApiError } from "../errors";
import { MESSAGES } from "../messages";
import type { Usage } from "../../schemas/responses";
import type { AccountStub } from "./directory";
import type { AuthContext } from "./auth";
import type { ReserveResult, Settlement } from "./ledger";
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
  account: AccountStub,
  cost: number,
  options: ReserveOptions = {},
): Promise<Reservation> {
  return reservation(await account.credits().reserve(cost, options.ttlMs), cost);
}

/**
 * The reservation made with authentication if it fits `cost`; else a new one, after giving the
 * other back (so the usage we report does not count it).
 */
async function claimOrReserve(
  auth: Pick<AuthContext, "account" | "prepaid">,
  cost: number,
): Promise<Reservation> {
  const prepaid = auth.prepaid?.claim(cost);
  if (prepaid) return reservation(prepaid, cost);
  const unfit = auth.prepaid?.unclaimed();
  if (unfit) await auth.account.credits().settle(unfit, false);
  return reserveCredits(auth.account, cost);
}

function reservation(result: ReserveResult, cost: number): Reservation {
  if (!result.ok) {
    const { usage } = result;
    throw new ApiError("USAGE_EXCEEDED", MESSAGES.creditsExhausted(cost, usage));
  }
  return { reservationId: result.reservationId, cost, remaining: result.remaining };
}

/** Commits (`ok`), refunds or partly commits a reservation; returns what the caller was charged. */
export async function settleReservation(
  account: AccountStub,
  reservation: Reservation,
  ok: Settlement,
): Promise<Usage> {
  const result = await account.credits().settle(reservation.reservationId, ok);
  return { credits: result.committed, remaining: result.usage.remaining };
}

/**
 * Reserve `cost` credits, run `work`, commit on success, refund if it throws (then rethrow).
 * `earned` says how many of the credits a finished work keeps (default: all); the rest are
 * refunded — one credit per output, for work that yields several and may lose some.
 */
export async function withCredits<T>(
  auth: Pick<AuthContext, "accountId" | "account" | "prepaid">,
  cost: number,
  work: () => Promise<T>,
  earned: (value: T) => number = () => cost,
): Promise<{ value: T; usage: Usage }> {
  const reservation = await claimOrReserve(auth, cost);
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
  const keep = earned(value);
  try {
    return { value, usage: await settleReservation(auth.account, reservation, keep) };
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

function logSettleFailure(auth: Pick<AuthContext, "accountId">, step: string, err: unknown): void {
  log("error", `credit ${step} failed`, { accountId: auth.accountId, error: String(err) });
}

/** Headers carrying the same numbers as meta.usage on binary responses. */
export function usageHeaders(usage: Usage): Record<string, string> {
  return {
    "x-service-credits-charged": String(usage.credits),
    "x-service-credits-remaining": usage.remaining === null ? "unlimited" : String(usage.remaining),
  };
}
