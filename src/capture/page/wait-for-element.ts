/**
 * Waiting for a customer's selector (`waitForSelector`, and the action of that name).
 *
 * Puppeteer's waiter — a MutationObserver it installs in the page — answers as soon as the
 * element appears. It is backed up by a check from here every TUNING.selectorRecheckMs, because
 * the in-page waiter can miss the change: on Chromium 156 (8078.108), a page paused and resumed by
 * the fair-CPU hold (../host/cpu-share.ts) while Puppeteer was installing it went on to add the element,
 * a plain query found it, and the waiter waited out its whole timeout (about one run in two of
 * test/capture/cpu-share.timed.test.ts). The check costs one round trip per interval, only while
 * the element is missing.
 */
import type { Page } from "@cloudflare/puppeteer";
import { TUNING } from "../../tuning";

/** True once `selector` matches an element of the page's main frame; false after `timeoutMs`. */
export async function waitForElement(
  page: Page,
  selector: string,
  timeoutMs: number,
): Promise<boolean> {
  const stop = new AbortController();
  const inPage = page.waitForSelector(selector, { timeout: timeoutMs, signal: stop.signal }).then(
    (handle) => {
      void handle?.dispose();
      return handle !== null;
    },
    () => false,
  );
  void inPage.then(() => stop.abort());
  const end = Date.now() + timeoutMs;
  const fromHere = async (): Promise<boolean> => {
    while (!stop.signal.aborted && Date.now() < end) {
      await new Promise((r) => setTimeout(r, Math.min(TUNING.selectorRecheckMs, end - Date.now())));
      if (stop.signal.aborted) break;
      const found = await page.$(selector).catch(() => null);
      if (found) {
        void found.dispose();
        return true;
      }
    }
    return inPage; // stopped by the in-page waiter's answer, or out of time: that answer
  };
  try {
    return await Promise.race([inPage, fromHere()]);
  } finally {
    stop.abort();
  }
}
