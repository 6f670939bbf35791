/**
 * Fair CPU between accounts on one browser: one account's spinning or heavy pages slow that
 * account, not the others. Slots (./slots.ts) share the browser's contexts and the pixels in
 * flight; this shares the renderers' CPU.
 *
 * The rule: among an account's captures in flight, its oldest runs freely. A younger one whose
 * page has kept its main thread busy for more than TUNING.cpuHeavyMs is **held** — its scripts
 * paused — while another account has a capture in flight on the same browser, and let go as soon
 * as its account is alone or it becomes the account's oldest. So, under contention, each
 * account's heavy work runs one capture at a time, oldest first, while light captures (every
 * account's) never wait; an account alone is never held. A held capture lends its slot to
 * newcomers (./slots.ts `lend`) and keeps its deadline: one held past it is the same refunded
 * 408 as any capture that overruns (docs/RELIABILITY.md, "Fair CPU").
 *
 * How, in CDP terms (measured on Chromium 156):
 * - Busy: `Performance.getMetrics` → `TaskDuration`, the time the page's main thread spent in
 *   tasks, the running one included. It is answered at once even while the page spins in
 *   `while (true) {}` (the renderer answers it between JavaScript instructions), unlike anything
 *   that needs the main thread. It is wall time, so a renderer starved of CPU counts as busy
 *   too; mistaking one costs it only a wait behind its own account's oldest capture, never its
 *   script (`ProcessTime`, the renderer's CPU, was tried: on a loaded machine a spinner took
 *   4–5 s to reach 0.5 s of it, too late to help anyone).
 * - Hold: `Debugger.pause`, also answered while the page spins; a paused renderer uses no CPU
 *   (0.02 s over 1 s, against ~1 s spinning), still produces frames (a screenshot of a paused
 *   page works) and closes normally. `Debugger.resume` lets it go on where it stopped: nothing
 *   is cut short, unlike `Runtime.terminateExecution`, which also ends the next script when none
 *   is running. A pause asked of an idle page waits for its next script; that pause is resumed
 *   as soon as it arrives unless the capture is held by then.
 * - The debugger must be enabled before the page's script runs (enabling it in a spinning page
 *   is never answered). So only captures that could be held — an account's second and later
 *   in flight — get it, on their still-blank page before navigation, and on every frame and
 *   worker they start, while those are paused at their start by the browser guard. With
 *   breakpoints inactive, a `debugger;` statement in the page does not pause it.
 * - `Emulation.setCPUThrottlingRate` was rejected: its throttler sleeps by spinning, so a
 *   throttled spinner still uses the core.
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import { TUNING } from "../tuning";
import { withTimeout } from "./navigate";

/** The state of one capture this browser runs. */
interface Tracked {
  accountId: string;
  /** Order of arrival: an account's lowest is its oldest. */
  seq: number;
  /** Sessions on every realm of a holdable capture (page, frames, workers); empty otherwise. */
  realms: Set<CDPSession>;
  /** The page's own session, for its CPU (holdable captures only). */
  meter: CDPSession | null;
  /** The page's main-thread busy time (s) when the capture began; null until measured. */
  busyAtStart: number | null;
  heavy: boolean;
  held: boolean;
}

/** What a capture's turn at a decision looks like to the policy. */
export interface CpuEntry {
  accountId: string;
  seq: number;
  heavy: boolean;
}

/**
 * The rule above, as a pure function: which captures to hold. Every capture not returned runs.
 */
export function capturesToHold<T extends CpuEntry>(entries: readonly T[]): Set<T> {
  const held = new Set<T>();
  const accounts = new Set(entries.map((e) => e.accountId));
  if (accounts.size < 2) return held;
  const oldest = new Map<string, number>();
  for (const e of entries)
    oldest.set(e.accountId, Math.min(oldest.get(e.accountId) ?? e.seq, e.seq));
  for (const e of entries) if (e.heavy && e.seq !== oldest.get(e.accountId)) held.add(e);
  return held;
}

export interface CpuTicket {
  /** The capture is over: forget it (its context is closed with it, paused or not). */
  end(): void;
}

export class CpuShare {
  private readonly tracked = new Map<string, Tracked>();
  private seq = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private ticking = false;
  /** Times a capture was held (stats). */
  holds = 0;

