/**
 * Fair CPU, not only fair slots: one account's spinning or giant captures slow that account, not
 * the others. Each test measures a third account's small capture alone on the same warm browser
 * (its baseline), then again while the load runs, and allows the loaded one TUNING-independent
 * slack: FAIR_SLACK_MS over the baseline. Without the fair-CPU mechanisms both fail by far (the
 * small capture waited 15 s for a slot behind the spinners, and 30 s behind the giants).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { BrowserHost, CaptureOutcome } from "../../src/capture/browser-host";
import { toCaptureSpec, type CaptureSpec } from "../../src/capture/spec";
import { smallSpec } from "../helpers/capture";
import { runId } from "../helpers/http";
import { poll } from "../helpers/jobs";

/** How much slower than alone the small capture may be under the others' load. */
const FAIR_SLACK_MS = 4_000;

const host = (name: string): DurableObjectStub<BrowserHost> =>
  env.BROWSER_HOST.get(env.BROWSER_HOST.idFromName(name));

/** A page that never yields: `while (true) {}` in an inline script, with the shortest timeout. */
const spin = (): CaptureSpec =>
  toCaptureSpec(
    {
      html: "<p>spinning</p><script>while (true) {}</script>",
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
      timeout: 5,
    },
    { watermark: null },
  );

/**
 * A giant full page: 3840 CSS px wide at scale 3, 40,000 px tall, as WebP. The encoder limits
 * cut it at 16,383 device px: an 11,520 × 16,383 bitmap (189 M px) to raster and encode.
 */
const giant = (): CaptureSpec =>
  toCaptureSpec(
    {
      html:
        "<body style='margin:0'><div style='height:40000px;background:" +
        "repeating-linear-gradient(45deg,#c00 0 40px,#fff 40px 80px,#00c 80px 120px)'></div></body>",
      width: 3840,
      height: 2160,
      deviceScaleFactor: 3,
      fullPage: true,
      format: "webp",
      timeout: 30,
    },
    { watermark: null },
  );

async function timed(
  stub: DurableObjectStub<BrowserHost>,
  spec: CaptureSpec,
  account: string,
): Promise<{ outcome: CaptureOutcome; ms: number }> {
  const started = Date.now();
  const outcome = await stub.capture(spec, account);
  return { outcome, ms: Date.now() - started };
}

/** The small capture's time alone on `stub`'s warm browser: the slowest of three. */
async function baseline(stub: DurableObjectStub<BrowserHost>, account: string): Promise<number> {
  expect((await stub.capture(smallSpec(), account)).ok).toBe(true); // launches the browser
  let slowest = 0;
  for (let i = 0; i < 3; i++) {
    const { outcome, ms } = await timed(stub, smallSpec(), account);
    expect(outcome.ok).toBe(true);
    slowest = Math.max(slowest, ms);
  }
  return slowest;
}

describe("fair CPU between accounts", () => {
  it("6 spinning captures of two accounts do not hold a third account's small capture", async () => {
    const stub = host(`t-fair-spin-${runId()}`);
    const alone = await baseline(stub, "acct-polite");
    const spinning = [
      ...Array.from({ length: 4 }, () => timed(stub, spin(), "acct-spin-a")),
      ...Array.from({ length: 2 }, () => timed(stub, spin(), "acct-spin-b")),
    ];
    // Every slot the spinners may take is taken, and their pages are spinning.
    await poll(
      () => stub.getStats(),
      (s) => s.inFlight >= 5,
    );
    await new Promise((r) => setTimeout(r, 500));
    const loaded = await timed(stub, smallSpec(), "acct-polite");
    console.log(`spinners: small capture alone ${alone} ms, under load ${loaded.ms} ms`);
    expect(loaded.outcome.ok).toBe(true);
    expect(loaded.ms).toBeLessThan(alone + FAIR_SLACK_MS);
    await Promise.all(spinning);
  });

  it("4 giant full pages of one account do not hold another account's small capture", async () => {
    const stub = host(`t-fair-giant-${runId()}`);
    const alone = await baseline(stub, "acct-polite");
    const giants = Array.from({ length: 4 }, () => timed(stub, giant(), "acct-giant"));
    // In flight or waiting for their account's budget: all four asked.
    await poll(
      () => stub.getStats(),
      (s) => s.inFlight + s.waiting >= 4,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    const loaded = await timed(stub, smallSpec(), "acct-polite");
    console.log(`giants: small capture alone ${alone} ms, under load ${loaded.ms} ms`);
    expect(loaded.outcome.ok).toBe(true);
    expect(loaded.ms).toBeLessThan(alone + FAIR_SLACK_MS);
    const done = await Promise.all(giants);
    console.log(`giants took ${done.map((d) => d.ms).join(", ")} ms`);
  }, 180_000);
});
