/**
 * "Network idle" decided from our own request accounting, with the documented meaning of
 * puppeteer's `networkidle0` / `networkidle2`: no more than 0 (or 2) requests in flight for at
 * least 500 ms. Chromium signals the same condition through lifecycle events that arrive late
 * (its idleness detector is only checked between tasks and by a 2 s watchdog: about 1 s after
 * `load` for a URL, 2 s after `setContent`) and sometimes never, under load, for `setContent`
 * documents. Here the wait ends the moment the definition holds.
 *
 * Rules (docs/CAPTURE.md, "Waiting"):
 * - The quiet window starts no earlier than `arm()`, the start of the navigation; idleness is only
 *   asked for after the `load` event (src/capture/page/navigate.ts), so everything the document
 *   needed to load is in. Quiet time before `load` counts: the definition is about connections,
 *   not about when they were observed.
 * - Long-lived connections (WebSocket, EventSource, media streams) never count, as in Chromium:
 *   they stay open by design.
 * - Only http(s) requests count: a `data:` or `blob:` URL holds no connection. Chromium reports
 *   their start but not always their end: a worker's blob: script whose target the guard holds
 *   or closes stayed "in flight" for good, and a page with three such workers never reached
 *   networkidle2 and waited out its whole timeout.
 * - Each request counts once, however many end events it gets (a redirect hop, a failure).
 * - A main-frame navigation after `load` (a script redirect, a meta refresh) holds idleness off
 *   until its own document has loaded, as puppeteer's lifecycle wait follows a new document —
 *   from the moment the page asks for it, before its request shows.
 *
 * Pure logic over an injected clock: no browser, so unit tests drive it with a fake clock.
 */

/** The documented quiet period of networkidle0/2. */
export const NETWORK_QUIET_MS = 500;

/**
 * How long after `load` "idle" waits at least, when the quiet window has already passed by then:
 * a margin for requests the page's load handlers start. Seen in CI while puppeteer's request
 * interception reported a request only once Fetch had paused it (after the browser-wide guard's
 * pause): a page that starts three endless fetches on load was judged idle before they were
 * reported. Requests now reach us from the renderer's own report, as the `load` event does.
 */
export const LOAD_SETTLE_MS = 100;

/**
 * How long a main-frame navigation the page asked for may take to become a request; past that it
 * counts as dropped (one cancelled before any request, say) and idleness no longer waits for it.
 */
export const NAVIGATION_REQUEST_MS = 2_000;

/** Resource types that hold a connection open by design and never make a page "busy". */
const LONG_LIVED: ReadonlySet<string> = new Set(["websocket", "eventsource", "media"]);

export type IdleThreshold = 0 | 2;

/** What identifies one request: CDP's request id where known, else the browser's request object. */
export type RequestKey = string | object;

export interface IdleClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: IdleClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

interface Waiter {
  max: IdleThreshold;
  resolve: () => void;
  reject: (err: Error) => void;
  /** The pending re-check when the quiet window will have elapsed, if one is scheduled. */
  check: unknown;
  deadline: unknown;
}

