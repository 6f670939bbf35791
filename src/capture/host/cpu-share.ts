/**
 * Fair CPU between accounts on one browser, in CDP terms: each capture's busy time measured,
 * and captures held and let go by the rule in ./cpu-rule.ts (which says what heavy and held
 * mean, and who is held when).
 *
 * How, in CDP terms (measured on Chromium 156):
 * - Busy: `Performance.getMetrics` → `TaskDuration`, the time the page's main thread spent in
 *   tasks, the running one included. It is answered at once even while the page spins in
 *   `while (true) {}` (the renderer answers it between JavaScript instructions), unlike anything
 *   that needs the main thread. It is wall time, so a renderer starved of CPU counts as busy
 *   too; mistaking one costs it only waits for its turn, never its script (`ProcessTime`, the renderer's CPU, was tried: on a loaded machine a spinner took
 *   4–5 s to reach 0.5 s of it, too late to help anyone).
 * - Hold: `Debugger.pause`, also answered while the page spins; a paused renderer uses no CPU
 *   (0.02 s over 1 s, against ~1 s spinning), still produces frames (a screenshot of a paused
 *   page works) and closes normally. `Debugger.resume` lets it go on where it stopped: nothing
 *   is cut short, unlike `Runtime.terminateExecution`, which also ends the next script when none
 *   is running. A pause asked of an idle page waits for its next script; that pause is resumed
 *   as soon as it arrives unless the capture is held by then.
 * - The debugger must be enabled before the page's script runs (enabling it in a spinning page
 *   is never answered). It costs the page CPU (V8 keeps no compiled scripts while a debugger is
 *   attached: docs/CRAWL.md, "what the debugger costs"), and only a browser shared by accounts
 *   ever holds anything (./cpu-rule.ts `shared`). So a capture's debugger is asked for — on its
 *   still-blank page before navigation (on the session ours for the page's life: a page kept for
 *   its lane keeps it on while it is needed), and on every frame and worker it starts while those
 *   are paused at their start by the browser guard — only once its browser is shared: at its
 *   start if it is then, else when another account's capture starts (at once) or a newcomer
 *   waits (at the next tick). It comes off again (`Debugger.disable`) once the browser is no
 *   longer shared. With breakpoints inactive, a `debugger;` statement in the page does not pause
 *   it.
 * - A realm busy in one long task when its debugger is asked for cannot answer. While the rule
 *   would hold its capture and it has not answered for TUNING.cpuDebuggerWaitMs, the capture is
 *   restarted (`CpuRestart`): its context is disposed, which kills the renderer, and it runs
 *   again in a new page with its debugger asked for from the start (`debugFirst`), never
 *   restarted again. `Runtime.terminateExecution`, also answered then, was not used: should the
 *   task end first, it ends the next script instead, the next document's hardening among them.
 * - `Emulation.setCPUThrottlingRate` was rejected: its throttler sleeps by spinning, so a
 *   throttled spinner still uses the core.
 */
import type { CDPSession } from "@cloudflare/puppeteer";
import { TUNING } from "../../tuning";
import { withTimeout } from "../page/navigate";
import { capturesToHold, shared } from "./cpu-rule";

/** The state of one capture this browser runs. */
interface Tracked {
  accountId: string;
  /** Its page's browser context (a crawl's lane may run several captures in one). */
  contextId: string;
  /** Order of arrival: an account's lowest is its oldest. */
  seq: number;
  /** Sessions on every realm of the capture (page, frames, workers), its debugger on or not. */
  realms: Set<CDPSession>;
  /** The page's own session, for its CPU, once metered. */
  meter: CDPSession | null;
  /** The page's main-thread busy time (s) when the capture began; null until measured. */
  busyAtStart: number | null;
  /** Whether its realms' debugger was asked for (its browser was shared, or `debugFirst`). */
  asked: boolean;
  /** Asked from its start, after a restart: never restarted again. */
  debugFirst: boolean;
  heavy: boolean;
  held: boolean;
  /** When `held` last changed (ms epoch); when it was tracked, for one never held. */
  since: number;
  /** Fails the capture with `CpuRestart` (once). */
  restart(): void;
}

