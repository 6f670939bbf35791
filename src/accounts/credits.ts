/**
 * Spending credits — the one way in for every caller: reserve before the work, commit when it
 * succeeded, refund when it failed, so a failed render never costs a credit.
 *
 * - What a capture costs: `creditsFor` its requested outputs (one credit per billable output),
 *   for the pipeline's charge and for the credits a route reserves with authentication alike.
 * - Synchronous work: `withCredits` reserves (or claims the prepaid reservation), runs, commits
 *   what the work earned and refunds the rest (the capture pipeline is its caller).
 * - Prepaid: a capture route reserves in the same Account DO call that authenticates
 *   (`PrepaidCredits`); the pipeline claims it, `refundUnclaimed` gives back what nobody
 *   claimed, `releasePrepaid` hands it to job admission.
 * - Work that passes its hold along: `holdCredits` (null, not a 429, when the credits ran out)
 *   and `settleReservation` by id — a crawl page holds its credits in the renderer and its
 *   Crawl DO commits them with the page's outcome.
 * - Async jobs and watch runs reserve at admission, inside the Account DO's transaction, through
 *   the ledger itself (jobs/store/admit.ts), and settle with the job's guarded transition.
 */
import { ApiError } from "../errors";
import { MESSAGES } from "../user-messages";
import type { Usage } from "../../schemas/responses";
import type { AccountStub } from "./directory";
import type { ReserveResult, Settlement } from "./ledger";
import { log } from "../log";

/**
 * What a capture output bills, in the terms of the pipeline's requested outputs: an image or
 * PDF always; any other output when it is what the caller buys (`billable`: POST /v1/extract's
 * extraction, /v1/content's HTML or text, /v1/scrape's elements, /v1/links's links, /v1/json's data), never
 * beside an image (a JSON capture's extraction, the snapshot's HTML, a watch run's text).
 */
export type BilledOutput =
  | { kind: "image" }
  /** A recording (POST /v1/animate): its credits by its length (src/pipeline/animate.ts). */
  | { kind: "animation"; credits: number }
  | {
      kind: "extraction" | "html" | "text" | "links" | "elements" | "structured";
      billable?: boolean;
    };

/** One credit per billable output; a recording's own count. */
export function creditsFor(outputs: readonly BilledOutput[]): number {
  let credits = 0;
  for (const o of outputs) {
    if (o.kind === "animation") credits += o.credits;
    else if (o.kind === "image" || o.billable === true) credits += 1;
  }
  return credits;
}

/**
 * Credits reserved together with authentication (`Account.authorize(…, reserve)`): a capture
 * route asks for its credits in the same Account DO call that checks the key and the rate
 * limit, so the capture starts after one round trip instead of two. The pipeline claims the
 * reservation when it would have reserved (`withCredits`) — after validation and the URL
 * checks, so what a request is told first does not change: a bad request is still a 400 on an
 * account with no credits left. What nobody claimed (a 400, an async job that reserves at
 * admission, a different cost) is refunded when the response is sent (`refundUnclaimed`).
 */
export class PrepaidCredits {
  private claimed = false;

  constructor(
    /** The DO's answer to the reservation: held, or refused (the month's credits are used). */
    private readonly result: ReserveResult,
    readonly cost: number,
  ) {}

  /** The reservation, once, for work costing exactly what was reserved; otherwise null. */
  claim(cost: number): ReserveResult | null {
    if (this.claimed || cost !== this.cost) return null;
    this.claimed = true;
    return this.result;
  }

  /** The id of held credits nobody claimed (to refund), or null. Claims them: asks once. */
  unclaimed(): string | null {
    if (this.claimed) return null;
    this.claimed = true;
    return this.result.ok ? this.result.reservationId : null;
  }
}

/** Who pays (an authenticated caller's context has this shape): the account and its prepaid credits. */
export interface Payer {
  accountId: string;
  account: AccountStub;
  prepaid?: PrepaidCredits;
}