export class NetworkIdle {
  /** Each request in flight with its start's sequence number (`mark`). */
  private readonly inFlight = new Map<RequestKey, number>();
  private seq = 0;
  /** Waiters of `whenSettled`: re-checked on every change. */
  private readonly settleWaiters = new Set<() => void>();
  private armedAt: number | null = null;
  /** A main-frame navigation whose document has not loaded yet. */
  private navigating: object | null = null;
  /** Since when at most `max` requests have been in flight (null: more are, right now). */
  private readonly quietSince: Record<IdleThreshold, number | null>;
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly clock: IdleClock = systemClock) {
    const now = clock.now();
    this.quietSince = { 0: now, 2: now };
  }

  /** Requests counted right now (long-lived connections excluded). */
  get pending(): number {
    return this.inFlight.size;
  }

  /**
   * A request for `url` started. `key` identifies it for `end`; a key already in flight counts
   * once. Without `url` (tests) the request is taken to be http(s).
   */
  start(key: RequestKey, resourceType: string, url?: string): void {
    if (LONG_LIVED.has(resourceType) || this.inFlight.has(key)) return;
    if (url !== undefined && !/^https?:/i.test(url)) return;
    this.inFlight.set(key, ++this.seq);
    this.changed();
  }

  /** The request `key` is in flight. */
  inFlightNow(key: RequestKey): boolean {
    return this.inFlight.has(key);
  }

  /** Where the requests started so far end: `pendingSince(mark())` counts only later ones. */
  mark(): number {
    return this.seq;
  }

  /** Requests started after `mark` and still in flight (long-lived connections excluded). */
  pendingSince(mark: number): number {
    let n = 0;
    for (const seq of this.inFlight.values()) if (seq > mark) n++;
    return n;
  }

  /**
   * Resolves true as soon as every request started after `mark` has ended, false after
   * `timeoutMs` if some have not: the requests an action (a scroll) started, waited for without
   * a quiet window and without waiting for the ones that were open before it.
   */
  whenSettled(mark: number, timeoutMs: number): Promise<boolean> {
    if (this.pendingSince(mark) === 0) return Promise.resolve(true);
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const check = () => {
        if (this.pendingSince(mark) > 0) return;
        finish(true);
      };
      const timer = this.clock.setTimeout(() => finish(false), timeoutMs);
      const finish = (settled: boolean) => {
        this.settleWaiters.delete(check);
        this.clock.clearTimeout(timer);
        resolve(settled);
      };
      this.settleWaiters.add(check);
    });
  }

  /** A request finished or failed; unknown or already ended requests are ignored. */
  end(key: RequestKey): void {
    if (this.inFlight.delete(key)) this.changed();
  }

  /** The navigation starts: the quiet window may start from now on. Later calls are no-ops. */
  arm(): void {
    if (this.armedAt !== null) return;
    this.armedAt = this.clock.now();
    this.changed();
  }

  /**
   * The page asked the browser for a main-frame navigation (`key`: that ask), whose request may
   * be slow to show: not idle until its request starts (`navigationStarted` takes over) or, if
   * none does within NAVIGATION_REQUEST_MS, as if it had never been asked.
   */
  navigationAsked(key: object): void {
    this.navigating = key;
    this.changed();
    this.clock.setTimeout(() => this.navigationFailed(key), NAVIGATION_REQUEST_MS);
  }

  /** A main-frame navigation request started (`key`: the request): not idle until `loaded`. */
  navigationStarted(key: object): void {
    this.navigating = key;
    this.changed();
  }

  /** That navigation failed: nothing new will load, the current document stands. */
  navigationFailed(key: object): void {
    if (this.navigating !== key) return;
    this.navigating = null;
    this.changed();
  }

  /** The main frame's document fired `load`. */
  loaded(): void {
    if (this.navigating === null) return;
    this.navigating = null;
    this.changed();
  }

  /** Armed, no request in flight and no main-frame navigation under way, right now. */
  get quietNow(): boolean {
    return this.armedAt !== null && this.inFlight.size === 0 && this.navigating === null;
  }

  /** True when at most `max` requests have been in flight for the last 500 ms (after arm). */
  idle(max: IdleThreshold): boolean {
    return this.remaining(max) === 0;
  }

  /**
   * Resolves as soon as `idle(max)` holds; rejects with a TimeoutError after `timeoutMs`
   * (at once when `timeoutMs` ≤ 0 and the page is not idle).
   */
  whenIdle(max: IdleThreshold, timeoutMs: number): Promise<void> {
    if (this.idle(max)) return Promise.resolve();
    if (timeoutMs <= 0) return Promise.reject(idleTimeout(timeoutMs));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { max, resolve, reject, check: undefined, deadline: undefined };
      waiter.deadline = this.clock.setTimeout(() => {
        this.drop(waiter);
        reject(idleTimeout(timeoutMs));
      }, timeoutMs);
      this.waiters.add(waiter);
      this.schedule(waiter);
    });
  }

  /** Milliseconds until `max` is idle if nothing changes; 0 = idle now, null = not counting. */
  private remaining(max: IdleThreshold): number | null {
    const since = this.quietSince[max];
    if (this.armedAt === null || since === null || this.navigating !== null) return null;
    const from = Math.max(since, this.armedAt);
    return Math.max(0, from + NETWORK_QUIET_MS - this.clock.now());
  }

  private changed(): void {
    const now = this.clock.now();
    for (const max of [0, 2] as const) {
      if (this.inFlight.size <= max) this.quietSince[max] ??= now;
      else this.quietSince[max] = null;
    }
    for (const waiter of this.waiters) this.schedule(waiter);
    for (const check of [...this.settleWaiters]) check();
  }

  /** Settle the waiter if idle, else (re)arm its check for when the quiet window elapses. */
  private schedule(waiter: Waiter): void {
    if (waiter.check !== undefined) this.clock.clearTimeout(waiter.check);
    waiter.check = undefined;
    const left = this.remaining(waiter.max);
    if (left === 0) {
      this.drop(waiter);
      waiter.resolve();
    } else if (left !== null) {
      waiter.check = this.clock.setTimeout(() => {
        waiter.check = undefined;
        this.schedule(waiter);
      }, left);
    }
  }

  private drop(waiter: Waiter): void {
    this.waiters.delete(waiter);
    if (waiter.check !== undefined) this.clock.clearTimeout(waiter.check);
    this.clock.clearTimeout(waiter.deadline);
  }
}

function idleTimeout(ms: number): Error {
  return Object.assign(new Error(`network idle: timeout ${Math.max(0, ms)} ms exceeded`), {
    name: "TimeoutError",
  });
}