export interface CpuTicket {
  /** Settles (never rejects) once the page may load: its debugger on, if asked for and it could. */
  ready: Promise<void>;
  /**
   * Rejects with `CpuRestart` should the capture have to start again (never resolves): a realm
   * of its could not be given its debugger (module comment).
   */
  restarted: Promise<never>;
  /** The capture is over: forget it (its page is closed or kept for its lane). */
  end(): void;
}

/**
 * A capture that must run again in a new page, with its debugger asked for from the start: a
 * realm of its was busy in one long task when its browser came to be shared (module comment).
 */
export class CpuRestart extends Error {
  constructor() {
    super("a realm could not be given its fair-CPU debugger: restarted");
  }
}

/** The fair-CPU debugger on one session. */
interface Debugging {
  /** Settles once `Debugger.enable` answered; rejects if it failed. */
  enabled: Promise<void>;
  /** When it was asked for (ms epoch). */
  askedAt: number;
  /** It answered: the realm can be paused. */
  answered: boolean;
  /** The Debugger.paused listener this share answers on. */
  onPaused: () => void;
}

export class CpuShare {
  private readonly tracked = new Set<Tracked>();
  private seq = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private ticking = false;
  /** Times a capture was held, and a capture's debugger was asked for (stats). */
  holds = 0;
  asked = 0;

  /**
   * `onHolding`: told how many captures are held whenever that changes (their slots are lent).
   * `newcomerWaiting`: whether a caller with nothing in flight waits for a slot.
   */
  constructor(
    private readonly onHolding: (held: number) => void,
    private readonly newcomerWaiting: () => boolean = () => false,
  ) {}

  /**
   * The debugger of each session it was asked for on (a kept page's, across its captures while
   * the browser stays shared): enabled, and listened to, once a session, not once a capture.
   */
  private readonly debugging = new WeakMap<CDPSession, Debugging>();
  /** Sessions whose Performance metrics are on: likewise once a session. */
  private readonly metering = new WeakMap<CDPSession, Promise<unknown>>();

  /**
   * A capture of `accountId` starts in `contextId` on the page `session` is ours on (kept for
   * the page's life: ./blank-page.ts). Its CPU meter is set up on that session meanwhile, and its
   * debugger if the browser is shared now or the capture runs again after a `CpuRestart`
   * (`debugFirst`): the page must not load before the ticket is `ready`. A page kept for its
   * lane's next capture keeps them: the next capture attaches no session and enables nothing
   * again (measured on a crawl's kept page: an attach a page cost its renderer ~4.5 ms of main
   * thread, and enabling the debugger again more; docs/CRAWL.md).
   */
  track(session: CDPSession, contextId: string, accountId: string, debugFirst = false): CpuTicket {
    let restart = () => {};
    const restarted = new Promise<never>((_, reject) => {
      restart = () => reject(new CpuRestart());
    });
    restarted.catch(() => {}); // a capture that ends first never looks
    const entry: Tracked = {
      accountId,
      contextId,
      seq: this.seq++,
      realms: new Set([session]),
      meter: null,
      busyAtStart: null,
      asked: false,
      debugFirst,
      heavy: false,
      held: false,
      since: Date.now(),
      restart: () => {
        entry.restart = () => {};
        restart();
      },
    };
    this.tracked.add(entry);
    this.timer ??= setInterval(() => void this.tick(), TUNING.cpuShareTickMs);
    const isShared = shared([...this.tracked], this.newcomerWaiting());
    // Every capture already running needs its debugger now (a busy realm cannot answer).
    if (isShared) this.askAll();
    return {
      ready: this.meter(session, entry, isShared || debugFirst),
      restarted,
      end: () => this.untrack(entry),
    };
  }

  /** The CPU meter on the page's `session`, and its debugger if `debugged`; never rejects. */
  private async meter(session: CDPSession, entry: Tracked, debugged: boolean): Promise<void> {
    try {
      await Promise.all([
        debugged ? this.askDebugger(entry) : null,
        once(this.metering, session, () => session.send("Performance.enable")),
      ]);
      if (!this.tracked.has(entry)) return; // ended meanwhile (a failed capture)
      entry.meter = session;
      void busySeconds(session).then(
        (busy) => void (entry.busyAtStart ??= busy),
        () => {},
      );
    } catch {
      // A page that cannot be metered is never held: it counts as a light capture.
    }
  }

