/**
 * A capture's weight for the fair slots (../host/slots.ts): the device pixels it may render. Pixels
 * are what a capture costs the browser beyond its page's own script: the raster of every tile,
 * the compositor's copy of the bitmap and the encoder all grow with them, and the compositor and the encoder are shared by every capture of
 * the browser.
 *
 * Before the page is loaded, a full page (or a `selector` element) is weighed at the most it
 * could render: its width by the full-page height limit, cut at the encoder limits of its
 * formats (outputs.ts, `fitToEncoder`). Once the page's height is known, `measuredWeight` gives
 * the real size and the slot is made lighter. A viewport capture (or a clip) weighs its area.
 *
 * A recording (docs/ANIMATE.md) weighs every frame of its clip: its frame's device pixels times
 * `duration × fps`. It holds its slot for the clip twice over (filmed, then encoded at the clip's
 * rate), and the compositor and the encoder work the whole time, so a 30 s clip must not count as
 * one viewport capture: 1280 × 800 at 24 fps weighs 123 M px for 5 s (one account runs two at a
 * time) and goes to the heavy lane past ~5.4 s, where long recordings slow only each other.
 */
import { LIMITS } from "../../../schemas/limits";
import { fitToEncoder } from "../outputs/outputs";
import type { CaptureSpec } from "../capture-spec";

export function captureWeight(spec: CaptureSpec): number {
  const animation = spec.outputs.animation;
  if (animation) {
    const { width, height, deviceScaleFactor: dsf } = spec.viewport;
    const frames = Math.max(1, Math.round((animation.durationMs / 1000) * animation.fps));
    return Math.round(width * dsf) * Math.round(height * dsf) * frames;
  }
  if (spec.clip) return area(spec, spec.clip.width, spec.clip.height);
  if (spec.fullPage || spec.selector) return measuredWeight(spec, LIMITS.fullPageMaxCssPx);
  return area(spec, spec.viewport.width, spec.viewport.height);
}

/** The weight of a full page `cssHeight` tall (at least its viewport). */
export function measuredWeight(spec: CaptureSpec, cssHeight: number): number {
  return area(spec, spec.viewport.width, Math.max(cssHeight, spec.viewport.height));
}

/** The largest bitmap among the spec's image formats for a `cssWidth` × `cssHeight` area. */
function area(spec: CaptureSpec, cssWidth: number, cssHeight: number): number {
  const dsf = spec.viewport.deviceScaleFactor;
  const height = Math.min(cssHeight, LIMITS.fullPageMaxCssPx);
  const sizes = spec.outputs.formats.map((format) => {
    const fit = fitToEncoder(format === "pdf" ? "png" : format, cssWidth, height, dsf);
    return Math.round(fit.width * dsf) * Math.round(fit.height * dsf);
  });
  return Math.max(1, ...sizes);
}
