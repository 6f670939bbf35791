/**
 * CaptureSpec → bytes, inside one incognito browser context that is always closed afterwards.
 * Steps: prepare the page → load and wait → page controls (selector wait, css, hides, js, delay)
 * → auto-scroll for full pages → the DOM and the article if asked → every requested output from
 * that one load:
 * PDFs, then watermark → screenshots (resized). An output that fails on its own (element not
 * found, too large) is reported as failed beside the others; a failed load fails them all.
 */
import type { Browser, CDPSession, Page } from "@cloudflare/puppeteer";
import { formatBytes, LIMITS } from "../../schemas/limits";
import { log } from "../log";
import { TUNING } from "../tuning";
import type { BrowserGuard, ContextWatch } from "./browser-guard";
import { runActions } from "./actions";
import { CONSENT_HIDE_SELECTORS, CONSENT_WALL_CSS } from "./consent-walls";
import type { PageArticle, ReadResult } from "../extract/reader";
import { PAGE_READER } from "../extract/page-reader.generated";
import { CaptureError, failures, type CaptureFailure } from "./failures";
import { imageSize } from "./image-info";
import { captureDeadlineMs } from "./deadline";
import { DeadlineError, navigate, withTimeout, type CaptureQuality } from "./navigate";
import {
  autoScroll,
  injectStyles,
  inPage,
  pageHeight,
  pageMetadata,
  resizeInPage,
  serializeWithin,
  tileWatermark,
} from "./page-scripts";
import { preparePage, type NetworkTracker, type RequestPolicy } from "./page";
import { statusMatches, type CaptureSpec, type Format } from "./spec";

/** One page load: what is known about the page, and each requested output's outcome. */
export interface PageCapture {
  /** The rendered DOM serialized, when the spec asked for it; else null. */
  html: string | null;
  /** The page's article (never "too-large": that fails the capture), when asked; else null. */
  article: ReadResult | null;
  quality: CaptureQuality;
  waitStrategy: string;
  autoScrolled: boolean;
  /** Where the page ended up (after redirects); for html sources "about:blank". */
  finalUrl: string;
  /** What the page says about itself ("" where it says nothing); read before any output. */
  page: PageMetadata;
  /** One per `spec.outputs.formats` entry, in that order. */
  outputs: OutputOutcome[];
}

export interface PageMetadata {
  title: string;
  /** The main document's final HTTP status; null for html/markdown sources. */
  targetStatus: number | null;
  openGraph: { title: string; description: string; image: string; siteName: string };
}

/** Metadata of a page we know nothing about (geo captures, a failed read). */
export const NO_METADATA: PageMetadata = {
  title: "",
  targetStatus: null,
  openGraph: { title: "", description: "", image: "", siteName: "" },
};

export interface RenderedOutput {
  format: Format;
  bytes: Uint8Array;
  contentType: string;
  /** Output pixel size (after resize); for PDFs the viewport's CSS size. */
  width: number;
  height: number;
  truncated: boolean;
  watermarked: boolean;
}

export type OutputOutcome =
  { ok: true; output: RenderedOutput } | { ok: false; failure: CaptureFailure };

/** One output with the facts of the page it came from: what responses and storage describe. */
export type CaptureResult = Omit<PageCapture, "outputs"> & Omit<RenderedOutput, "format">;

const CONTENT_TYPES = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  pdf: "application/pdf",
} as const;

/** What the BrowserHost learns about a capture that overran (its counters, its recycling). */
export interface CaptureHooks {
  /** The hard deadline passed: the capture is abandoned and its context disposed. */
  deadlineExceeded(): void;
  /** The context would not close in time: the browser holding it must be recycled. */
  contextStuck(): void;
}

/**
 * Runs one capture under its hard deadline (deadline.ts). Past it the capture fails with
 * 408 TIMEOUT; its context is disposed either way, and one that will not close in
 * TUNING.contextCloseMs is reported through `hooks.contextStuck`.
 */
