/**
 * CaptureSpec → bytes, inside one incognito browser context that is always closed afterwards.
 * Steps: prepare the page → load and wait → page controls (selector wait, css, hides, js, delay)
 * → auto-scroll for full pages → watermark → screenshot or PDF → resize.
 */
import type { Browser, Page } from "@cloudflare/puppeteer";
import { formatBytes, LIMITS } from "../../schemas/limits";
import { TUNING } from "../tuning";
import { denyDownloads, type BrowserGuard } from "./browser-guard";
import { CONSENT_WALL_CSS } from "./consent-walls";
import { CaptureError, failures } from "./failures";
import { imageSize } from "./image-info";
import { navigate, withTimeout, type CaptureQuality } from "./navigate";
import { autoScroll, injectStyles, inPage, pageHeight, resizeInPage, tileWatermark } from "./page-scripts";
import { preparePage, type RequestPolicy } from "./page";
import type { CaptureSpec } from "./spec";

export interface CaptureResult {
  /** The image or PDF; empty when the spec asked for the DOM only. */
  bytes: Uint8Array;
  /** The rendered DOM serialized, when the spec asked for it; else null. */
  html: string | null;
  contentType: string;
  /** Output pixel size (after resize); for PDFs the viewport's CSS size. */
  width: number;
  height: number;
  quality: CaptureQuality;
  waitStrategy: string;
  truncated: boolean;
  autoScrolled: boolean;
  watermarked: boolean;
  /** Where the page ended up (after redirects); for html sources "about:blank". */
  finalUrl: string;
}

const CONTENT_TYPES = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp", pdf: "application/pdf" } as const;

/** Runs one capture with a hard deadline on everything after navigation too. */
export async function runCapture(
  browser: Browser,
  spec: CaptureSpec,
  policy: RequestPolicy,
  defaultUserAgent: string,
  guard: BrowserGuard,
): Promise<CaptureResult> {
  const context = await browser.createBrowserContext();
  try {
    const [page] = await Promise.all([context.newPage(), denyDownloads(guard, context.id)]);
    // Any other page in this context is a pop-up: close it at once (its requests already
    // pass the browser-wide guard).
    context.on("targetcreated", (target) => {
      if (target.type() === "page" && target !== page.target()) void target.page().then((p) => p?.close()).catch(() => {});
    });
    const budget = spec.timeoutMs + spec.delayMs + 30_000;
    return await withTimeout(capturePage(page, spec, policy, defaultUserAgent), budget);
  } finally {
    await context.close().catch(() => {});
  }
}

