/**
 * The heavy lane: a capture that may render more than TUNING.heavyCapturePixels device pixels (a
 * full page counts at its maximum height) runs on a `heavy-<n>` BrowserHost, never beside
 * ordinary captures on a `host-<n>` one, so its raster does not hold their browser's GPU process.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { BrowserHost } from "../../src/capture/host/browser-host";
import { browserEngine } from "../../src/pipeline/engine";
import { toCaptureSpec } from "../../src/capture-request/spec";
import { captureWeight } from "../../src/capture/page/weight";
import { TUNING } from "../../src/tuning";
import { smallSpec } from "../helpers/capture";
import { FIXTURES, runId } from "../helpers/http";
import { decodeImage } from "../helpers/images";

const stub = (name: string): DurableObjectStub<BrowserHost> =>
  env.BROWSER_HOST.get(env.BROWSER_HOST.idFromName(name));
/** The test config has BROWSER_HOSTS = 1 and the default HEAVY_BROWSER_HOSTS = 1. */
const heavy = () => stub("heavy-0");
const ordinary = () => stub("host-0");

/** A 3840-wide full page at scale 3: a short page, but weighed at its maximum height until measured. */
const fullPage = () =>
  toCaptureSpec(
    {
      url: `${FIXTURES}/boxes.html?run=${runId()}`,
      width: 3840,
      height: 800,
      deviceScaleFactor: 3,
      fullPage: true,
      blockAds: false,
    },
    { watermark: null },
  );

describe("the heavy lane", () => {
  it("a giant full page is captured by the heavy host; an ordinary capture is not", async () => {
    const spec = fullPage();
    expect(captureWeight(spec)).toBeGreaterThan(TUNING.heavyCapturePixels);
    expect(captureWeight(smallSpec())).toBeLessThanOrEqual(TUNING.heavyCapturePixels);
    const engine = browserEngine(env);

    const before = (await heavy().getStats()).captures;
    const outcome = await engine.capture(spec, "acct-heavy");
    expect(outcome.ok).toBe(true);
    if (outcome.ok) {
      const [shot] = outcome.result.outputs;
      expect(shot?.ok && decodeImage(shot.output.bytes).pixel(20, 20)).toEqual([255, 0, 0]);
    }
    expect((await heavy().getStats()).captures).toBe(before + 1);

    const ordinaryBefore = (await ordinary().getStats()).captures;
    expect((await engine.capture(smallSpec(), "acct-heavy")).ok).toBe(true);
    expect((await heavy().getStats()).captures).toBe(before + 1);
    expect((await ordinary().getStats()).captures).toBeGreaterThan(ordinaryBefore);
  });
});