export async function runCapture(
  browser: Browser,
  spec: CaptureSpec,
  policy: RequestPolicy,
  defaultUserAgent: string,
  guard: BrowserGuard,
  hooks: CaptureHooks,
): Promise<PageCapture> {
  const context = await browser.createBrowserContext();
  const contextId = context.id;
  if (contextId === undefined) throw new Error("incognito context without an id");
  let watch: ContextWatch | null = null;
  try {
    const [page] = await Promise.all([context.newPage(), guard.denyDownloads(contextId)]);
    // Any other page in this context is a pop-up: close it at once (its requests already
    // pass the browser-wide guard).
    context.on("targetcreated", (target) => {
      if (target.type() === "page" && target !== page.target())
        void target
          .page()
          .then((p) => p?.close())
          .catch(() => {});
    });
    watch = guard.watch(page, contextId);
    return await withTimeout(
      capturePage(page, spec, policy, defaultUserAgent, watch),
      captureDeadlineMs(spec),
    ).catch((err: unknown) => {
      if (err instanceof DeadlineError) {
        hooks.deadlineExceeded();
        throw new CaptureError(failures.timeout());
      }
      throw err;
    });
  } finally {
    watch?.end();
    // Disposing the context kills its renderer, even one spinning in `while (true) {}`.
    const closed = await withTimeout(context.close(), TUNING.contextCloseMs).then(
      () => true,
      (err: unknown) => !(err instanceof DeadlineError), // an error: the browser is gone anyway
    );
    if (!closed) hooks.contextStuck();
  }
}

async function capturePage(
  page: Page,
  spec: CaptureSpec,
  policy: RequestPolicy,
  defaultUserAgent: string,
  watch: ContextWatch,
): Promise<PageCapture> {
  const [tracker] = await Promise.all([
    preparePage(page, spec, policy, defaultUserAgent),
    watch.ready,
  ]);
  /** Why the page must not become output (logged, never returned), or null. */
  const taint = () =>
    tracker.violation ??
    watch.violation() ??
    (tracker.mainBlocked ? "main-frame navigation refused" : null);
  const refuse = (reason: string) => {
    log("warn", "capture refused by the browser guard", { reason });
    return new CaptureError(failures.unreachable());
  };
  try {
    return await captureLoaded(page, spec, tracker, () => {
      const reason = taint();
      if (reason !== null) throw refuse(reason);
    });
  } catch (err) {
    // A main-frame navigation the guard refused after load replaces the document (and breaks
    // whatever was running in it): the target could not be reached, not an internal error.
    const reason = err instanceof CaptureError ? null : taint();
    if (reason !== null) throw refuse(reason);
    throw err;
  }
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
  assertUntainted: () => void,
): Promise<PageCapture> {
  // The reader's CDP session attaches while the page loads: off the extraction's critical path.
  const reader = spec.outputs.article ? attachReader(page) : null;
  const nav = await navigate(page, spec, tracker);
  const targetStatus = spec.source.kind === "url" ? tracker.mainStatus : null;
  if (targetStatus !== null && spec.failOnStatus && statusMatches(spec.failOnStatus, targetStatus))
    throw new CaptureError(failures.targetStatus(targetStatus));

  if (spec.waitForSelector) {
    await page.waitForSelector(spec.waitForSelector, { timeout: spec.timeoutMs }).catch(() => {
      throw new CaptureError(failures.elementNotFound());
    });
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
        throw new CaptureError(
          err instanceof DeadlineError ? failures.timeout() : failures.script(),
        );
      },
    );
  }
  if (spec.actions && spec.actions.length > 0)
    await runActions(page, spec.actions, spec.timeoutMs, assertUntainted);
  if (spec.delayMs > 0) await new Promise((r) => setTimeout(r, spec.delayMs));

  let autoScrolled = false;
  if (spec.fullPage) {
    const before = tracker.started;
    const steps = await inPage<number>(page, autoScroll, LIMITS.fullPageMaxCssPx);
    autoScrolled = steps > 0;
    // Settle for lazy content the scroll woke up; nothing woke → nothing to wait for.
    if (autoScrolled && tracker.started > before)
      await new Promise((r) => setTimeout(r, TUNING.fullPageSettleMs));
  }
  assertUntainted();
  const metadata = await readMetadata(page, targetStatus);
  const html = spec.outputs.dom ? await boundedContent(page) : null;
  const article = reader ? await readArticle(await reader, spec) : null;
  const outputs = await renderOutputs(page, spec);
  assertUntainted();
  return {
    html,
    article,
    quality: nav.quality,
    waitStrategy: nav.waitStrategy,
    autoScrolled,
    finalUrl: page.url(),
    page: metadata,
    outputs,
  };
}

