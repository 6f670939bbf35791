/**
 * The network-idle rule on a fake clock: ≤ N requests in flight for ≥ 500 ms, counted from the
 * start of the navigation; long-lived connections ignored; the wait ends exactly when
 * the definition holds and times out as a TimeoutError.
 */
import { describe, expect, it } from "vitest";
import {
  NAVIGATION_REQUEST_MS,
  NETWORK_QUIET_MS,
  NetworkIdle,
  type IdleClock,
} from "../../src/capture/page/network-idle";
import { NetworkTracker } from "../../src/capture/page/page";

class FakeClock implements IdleClock {
  private t = 1_000_000;
  private next = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): number {
    const id = this.next++;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /** Moves time forward by `ms`, firing due timers in order. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
      await Promise.resolve();
    }
    this.t = end;
    await Promise.resolve();
  }
  get pendingTimers(): number {
    return this.timers.size;
  }
}

/** A promise's state without waiting for it. */
function track<T>(promise: Promise<T>) {
  const state = { settled: false, error: null as Error | null };
  promise.then(
    () => (state.settled = true),
    (err: Error) => {
      state.settled = true;
      state.error = err;
    },
  );
  return state;
}

const req = () => ({});

describe("NetworkIdle", () => {
  it("is not idle before arm() (the navigation start), however quiet the network", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    await clock.advance(5_000);
    expect(net.idle(0)).toBe(false);
    expect(net.idle(2)).toBe(false);
    net.arm();
    expect(net.idle(0)).toBe(false);
    await clock.advance(NETWORK_QUIET_MS - 1);
    expect(net.idle(0)).toBe(false);
    await clock.advance(1);
    expect(net.idle(0)).toBe(true);
    expect(net.idle(2)).toBe(true);
  });

  it("quiet now: armed, nothing in flight and no navigation under way", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    expect(net.quietNow).toBe(false); // not armed yet
    net.arm();
    expect(net.quietNow).toBe(true); // no window to wait out: it holds at once
    const r = req();
    net.start(r, "image");
    expect(net.quietNow).toBe(false);
    net.end(r);
    expect(net.quietNow).toBe(true);
    const ask = req();
    net.navigationAsked(ask);
    expect(net.quietNow).toBe(false);
    net.loaded();
    expect(net.quietNow).toBe(true);
    net.start(req(), "websocket"); // long-lived: never counts
    expect(net.quietNow).toBe(true);
  });

  it("networkidle0 needs 0 in flight for 500 ms; networkidle2 tolerates two", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    net.arm();
    const [a, b, c] = [req(), req(), req()];
    net.start(a, "image");
    net.start(b, "fetch");
    await clock.advance(600);
    expect(net.idle(2)).toBe(true);
    expect(net.idle(0)).toBe(false);
    net.start(c, "script"); // three in flight: networkidle2 restarts too
    expect(net.idle(2)).toBe(false);
    await clock.advance(300);
    net.end(c);
    await clock.advance(499);
    expect(net.idle(2)).toBe(false);
    await clock.advance(1);
    expect(net.idle(2)).toBe(true);
    net.end(a);
    net.end(b);
    await clock.advance(499);
    expect(net.idle(0)).toBe(false);
    await clock.advance(1);
    expect(net.idle(0)).toBe(true);
  });

  it("whenIdle resolves exactly when the quiet window has elapsed, not before", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    const doc = req();
    net.start(doc, "document");
    const wait = track(net.whenIdle(0, 30_000));
    await clock.advance(200);
    net.end(doc);
    net.arm();
    await clock.advance(NETWORK_QUIET_MS - 1);
    expect(wait.settled).toBe(false);
    // A late request pushes the end back: quiet again from its end.
    const late = req();
    net.start(late, "xhr");
    await clock.advance(100);
    net.end(late);
    await clock.advance(NETWORK_QUIET_MS - 1);
    expect(wait.settled).toBe(false);
    await clock.advance(1);
    expect(wait).toEqual({ settled: true, error: null });
    expect(clock.pendingTimers).toBe(0);
  });

  it("the quiet window starts at arm() at the earliest", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    const wait = track(net.whenIdle(2, 30_000));
    await clock.advance(2_000); // quiet, but the document is not in yet
    expect(wait.settled).toBe(false);
    net.arm();
    await clock.advance(NETWORK_QUIET_MS);
    expect(wait.settled).toBe(true);
  });

  it("WebSocket, EventSource and media connections never count", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    net.arm();
    for (const type of ["websocket", "eventsource", "media", "eventsource"]) net.start(req(), type);
    expect(net.pending).toBe(0);
    await clock.advance(NETWORK_QUIET_MS);
    expect(net.idle(0)).toBe(true);
  });

  it("data: and blob: URLs never count: they hold no connection", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    net.arm();
    net.start(req(), "script", "blob:http://127.0.0.1/7ae6624a");
    net.start(req(), "script", "data:text/javascript,1");
    net.start(req(), "image", "DATA:image/png;base64,AA==");
    expect(net.pending).toBe(0);
    net.start(req(), "fetch", "http://127.0.0.1/slow");
    net.start(req(), "fetch", "HTTPS://example.com/slow");
    expect(net.pending).toBe(2);
    await clock.advance(NETWORK_QUIET_MS);
    expect(net.idle(2)).toBe(true);
    expect(net.idle(0)).toBe(false);
  });

  it("a request counts once: duplicate starts and ends, and unknown ends, change nothing", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    net.arm();
    const [a, b, c] = [req(), req(), req()];
    net.start(a, "image");
    net.start(a, "image");
    net.start(b, "image");
    net.start(c, "image");
    expect(net.pending).toBe(3);
    net.end(a);
    net.end(a); // a failed after it finished: not two ends
    net.end(req());
    expect(net.pending).toBe(2);
    await clock.advance(NETWORK_QUIET_MS);
    expect(net.idle(2)).toBe(true);
    expect(net.idle(0)).toBe(false);
  });

  it("times out with a TimeoutError when the network never goes quiet, and cleans up", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    net.arm();
    const open = [req(), req(), req()];
    for (const r of open) net.start(r, "fetch");
    const promise = net.whenIdle(2, 5_000);
    const wait = track(promise);
    await clock.advance(4_999);
    expect(wait.settled).toBe(false);
    await clock.advance(1);
    expect(wait.settled).toBe(true);
    expect(wait.error?.name).toBe("TimeoutError");
    expect(clock.pendingTimers).toBe(0);
    // Activity after the timeout wakes nobody.
    net.end(open[0]!);
    await clock.advance(NETWORK_QUIET_MS);
    expect(clock.pendingTimers).toBe(0);
  });

  it("with no time left it answers at once: idle resolves, busy rejects", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    net.arm();
    await clock.advance(NETWORK_QUIET_MS);
    await expect(net.whenIdle(0, 0)).resolves.toBeUndefined();
    net.start(req(), "fetch");
    await expect(net.whenIdle(0, -5)).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("several waiters on different thresholds settle independently", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    net.arm();
    const [a, b] = [req(), req()];
    net.start(a, "image");
    net.start(b, "image");
    const two = track(net.whenIdle(2, 10_000));
    const zero = track(net.whenIdle(0, 10_000));
    await clock.advance(NETWORK_QUIET_MS);
    expect(two.settled).toBe(true);
    expect(zero.settled).toBe(false);
    net.end(a);
    net.end(b);
    await clock.advance(NETWORK_QUIET_MS);
    expect(zero).toEqual({ settled: true, error: null });
  });

  it("a main-frame navigation holds idleness off until its document has loaded", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    net.arm();
    await clock.advance(NETWORK_QUIET_MS);
    expect(net.idle(2)).toBe(true);
    const nav = req(); // a script redirect after load
    net.start(nav, "document");
    net.navigationStarted(nav);
    const wait = track(net.whenIdle(2, 30_000));
    await clock.advance(2_000);
    expect(wait.settled).toBe(false);
    net.end(nav);
    await clock.advance(1_000);
    expect(wait.settled).toBe(false); // the new document is in, but has not loaded
    net.loaded();
    await Promise.resolve();
    expect(wait).toEqual({ settled: true, error: null }); // quiet long enough already
  });

  it("a navigation that failed releases the hold; another request's failure does not", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    net.arm();
    const nav = req();
    net.navigationStarted(nav);
    await clock.advance(NETWORK_QUIET_MS);
    net.navigationFailed(req());
    expect(net.idle(0)).toBe(false);
    net.navigationFailed(nav);
    expect(net.idle(0)).toBe(true);
  });

  it("a navigation the page asked for holds idleness before its request shows, and not forever", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    net.arm();
    net.loaded();
    await clock.advance(NETWORK_QUIET_MS);
    expect(net.idle(0)).toBe(true);
    // Asked for; its request shows 1.5 s later and takes over; its document loads.
    net.navigationAsked({});
    expect(net.idle(0)).toBe(false);
    await clock.advance(1_500);
    const nav = req();
    net.navigationStarted(nav);
    await clock.advance(NAVIGATION_REQUEST_MS);
    expect(net.idle(0)).toBe(false); // the request's hold does not run out
    net.loaded();
    expect(net.idle(0)).toBe(true);
    // Asked for and never requested (cancelled): the hold ends after NAVIGATION_REQUEST_MS.
    net.navigationAsked({});
    await clock.advance(NAVIGATION_REQUEST_MS - 1);
    expect(net.idle(0)).toBe(false);
    await clock.advance(1);
    expect(net.idle(0)).toBe(true);
  });
});

