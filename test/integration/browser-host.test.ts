/** The BrowserHost pool: warm reuse, crash recovery, reconnect after eviction, idle close. */
import type { Browser } from "@cloudflare/puppeteer";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { BrowserHost } from "../../src/capture/browser-host";
import type { CaptureSpec } from "../../src/capture/spec";
import { toCaptureSpec } from "../../src/capture/spec";
import { FIXTURES, runId } from "../helpers/http";
import { decodeImage } from "../helpers/images";

function hostStub(name: string): DurableObjectStub<BrowserHost> {
  return env.BROWSER_HOST.get(env.BROWSER_HOST.idFromName(name));
}

function spec(): CaptureSpec {
  return toCaptureSpec(
    {
      url: `${FIXTURES}/boxes.html?run=${runId()}`,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
      waitUntil: "load",
      blockAds: false,
    },
    { watermark: null },
  );
}

async function captureOk(host: DurableObjectStub<BrowserHost>): Promise<void> {
  const outcome = await host.capture(spec(), "acct-host-test");
  if (!outcome.ok) throw new Error(outcome.failure.message);
  const [shot] = outcome.result.outputs;
  if (!shot?.ok) throw new Error(shot?.failure.message ?? "no output");
  expect(decodeImage(shot.output.bytes).pixel(10, 10)).toEqual([255, 0, 0]);
}

describe("BrowserHost", () => {
  it("launches once and reuses the warm browser for every later capture", async () => {
    const host = hostStub(`t-warm-${runId()}`);
    await captureOk(host);
    for (let i = 0; i < 5; i++) await captureOk(host);
    await Promise.all(Array.from({ length: 6 }, () => captureOk(host)));
    const stats = await host.getStats();
    expect(stats.launches).toBe(1);
    expect(stats.captures).toBe(12);
    expect(stats.inFlight).toBe(0);
    expect(stats.connected).toBe(true);
  });

  it("relaunches after the browser dies and the next capture succeeds", async () => {
    const host = hostStub(`t-crash-${runId()}`);
    await captureOk(host);
    // Kill the browser's connection as a crash would.
    await runInDurableObject(host, async (instance: BrowserHost) => {
      await (instance as unknown as { warm: { browser: Browser } | null }).warm?.browser
        .close()
        .catch(() => {});
    });
    await captureOk(host);
    expect((await host.getStats()).launches).toBe(2);
  });

  it("a fresh instance (after a reset) reconnects to the kept session instead of launching", async () => {
    const name = `t-reset-${runId()}`;
    await captureOk(hostStub(name));
    // Reset the object as an eviction would; its browser session lives on in the binding.
    await runInDurableObject(hostStub(name), (_instance, state) => state.abort("test reset")).catch(
      () => {},
    );
    const host = hostStub(name);
    await captureOk(host);
    const stats = await host.getStats();
    expect(stats.reconnects).toBe(1);
    expect(stats.launches).toBe(0);
  });

  it("the alarm closes a browser that has been idle too long", async () => {
    const host = hostStub(`t-idle-${runId()}`);
    await captureOk(host);
    await runInDurableObject(host, (instance: BrowserHost) => {
      (instance as unknown as { lastUsed: number }).lastUsed = 0;
    });
    expect(await runDurableObjectAlarm(host)).toBe(true);
    expect((await host.getStats()).connected).toBe(false);
    await captureOk(host); // and it comes back on demand, on a new session
    expect((await host.getStats()).launches).toBe(2);
  });
});