/** The page's title and Open Graph tags; only strings, each cut to the limit. */
async function readMetadata(page: Page, targetStatus: number | null): Promise<PageMetadata> {
  const raw = await inPage<unknown>(page, pageMetadata, LIMITS.pageMetadataChars).catch(() => null);
  const text = (v: unknown) => (typeof v === "string" ? v.slice(0, LIMITS.pageMetadataChars) : "");
  const record = (v: unknown): Record<string, unknown> =>
    typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
  const og = record(record(raw).openGraph);
  return {
    title: text(record(raw).title),
    targetStatus,
    openGraph: {
      title: text(og.title),
      description: text(og.description),
      image: text(og.image),
      siteName: text(og.siteName),
    },
  };
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

/**
 * The serialized DOM, measured in the page: a document over LIMITS.domBytes fails there, before
 * its bytes cross CDP (413, like any output over its cap).
 */
async function boundedContent(page: Page): Promise<string> {
  const html = await inPage<string | null>(page, serializeWithin, LIMITS.domBytes);
  if (html === null)
    throw new CaptureError(failures.tooLarge("rendered page", formatBytes(LIMITS.domBytes)));
  return html;
}

/**
 * The page's article, read by the page-reader bundle (src/extract/reader.ts) in an ISOLATED
 * world of ours — its own JS globals and prototypes over the same DOM, so a page that patched
 * `Element.prototype` or `document.querySelectorAll` in its main world cannot steer or break the
 * reading — on a clone of the document (the live page, which may still be screenshotted, is
 * never mutated). Only the article's strings cross CDP. A document over LIMITS.domBytes fails in
 * the page before anything is read (413, as when the DOM itself is asked for).
 */
async function readArticle(reader: IsolatedReader, spec: CaptureSpec): Promise<ReadResult> {
  const removeSelectors = [
    ...spec.hideSelectors,
    ...(spec.blockCookieBanners ? CONSENT_HIDE_SELECTORS : []),
  ];
  const article = await evaluateIsolated<PageArticle>(
    reader,
    `(${READ_ARTICLE})(${JSON.stringify(LIMITS.domBytes)}, ${JSON.stringify(removeSelectors)})`,
  );
  if (article.kind === "too-large")
    throw new CaptureError(failures.tooLarge("rendered page", formatBytes(LIMITS.domBytes)));
  return article;
}

/** A CDP session of ours on the page and its main frame's id (stable across navigations). */
interface IsolatedReader {
  session: CDPSession;
  frameId: string;
}

/**
 * Attaches the reader's session. Started before navigation and awaited only when the article is
 * read (profiled: attaching is most of the in-page read's cost); when the load fails first, the
 * session is never used and goes with the context.
 */
function attachReader(page: Page): Promise<IsolatedReader> {
  const ready = (async () => {
    const session = await page.createCDPSession();
    const { frameTree } = await session.send("Page.getFrameTree");
    return { session, frameId: frameTree.frame.id };
  })();
  ready.catch(() => {}); // a failure surfaces where it is awaited
  return ready;
}

/**
 * Evaluates `expression` in a fresh isolated world of the main frame (CDP
 * Page.createIsolatedWorld; puppeteer's own isolated realm is not public API) and returns its
 * JSON value. A script error rejects; the world goes with the document, the session is detached.
 */
async function evaluateIsolated<T>(reader: IsolatedReader, expression: string): Promise<T> {
  const { session, frameId } = reader;
  try {
    const { executionContextId } = await session.send("Page.createIsolatedWorld", {
      frameId,
      worldName: "edgeshot-reader",
    });
    const { result, exceptionDetails } = await session.send("Runtime.evaluate", {
      expression,
      contextId: executionContextId,
      returnByValue: true,
    });
    if (exceptionDetails)
      throw new Error(`in-page script failed: ${exceptionDetails.exception?.description ?? ""}`);
    return result.value as T;
  } finally {
    void session.detach().catch(() => {});
  }
}

/** In the page: the DOM-size rule of `serializeWithin`, then the reader on a clone. */
const READ_ARTICLE = `(limit, removeSelectors) => {
  if ((${serializeWithin})(limit) === null) return { kind: "too-large" };
  ${PAGE_READER}
  return EdgeshotReader.readPage(removeSelectors);
}`;

/**
 * Every requested format from the loaded page, outcomes in request order. PDFs print first:
 * the tiled watermark is for images (a PDF carries it as a footer), and it goes on the page
 * once, before the first screenshot.
 */
async function renderOutputs(page: Page, spec: CaptureSpec): Promise<OutputOutcome[]> {
  const order = spec.outputs.formats.map((format, index) => ({ format, index }));
  order.sort((a, b) => Number(a.format !== "pdf") - Number(b.format !== "pdf"));
  const outcomes = new Array<OutputOutcome>(order.length);
  let tiled = false;
  for (const { format, index } of order) {
    if (format !== "pdf" && spec.watermark !== null && !tiled) {
      await inPage(page, tileWatermark, spec.watermark);
      tiled = true;
    }
    const one = formatSpec(spec, format);
    try {
      const shot = format === "pdf" ? await printPdf(page, one) : await screenshot(page, one);
      if (shot.bytes.byteLength > LIMITS.outputBytes) throw new CaptureError(failures.tooLarge());
      const output = {
        ...shot,
        format,
        contentType: CONTENT_TYPES[format],
        watermarked: spec.watermark !== null,
      };
      outcomes[index] = { ok: true, output };
    } catch (err) {
      if (!(err instanceof CaptureError)) throw err; // the page or browser broke: the load failed
      outcomes[index] = { ok: false, failure: err.failure };
    }
  }
  return outcomes;
}

/** The spec as one output format sees it: its own quality (JPEG/WebP only), no resize for PDFs. */
function formatSpec(spec: CaptureSpec, format: Format): CaptureSpec {
  if (format === spec.format) return spec;
  const lossy = format === "jpeg" || format === "webp";
  return {
    ...spec,
    format,
    quality: lossy ? (spec.quality ?? LIMITS.quality.default) : null,
    resize: format === "pdf" ? null : spec.resize,
  };
}

type Shot = { bytes: Uint8Array; width: number; height: number; truncated: boolean };

async function screenshot(page: Page, spec: CaptureSpec): Promise<Shot> {
  const type = spec.format === "pdf" ? "png" : spec.format;
  const options = {
    type,
    ...(spec.quality !== null ? { quality: spec.quality } : {}),
    ...(spec.omitBackground === true && type !== "jpeg" ? { omitBackground: true } : {}),
    optimizeForSpeed: true,
  } as const;
  let bytes: Uint8Array;
  let truncated = false;
  const dsf = spec.viewport.deviceScaleFactor;
  if (spec.selector) {
    const element = await page.$(spec.selector);
    const box = element ? await element.boundingBox() : null;
    if (!element || !box || box.width < 1 || box.height < 1)
      throw new CaptureError(failures.elementNotFound());
    const fit = fitToEncoder(type, box.width, box.height, dsf);
    truncated = fit.truncated;
    // The clip is relative to the element's box: the element from its top-left, cut to the budget.
    bytes = await element.screenshot(
      fit.truncated
        ? { ...options, clip: { x: 0, y: 0, width: fit.width, height: fit.height } }
        : options,
    );
  } else if (spec.clip) {
    const clip = spec.clip;
    if (spec.fullPage) {
      const height = Math.max(await inPage<number>(page, pageHeight), spec.viewport.height);
      if (clip.y + clip.height > height) throw new CaptureError(failures.clipOutside(height));
    }
    const fit = fitToEncoder(type, clip.width, clip.height, dsf);
    truncated = fit.truncated;
    bytes = await page.screenshot({
      ...options,
      captureBeyondViewport: spec.fullPage,
      clip: { x: clip.x, y: clip.y, width: fit.width, height: fit.height },
    });
  } else if (spec.fullPage) {
    // A page with no height (or `overflow: hidden` on an empty body) is still its viewport.
    const height = Math.max(await inPage<number>(page, pageHeight), spec.viewport.height);
    const fit = fitToEncoder(
      type,
      spec.viewport.width,
      Math.min(height, LIMITS.fullPageMaxCssPx),
      dsf,
    );
    truncated = height > LIMITS.fullPageMaxCssPx || fit.truncated;
    bytes = await page.screenshot({
      ...options,
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: fit.width, height: fit.height },
    });
  } else {
    bytes = await page.screenshot(options);
  }
  if (spec.resize) bytes = await resizeInPage(page, bytes, spec.resize, type, spec.quality);
  const size = imageSize(bytes);
  if (!size) throw new CaptureError(failures.generic());
  return { bytes, width: size.width, height: size.height, truncated };
}

