/**
 * Loading the page and deciding when it is ready: the requested wait strategy (network idle
 * judged by our own request accounting, src/capture/page/network-idle.ts), and on timeout
 * the best-attempt ladder networkidle0 → networkidle2 → load → domcontentloaded.
 * quality: full (the requested strategy succeeded), degraded (a less strict one holds),
 * best_attempt (none holds, captured anyway).
 */
import type { Page } from "@cloudflare/puppeteer";
import { CaptureError, failures, type CaptureFailure } from "../failures";
import { LOAD_SETTLE_MS, type IdleThreshold } from "./network-idle";
import { inPage, scriptless } from "./page-scripts";
import type { NetworkTracker } from "./page";
import type { CaptureSpec, WaitUntil } from "../capture-spec";

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
  try {
    await load(page, spec, tracker);
    if (tracker.mainBlocked) throw new CaptureError(refused(tracker));
    return { quality: "full", waitStrategy: spec.waitUntil };
  } catch (err) {
    if (tracker.mainBlocked) throw new CaptureError(refused(tracker));
    // A document Chromium does not render (a PDF, an archive) is downloaded, not loaded.
    if (isNotHtml(tracker)) throw new CaptureError(failures.notHtml(tracker.mainContentType));
    if (!isTimeout(err)) throw err;
    // The main document never arrived: there is nothing to capture.
    const committed = spec.source.kind === "html" || tracker.mainResponded;
    if (!spec.bestAttempt || !committed) throw new CaptureError(failures.timeout());
    return fallback(page, spec.waitUntil, tracker);
  }
}

/**
 * Loads the page and waits for the requested strategy. `load` and `domcontentloaded` are
 * Chromium's events; the network-idle strategies wait for `load`, then for our own idle rule
 * (src/capture/page/network-idle.ts) within what is left of the timeout.
 */
async function load(page: Page, spec: CaptureSpec, tracker: NetworkTracker): Promise<void> {
  const idle = IDLE_THRESHOLD[spec.waitUntil];
  const options = {
    waitUntil: idle === undefined ? spec.waitUntil : "load",
    timeout: spec.timeoutMs,
  };
  const started = Date.now();
  // The quiet window is counted from the start of the navigation, never from earlier page setup.
  tracker.network.arm();
  if (spec.source.kind === "url") await page.goto(spec.source.url, options);
  else await page.setContent(spec.source.html, options);
  if (idle === undefined) return;
  await new Promise((r) => setTimeout(r, LOAD_SETTLE_MS));
  if (readOnly(spec) && tracker.network.quietNow && (await isScriptless(page))) return;
  await tracker.network.whenIdle(idle, spec.timeoutMs - (Date.now() - started));
}

/**
 * A capture that only reads the page's content (Markdown, text, links, fields: no image, PDF or
 * recording) of a loaded document with no script and no request in flight is taken at once: no
 * script is left to fetch or write anything, so the quiet window could only pass. A capture
 * with an image waits it out still — a scriptless page's CSS animations (a fade-in) are part of
 * what it shows.
 */
function readOnly(spec: CaptureSpec): boolean {
  return spec.outputs.formats.length === 0 && !spec.outputs.animation;
}

async function isScriptless(page: Page): Promise<boolean> {
  return inPage<boolean>(page, scriptless).catch(() => false);
}

const IDLE_THRESHOLD: Partial<Record<WaitUntil, IdleThreshold>> = {
  networkidle0: 0,
  networkidle2: 2,
};

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

/** The guard refused the main navigation (or a redirect of it): unsafe, or unreachable. */
function refused(tracker: NetworkTracker): CaptureFailure {
  const failure = tracker.mainUnsafe ? failures.unsafe() : failures.unreachable();
  return { ...failure, cause: "blocked" };
}

/** The main document answered with a type that is not a web page. */
export function isNotHtml(tracker: NetworkTracker): boolean {
  const type = tracker.mainContentType;
  return tracker.mainResponded && type !== null && !HTML_TYPES.has(type);
}

const HTML_TYPES: ReadonlySet<string> = new Set(["text/html", "application/xhtml+xml"]);

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