/** The prepaid reservation nobody claimed, handed over (job admission refunds it), or null. */
export function releasePrepaid(payer: Pick<Payer, "prepaid">): string | null {
  return payer.prepaid?.unclaimed() ?? null;
}

/** Gives back credits reserved with authentication that the request did not use. */
export async function refundUnclaimed(payer: Payer): Promise<void> {
  const unclaimed = releasePrepaid(payer);
  if (!unclaimed) return;
  try {
    await payer.account.credits().settle(unclaimed, false);
  } catch (err) {
    // The reservation expires on its own (TUNING.creditReservationTtlMs).
    log("error", "prepaid credit refund failed", {
      accountId: payer.accountId,
      error: String(err),
    });
  }
}

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
 * Holds `cost` credits, or null when the month's credits do not cover them: for work that stops
 * quietly rather than answers 429 (a crawl's next page).
 */
export async function holdCredits(account: AccountStub, cost: number): Promise<Reservation | null> {
  const result = await account.credits().reserve(cost);
  return result.ok ? reservation(result, cost) : null;
}

/**
 * Credits held for work that comes in runs (a crawl's renderer: the pages it takes): up to
 * `batch` reservations of `cost` asked in one Account DO call when none is left, handed out one
 * at a time; one not spent goes back (`giveBack`), and what is left is refunded in one call
 * (`release`). `take` is null once the month's credits cover no more.
 */
export class CreditPool {
  private readonly held: string[] = [];
  private asking: Promise<void> | null = null;
  private exhausted = false;

  constructor(
    private readonly account: AccountStub,
    private readonly cost: number,
    private readonly batch: number,
  ) {}

  async take(): Promise<Pick<Reservation, "reservationId"> | null> {
    for (;;) {
      const reservationId = this.held.pop();
      if (reservationId !== undefined) return { reservationId };
      if (this.exhausted) return null;
      this.asking ??= this.ask().finally(() => {
        this.asking = null;
      });
      await this.asking;
    }
  }

  /** A reservation taken and not spent (nothing was committed from it): held for the next. */
  giveBack(reservation: Pick<Reservation, "reservationId">): void {
    this.held.push(reservation.reservationId);
  }

  /** Refunds the reservations not taken. */
  async release(): Promise<void> {
    const ids = this.held.splice(0);
    if (ids.length === 0) return;
    await this.account
      .credits()
      .settleEach(ids.map((reservationId) => ({ reservationId, commit: false })));
  }

  private async ask(): Promise<void> {
    const ids = await this.account.credits().reserveEach(this.cost, this.batch);
    if (ids.length === 0) this.exhausted = true;
    this.held.push(...ids);
  }
}

/**
 * Settles several reservations in one Account DO call (a crawl's pages, committed in batches by
 * its Crawl DO); settling one already settled changes nothing.
 */
export async function settleReservations(
  account: AccountStub,
  settlements: readonly { reservationId: string; commit: Settlement }[],
): Promise<void> {
  if (settlements.length > 0) await account.credits().settleEach(settlements);
}

/**
 * The reservation made with authentication if it fits `cost`; else a new one, after giving the
 * other back (so the usage we report does not count it).
 */
async function claimOrReserve(
  auth: Pick<Payer, "account" | "prepaid">,
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

/**
 * Commits (`ok`), refunds or partly commits a reservation; returns what the caller was charged.
 * Settling one already settled (or expired) changes nothing, so whoever holds the id last — the
 * work's own record, then its fallback refund — may settle it safely.
 */
export async function settleReservation(
  account: AccountStub,
  reservation: Pick<Reservation, "reservationId">,
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
  auth: Payer,
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

function logSettleFailure(auth: Pick<Payer, "accountId">, step: string, err: unknown): void {
  log("error", `credit ${step} failed`, { accountId: auth.accountId, error: String(err) });
}

/** Headers carrying the same numbers as meta.usage on binary responses. */
export function usageHeaders(usage: Usage): Record<string, string> {
  return {
    "x-service-credits-charged": String(usage.credits),
    "x-service-credits-remaining": usage.remaining === null ? "unlimited" : String(usage.remaining),
  };
}
