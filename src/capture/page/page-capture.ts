/**
 * CaptureSpec → bytes, inside one incognito browser context (../host/blank-page.ts) that is
 * closed afterwards: after the answer on success (its bytes are in hand), before it on failure. A
 * crawl's page that succeeded may instead be kept for the crawl's next page (`hooks.keep`,
 * ../host/lane-pages.ts).
 * Steps: prepare the page → load and wait → page controls (selector wait, css, hides, js, actions,
 * delay) → lazy content revealed for full pages and elements (./complete.ts) → what is read from the page (./page-read.ts: metadata
 * and the article; ./page-content.ts: html, text, links, elements; each if asked) → fonts,
 * images and motion settled, the blank check (./complete.ts) → every requested output from that one load (./outputs.ts).
 * A failed load fails every output; an output failing on its own fails alone.
 */
import type { Page } from "@cloudflare/puppeteer";
import { LIMITS } from "../../../schemas/limits";
import { log } from "../../log";
import { closeBlankPage, type BlankPage } from "../host/blank-page";
import { CpuRestart } from "../host/cpu-share";
import { runActions } from "./actions";
import { CONSENT_WALL_CSS } from "./consent-walls";
import type { ReadResult } from "../../extract/reader";
import { CaptureError, failures } from "../failures";
import { captureDeadlineMs } from "./deadline";
import { DeadlineError, navigate, withTimeout, type CaptureQuality } from "./navigate";
import { renderOutputs, type OutputOutcome, type RenderedOutput } from "../outputs/outputs";
import { recordAnimation, type AnimationOutcome, type EncoderSource } from "../outputs/animation";
import { injectStyles, inPage, pageHeight } from "./page-scripts";
import {
  readReport,
  settledRead,
  missingParts,
  revealLazyContent,
  shootComplete,
  type Completeness,
} from "./complete";
import { contentRead, type PageContent } from "./page-content";
import {
  articleRead,
  isolatedReader,
  metadataRead,
  NOTHING,
  readTogether,
  ReadScriptsMissing,
  type PageMetadata,
} from "./page-read";
import { preparePage, type NetworkTracker, type PageSettings } from "./page";
import type { RequestPolicy } from "./page-requests";
import { statusMatches, type CaptureSpec } from "../capture-spec";
import { waitForElement } from "./wait-for-element";
import { measuredWeight } from "./weight";

/** One page load: what is known about the page, and each requested output's outcome. */
export interface PageCapture {
  /** The page content outputs the spec asked for (./page-content.ts); else null. */
  content: PageContent | null;
  /** The page's article (never "too-large": that fails the capture), when asked; else null. */
  article: ReadResult | null;
  quality: CaptureQuality;
  /**
   * How complete the shot is (./complete.ts); without an image or PDF output, how complete the
   * page was when its content or article was read; null for a recording alone.
   */
  completeness: Completeness | null;
  waitStrategy: string;
  autoScrolled: boolean;
  /**
   * Where the page ended up (after redirects); for html sources "about:blank". At most
   * LIMITS.urlChars characters (`reportedUrl`).
   */
  finalUrl: string;
  /** The main document's media type (url sources; null for html sources and geo captures). */
  contentType: string | null;
  /** What the page says about itself ("" where it says nothing); read before any output. */
  page: PageMetadata;
  /** One per `spec.outputs.formats` entry, in that order. */
  outputs: OutputOutcome[];
  /** The recording `spec.outputs.animation` asked for (../outputs/animation.ts); else null. */
  animation: AnimationOutcome | null;
  /** "http": read without a browser (src/pipeline/http-engine.ts); absent: loaded in a browser. */
  rendered?: "http";
}

/** One output with the facts of the page it came from: what responses and storage describe. */
export type CaptureResult = Omit<PageCapture, "outputs" | "animation"> &
  Omit<RenderedOutput, "format">;

