/**
 * The hard deadline of one capture: no page, script or encoder holds a browser slot past it.
 *
 *   deadline = navigation timeout
 *            + one timeout per page action that waits on its own (waitForSelector, js)
 *            + delay
 *            + revealing lazy content (full pages, element captures)
 *            + settling fonts and images, and one blank retry (image and PDF outputs)
 *            + a recording's start delay, twice its length (it plays in real time while the
 *              screencast films it, and the video encoders run at the clip's rate) and
 *              RECORDING_FRAME_MS a frame (its transfer into the page, a GIF's quantisation;
 *              docs/ANIMATE.md)
 *            + a fixed grace for encoding and transfer (TUNING.captureGraceMs)
 *
 * Past it the capture's browser context is disposed (which kills its renderer, even one stuck in
 * `while (true) {}`); a context that will not close within TUNING.contextCloseMs gets its whole
 * browser recycled by the BrowserHost. The caller's answer is 408 TIMEOUT, refunded.
 */
import { TUNING } from "../../tuning";
import type { CaptureSpec } from "../capture-spec";

/**
 * What one frame of a recording may take beyond the clip's real time: its JPEG's transfer into
 * the page and, for a GIF, its palette. Frames come from the screencast while the clip plays
 * (docs/ANIMATE.md); with one screenshot a frame this was 200 ms (35–55 s for a 5 s 24 fps clip
 * on the loaded 2-core test machine).
 */
const RECORDING_FRAME_MS = 100;

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