/** A tracker whose navigation has started and loaded, on a fake clock. */
function loadedTracker() {
  const clock = new FakeClock();
  const tracker = new NetworkTracker(clock);
  tracker.network.arm();
  tracker.network.loaded();
  return { clock, tracker };
}

describe("NetworkTracker", () => {
  it("one request reported twice (two objects, one id) ends with either: idle0 holds", async () => {
    const { clock, tracker } = loadedTracker();
    const first = req();
    const second = req();
    tracker.onStart(first, "font", "27902.7");
    tracker.onStart(second, "font", "27902.7"); // puppeteer saw the paused request again
    expect(tracker.network.pending).toBe(1);
    tracker.onEnd(second); // and only ever ends this one
    await clock.advance(NETWORK_QUIET_MS);
    expect(tracker.idle(0)).toBe(true);
    expect(tracker.started).toBe(2);
  });

  it("without an id each object is its own request", async () => {
    const { clock, tracker } = loadedTracker();
    const a = req();
    const b = req();
    tracker.onStart(a, "image", undefined);
    tracker.onStart(b, "image", undefined);
    tracker.onEnd(a);
    await clock.advance(NETWORK_QUIET_MS);
    expect(tracker.idle(0)).toBe(false);
    tracker.onEnd(b);
    await clock.advance(NETWORK_QUIET_MS);
    expect(tracker.idle(0)).toBe(true);
  });
});

describe("whenSettled: the requests started after a mark, to their end", () => {
  it("waits for those only (not a request open before the mark), without a quiet window", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    net.start("before", "image");
    const mark = net.mark();
    net.start("lazy-1", "image");
    net.start("lazy-2", "fetch");
    net.start("socket", "websocket"); // long-lived: never waited for
    expect(net.pendingSince(mark)).toBe(2);
    let settled: boolean | null = null;
    void net.whenSettled(mark, 3_000).then((s) => (settled = s));
    net.end("lazy-1");
    await clock.advance(10);
    expect(settled).toBeNull();
    net.end("lazy-2");
    await clock.advance(0);
    expect(settled).toBe(true); // at once, though "before" is still open
    expect(net.pending).toBe(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it("answers false at its bound when one never ends; true at once when none started", async () => {
    const clock = new FakeClock();
    const net = new NetworkIdle(clock);
    expect(await net.whenSettled(net.mark(), 3_000)).toBe(true);
    const mark = net.mark();
    net.start("hang", "image");
    let settled: boolean | null = null;
    void net.whenSettled(mark, 3_000).then((s) => (settled = s));
    await clock.advance(2_999);
    expect(settled).toBeNull();
    await clock.advance(1);
    expect(settled).toBe(false);
  });
});