/** What the BrowserHost learns about a capture that overran (its counters, its recycling). */
export interface CaptureHooks {
  /** The hard deadline passed: the capture is abandoned and its context disposed. */
  deadlineExceeded(): void;
  /** The context would not close in time: the browser holding it must be recycled. */
  contextStuck(): void;
  /**
   * A successful capture's context is closing while its answer leaves: the host keeps the work
   * alive until it settles (closing takes ~10 ms on loopback, one more CDP round trip over a
   * network, which the answer need not wait for).
   */
  closing(done: Promise<void>): void;
  /**
   * A successful capture's page may serve the next capture of its lane (../host/lane-pages.ts):
   * given it, the host keeps it or closes it (awaited: the page is idle before the capture
   * ends); without this hook the page is closed.
   */
  keep?(blank: BlankPage): Promise<void>;
  /** The full page was measured: the capture now weighs `weight` (./weight.ts). */
  measured(weight: number): void;
  /**
   * Settles when the page may load (its fair-CPU debugger is on, ../host/cpu-share.ts): awaited with
   * the page's own setup, before navigation.
   */
  ready: Promise<void>;
  /**
   * Rejects (`CpuRestart`) should the capture have to run again in a new page
   * (../host/cpu-share.ts); never resolves.
   */
  restarted: Promise<never>;
  /**
   * What the capture spent in the attempt it restarts (`restarted`): its hard deadline counts
   * from its first attempt.
   */
  spentMs?: number;
  /** The encoders' sources, read from the static assets (recordings only). */
  encoders?: EncoderSource;
}

/**
 * Runs one capture in `blank` (../host/blank-page.ts) under its hard deadline (deadline.ts). Past it the
 * capture fails with 408 TIMEOUT; the page is closed either way, and one that will not close in
 * TUNING.contextCloseMs is reported through `hooks.contextStuck`.
 */
export async function runPageCapture(
  blank: BlankPage,
  spec: CaptureSpec,
  policy: RequestPolicy,
  settings: PageSettings,
  hooks: CaptureHooks,
): Promise<PageCapture> {
  const close = (alone = false) =>
    closeBlankPage(blank, alone).then((closed) => {
      if (!closed) hooks.contextStuck();
    });
  let capture: PageCapture;
  try {
    capture = await withTimeout(
      Promise.race([capturePage(blank, spec, policy, settings, hooks), hooks.restarted]),
      Math.max(captureDeadlineMs(spec) - (hooks.spentMs ?? 0), 0),
    ).catch((err: unknown) => {
      if (err instanceof DeadlineError) {
        hooks.deadlineExceeded();
        throw new CaptureError(failures.timeout());
      }
      throw err;
    });
  } catch (err) {
    // A failure may be retried on another browser: its context is gone before that. A page of a
    // lane's context closes alone and retires the context (../host/blank-page.ts); one restarted
    // for its fair-CPU debugger disposes it: its renderer, busy in one long task, goes now.
    if (blank.group) blank.group.retired = true;
    await close(!(err instanceof CpuRestart));
    throw err;
  }
  if (!hooks.keep) {
    hooks.closing(close());
    return capture;
  }
  // A page kept for its lane is idle again before the capture (and its slot) ends, so the lane's
  // next capture finds it rather than opening another context (../host/lane-pages.ts). Its
  // context is shared: what the guard refused meanwhile in another of its pages fails this one
  // too (the context is disposed by then).
  await hooks.keep(blank).catch(() => close());
  const reason = blank.watch.violation();
  if (reason !== null) throw refusal(reason);
  return capture;
}

