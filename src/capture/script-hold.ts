/**
 * A page's script may hold its renderer's main thread for at most TUNING.scriptHoldMs at once.
 * Past it the script is stopped (CDP `Runtime.terminateExecution`, which ends the JavaScript
 * running now and nothing after it) and the capture goes on with the page as it stands: a
 * `while (true) {}` costs its account a capture of a page whose script was cut short, not
 * everyone's CPU until the hard deadline.
 *
 * Why this and not the other levers (measured on Chromium 156, renderer CPU over 2 s):
 * - `Emulation.setCPUThrottlingRate` does not cut CPU: its throttler sleeps by spinning, so a
 *   spinning page throttled ×20 before it spun still used 1,950 ms of 2,000; sent while it
 *   spins, the command is never even answered (the main thread handles it).
 * - `Debugger.enable` sent to a spinning page closed the whole browser connection.
 * - `Runtime.terminateExecution` is answered at once (3–5 ms) by a spinning renderer, which then
 *   uses ~150 ms of CPU in the next 2 s; the page answers, loads and is captured normally
 *   (a `setContent` document stuck in its inline script completes).
 *
 * How a hold is seen: every TUNING.scriptHoldCheckMs the watch sends a command only the page's
 * main thread answers (`Page.getFrameTree`). One unanswered for TUNING.scriptHoldMs means the
 * main thread is held — unless the connection itself is slow (a giant screenshot streaming
 * through it): so the browser is asked too (`Browser.getVersion`, over the same connection), and
 * only if it answers while the page still does not is the page's script stopped.
 *
 * A hold need not be a script: Blink parsing an 11 MB `innerHTML` or laying out its text holds
 * the main thread in C++ (test/fixtures/pages/extract-huge.html: 1–2.5 s alone, up to 24 s with
 * three at once on a loaded 2-core machine). terminateExecution cannot cut that short: measured,
 * such a page's scripts ran to their end and it was captured complete. Only a page that answers
 * within STOPPED_ANSWER_MS of the stop is counted as stopped.
 *
 * The watch runs while the page loads and its controls (`js`, actions, delay) run, and stops
 * before outputs are rendered: then the main thread is busy with our own work (layout and
 * raster of a full page), which the weights of ./slots.ts account for.
 */
import type { Page } from "@cloudflare/puppeteer";
import { TUNING } from "../tuning";
import { DeadlineError, withTimeout } from "./navigate";

/** How soon a page whose script was stopped answers again (measured: 3–5 ms; slack for load). */
const STOPPED_ANSWER_MS = 1_000;

export interface ScriptHoldWatch {
  /** Stops watching (idempotent); the page's scripts run unwatched from then on. */
  stop(): void;
}

/** Watches `page`; `onStop` is told each time a held script was stopped. */
export async function watchScriptHolds(page: Page, onStop: () => void): Promise<ScriptHoldWatch> {
  const session = await page.createCDPSession();
  let watching = true;
  const watch = async () => {
    while (watching) {
      // False once the page (or its session) is gone: then there is nothing left to watch.
      const probe = session.send("Page.getFrameTree").then(
        () => true,
        () => false,
      );
      if (!(await within(probe, TUNING.scriptHoldMs)) && watching) {
        // Held, or is the connection slow? The browser answers over the same one.
        const connected = await within(page.browser().version(), TUNING.scriptHoldMs);
        if (connected && watching && !(await within(probe, 0))) {
          await session.send("Runtime.terminateExecution").catch(() => {});
          // A stopped script frees its thread at once; a thread still held is busy parsing or
          // laying out a huge document (not a script): nothing was stopped, nothing is counted.
          if (await within(probe, STOPPED_ANSWER_MS)) onStop();
        }
      }
      if (!(await probe)) return;
      await new Promise((r) => setTimeout(r, TUNING.scriptHoldCheckMs));
    }
  };
  void watch().catch(() => {});
  return {
    stop: () => {
      watching = false;
      void session.detach().catch(() => {});
    },
  };
}

/** Did `promise` settle within `ms`? (0: has it settled already?) */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return withTimeout(promise, ms).then(
    () => true,
    (err: unknown) => !(err instanceof DeadlineError),
  );
}
