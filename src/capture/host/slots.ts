/**
 * The browser slots of one BrowserHost, shared fairly between accounts, by count and by weight:
 *
 * - at most `total` captures in flight, and at most `perAccount` (< total) of one account, so
 *   one customer can never hold every slot;
 * - a newcomer always finds a slot: an account that already holds one may not take the host's
 *   last free slot, which is kept for an account with nothing in flight (so accounts already
 *   served, however many, never fill the host between them);
 * - every capture carries a weight, the device pixels it may render (../page/weight.ts): an account's
 *   captures in flight weigh at most `accountWeight`. Pixels are what a capture costs the
 *   browser's shared threads (raster, compositor copy, encoder), so one account's giant full
 *   pages run one at a time, queued behind each other, while its light captures and everyone
 *   else's pass them. A capture heavier than the budget still runs when its account holds none
 *   of it, never "never". A full page is weighed at the most it could render and made lighter
 *   (`lighten`) once its height is known: weights only ever shrink in flight;
 * - a capture held for its use of CPU (./cpu-share.ts) lends its slot to newcomers (`lend`, at
 *   most `total` lent): it uses no CPU while held, so the browser may run one more newcomer's
 *   capture in its place — accounts whose spinning pages fill every slot, however many, keep no
 *   other account waiting (a newcomer waiting is itself a reason to hold: `newcomerWaiting`);
 * - callers beyond a cap or a budget wait in ONE line across accounts: freed capacity goes to
 *   the caller that fits whose account has the fewest captures in flight, the longest-waiting
 *   among equals (first-in-first-out between accounts that hold the same; a light caller passes
 *   a heavy one that does not fit yet; an account with nothing in flight passes one already
 *   holding slots, so two accounts filling every slot do not keep a third waiting behind them);
 * - the line is bounded (`maxWaiting`, past it `SlotsBusy`) and so is each wait (`waitMs`), and
 *   it is shared per account: at most `perAccountWaiting` callers of one account, and a full line
 *   lets a caller push out the newest of the account with the most waiting (by two or more).
 *   Those refusals are the account's own excess (`AccountBusy`, a 429 to its caller): one
 *   account's burst (40 requests, 40 MCP tool calls) never turns everyone else away;
 * - background captures (crawl pages) yield to interactive ones: a background caller waits while
 *   an interactive capture is in flight or waiting, or ended less than `quietMs` ago, for at most
 *   `backgroundYieldMs`, then it is an ordinary caller (slowed by interactive traffic, never
 *   stopped); a background capture already running shares the browser until it ends.
 */
import { TUNING } from "../../tuning";

/** Refused for everyone: no slot came free in time, or the line is full. */
export class SlotsBusy extends Error {
  override readonly name = "SlotsBusy";
}

/** Refused for the caller's own account: it already has its share of the line waiting. */
export class AccountBusy extends Error {
  override readonly name = "AccountBusy";
}

export interface SlotLimits {
  total: number;
  perAccount: number;
  /** The weight (device pixels) one account's captures in flight may reach together. */
  accountWeight: number;
  maxWaiting: number;
  /** The most callers of one account waiting in the line. */
  perAccountWaiting: number;
  waitMs: number;
  /** How long after an interactive capture ends background callers still wait. */
  quietMs: number;
  /** The longest a background caller yields to interactive ones. */
  backgroundYieldMs: number;
}

/** One capture's hold on a slot: pass it to `lighten` and `release`. */
export interface Slot {
  readonly account: string;
  readonly background: boolean;
  weight: number;
}

interface Waiter {
  account: string;
  weight: number;
  /** A background caller that still yields to interactive ones. */
  yields: boolean;
  grant: () => void;
  /** Refuses the caller (it leaves the line): pushed out for another account's caller. */
  refuse: (err: Error) => void;
}

type Held = { count: number; weight: number };

