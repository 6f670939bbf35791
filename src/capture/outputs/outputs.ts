/**
 * The outputs of one loaded page: every requested format in request order (PDFs first, then
 * the tiled watermark, then screenshots, resized), each bounded by the encoders and the output
 * cap. An output that fails on its own (element not found, too large) fails alone.
 */
import type { Page } from "@cloudflare/puppeteer";
import { LIMITS } from "../../../schemas/limits";
import { escapeHtml } from "../../encoding";
import { CaptureError, failures, type CaptureFailure } from "../failures";
import { imageSize } from "./image-info";
import { pdfPageCount } from "./pdf-info";
import { inPage, pageExtent, pageHeight, resizeInPage, tileWatermark } from "../page/page-scripts";
import { captureScreenshot, type ShotOptions } from "./screenshot";
import type { CaptureSpec, Format } from "../capture-spec";

export interface RenderedOutput {
  format: Format;
  bytes: Uint8Array;
  contentType: string;
  /** Output pixel size (after resize); for PDFs the viewport's CSS size. */
  width: number;
  height: number;
  /** PDFs: how many pages were printed (absent for images). */
  pages?: number;
  truncated: boolean;
  watermarked: boolean;
}

export type OutputOutcome =
  { ok: true; output: RenderedOutput } | { ok: false; failure: CaptureFailure };

const CONTENT_TYPES = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  pdf: "application/pdf",
} as const;

/**
 * Every requested format from the loaded page, outcomes in request order. PDFs print first:
 * the tiled watermark is for images (a PDF carries it as a footer), and it goes on the page
 * once, before the first screenshot.
 */
export async function renderOutputs(
  page: Page,
  spec: CaptureSpec,
  /** The outputs are taken again (a blank shot's retry): the watermark is on the page already. */
  again = false,
): Promise<OutputOutcome[]> {
  const order = spec.outputs.formats.map((format, index) => ({ format, index }));
  order.sort((a, b) => Number(a.format !== "pdf") - Number(b.format !== "pdf"));
  const outcomes = new Array<OutputOutcome>(order.length);
  let tiled = again;
  let printedPages: number | null = null;
  for (const { format, index } of order) {
    if (format !== "pdf" && !tiled) {
      if (spec.pdf.pagesInto) await fillPageCount(page, spec, printedPages);
      if (spec.watermark !== null) await inPage(page, tileWatermark, spec.watermark);
      tiled = true;
    }
    const one = formatSpec(spec, format);
    try {
      const shot = format === "pdf" ? await printPdf(page, one) : await screenshot(page, one);
      if (shot.pages !== undefined) printedPages ??= shot.pages;
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

type Shot = {
  bytes: Uint8Array;
  width: number;
  height: number;
  truncated: boolean;
  pages?: number;
};

/**
 * `spec.pdf.pagesInto` (artifacts: the "of N" of a branded PNG's header and footer): the
 * document's printed page count written into those elements before the first image, so an image
 * says what the PDF has. Without a PDF output the page is printed once just to count.
 */
async function fillPageCount(page: Page, spec: CaptureSpec, printed: number | null): Promise<void> {
  const pages = printed ?? (await printPdf(page, formatSpec(spec, "pdf")).catch(() => null))?.pages;
  if (pages === undefined || pages === null) return;
  await inPage(page, setTextOf, spec.pdf.pagesInto, String(pages));
}

const setTextOf = `(selector, text) => {
  for (const el of document.querySelectorAll(selector)) el.textContent = text;
}`;

async function screenshot(page: Page, spec: CaptureSpec): Promise<Shot> {
  const type = spec.format === "pdf" ? "png" : spec.format;
  const options = {
    type,
    ...(spec.quality !== null ? { quality: spec.quality } : {}),
    ...(spec.omitBackground === true ? { omitBackground: true } : {}),
  };
  let bytes: Uint8Array;
  let truncated = false;
  const dsf = spec.viewport.deviceScaleFactor;
  if (spec.selector) {
    const shot = await elementShot(page, spec.selector, type, dsf, options);
    bytes = shot.bytes;
    truncated = shot.truncated;
  } else if (spec.clip) {
    const clip = spec.clip;
    if (spec.fullPage) {
      const height = Math.max(await inPage<number>(page, pageHeight), spec.viewport.height);
      if (clip.y + clip.height > height) throw new CaptureError(failures.clipOutside(height));
    }
    const fit = fitToEncoder(type, clip.width, clip.height, dsf);
    truncated = fit.truncated;
    bytes = await captureScreenshot(page, {
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
    bytes = await captureScreenshot(page, {
      ...options,
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: fit.width, height: fit.height },
    });
  } else {
    bytes = await captureScreenshot(page, { ...options, captureBeyondViewport: false });
  }
  if (spec.resize) bytes = await resizeInPage(page, bytes, spec.resize, type, spec.quality);
  const size = imageSize(bytes);
  if (!size) throw new CaptureError(failures.generic());
  return { bytes, width: size.width, height: size.height, truncated };
}

/**
 * The `selector` element, scrolled into view as puppeteer's element screenshot does, and
 * captured by its box in document coordinates. Only its part inside the document can be drawn
 * (a box at negative offsets reaches off the page's canvas, and Chromium fails such a clip), and
 * that part is then fitted to the encoder: either cut (of a pixel or more) is reported as
 * truncated. No part inside the page → 400 naming `selector`.
 */
async function elementShot(
  page: Page,
  selector: string,
  type: "png" | "jpeg" | "webp",
  dsf: number,
  options: Omit<ShotOptions, "clip" | "captureBeyondViewport">,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const element = await page.$(selector);
  if (element && !(await element.isIntersectingViewport({ threshold: 1 })))
    await element.scrollIntoView();
  const box = element ? await element.boundingBox() : null;
  if (!element || !box || box.width < 1 || box.height < 1)
    throw new CaptureError(failures.elementNotFound("selector", selector));
  const extent = await inPage<{ left: number; top: number; width: number; height: number }>(
    page,
    pageExtent,
  );
  // The element's box in document coordinates, and the part of it inside the document.
  const left = box.x + extent.left;
  const top = box.y + extent.top;
  const x = Math.max(left, 0);
  const y = Math.max(top, 0);
  const width = Math.min(left + box.width, extent.width) - x;
  const height = Math.min(top + box.height, extent.height) - y;
  if (width < 1 || height < 1) throw new CaptureError(failures.elementOutside());
  const fit = fitToEncoder(type, width, height, dsf);
  const truncated = fit.truncated || box.width - width >= 1 || box.height - height >= 1;
  const bytes = await captureScreenshot(page, {
    ...options,
    captureBeyondViewport: true,
    clip: { x, y, width: fit.width, height: fit.height },
  });
  return { bytes, truncated };
}

/**
 * What the image encoders can produce, in device pixels: WebP stops at 16,383 per side; JPEG at
 * 65,500 (libjpeg's limit: a wider one failed the capture with a 500), PNG at 65,535; and one
 * capture's bitmap stays within LIMITS.encoderMaxDevicePixels (Chromium fails larger ones with
 * "Unable to capture screenshot"). An area beyond them is cut from the bottom
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
  const pages = pdfPageCount(bytes);
  return {
    bytes,
    width: spec.viewport.width,
    height: spec.viewport.height,
    truncated: false,
    ...(pages !== null ? { pages } : {}),
  };
}
