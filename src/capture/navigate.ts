/**
 * Loading the page and deciding when it is ready: the requested wait strategy, and on timeout
 * the best-attempt ladder networkidle0 → networkidle2 → load → domcontentloaded.
 * quality: full (the requested strategy succeeded), degraded (a less strict one holds),
 * best_attempt (none holds, captured anyway).
 */
import type { Page } from "@cloudflare/puppeteer";
import { CaptureError, failures } from "./failures";
import type { NetworkTracker } from "./page";
import type { CaptureSpec, WaitUntil } from "./spec";

export type CaptureQuality = "full" | "degraded" | "best_attempt";

export interface NavigationOutcome {
  quality: CaptureQuality;
  /** The strategy that held; "none" when nothing did (best_attempt). */
  waitStrategy: WaitUntil | "none";
}

const LADDER: readonly WaitUntil[] = ["networkidle0", "networkidle2", "load", "domcontentloaded"];

export async function navigate(
  page: Page,
  spec: CaptureSpec,
  tracker: NetworkTracker,
): Promise<NavigationOutcome> {
  const options = { waitUntil: spec.waitUntil, timeout: spec.timeoutMs };
  try {
    if (spec.source.kind === "url") await page.goto(spec.source.url, options);
    else await page.setContent(spec.source.html, options);
    if (tracker.mainBlocked)
      throw new CaptureError(tracker.mainUnsafe ? failures.unsafe() : failures.unreachable());
    return { quality: "full", waitStrategy: spec.waitUntil };
  } catch (err) {
    if (tracker.mainBlocked)
      throw new CaptureError(tracker.mainUnsafe ? failures.unsafe() : failures.unreachable());
    if (!isTimeout(err)) throw err;
    // The main document never arrived: there is nothing to capture.
    const committed = spec.source.kind === "html" || tracker.mainResponded;
    if (!spec.bestAttempt || !committed) throw new CaptureError(failures.timeout());
    return fallback(page, spec.waitUntil, tracker);
  }
}

async function fallback(
  page: Page,
  requested: WaitUntil,
  tracker: NetworkTracker,
): Promise<NavigationOutcome> {
  const readyState = await withTimeout(
    page.evaluate("document.readyState") as Promise<string>,
    2000,
  ).catch(() => "loading");
  const holds: Record<WaitUntil, boolean> = {
    networkidle0: tracker.idle(0),
    networkidle2: tracker.idle(2),
    load: readyState === "complete",
    domcontentloaded: readyState === "interactive" || readyState === "complete",
  };
  for (const strategy of LADDER.slice(LADDER.indexOf(requested) + 1)) {
    if (holds[strategy]) return { quality: "degraded", waitStrategy: strategy };
  }
  return { quality: "best_attempt", waitStrategy: "none" };
}

function isTimeout(err: unknown): boolean {
  return (
    err instanceof Error && (err.name === "TimeoutError" || /timeout .*exceeded/i.test(err.message))
  );
}

/** What `withTimeout` rejects with: ours, told apart from errors of the awaited work. */
export class DeadlineError extends Error {
  override readonly name = "TimeoutError";
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