/**
 * What the image encoders can produce, in device pixels: WebP stops at 16,383 per side; JPEG at
 * 65,535; and one capture's bitmap stays within LIMITS.encoderMaxDevicePixels (Chromium fails
 * larger ones with "Unable to capture screenshot"). An area beyond them is cut from the bottom
 * (then the right) and reported as truncated, like any page taller than the full-page limit.
 */
export function fitToEncoder(
  type: "png" | "jpeg" | "webp",
  cssWidth: number,
  cssHeight: number,
  dsf: number,
): { width: number; height: number; truncated: boolean } {
  const side = LIMITS.encoderMaxDeviceSide[type] / dsf;
  const width = Math.min(cssWidth, Math.floor(side));
  const byArea = LIMITS.encoderMaxDevicePixels / (width * dsf * dsf);
  const height = Math.max(1, Math.min(cssHeight, Math.floor(side), Math.floor(byArea)));
  return { width, height, truncated: width < cssWidth || height < cssHeight };
}

/**
 * The PDF of the loaded page. Running header/footer templates (artifacts) print on every page;
 * the Free-plan watermark is a footer line, below the spec's own footer when it has one.
 */
async function printPdf(page: Page, spec: CaptureSpec): Promise<Shot> {
  const mark = spec.watermark
    ? `<div style="width:100%;font:9px Arial,sans-serif;color:#999;text-align:center;">${escapeHtml(spec.watermark)}</div>`
    : "";
  const { headerTemplate, footerTemplate } = spec.pdf;
  const footer = footerTemplate !== null || mark ? `${footerTemplate ?? ""}${mark}` : null;
  const templated = headerTemplate !== null || footer !== null;
  const bottom = spec.pdf.margin.bottom;
  const bytes = await page
    .pdf({
      format: spec.pdf.format,
      landscape: spec.pdf.landscape,
      printBackground: spec.pdf.printBackground,
      scale: spec.pdf.scale,
      margin: mark && bottom === "0" ? { ...spec.pdf.margin, bottom: "0.4in" } : spec.pdf.margin,
      ...(templated
        ? {
            displayHeaderFooter: true,
            headerTemplate: headerTemplate ?? "<span></span>",
            footerTemplate: footer ?? "<span></span>",
          }
        : {}),
      // Chromium builds the outline from the tagged structure: an outline implies tagging.
      outline: spec.pdf.outline,
      tagged: spec.pdf.outline || spec.pdf.tagged !== false,
      ...(spec.pdf.pageRanges ? { pageRanges: spec.pdf.pageRanges } : {}),
      timeout: spec.timeoutMs,
    })
    .catch((err: unknown) => {
      // A range past the last page: the caller's input against this document, not our failure.
      if (err instanceof Error && /page range/i.test(err.message))
        throw new CaptureError(failures.pageRanges());
      throw err;
    });
  return { bytes, width: spec.viewport.width, height: spec.viewport.height, truncated: false };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
