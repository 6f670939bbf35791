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
 */
import { LIMITS } from "../../../schemas/limits";
import { fitToEncoder } from "../outputs/outputs";
import type { CaptureSpec } from "../capture-spec";

export function captureWeight(spec: CaptureSpec): number {
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