async function capturePage(
  { page, session, watch, primed }: BlankPage,
  spec: CaptureSpec,
  policy: RequestPolicy,
  settings: PageSettings,
  hooks: CaptureHooks,
): Promise<PageCapture> {
  const [tracker] = await Promise.all([
    preparePage(page, session, spec, policy, settings, primed),
    watch.ready,
    hooks.ready,
  ]);
  /** Why the page must not become output (logged, never returned), or null. */
  const taint = () =>
    tracker.violation ??
    watch.violation() ??
    (tracker.mainBlocked ? "main-frame navigation refused" : null);
  try {
    return await captureLoaded(page, spec, tracker, hooks, () => {
      const reason = taint();
      if (reason !== null) throw refusal(reason);
    });
  } catch (err) {
    // A main-frame navigation the guard refused after load replaces the document (and breaks
    // whatever was running in it): the target could not be reached, not an internal error.
    const reason = err instanceof CaptureError ? null : taint();
    if (reason !== null) throw refusal(reason);
    // A navigation the guard let through (about:blank, another page) that committed while the
    // outputs were taken: the commands on the old document fail. The page left, we did not.
    if (leftDocument(err))
      throw new CaptureError(failures.navigatedAway(spec.source.kind === "url" ? "url" : "html"));
    throw err;
  } finally {
    tracker.detach();
  }
}

/** A capture the browser guard refused (`reason` is logged, never returned): unreachable. */
function refusal(reason: string): CaptureError {
  log("warn", "capture refused by the browser guard", { reason });
  return new CaptureError({ ...failures.unreachable(), cause: "blocked" });
}

/**
 * What Chromium answers a command on a document the page has navigated away from (the frame is
 * no longer the active one, its JavaScript context is gone). A closed target or a dead browser
 * answers otherwise ("Target closed", "Session closed"): those stay ours.
 */
function leftDocument(err: unknown): boolean {
  if (err instanceof CaptureError || !(err instanceof Error)) return false;
  return /Not attached to an active page|Execution context was destroyed|Cannot find context with specified id/i.test(
    err.message,
  );
}

/**
 * Load, page controls and outputs. `assertUntainted` throws when anything the page received
 * came from where the guard refuses (a rebound address, a speculative load that slipped through,
 * a refused main-frame navigation): called before any output is taken and once more after all
 * of them, so a tainted page never becomes bytes, HTML or a stored object (every output fails).
 */
