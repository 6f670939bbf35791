/**
 * Fair CPU (src/capture/cpu-share.ts) on a real browser: an account's younger capture that uses
 * more than its share of CPU is held while another account has a capture in flight — its page
 * makes no progress — and goes on unharmed once its account's oldest is done.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { toCaptureSpec, type CaptureSpec } from "../../src/capture/spec";
import { SMALL_CAPTURE } from "../helpers/capture";
import { FIXTURES, fixtureLog, runId } from "../helpers/http";
import { poll } from "../helpers/jobs";

/**
 * A page that keeps its main thread busy for `ms` of wall time, in 150 ms tasks, telling the
 * fixture server `who` is still running between them, then marks itself done (the capture waits
 * for that). `debugger;` first: a holdable capture runs with the debugger on, and the page's own
 * statement must not stop it.
 */
function burner(run: string, who: string, ms: number): CaptureSpec {
  const html =
    `<title>running</title><script>debugger; const end = Date.now() + ${ms}; ` +
    `function burn() { const until = Date.now() + 150; while (Date.now() < until) {} ` +
    `if (Date.now() >= end) { document.title = "${who} done"; ` +
    `document.body.append(Object.assign(document.createElement("p"), { id: "done" })); return; } ` +
    `fetch("${FIXTURES}/boxes.html?run=${run}&tick=${who}"); setTimeout(burn, 0); } ` +
    `burn();</script>`;
  return toCaptureSpec(
    { html, ...SMALL_CAPTURE, waitForSelector: "#done", timeout: 30 },
    { watermark: null },
  );
}

const ticks = async (run: string, who: string) =>
  (await fixtureLog(run)).filter((r) => r.query.tick === who).length;

describe("fair CPU between accounts", () => {
  it("holds an account's younger heavy capture behind its oldest while another account waits", async () => {
    const host = env.BROWSER_HOST.get(env.BROWSER_HOST.idFromName(`t-cpu-${runId()}`));
    const run = runId();
    // Account b keeps a capture in flight throughout (a page answered after 8 s).
    const other = host.capture(
      toCaptureSpec(
        { url: `${FIXTURES}/slow?ms=8000&run=${run}`, ...SMALL_CAPTURE, timeout: 30 },
        { watermark: null },
      ),
      "acct-cpu-b",
    );
    // Account a: its oldest spins 7 s; its second, started once the first runs, 6 s.
    const oldest = host.capture(burner(run, "oldest", 7_000), "acct-cpu-a");
    await poll(
      () => ticks(run, "oldest"),
      (n) => n > 0,
    );
    const younger = host.capture(burner(run, "younger", 6_000), "acct-cpu-a");
    await poll(
      () => host.getStats(),
      (s) => s.cpuHeld === 1,
    );

    // Held: the younger page does not run, while the oldest does (a request it sent just before
    // the hold may still arrive: counted from a moment later).
    await new Promise((r) => setTimeout(r, 500));
    const before = { younger: await ticks(run, "younger"), oldest: await ticks(run, "oldest") };
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await host.getStats()).cpuHeld).toBe(1);
    expect(await ticks(run, "younger")).toBe(before.younger);
    expect(await ticks(run, "oldest")).toBeGreaterThan(before.oldest);

    // Let go when its oldest is done, it completes as if nothing happened.
    const outcomes = await Promise.all([oldest, younger, other]);
    const titles = outcomes.map((o) => (o.ok ? o.result.page.title : o.failure.message));
    expect(titles).toEqual(["oldest done", "younger done", "slow"]);
    const stats = await host.getStats();
    expect(stats.cpuHolds).toBe(1);
    expect(stats.cpuHeld).toBe(0);
  });
});
