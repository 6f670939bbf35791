/**
 * CpuShare (src/capture/host/cpu-share.ts) over stand-in CDP sessions: when a capture's fair-CPU
 * debugger is asked for, and what becomes of a capture whose realm cannot answer for it. The
 * same share on a real browser: cpu-share.timed.test.ts.
 */
import type { CDPSession } from "@cloudflare/puppeteer";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CpuRestart, CpuShare } from "../../src/capture/host/cpu-share";
import { TUNING } from "../../src/tuning";

/**
 * A realm's session: what it was sent, and how it answers. `heavy`: its main thread is busy all
 * the time (TaskDuration grows with the clock). `busy`: in one long task, so `Debugger.enable`,
 * which needs the main thread, is never answered.
 */
function realm({ heavy = false, busy = false } = {}) {
  const sent: string[] = [];
  const session = {
    send(method: string): Promise<unknown> {
      sent.push(method);
      if (method === "Performance.getMetrics")
        return Promise.resolve({
          metrics: [{ name: "TaskDuration", value: heavy ? Date.now() / 1000 : 0 }],
        });
      if (method === "Debugger.enable" && busy) return new Promise(() => {});
      return Promise.resolve({});
    },
    on() {},
    off() {},
  };
  return { sent, session: session as unknown as CDPSession };
}

/** What a ticket's `restarted` did so far: null, or its error. */
function watchRestart(ticket: { restarted: Promise<never> }) {
  const seen: { error: unknown } = { error: null };
  ticket.restarted.catch((err: unknown) => (seen.error = err));
  return seen;
}

/** Past the time a heavy capture needs to be found heavy, and a debugger to be waited for. */
const PAST_WAITS = TUNING.cpuHeavyMs + TUNING.cpuDebuggerWaitMs + 4 * TUNING.cpuShareTickMs;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("CpuShare: the debugger only on a shared browser", () => {
  it("an account alone gets none; another account's arrival asks it of the running captures", async () => {
    const share = new CpuShare(() => {});
    const alone = realm();
    const first = share.track(alone.session, "ctx-a", "acct-a");
    await first.ready;
    await vi.advanceTimersByTimeAsync(PAST_WAITS);
    expect(alone.sent).not.toContain("Debugger.enable");
    expect(share.asked).toBe(0);

    const other = realm();
    const second = share.track(other.session, "ctx-b", "acct-b");
    await second.ready; // its page loads with its debugger on
    expect(other.sent).toContain("Debugger.enable");
    expect(alone.sent).toContain("Debugger.enable");
    expect(share.asked).toBe(2);
    first.end();
    second.end();
  });

  it("the debugger comes off once the browser is no longer shared, and is asked for again", async () => {
    const share = new CpuShare(() => {});
    const a = realm();
    const first = share.track(a.session, "ctx-a", "acct-a");
    const b = realm();
    const second = share.track(b.session, "ctx-b", "acct-b");
    await Promise.all([first.ready, second.ready]);
    expect([a, b].map((r) => r.sent.includes("Debugger.enable"))).toEqual([true, true]);

    second.end(); // its page (kept for its lane, say) goes on without one
    await vi.advanceTimersByTimeAsync(TUNING.cpuShareTickMs);
    expect([a, b].map((r) => r.sent.includes("Debugger.disable"))).toEqual([true, true]);

    const third = share.track(realm().session, "ctx-c", "acct-c");
    await third.ready;
    expect(a.sent.filter((m) => m === "Debugger.enable")).toHaveLength(2);
    expect(share.asked).toBe(4);
    first.end();
    third.end();
  });

  it("a capture the rule would hold whose page cannot answer is restarted; one that can is held", async () => {
    const share = new CpuShare(() => {});
    const oldest = realm({ heavy: true });
    const younger = realm({ heavy: true, busy: true });
    const a1 = share.track(oldest.session, "ctx-1", "acct-a");
    const a2 = share.track(younger.session, "ctx-2", "acct-a");
    await Promise.all([a1.ready, a2.ready]);
    const [r1, r2] = [watchRestart(a1), watchRestart(a2)];
    const light = share.track(realm().session, "ctx-3", "acct-b");
    await light.ready;

    await vi.advanceTimersByTimeAsync(TUNING.cpuDebuggerWaitMs - TUNING.cpuShareTickMs);
    expect(r2.error).toBeNull(); // not before its debugger had its time to answer
    await vi.advanceTimersByTimeAsync(PAST_WAITS);
    expect(r2.error).toBeInstanceOf(CpuRestart);
    expect(r1.error).toBeNull(); // the account's oldest heavy one runs: never held
    a2.end();

    // Run again with its debugger asked for from the start, it answers and is held.
    const again = share.track(realm({ heavy: true }).session, "ctx-4", "acct-a", true);
    await again.ready;
    await vi.advanceTimersByTimeAsync(PAST_WAITS);
    expect([share.holding, share.holds]).toEqual([1, 1]);
    for (const t of [a1, again, light]) t.end();
    expect(share.holding).toBe(0);
  });

  it("a held capture stays held, never restarted, while a realm it gained has not answered", async () => {
    const share = new CpuShare(() => {});
    const a1 = share.track(realm({ heavy: true }).session, "ctx-1", "acct-a");
    const a2 = share.track(realm({ heavy: true }).session, "ctx-2", "acct-a");
    const light = share.track(realm().session, "ctx-3", "acct-b");
    await Promise.all([a1.ready, a2.ready, light.ready]);
    const r2 = watchRestart(a2);
    await vi.advanceTimersByTimeAsync(PAST_WAITS);
    expect([share.holding, share.holds]).toEqual([1, 1]);

    // A worker of the held capture's context, attached paused at its start: its debugger is
    // asked for before it may run; it does not answer (the guard keeps it paused meanwhile).
    void share.attached("ctx-2", realm({ busy: true }).session);
    await vi.advanceTimersByTimeAsync(3 * PAST_WAITS);
    expect([share.holding, share.holds]).toEqual([1, 1]); // no letting go and holding again
    expect(r2.error).toBeNull();
    for (const t of [a1, a2, light]) t.end();
  });

  it("a capture asked from the start (restarted once) is never restarted again", async () => {
    const share = new CpuShare(() => {});
    const a1 = share.track(realm({ heavy: true }).session, "ctx-1", "acct-a");
    const light = share.track(realm().session, "ctx-3", "acct-b");
    const again = share.track(realm({ heavy: true }).session, "ctx-2", "acct-a", true);
    await Promise.all([a1.ready, light.ready, again.ready]);
    const r = watchRestart(again);
    // A worker of its, attached before it was held, that never answers: it cannot be held.
    void share.attached("ctx-2", realm({ busy: true }).session);
    await vi.advanceTimersByTimeAsync(3 * PAST_WAITS);
    expect(r.error).toBeNull();
    expect(share.holding).toBe(0);
    for (const t of [a1, again, light]) t.end();
  });
});
