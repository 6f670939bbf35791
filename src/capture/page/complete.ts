/**
 * Complete captures (docs/CAPTURE.md, "Complete captures"): lazy content revealed and waited for
 * before full-page and element captures, fonts and images finished and motion frozen before every
 * image or PDF, a shot that looks blank while the page still works taken again once, and the
 * report of all of it that every capture answers with. Each wait happens only when something is
 * pending, and each is bounded (TUNING.lazySettleMs, settleMs, blankRetryMs; the capture's hard
 * deadline counts them, ./deadline.ts).
 */
import type { Page } from "@cloudflare/puppeteer";
import { LIMITS } from "../../../schemas/limits";
import type { CompletenessData } from "../../../schemas/responses";
import { TUNING } from "../../tuning";
import { BLANK_RATIO, blankRatio, pngDominantShare, type Region } from "../outputs/blank";
import type { OutputOutcome } from "../outputs/outputs";
import { CONSENT_HIDE_SELECTORS } from "./consent-walls";
import type { NetworkTracker } from "./page";
import { DeadlineError, withTimeout } from "./navigate";
import { inPage, revealLazy, settlePage } from "./page-scripts";
import type { CaptureSpec } from "../capture-spec";
import type { PageRead } from "./page-read";

export type Completeness = CompletenessData;

/** What revealing lazy content did. */
export interface LazyOutcome {
  /** Where the requests it started are waited for from (`NetworkIdle.mark`). */
  mark: number;
  /** The page's requests before it: the report's `lazyTriggered` counts every one after. */
  requestsBefore: number;
  scrolledPx: number;
}

function noLazy(tracker: NetworkTracker): LazyOutcome {
  return {
    mark: tracker.network.mark(),
    requestsBefore: tracker.pageRequestCount,
    scrolledPx: 0,
  };
}

/**
 * Full pages and `selector` captures: lazy images and frames made eager, `content-visibility:
 * auto` rendered, the page scrolled when something reacts to scrolling (./page-scripts.ts,
 * `revealLazy`), then the requests that started waited for — those only, to their end, within
 * TUNING.lazySettleMs in all. Other captures: nothing.
 */
export async function revealLazyContent(
  page: Page,
  spec: CaptureSpec,
  tracker: NetworkTracker,
): Promise<LazyOutcome> {
  const outcome = noLazy(tracker);
  if (!spec.fullPage && !spec.selector) return outcome;
  const started = Date.now();
  const revealed = inPage<{ eager: number; scrolledPx: number }>(page, revealLazy, {
    selector: spec.selector,
    fullPage: spec.fullPage && !spec.selector,
    maxPx: LIMITS.fullPageMaxCssPx,
    budgetMs: TUNING.lazySettleMs,
  });
  const { scrolledPx } = await outwait(revealed, TUNING.lazySettleMs, { eager: 0, scrolledPx: 0 });
  const left = TUNING.lazySettleMs - (Date.now() - started);
  await tracker.network.whenSettled(outcome.mark, left);
  return { ...outcome, scrolledPx: Math.round(scrolledPx) };
}

export interface Settled {
  fontsLoaded: boolean;
  images: { loaded: number; total: number };
  consentRemoved: number;
  /** ms until the page's last short timer fires; 0 = none pending. */
  timersMs: number;
  /** The document has not fired `load` yet. */
  loading: boolean;
  /** Where the viewport is scrolled to, CSS px. */
  scroll: { x: number; y: number };
  /** The document's height (at least the viewport's), CSS px. */
  height: number;
}

/** What is reported of a page whose settling did not answer (`outwait`): nothing known loaded. */
const UNSETTLED: Settled = {
  fontsLoaded: false,
  images: { loaded: 0, total: 0 },
  consentRemoved: 0,
  timersMs: 0,
  loading: false,
  scroll: { x: 0, y: 0 },
  height: 0,
};

/** Slack for the page's own answer past its in-page budget (a CDP round trip on a busy machine). */
const ANSWER_SLACK_MS = 1_000;

