/**
 * `actions`: the customer's steps (click, hover, type, press, scroll, wait, waitForSelector),
 * run in order on the loaded page, all within one deadline. Every request a step causes —
 * a navigation included — goes through the page's one interception handler (page.ts), so the
 * URL guard sees it like any other; a refused main-frame navigation taints the capture.
 */
import type { ElementHandle, HTTPRequest, KeyInput, Page } from "@cloudflare/puppeteer";
import type { Action } from "../../../schemas/capture";
import { TUNING } from "../../tuning";
import { CaptureError, failures } from "../failures";
import { onMainFrameNavigationAsked } from "./page-client";
import { waitForElement } from "./wait-for-element";

/**
 * Runs `actions` in order; the whole run gives up (408) after `timeoutMs`. `assertUntainted`
 * throws when the guard refused something the page did (page-capture.ts): a navigation a step
 * started that then failed is reported as that, not as a timeout.
 */
export async function runActions(
  page: Page,
  actions: readonly Action[],
  timeoutMs: number,
  assertUntainted: () => void,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const left = () => {
    const ms = deadline - Date.now();
    if (ms <= 0) throw new CaptureError(failures.timeout());
    return ms;
  };
  for (const [index, action] of actions.entries()) {
    await runOne(page, action, `actions[${index}]`, left, assertUntainted);
  }
}

async function runOne(
  page: Page,
  action: Action,
  path: string,
  left: () => number,
  assertUntainted: () => void,
) {
  const find = async (selector: string): Promise<ElementHandle<Element>> => {
    const element = await page.$(selector);
    if (!element) throw new CaptureError(failures.elementNotFound(path, selector));
    return element;
  };
  /** The step's DOM call failing on the element (detached, not visible): not found, as the page stands. */
  const onElement = (work: Promise<void>) =>
    work.catch((err: unknown) => {
      if (err instanceof CaptureError) throw err;
      throw new CaptureError(failures.elementNotFound(path));
    });

  if ("click" in action) {
    const element = await find(action.click);
    await navigationAware(page, left, assertUntainted, () => onElement(element.click()));
  } else if ("hover" in action) {
    await onElement((await find(action.hover)).hover());
  } else if ("type" in action) {
    const element = await find(action.type.selector);
    await navigationAware(page, left, assertUntainted, () =>
      onElement(element.type(action.type.text)),
    );
  } else if ("press" in action) {
    // Validated against the driver's US layout (schemas/capture.ts isKeyName).
    const key = (action.press === "Space" ? " " : action.press) as KeyInput;
    await navigationAware(page, left, assertUntainted, () => page.keyboard.press(key));
  } else if ("scroll" in action) {
    const target = action.scroll;
    if ("y" in target) await page.evaluate(`window.scrollTo(0, ${JSON.stringify(target.y)})`);
    else await onElement((await find(target.selector)).scrollIntoView());
  } else if ("wait" in action) {
    const ms = Math.min(action.wait, left());
    await new Promise((r) => setTimeout(r, ms));
  } else {
    if (!(await waitForElement(page, action.waitForSelector, left())))
      throw new CaptureError(failures.elementNotFound(path));
  }
}

/**
 * Runs a step that may navigate the main frame (a link clicked, a form submitted with Enter).
 * When it started a main-frame navigation, waits for that document's load (within the deadline)
 * so the next step and the capture see the new page.
 */
async function navigationAware(
  page: Page,
  left: () => number,
  assertUntainted: () => void,
  step: () => Promise<void>,
) {
  let navigated = false;
  const onRequest = (request: HTTPRequest) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigated = true;
  };
  page.on("request", onRequest);
  // Asked for, it counts before its request shows (which can take longer than the window below).
  const unsubscribe = onMainFrameNavigationAsked(page, () => {
    navigated = true;
  });
  const loaded = page
    .waitForNavigation({ waitUntil: "load", timeout: left() })
    .then(() => true)
    .catch(() => false);
  try {
    await step();
    await new Promise((r) => setTimeout(r, TUNING.actionNavigationStartMs));
  } finally {
    page.off("request", onRequest);
    unsubscribe();
  }
  if (navigated && !(await loaded)) {
    assertUntainted();
    throw new CaptureError(failures.timeout());
  }
}
