/**
 * The hard deadline of one capture: no page, script or encoder holds a browser slot past it.
 *
 *   deadline = navigation timeout
 *            + one timeout per page action that waits on its own (waitForSelector, js)
 *            + delay
 *            + revealing lazy content (full pages, element captures)
 *            + settling fonts and images, and one blank retry (image and PDF outputs)
 *            + a recording's start delay, twice its length (a still is filmed in real time, and the
 *              video encoders run at the clip's rate) and RECORDING_FRAME_MS a frame (one
 *              screenshot and its transfer; docs/ANIMATE.md)
 *            + a fixed grace for encoding and transfer (TUNING.captureGraceMs)
 *
 * Past it the capture's browser context is disposed (which kills its renderer, even one stuck in
 * `while (true) {}`); a context that will not close within TUNING.contextCloseMs gets its whole
 * browser recycled by the BrowserHost. The caller's answer is 408 TIMEOUT, refunded.
 */
import { TUNING } from "../../tuning";
import type { CaptureSpec } from "../capture-spec";

/**
 * What one frame of a recording may take: a 1280 × 800 JPEG screenshot and its round trips. A 5 s
 * 24 fps clip took 35–55 s on the loaded 2-core test machine (load average 11–25), ~300–450 ms a
 * frame with the encode; 4 × the clip's length left it ~5 s short of its deadline.
 */
const RECORDING_FRAME_MS = 200;

export function captureDeadlineMs(spec: CaptureSpec): number {
  // waitForSelector, js and the `actions` list each have their own timeout after navigation.
  const actions = [spec.waitForSelector, spec.js, spec.actions?.length].filter((a) => a).length;
  const animation = spec.outputs.animation;
  return (
    (animation
      ? animation.startDelayMs +
        2 * animation.durationMs +
        Math.round((animation.durationMs / 1000) * animation.fps) * RECORDING_FRAME_MS
      : 0) +
    spec.timeoutMs * (1 + actions) +
    spec.delayMs +
    (spec.fullPage || spec.selector ? TUNING.lazySettleMs : 0) +
    (spec.outputs.formats.length > 0 ? TUNING.settleMs + TUNING.blankRetryMs : 0) +
    TUNING.captureGraceMs
  );
}