async function captureLoaded(
  page: Page,
  spec: CaptureSpec,
  tracker: NetworkTracker,
  hooks: CaptureHooks,
  assertUntainted: () => void,
): Promise<PageCapture> {
  const nav = await navigate(page, spec, tracker);
  const targetStatus = spec.source.kind === "url" ? tracker.mainStatus : null;
  if (targetStatus !== null && spec.failOnStatus && statusMatches(spec.failOnStatus, targetStatus))
    throw new CaptureError(failures.targetStatus(targetStatus));

  if (spec.waitForSelector) {
    if (!(await waitForElement(page, spec.waitForSelector, spec.timeoutMs)))
      throw new CaptureError(failures.elementNotFound("waitForSelector", spec.waitForSelector));
  }
  const styles = [
    spec.blockCookieBanners ? CONSENT_WALL_CSS : "",
    spec.hideSelectors.length > 0
      ? `${spec.hideSelectors.join(",\n")} { display: none !important; }`
      : "",
    spec.css ?? "",
  ].filter(Boolean);
  if (styles.length > 0) await inPage(page, injectStyles, styles.join("\n"));
  if (spec.js) {
    await withTimeout(page.evaluate(valuelessScript(spec.js)), spec.timeoutMs).catch(
      (err: unknown) => {
        // A script that navigates the page away is answered as the page leaving, whether the
        // navigation commits before its evaluation returns or after (as the outputs are taken).
        if (leftDocument(err))
          throw new CaptureError(
            failures.navigatedAway(spec.source.kind === "url" ? "url" : "html"),
          );
        throw new CaptureError(
          err instanceof DeadlineError ? failures.timeout() : failures.script(),
        );
      },
    );
  }
  if (spec.actions && spec.actions.length > 0)
    await runActions(page, spec.actions, spec.timeoutMs, assertUntainted);
  if (spec.delayMs > 0) await new Promise((r) => setTimeout(r, spec.delayMs));

  const lazy = await revealLazyContent(page, spec, tracker);
  // Its height is known now: the slot weighs what will really be rendered.
  if (spec.fullPage && !spec.clip && !spec.selector)
    hooks.measured(measuredWeight(spec, await inPage<number>(page, pageHeight)));
  assertUntainted();
  // The title and Open Graph tags are read with the page content and the article (one
  // evaluation), or else beside the rest (a read that never fails, of what no output changes):
  // one CDP round trip less before the screenshot.
  const reader = isolatedReader(page);
  const tags = metadataRead(targetStatus);
  const shoots = spec.outputs.formats.length > 0;
  // The article and the content are read by the scripts the document keeps (a URL's document:
  // ./page-kit.ts), else with their source.
  const readAll = (kept: boolean) =>
    readTogether(reader, {
      metadata: tags,
      content: spec.outputs.content ? contentRead(spec.outputs.content, kept) : NOTHING,
      article: spec.outputs.article ? articleRead(spec, kept) : NOTHING,
      // With no shot, what was read is reported as it was read (nothing waited for), in the
      // same evaluation; a recording alone is not reported.
      settled: shoots ? NOTHING : settledRead(spec),
    });
  const { content, article, metadata, settled } =
    spec.outputs.content || spec.outputs.article
      ? await readAll(spec.source.kind === "url").catch((err: unknown) => {
          if (err instanceof ReadScriptsMissing) return readAll(false);
          throw err;
        })
      : {
          content: null,
          article: null,
          settled: null,
          metadata: readTogether(reader, { metadata: tags }).then(
            (read) => read.metadata,
            () => tags.take(null),
          ),
        };
  const plan = spec.outputs.animation;
  const animation = plan ? await recordAnimation(page, plan, spec.viewport, hooks.encoders) : null;
  const shot = shoots
    ? await shootComplete(page, spec, tracker, lazy, nav.quality === "full", (again) =>
        renderOutputs(page, spec, again),
      )
    : {
        outputs: [],
        completeness: settled ? readReport(spec, tracker, lazy, settled) : null,
      };
  const { outputs, completeness } = shot;
  // Only a shot can be incomplete: page content and extraction answers ignore requireComplete.
  if (spec.requireComplete && completeness && shoots) {
    const missing = missingParts(completeness, nav.quality === "full");
    if (missing.length > 0) throw new CaptureError(failures.incomplete(missing));
  }
  assertUntainted();
  return {
    content,
    article,
    quality: nav.quality,
    completeness,
    waitStrategy: nav.waitStrategy,
    autoScrolled: lazy.scrolledPx > 0,
    finalUrl: reportedUrl(page.url()),
    contentType: spec.source.kind === "url" ? tracker.mainContentType : null,
    page: await metadata,
    outputs,
    animation,
  };
}

/**
 * The page's URL as answers report it (JSON, job and crawl records; headers cut it further:
 * ../../capture-request/response.ts): no longer than `max`, by default a URL the service accepts (LIMITS.urlChars).
 * A page can make its own URL up to Chromium's 2 MB (`history.replaceState`, a fragment);
 * reported whole, it went into two response headers, and a response with megabytes of headers
 * never reached its caller — after the capture was charged. Longer, it is cut there (never
 * inside a %-escape): its origin and the start of its path still say where the output came from
 * (docs/CAPTURE.md, "Output").
 */
export function reportedUrl(url: string, max: number = LIMITS.urlChars): string {
  if (url.length <= max) return url;
  return url.slice(0, max).replace(/%[0-9a-f]?$/i, "");
}

/**
 * The customer's `js`, run for its effects only: its completion value (a returned promise is
 * awaited) is dropped in the page and never crosses CDP, so a script returning 100 MB costs the
 * page's memory, not seconds of the browser connection every capture on it shares. Indirect eval
 * keeps the semantics of a top-level script; Runtime.evaluate permits it on CSP-protected pages.
 */
export function valuelessScript(js: string): string {
  return `(async () => { await (0, eval)(${JSON.stringify(js)}); })()`;
}