/**
 * An in-page wait, bounded from outside too: a page the fair-CPU share holds (../host/cpu-share.ts:
 * its scripts paused) runs no timer, so its own bound never fires, until it is let go — which
 * could be past the capture's deadline. Past `budgetMs` and some slack the capture goes on with
 * `fallback`; the page's answer, if it ever comes, is dropped.
 */
function outwait<T>(work: Promise<T>, budgetMs: number, fallback: T): Promise<T> {
  return withTimeout(work, budgetMs + ANSWER_SLACK_MS).catch((err: unknown) => {
    if (err instanceof DeadlineError) return fallback;
    throw err;
  });
}

/**
 * The outputs of a page with image or PDF outputs, taken complete: fonts, images and motion
 * settled first (`settlePage`: one evaluation, no wait when nothing is pending), then the outputs
 * (`render`), then the shot's blank ratio read from the first image output's own pixels (a PNG:
 * no second screenshot; JPEG and WebP: a thumbnail, ../outputs/blank.ts). A shot that looks
 * blank while the page still has work pending (a timer, a request, a font, its load) is taken
 * again once, after a wait; one that looks blank with nothing pending is blank by design: no
 * wait. `waited` = the load met its wait strategy (else its timeout is spent: fonts and images
 * are not waited for, and a blank shot is not taken again).
 */
export async function shootComplete(
  page: Page,
  spec: CaptureSpec,
  tracker: NetworkTracker,
  lazy: LazyOutcome,
  waited: boolean,
  render: (again: boolean) => Promise<OutputOutcome[]>,
): Promise<{ outputs: OutputOutcome[]; completeness: Completeness }> {
  const settle = (budgetMs: number) =>
    outwait(
      inPage<Settled>(page, settlePage, {
        budgetMs,
        freeze: spec.liveMotion !== true,
        selector: spec.selector,
        fullPage: spec.fullPage,
        maxPx: LIMITS.fullPageMaxCssPx,
        consent: spec.blockCookieBanners ? CONSENT_HIDE_SELECTORS : null,
      }),
      budgetMs,
      UNSETTLED,
    );
  let settled = await settle(waited ? TUNING.settleMs : 0);
  let outputs = await render(false);
  let ratio = await shotBlankRatio(page, spec, outputs, settled);
  let retried = false;
  const pending = () =>
    tracker.pendingPageRequests > 0 ||
    settled.timersMs > 0 ||
    settled.loading ||
    !settled.fontsLoaded;
  // A load that did not meet its wait strategy has spent its timeout (bestAttempt): no retry.
  if (waited && ratio !== null && ratio >= BLANK_RATIO && pending()) {
    const until = Date.now() + TUNING.blankRetryMs;
    const left = () => Math.max(0, until - Date.now());
    await new Promise((r) => setTimeout(r, Math.min(settled.timersMs, left())));
    if (tracker.pendingPageRequests > 0) await tracker.network.whenIdle(0, left()).catch(() => {});
    settled = await settle(left());
    outputs = await render(true);
    ratio = await shotBlankRatio(page, spec, outputs, settled);
    retried = true;
  }
  return { outputs, completeness: report(spec, tracker, lazy, settled, ratio, retried) };
}

/**
 * The report of a load with no image or PDF output (page content, the article: what crawl
 * pages, monitors' text and the page content answers read), at the moment it was read: the same
 * in-page measure as a shot's settle, but with nothing waited for or frozen (the content is read
 * already; nothing would change it), over the whole document (to 16,384 CSS px) as the content
 * covers it. It is a part of the read itself (./page-read.ts `readTogether`: one evaluation in
 * the isolated world, after the content and the article), not an evaluation of its own; the
 * page's own timers, which only a shot's retry asks about, are not read there. `readReport`
 * puts the report together from it. No shot: `blankRatio` null, `retried` false.
 */
export function settledRead(spec: CaptureSpec): PageRead<Settled> {
  const options = {
    budgetMs: 0,
    freeze: false,
    selector: null,
    fullPage: true,
    maxPx: LIMITS.fullPageMaxCssPx,
    consent: spec.blockCookieBanners ? CONSENT_HIDE_SELECTORS : null,
  };
  return {
    // Bounded in the page (budget 0: what is pending is not waited for); a throw is no report.
    expression: `(async () => { try { return await (${settlePage})(${JSON.stringify(options)}); } catch { return null; } })()`,
    take: (value) => (typeof value === "object" && value !== null ? (value as Settled) : UNSETTLED),
  };
}