async function capturePage(page: Page, spec: CaptureSpec, policy: RequestPolicy, defaultUserAgent: string): Promise<CaptureResult> {
  const tracker = await preparePage(page, spec, policy, defaultUserAgent);
  const nav = await navigate(page, spec, tracker);

  if (spec.waitForSelector) {
    await page.waitForSelector(spec.waitForSelector, { timeout: spec.timeoutMs }).catch(() => {
      throw new CaptureError(failures.elementNotFound());
    });
  }
  const styles = [
    spec.blockCookieBanners ? CONSENT_WALL_CSS : "",
    spec.hideSelectors.length > 0 ? `${spec.hideSelectors.join(",\n")} { display: none !important; }` : "",
    spec.css ?? "",
  ].filter(Boolean);
  if (styles.length > 0) await inPage(page, injectStyles, styles.join("\n"));
  if (spec.js) {
    await withTimeout(page.evaluate(spec.js), spec.timeoutMs).catch((err: unknown) => {
      throw new CaptureError(err instanceof Error && err.name === "TimeoutError" ? failures.timeout() : failures.script(scriptMessage(err)));
    });
  }
  if (spec.delayMs > 0) await new Promise((r) => setTimeout(r, spec.delayMs));

  let autoScrolled = false;
  if (spec.fullPage) {
    const before = tracker.started;
    const steps = await inPage<number>(page, autoScroll, LIMITS.fullPageMaxCssPx);
    autoScrolled = steps > 0;
    // Settle for lazy content the scroll woke up; nothing woke → nothing to wait for.
    if (autoScrolled && tracker.started > before) await new Promise((r) => setTimeout(r, TUNING.fullPageSettleMs));
  }
  const html = spec.output === "image" ? null : await page.content();
  if (html !== null && new TextEncoder().encode(html).byteLength > LIMITS.domBytes) {
    throw new CaptureError(failures.tooLarge("rendered page", formatBytes(LIMITS.domBytes)));
  }
  if (spec.output === "dom") {
    return {
      bytes: new Uint8Array(0),
      html,
      contentType: "text/html",
      width: spec.viewport.width,
      height: spec.viewport.height,
      quality: nav.quality,
      waitStrategy: nav.waitStrategy,
      truncated: false,
      autoScrolled,
      watermarked: false,
      finalUrl: page.url(),
    };
  }

  const watermarked = spec.watermark !== null && spec.format !== "pdf";
  if (watermarked && spec.watermark) await inPage(page, tileWatermark, spec.watermark);

  const shot = spec.format === "pdf" ? await printPdf(page, spec) : await screenshot(page, spec);
  if (shot.bytes.byteLength > LIMITS.outputBytes) throw new CaptureError(failures.tooLarge());
  return {
    ...shot,
    html,
    contentType: CONTENT_TYPES[spec.format],
    quality: nav.quality,
    waitStrategy: nav.waitStrategy,
    autoScrolled,
    watermarked: spec.watermark !== null,
    finalUrl: page.url(),
  };
}

type Shot = { bytes: Uint8Array; width: number; height: number; truncated: boolean };

async function screenshot(page: Page, spec: CaptureSpec): Promise<Shot> {
  const type = spec.format === "pdf" ? "png" : spec.format;
  const options = { type, ...(spec.quality !== null ? { quality: spec.quality } : {}), optimizeForSpeed: true } as const;
  let bytes: Uint8Array;
  let truncated = false;
  if (spec.selector) {
    const element = await page.$(spec.selector);
    const box = element ? await element.boundingBox() : null;
    if (!element || !box || box.width < 1 || box.height < 1) throw new CaptureError(failures.elementNotFound());
    bytes = await element.screenshot(options);
  } else if (spec.fullPage) {
    const height = await inPage<number>(page, pageHeight);
    truncated = height > LIMITS.fullPageMaxCssPx;
    bytes = await page.screenshot({
      ...options,
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: spec.viewport.width, height: Math.min(height, LIMITS.fullPageMaxCssPx) },
    });
  } else {
    bytes = await page.screenshot(options);
  }
  if (spec.resize) bytes = await resizeInPage(page, bytes, spec.resize, type, spec.quality);
  const size = imageSize(bytes);
  if (!size) throw new CaptureError(failures.generic());
  return { bytes, width: size.width, height: size.height, truncated };
}

async function printPdf(page: Page, spec: CaptureSpec): Promise<Shot> {
  const footer = spec.watermark
    ? `<div style="width:100%;font:9px Arial,sans-serif;color:#999;text-align:center;">${escapeHtml(spec.watermark)}</div>`
    : undefined;
  const bytes = await page.pdf({
    format: spec.pdf.format,
    landscape: spec.pdf.landscape,
    printBackground: spec.pdf.printBackground,
    scale: spec.pdf.scale,
    margin: footer ? { ...spec.pdf.margin, bottom: spec.pdf.margin.bottom === "0" ? "0.4in" : spec.pdf.margin.bottom } : spec.pdf.margin,
    ...(footer ? { displayHeaderFooter: true, headerTemplate: "<span></span>", footerTemplate: footer } : {}),
    timeout: spec.timeoutMs,
  });
  return { bytes, width: spec.viewport.width, height: spec.viewport.height, truncated: false };
}

function scriptMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^Evaluation failed:\s*/, "").split("\n")[0] ?? "";
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