  /** `onHolding`: told how many captures are held whenever that changes (their slots are lent). */
  constructor(private readonly onHolding: (held: number) => void) {}

  /**
   * A capture of `accountId` starts in `contextId` on `page` (still blank). One that could be
   * held gets its debugger and CPU meter before this resolves, so before the page loads.
   */
  async track(page: Page, contextId: string, accountId: string): Promise<CpuTicket> {
    const holdable = [...this.tracked.values()].some((t) => t.accountId === accountId);
    const entry: Tracked = {
      accountId,
      seq: this.seq++,
      realms: new Set(),
      meter: null,
      busyAtStart: null,
      heavy: false,
      held: false,
    };
    this.tracked.set(contextId, entry);
    const ticket = { end: () => this.untrack(contextId, entry) };
    if (!holdable) return ticket;
    try {
      const session = await page.createCDPSession();
      await Promise.all([this.prepare(entry, session), session.send("Performance.enable")]);
      entry.meter = session;
      entry.busyAtStart = await busySeconds(session);
    } catch {
      // A page that cannot be prepared is not held (it runs as the oldest would).
    }
    this.timer ??= setInterval(() => void this.tick(), TUNING.cpuShareTickMs);
    return ticket;
  }

  /**
   * A frame or worker of `contextId` attached by the browser guard, paused before its first
   * script: a holdable capture's realm gets its debugger now (awaited before it is resumed).
   */
  async attached(contextId: string | undefined, session: CDPSession): Promise<void> {
    const entry = contextId === undefined ? undefined : this.tracked.get(contextId);
    if (entry?.meter) await this.prepare(entry, session).catch(() => {});
  }

  private async prepare(entry: Tracked, session: CDPSession): Promise<void> {
    session.on("Debugger.paused", () => {
      // A pause we asked for while the page was idle, arriving after it was let go.
      if (!entry.held) void session.send("Debugger.resume").catch(() => {});
    });
    await session.send("Debugger.enable");
    await session.send("Debugger.setBreakpointsActive", { active: false });
    entry.realms.add(session);
    if (entry.held) void session.send("Debugger.pause").catch(() => {});
  }

  private untrack(contextId: string, entry: Tracked): void {
    if (this.tracked.get(contextId) !== entry) return;
    this.tracked.delete(contextId);
    if (entry.held) this.onHolding(this.holding);
    if (entry.meter) void entry.meter.detach().catch(() => {});
    if (![...this.tracked.values()].some((t) => t.meter) && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
    // Whoever it held back may run now.
    void this.tick();
  }

  /** Measure the holdable captures not yet heavy, then hold and let go by the rule. */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      await Promise.all(
        [...this.tracked.values()].map(async (e) => {
          if (!e.meter || e.heavy) return;
          const now = await busySeconds(e.meter).catch(() => null);
          if (now === null) return;
          e.busyAtStart ??= now;
          e.heavy = (now - e.busyAtStart) * 1000 >= TUNING.cpuHeavyMs;
        }),
      );
      const entries = [...this.tracked.values()];
      const hold = capturesToHold(entries);
      let changed = false;
      for (const e of entries) {
        const want = hold.has(e) && e.meter !== null;
        if (want === e.held) continue;
        e.held = want;
        changed = true;
        if (want) this.holds++;
        for (const s of e.realms)
          void s.send(want ? "Debugger.pause" : "Debugger.resume").catch(() => {});
      }
      if (changed) this.onHolding(this.holding);
    } finally {
      this.ticking = false;
    }
  }

  /** Captures held right now (stats). */
  get holding(): number {
    return [...this.tracked.values()].filter((t) => t.held).length;
  }
}

/**
 * How long (s) the page's main thread has been busy running tasks (`TaskDuration`, which counts
 * the task running now), answered even by a spinning page.
 */
async function busySeconds(session: CDPSession): Promise<number> {
  const { metrics } = await withTimeout(
    session.send("Performance.getMetrics"),
    TUNING.cpuMeterTimeoutMs,
  );
  const value = metrics.find((m) => m.name === "TaskDuration")?.value;
  if (value === undefined) throw new Error("no TaskDuration metric");
  return value;
}
