/**
 * The hard deadline of one capture: no page, script or encoder holds a browser slot past it.
 *
 *   deadline = navigation timeout
 *            + one timeout per page action that waits on its own (waitForSelector, js)
 *            + delay
 *            + revealing lazy content (full pages, element captures)
 *            + settling fonts and images, and one blank retry (image and PDF outputs)
 *            + a fixed grace for encoding and transfer (TUNING.captureGraceMs)
 *
 * Past it the capture's browser context is disposed (which kills its renderer, even one stuck in
 * `while (true) {}`); a context that will not close within TUNING.contextCloseMs gets its whole
 * browser recycled by the BrowserHost. The caller's answer is 408 TIMEOUT, refunded.
 */
import { TUNING } from "../../tuning";
import type { CaptureSpec } from "../capture-spec";

export function captureDeadlineMs(spec: CaptureSpec): number {
  // waitForSelector, js and the `actions` list each have their own timeout after navigation.
  const actions = [spec.waitForSelector, spec.js, spec.actions?.length].filter((a) => a).length;
  return (
    spec.timeoutMs * (1 + actions) +
    spec.delayMs +
    (spec.fullPage || spec.selector ? TUNING.lazySettleMs : 0) +
    (spec.outputs.formats.length > 0 ? TUNING.settleMs + TUNING.blankRetryMs : 0) +
    TUNING.captureGraceMs
  );
}