export class FairSlots {
  private inFlight = 0;
  private weight = 0;
  /** Slots lent by held captures (`lend`): room for newcomers above `total`. */
  private lent = 0;
  private readonly byAccount = new Map<string, Held>();
  private readonly line: Waiter[] = [];
  /** Interactive captures in flight, and when the last one ended (ms epoch). */
  private interactive = 0;
  private interactiveEndedAt = -Infinity;
  private quietTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly limits: SlotLimits) {
    if (limits.perAccount >= limits.total) throw new Error("perAccount must be below total");
  }

  /**
   * A slot of `weight` for `account` (give it back with `release`); rejects with SlotsBusy.
   * `background`: the capture yields to interactive ones (above).
   */
  acquire(account: string, weight: number, background = false): Promise<Slot> {
    // Everyone still in line is blocked by a cap (admit() ran at every change): one who fits goes.
    if (this.fits(account, weight, background))
      return Promise.resolve(this.take(account, weight, background));
    const mine = this.waitingOf(account);
    if (mine >= this.limits.perAccountWaiting) return Promise.reject(new AccountBusy());
    if (this.line.length >= this.limits.maxWaiting) {
      const victim = this.pushOutFor(mine);
      if (!victim) return Promise.reject(new SlotsBusy());
      victim.refuse(new AccountBusy());
    }
    return new Promise<Slot>((resolve, reject) => {
      const leave = (err: Error) => {
        clearTimeout(timer);
        clearTimeout(yieldTimer);
        const at = this.line.indexOf(waiter);
        if (at >= 0) this.line.splice(at, 1);
        reject(err);
        // An interactive caller gone from the line may be what background ones waited for.
        this.admitWhenQuiet();
      };
      const timer = setTimeout(() => leave(new SlotsBusy()), this.limits.waitMs);
      const yieldTimer = background
        ? setTimeout(() => {
            waiter.yields = false;
            this.admit();
          }, this.limits.backgroundYieldMs)
        : undefined;
      const waiter: Waiter = {
        account,
        weight,
        yields: background,
        grant: () => {
          clearTimeout(timer);
          clearTimeout(yieldTimer);
          resolve(this.take(account, weight, background));
        },
        refuse: leave,
      };
      this.line.push(waiter);
      if (background) this.admitWhenQuiet();
    });
  }

  /** `slot` now weighs `weight` if that is less (its full page was measured): frees the rest. */
  lighten(slot: Slot, weight: number): void {
    if (weight >= slot.weight) return;
    const held = this.held(slot.account);
    held.weight -= slot.weight - weight;
    this.weight -= slot.weight - weight;
    slot.weight = weight;
    this.admit();
  }

  /**
   * `held` captures in flight are held (./cpu-share.ts) now: as many slots lent to newcomers, up
   * to `total` (a held page uses no CPU but keeps its memory: twice the slots in flight at most).
   */
  lend(held: number): void {
    this.lent = Math.min(held, this.limits.total);
    this.admit();
  }

  release(slot: Slot): void {
    if (!slot.background) {
      this.interactive--;
      this.interactiveEndedAt = Date.now();
      this.admitWhenQuiet();
    }
    this.inFlight--;
    this.weight -= slot.weight;
    const held = this.held(slot.account);
    held.count--;
    held.weight -= slot.weight;
    if (held.count === 0) this.byAccount.delete(slot.account);
    this.admit();
  }

  /**
   * Whether a caller waits whose account has nothing in flight: one that slots lent by held
   * captures would admit (./cpu-share.ts holds across accounts while one does).
   */
  newcomerWaiting(): boolean {
    return this.line.some((w) => !this.byAccount.has(w.account));
  }

  stats(): { inFlight: number; waiting: number; accounts: number; weight: number } {
    return {
      inFlight: this.inFlight,
      waiting: this.line.length,
      accounts: this.byAccount.size,
      weight: this.weight,
    };
  }

  /** Grants freed capacity, one caller at a time: of those who fit, the least served first. */
  private admit(): void {
    for (;;) {
      let next = -1;
      let fewest = Infinity;
      this.line.forEach((waiter, i) => {
        const count = this.byAccount.get(waiter.account)?.count ?? 0;
        if (count < fewest && this.fits(waiter.account, waiter.weight, waiter.yields)) {
          next = i;
          fewest = count;
        }
      });
      const [waiter] = next < 0 ? [] : this.line.splice(next, 1);
      if (!waiter) return;
      waiter.grant();
    }
  }

  private waitingOf(account: string): number {
    return this.line.filter((w) => w.account === account).length;
  }

  /**
   * The line is full: the newest caller of the account with the most waiting, if that is two
   * or more above `mine` (the caller's account's), else none (every account waits its share).
   */
  private pushOutFor(mine: number): Waiter | undefined {
    const counts = new Map<string, number>();
    for (const w of this.line) counts.set(w.account, (counts.get(w.account) ?? 0) + 1);
    let most: string | null = null;
    let mostWaiting = 0;
    for (const [account, n] of counts) if (n > mostWaiting) [most, mostWaiting] = [account, n];
    if (most === null || mostWaiting < mine + 2) return undefined;
    return this.line.findLast((w) => w.account === most);
  }

  /** Interactive captures in flight or waiting, or one ended less than `quietMs` ago. */
  private busyInteractive(): boolean {
    return (
      this.interactive > 0 ||
      this.line.some((w) => !w.yields) ||
      Date.now() - this.interactiveEndedAt < this.limits.quietMs
    );
  }

  /**
   * Admits again when the quiet time after the last interactive capture has passed: called when
   * one ends or leaves the line, and when a background caller starts waiting. Once it has passed
   * there is nothing to wait for: a background caller still waiting is held by a cap, and every
   * release admits. (Re-arming then was a 0 ms timer loop for as long as a crawl's page waited at
   * its account's cap: ~6 % of workerd's CPU in a rendered crawl, profiled.)
   */
  private admitWhenQuiet(): void {
    if (this.quietTimer !== null || !this.line.some((w) => w.yields)) return;
    if (this.interactive > 0 || this.line.some((w) => !w.yields)) return;
    const ms = this.interactiveEndedAt + this.limits.quietMs - Date.now();
    if (ms <= 0) return;
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null;
      this.admit();
      this.admitWhenQuiet();
    }, ms);
  }

  private fits(account: string, weight: number, yields: boolean): boolean {
    if (yields && this.busyInteractive()) return false;
    const held = this.byAccount.get(account);
    if (!held) return this.inFlight < this.limits.total + this.lent; // a newcomer: any free slot
    return (
      this.inFlight < this.limits.total - 1 && // the last free slot is kept for a newcomer
      held.count < this.limits.perAccount &&
      held.weight + weight <= this.limits.accountWeight
    );
  }

  private take(account: string, weight: number, background: boolean): Slot {
    if (!background) this.interactive++;
    this.inFlight++;
    this.weight += weight;
    const held = this.byAccount.get(account) ?? { count: 0, weight: 0 };
    held.count++;
    held.weight += weight;
    this.byAccount.set(account, held);
    return { account, background, weight };
  }

  private held(account: string): Held {
    const held = this.byAccount.get(account);
    if (!held) throw new Error(`no slot held by ${account}`);
    return held;
  }
}

/** A BrowserHost's slots, by TUNING. */
export function hostSlots(): FairSlots {
  return new FairSlots({
    total: TUNING.browserContextsInFlight,
    perAccount: TUNING.browserContextsPerAccount,
    accountWeight: TUNING.browserPixelsPerAccount,
    maxWaiting: TUNING.browserQueueMax,
    perAccountWaiting: TUNING.browserQueuePerAccount,
    waitMs: TUNING.browserQueueWaitMs,
    quietMs: TUNING.backgroundQuietMs,
    backgroundYieldMs: TUNING.backgroundYieldMs,
  });
}
