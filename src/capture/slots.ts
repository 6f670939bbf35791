/**
 * The browser slots of one BrowserHost, shared fairly between accounts:
 *
 * - at most `total` captures in flight, and at most `perAccount` (< total) of one account, so
 *   one customer can never hold every slot;
 * - callers beyond either cap wait in ONE first-in-first-out line across accounts: a freed slot
 *   goes to the longest-waiting caller whose account is under its cap;
 * - the line is bounded (`maxWaiting`) and so is each wait (`waitMs`): past either the caller is
 *   refused with `SlotsBusy` at once, never left to pile up or to time out while charged.
 */
export class SlotsBusy extends Error {
  override readonly name = "SlotsBusy";
}

export interface SlotLimits {
  total: number;
  perAccount: number;
  maxWaiting: number;
  waitMs: number;
}

interface Waiter {
  account: string;
  grant: () => void;
}

export class FairSlots {
  private inFlight = 0;
  private readonly byAccount = new Map<string, number>();
  private readonly line: Waiter[] = [];

  constructor(private readonly limits: SlotLimits) {
    if (limits.perAccount >= limits.total) throw new Error("perAccount must be below total");
  }

  /** Resolves when `account` holds a slot (release it with `release`); rejects with SlotsBusy. */
  acquire(account: string): Promise<void> {
    // Everyone still in line is blocked by a cap (admit() ran at every release): one who fits goes.
    if (this.fits(account)) {
      this.take(account);
      return Promise.resolve();
    }
    if (this.line.length >= this.limits.maxWaiting) return Promise.reject(new SlotsBusy());
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const at = this.line.indexOf(waiter);
        if (at >= 0) this.line.splice(at, 1);
        reject(new SlotsBusy());
      }, this.limits.waitMs);
      const waiter: Waiter = {
        account,
        grant: () => {
          clearTimeout(timer);
          this.take(account);
          resolve();
        },
      };
      this.line.push(waiter);
    });
  }

  release(account: string): void {
    this.inFlight--;
    const held = (this.byAccount.get(account) ?? 1) - 1;
    if (held > 0) this.byAccount.set(account, held);
    else this.byAccount.delete(account);
    this.admit();
  }

  stats(): { inFlight: number; waiting: number; accounts: number } {
    return { inFlight: this.inFlight, waiting: this.line.length, accounts: this.byAccount.size };
  }

  /** Grants freed slots in line order, skipping (not reordering) accounts at their cap. */
  private admit(): void {
    for (let i = 0; i < this.line.length && this.inFlight < this.limits.total;) {
      const waiter = this.line[i];
      if (waiter && this.fits(waiter.account)) {
        this.line.splice(i, 1);
        waiter.grant();
      } else i++;
    }
  }

  private fits(account: string): boolean {
    return (
      this.inFlight < this.limits.total &&
      (this.byAccount.get(account) ?? 0) < this.limits.perAccount
    );
  }

  private take(account: string): void {
    this.inFlight++;
    this.byAccount.set(account, (this.byAccount.get(account) ?? 0) + 1);
  }
}
