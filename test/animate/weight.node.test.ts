/**
 * A recording's weight for the fair slots (src/capture/page/weight.ts): every frame of its clip,
 * so a long clip counts as the many captures it renders, and a long full-HD one goes heavy.
 */
import { describe, expect, it } from "vitest";
import { toCaptureSpec } from "../../src/capture-request/spec";
import type { AnimationPlan, CaptureSpec } from "../../src/capture/capture-spec";
import { captureWeight } from "../../src/capture/page/weight";
import { TUNING } from "../../src/tuning";

const viewport = (width: number, height: number): CaptureSpec =>
  toCaptureSpec(
    { url: "https://example.com/", width, height, deviceScaleFactor: 1 },
    { watermark: null },
  );

function recording(width: number, height: number, seconds: number, fps: number): CaptureSpec {
  const spec = viewport(width, height);
  const animation: AnimationPlan = {
    format: "webm",
    scenario: "scroll",
    durationMs: seconds * 1000,
    fps,
    scrollSpeed: null,
    scrollDurationMs: null,
    scrollTillSelector: null,
    scrollBack: false,
    startDelayMs: 0,
  };
  return { ...spec, outputs: { ...spec.outputs, formats: [], animation } };
}

describe("a recording's weight", () => {
  it("is its frame's device pixels times its frames", () => {
    expect(captureWeight(viewport(1280, 800))).toBe(1280 * 800);
    expect(captureWeight(recording(1280, 800, 5, 24))).toBe(1280 * 800 * 120);
    expect(captureWeight(recording(1280, 800, 30, 24))).toBe(6 * 1280 * 800 * 120);
  });

  it("a 5 s 1280 × 800 clip stays in the ordinary lane, two to an account; a 30 s one goes heavy", () => {
    const short = captureWeight(recording(1280, 800, 5, 24));
    expect(short).toBeLessThanOrEqual(TUNING.heavyCapturePixels);
    expect(Math.floor(TUNING.browserPixelsPerAccount / short)).toBe(2);
    expect(captureWeight(recording(1280, 800, 30, 24))).toBeGreaterThan(TUNING.heavyCapturePixels);
  });
});