  /** Asks for the debugger of every capture not asked yet (the browser is shared). */
  private askAll(): void {
    for (const e of this.tracked) if (!e.asked) void this.askDebugger(e);
  }

  /**
   * Asks for the debugger on every realm of `entry`; settles when they all answered. A realm
   * that cannot have it (gone meanwhile) is no longer the capture's.
   */
  private askDebugger(entry: Tracked): Promise<unknown> {
    if (!entry.asked) {
      entry.asked = true;
      this.asked++;
    }
    return Promise.all([...entry.realms].map((s) => this.prepare(s, entry)));
  }

  private async prepare(session: CDPSession, entry: Tracked): Promise<void> {
    let debugging = this.debugging.get(session);
    if (!debugging) {
      debugging = this.enable(session);
      this.debugging.set(session, debugging);
    }
    try {
      await debugging.enabled;
    } catch {
      // Gone meanwhile (a worker that ended), or never to be paused: its capture's page then
      // counts as a light one (`holdable`), its frames and workers as gone. Asked again, it
      // tries again.
      if (this.debugging.get(session) === debugging) this.debugging.delete(session);
      entry.realms.delete(session);
      return;
    }
    if (this.debugging.get(session) !== debugging) return; // taken off meanwhile (`lift`)
    debugging.answered = true;
    if (this.heldRealm(session)) void session.send("Debugger.pause").catch(() => {});
  }

  /** The debugger on `session`, and the Debugger.paused listener this share answers on. */
  private enable(session: CDPSession): Debugging {
    // A pause we asked for while the page was idle, arriving after it was let go (on a kept
    // page, perhaps in its lane's next capture).
    const onPaused = () => {
      if (!this.heldRealm(session)) void session.send("Debugger.resume").catch(() => {});
    };
    session.on("Debugger.paused", onPaused);
    const enabled = (async () => {
      // The debugger keeps no script source the page let go.
      await session.send("Debugger.enable", { maxScriptsCacheSize: 0 });
      await session.send("Debugger.setBreakpointsActive", { active: false });
    })();
    enabled.catch(() => session.off("Debugger.paused", onPaused));
    return { enabled, askedAt: Date.now(), answered: false, onPaused };
  }

  /** Whether `session`'s debugger answered: the realm can be paused. */
  private debuggable(session: CDPSession): boolean {
    return this.debugging.get(session)?.answered === true;
  }

  /**
   * The browser is no longer shared: the debugger off `realms` (nothing is held then), so their
   * documents compile with V8's cache again. One asked for again enables it anew.
   */
  private lift(realms: Iterable<CDPSession>): void {
    for (const session of realms) {
      const debugging = this.debugging.get(session);
      if (!debugging) continue;
      this.debugging.delete(session);
      session.off("Debugger.paused", debugging.onPaused);
      void session.send("Debugger.disable").catch(() => {});
    }
  }

  /**
   * A frame or worker of `contextId` attached by the browser guard, paused before its first
   * script: a realm of the captures of that context, given its debugger now (awaited before it is
   * resumed) if theirs was asked for. The guard does not say which page of a context shared by a
   * lane's captures made it: it is then every such capture's realm (one account's), paused while
   * any of them is held.
   */
  async attached(contextId: string | undefined, session: CDPSession): Promise<void> {
    const owners = [...this.tracked].filter((e) => e.contextId === contextId && e.meter);
    for (const e of owners) e.realms.add(session);
    await Promise.all(owners.filter((e) => e.asked).map((e) => this.prepare(session, e)));
  }

  /** Whether every realm of the capture, its page first, answered for its debugger. */
  private holdable(entry: Tracked): boolean {
    if (entry.meter === null || !this.debuggable(entry.meter)) return false;
    for (const s of entry.realms) if (!this.debuggable(s)) return false;
    return true;
  }