/** The report of a page read without a shot, from its `settledRead`. */
export function readReport(
  spec: CaptureSpec,
  tracker: NetworkTracker,
  lazy: LazyOutcome,
  settled: Settled,
): Completeness {
  return report(spec, tracker, lazy, settled, null, false);
}

/**
 * The one place a completeness report is put together, for shots and reads alike. A load told
 * not to fetch images (`blockResourceTypes`, or a text-only load: ../../pipeline/extraction.ts)
 * counts none: an image it never asked for is not one that did not load.
 */
function report(
  spec: CaptureSpec,
  tracker: NetworkTracker,
  lazy: LazyOutcome,
  settled: Settled,
  blankRatio: number | null,
  retried: boolean,
): Completeness {
  return {
    blankRatio,
    pendingRequests: tracker.pendingPageRequests,
    failedRequests: tracker.failed,
    fontsLoaded: settled.fontsLoaded,
    images: spec.blockResourceTypes.includes("image") ? { loaded: 0, total: 0 } : settled.images,
    lazyTriggered: tracker.pageRequestCount - lazy.requestsBefore,
    scrolledPx: lazy.scrolledPx,
    retried,
    consentRemoved: settled.consentRemoved,
    adsBlocked: tracker.adsBlocked,
  };
}

/**
 * The blank ratio of the first image output that was taken: read from its own pixels when it is
 * a PNG; a JPEG or WebP (which the Worker does not decode) is measured on a thumbnail of the
 * region it shows instead. Null when nothing was measured: no image output (PDF only), or an
 * element capture (`selector`) in JPEG or WebP.
 */
async function shotBlankRatio(
  page: Page,
  spec: CaptureSpec,
  outputs: OutputOutcome[],
  settled: Settled,
): Promise<number | null> {
  const first = outputs.find((o) => o.ok && o.output.format !== "pdf");
  if (first === undefined || !first.ok) return null;
  if (first.output.format === "png") {
    const share = await pngDominantShare(first.output.bytes);
    if (share !== null) return share;
  }
  const region = shotRegion(spec, settled);
  return region === null ? null : blankRatio(page, region);
}

/**
 * What makes a capture incomplete for `requireComplete`, one sentence each; empty = complete.
 * A failed request alone does not (a page's broken tracker would fail every capture); a failed
 * image in the captured region does, through `images`. Blank counts only when the shot stayed
 * blank after its retry: blank by design is complete.
 */
export function missingParts(report: Completeness, waited: boolean): string[] {
  const missing: string[] = [];
  if (!waited) missing.push("The wait strategy did not hold within the timeout.");
  if (report.pendingRequests > 0)
    missing.push(`${report.pendingRequests} request(s) were still loading.`);
  if (!report.fontsLoaded) missing.push("A web font was still loading.");
  const { loaded, total } = report.images;
  if (loaded < total) missing.push(`${total - loaded} of ${total} image(s) did not load.`);
  if (report.retried && report.blankRatio !== null && report.blankRatio >= BLANK_RATIO)
    missing.push("The page stayed blank while it was still loading.");
  return missing;
}

/**
 * The region the first image output shows, as the thumbnail measures it: the clip, the full
 * page (to 16,384 CSS px), or the viewport. Element captures (`selector`): null, not measured
 * (the element is found when its image is taken).
 */
function shotRegion(spec: CaptureSpec, settled: Settled): Region | null {
  if (spec.selector) return null;
  const { width, height } = spec.viewport;
  if (spec.clip) return { ...spec.clip, beyond: spec.fullPage };
  if (!spec.fullPage) return { ...settled.scroll, width, height, beyond: false };
  const full = Math.max(settled.height, height);
  return { x: 0, y: 0, width, height: Math.min(full, LIMITS.fullPageMaxCssPx), beyond: true };
}
