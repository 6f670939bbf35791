/**
 * The bench's CDP counter (bench/lib/cdp-counter.mjs): which commands a capture's own sequential
 * round trips are made of, from the messages the CDP proxy reads on the wire.
 */
import { describe, expect, it } from "vitest";
import {
  cdpCounter,
  roundTrips,
  type CdpCounter,
  type Pending,
} from "../../bench/lib/cdp-counter.mjs";
import { classify } from "../../bench/lib/ws-frames.mjs";

const T0 = 1_000_000;

/** A counter on a clock the test moves, and the wire between a client and a browser. */
function wire() {
  let now = T0;
  const counter = cdpCounter(() => now);
  const pending: Pending = new Map();
  let nextId = 1;
  const bytes = (msg: object) => Buffer.from(JSON.stringify(msg));
  return {
    counter,
    at(ms: number) {
      now = T0 + ms;
    },
    /** A command sent now; returns its id (per session, as puppeteer numbers them). */
    send(method: string, sessionId?: string, params: object = {}): number {
      const id = nextId++;
      const m = classify(bytes({ id, method, params, ...(sessionId ? { sessionId } : {}) }), true);
      if (m.kind !== "command") throw new Error("not a command");
      counter.command(pending, m);
      return id;
    },
    /** The answer to command `id` delivered now. */
    answer(id: number, sessionId?: string, result: object = {}) {
      const m = classify(bytes({ id, result, ...(sessionId ? { sessionId } : {}) }), false);
      if (m.kind !== "response") throw new Error("not a response");
      counter.response(pending, m.id, bytes({ id, result }));
    },
    /** A command sent at `from` and answered at `to` (ms after T0). */
    call(from: number, to: number, method: string, sessionId?: string, params?: object) {
      this.at(from);
      const id = this.send(method, sessionId, params);
      this.at(to);
      this.answer(id, sessionId);
    },
    attached(sessionId: string, targetId: string, browserContextId: string) {
      const m = classify(
        bytes({
          method: "Target.attachedToTarget",
          params: { sessionId, targetInfo: { targetId, type: "page", browserContextId } },
        }),
        false,
      );
      if (m.kind !== "event") throw new Error("not an event");
      counter.event(pending, m);
    },
  };
}

const own = (counter: CdpCounter, from: number, to: number) =>
  counter.ownRoundTrips([[T0 + from, T0 + to]])[0];

describe("sequential round trips", () => {
  it("commands in flight together share one; back-to-back ones are one each", () => {
    expect(
      roundTrips([
        { sent: 0, answered: 10 },
        { sent: 5, answered: 20 },
        { sent: 25, answered: 30 },
        { sent: 30, answered: 31 },
      ]),
    ).toBe(2);
    expect(roundTrips([])).toBe(0);
  });
});

describe("a capture's own round trips", () => {
  it("count its own page's commands and the browser's, not the spare's nor the meter's", () => {
    const w = wire();
    w.attached("PAGE", "T1", "CAPTURE");
    // The next spare page: its context is named by the create command's result.
    w.at(1);
    const create = w.send("Target.createBrowserContext");
    w.at(3);
    w.answer(create, undefined, { browserContextId: "SPARE" });
    w.call(4, 6, "Target.createTarget", undefined, { browserContextId: "SPARE" });
    w.attached("SPARE-PAGE", "T2", "SPARE");
    w.call(7, 9, "Page.enable", "SPARE-PAGE");
    // The capture: navigate, with two paused requests answered inside the navigation.
    w.call(10, 100, "Page.navigate", "PAGE");
    w.call(40, 45, "Fetch.continueRequest", "PAGE");
    w.call(60, 62, "Fetch.continueResponse");
    w.call(101, 104, "Performance.getMetrics", "PAGE");
    w.call(120, 150, "Page.captureScreenshot", "PAGE");
    w.call(151, 159, "Page.setWebLifecycleState", "SPARE-PAGE");
    w.call(160, 170, "Target.disposeBrowserContext", undefined, { browserContextId: "CAPTURE" });
    // navigate, screenshot, dispose; and the two answers to pauses, on top.
    expect(own(w.counter, 0, 200)).toBe(5);
    expect(own(w.counter, 200, 300)).toBe(0);
  });

  it("leave out target-start commands and answers slower than 2 s", () => {
    const w = wire();
    w.attached("PAGE", "T1", "CAPTURE");
    w.call(0, 1500, "Runtime.runIfWaitingForDebugger", "PAGE");
    w.call(10, 20, "Page.navigate", "PAGE");
    w.call(30, 2600, "Runtime.evaluate", "PAGE");
    w.call(2700, 2750, "Page.captureScreenshot", "PAGE");
    expect(own(w.counter, 0, 3000)).toBe(2);
    expect(w.counter.counts().slow).toBe(1);
  });

  it("a window with no capture of its own counts the browser's commands alone", () => {
    const w = wire();
    w.attached("SPARE-PAGE", "T2", "SPARE");
    w.call(0, 5, "Page.enable", "SPARE-PAGE");
    w.call(6, 8, "Target.getTargets");
    expect(own(w.counter, 0, 10)).toBe(1);
  });
});