  /**
   * Whether a capture must be restarted: the rule would hold it, and a realm of its has not
   * answered for its debugger in TUNING.cpuDebuggerWaitMs (busy in one long task).
   */
  private stuck(entry: Tracked, now: number): boolean {
    if (!entry.asked || entry.debugFirst) return false;
    for (const s of entry.realms) {
      const debugging = this.debugging.get(s);
      if (debugging && !debugging.answered && now - debugging.askedAt >= TUNING.cpuDebuggerWaitMs)
        return true;
    }
    return false;
  }

  /** Whether a realm must stay paused: one of the captures it belongs to is held. */
  private heldRealm(session: CDPSession): boolean {
    for (const e of this.tracked) if (e.held && e.realms.has(session)) return true;
    return false;
  }

  /** Pauses or resumes `realms` as the captures they belong to are held or not. */
  private turn(realms: Iterable<CDPSession>): void {
    // A realm shared by captures of one lane runs only while none of them is held. One whose
    // debugger has not answered yet is paused or not as it answers (`prepare`).
    for (const s of realms) {
      if (!this.debuggable(s)) continue;
      void s.send(this.heldRealm(s) ? "Debugger.pause" : "Debugger.resume").catch(() => {});
    }
  }

  private untrack(entry: Tracked): void {
    if (!this.tracked.delete(entry)) return;
    // Realms it shared with a capture still running follow that one now.
    if (entry.held) {
      // Its realms run again unless another held capture shares them (a page kept for its lane
      // keeps its shared workers into the next capture).
      this.turn(entry.realms);
      this.onHolding(this.holding);
    }
    if (this.tracked.size === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
    // A page kept for its lane takes no debugger it no longer needs into its next capture.
    if (!shared([...this.tracked], this.newcomerWaiting())) this.lift(entry.realms);
    // Whoever it held back may run now.
    void this.tick();
  }

  /**
   * Measure the captures not yet heavy, then hold and let go by the rule. An account alone on
   * the browser with nobody waiting is never held, so its captures are not measured then (a
   * crawl's page was asked its metrics ~4 times) nor given their debugger: busy time is
   * cumulative, so the first tick after another account arrives still sees all of it. A capture
   * is held once it can be (`holdable`), restarted if it cannot (`stuck`), and a held one stays
   * held while a realm it gained meanwhile answers (the guard keeps that realm paused at its
   * start until then).
   */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const newcomerWaiting = this.newcomerWaiting();
      const isShared = shared([...this.tracked], newcomerWaiting);
      if (isShared) {
        this.askAll();
        await Promise.all(
          [...this.tracked].map(async (e) => {
            if (!e.meter || e.heavy) return;
            const now = await busySeconds(e.meter).catch(() => null);
            if (now === null) return;
            e.busyAtStart ??= now;
            e.heavy = (now - e.busyAtStart) * 1000 >= TUNING.cpuHeavyMs;
          }),
        );
      }
      const entries = [...this.tracked];
      const now = Date.now();
      const hold = capturesToHold(entries, { newcomerWaiting, now });
      for (const e of hold) if (!e.held && this.stuck(e, now)) e.restart();
      const turned = entries.filter((e) =>
        e.held ? !hold.has(e) : hold.has(e) && this.holdable(e),
      );
      for (const e of turned) {
        e.held = !e.held;
        e.since = now;
        if (e.held) this.holds++;
      }
      this.turn(new Set(turned.flatMap((e) => [...e.realms])));
      if (turned.length > 0) this.onHolding(this.holding);
      // Alone again (those held just let go): the debugger comes off, asked for again if needed.
      if (!isShared)
        for (const e of entries)
          if (e.asked) {
            e.asked = false;
            this.lift(e.realms);
          }
    } finally {
      this.ticking = false;
    }
  }

  /** Captures held right now (stats). */
  get holding(): number {
    return [...this.tracked].filter((t) => t.held).length;
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

/**
 * Runs `start` once per session in `done` (a domain enabled), sharing it with
 * callers meanwhile; a failure is forgotten, so the next caller tries again.
 */
function once(
  done: WeakMap<CDPSession, Promise<unknown>>,
  session: CDPSession,
  start: () => Promise<unknown>,
): Promise<unknown> {
  let started = done.get(session);
  if (!started) {
    started = start();
    done.set(session, started);
    started.catch(() => done.delete(session));
  }
  return started;
}
