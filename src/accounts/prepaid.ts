/**
 * Credits reserved together with authentication (`Account.authorize(…, reserve)`): a capture
 * route asks for its one credit in the same Account DO call that checks the key and the rate
 * limit, so the capture starts after one round trip instead of two. The pipeline claims the
 * reservation when it would have reserved (`withCredits`, src/accounts/credits.ts) — after
 * validation and the URL checks, so what a request is told first does not change: a bad request
 * is still a 400 on an account with no credits left. What nobody claimed (a 400, an async job
 * that reserves at admission, a different cost) is refunded when the response is sent.
 */
import type { ReserveResult } from "./ledger";

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
