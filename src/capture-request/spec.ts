/**
 * CaptureSpec: the one normalised description of a capture — defaults applied, device preset
 * resolved, html/markdown/template rendered to a document. It is all the capture engine sees,
 * whether the request came in sync, async, as a batch job or a render link; it is plain data so
 * it crosses RPC and queue boundaries unchanged. Its type is the engine's (src/capture/capture-spec.ts), the
 * resolution of cookie domains in ./cookies.ts.
 */
import type { CaptureRequest, Clip } from "../../schemas/capture";
import { ApiError } from "../errors";
import { LIMITS } from "../../schemas/limits";
import { renderContent } from "./source-document";
import { resolveCookies } from "./cookies";
import { DEVICE_PRESETS } from "./devices";
import type { CaptureSpec } from "../capture/capture-spec";

/** A geo capture's fixed viewport (docs/GEO.md); the provider ignores scale factors. */
export const GEO_VIEWPORT = {
  width: 1280,
  height: 800,
  deviceScaleFactor: 1,
  isMobile: false,
  hasTouch: false,
} as const;

/**
 * The spec's defaults of the switches and PDF options: what normalisation fills in, and what a
 * geo request may state explicitly without asking for something the provider cannot do.
 */
export const OPTION_DEFAULTS = {
  darkMode: false,
  blockAds: true,
  fullPage: false,
  blockCookieBanners: false,
  deviceScaleFactor: LIMITS.deviceScaleFactor.default,
  pdfFormat: "A4",
  pdfLandscape: false,
  pdfPrintBackground: true,
  pdfScale: LIMITS.pdfScale.default,
  omitBackground: false,
  reducedMotion: false,
  liveMotion: false,
  requireComplete: false,
  mediaType: "screen",
  pdfOutline: false,
  pdfTagged: true,
} as const satisfies Partial<CaptureRequest>;

const D = OPTION_DEFAULTS;

/** The other defaults of a capture request (the dashboard's playground shows them too). */
export const REQUEST_DEFAULTS = {
  format: "png",
  waitUntil: "networkidle2",
  bestAttempt: true,
} as const satisfies Partial<CaptureRequest>;

export function toCaptureSpec(
  req: CaptureRequest,
  options: { watermark: string | null },
): CaptureSpec {
  if (req.geo !== undefined) return toGeoSpec(req, req.geo, options);
  const preset = req.device ? DEVICE_PRESETS[req.device] : null;
  const format = req.format ?? REQUEST_DEFAULTS.format;
  const viewport = {
    width: req.width ?? preset?.width ?? LIMITS.width.default,
    height: req.height ?? preset?.height ?? LIMITS.height.default,
    deviceScaleFactor: req.deviceScaleFactor ?? preset?.deviceScaleFactor ?? D.deviceScaleFactor,
    isMobile: preset?.isMobile ?? false,
    hasTouch: preset?.hasTouch ?? false,
  };
  const fullPage = req.fullPage ?? D.fullPage;
  if (req.clip !== undefined) checkClip(req.clip, viewport, fullPage);
  const source: CaptureSpec["source"] =
    req.url !== undefined
      ? { kind: "url", url: req.url }
      : {
          kind: "html",
          html: renderContent({
            html: req.html,
            markdown: req.markdown,
            data: req.data,
            darkMode: req.darkMode ?? D.darkMode,
          }),
        };
  return {
    outputs: { formats: [format], article: false, content: null },
    source,
    format,
    quality:
      format === "jpeg" || format === "webp" ? (req.quality ?? LIMITS.quality.default) : null,
    viewport,
    userAgent: req.userAgent ?? preset?.userAgent ?? null,
    fullPage,
    darkMode: req.darkMode ?? D.darkMode,
    waitUntil: req.waitUntil ?? REQUEST_DEFAULTS.waitUntil,
    timeoutMs: (req.timeout ?? LIMITS.timeoutSeconds.default) * 1000,
    bestAttempt: req.bestAttempt ?? REQUEST_DEFAULTS.bestAttempt,
    waitForSelector: req.waitForSelector ?? null,
    delayMs: req.delay ?? 0,
    selector: req.selector ?? null,
    blockAds: req.blockAds ?? D.blockAds,
    blockCookieBanners: req.blockCookieBanners ?? D.blockCookieBanners,
    blockResourceTypes: req.blockResourceTypes ?? [],
    hideSelectors: req.hideSelectors ?? [],
    css: req.css ?? null,
    js: req.js ?? null,
    cookies: resolveCookies(req.cookies ?? [], req.url),
    headers: req.headers ?? [],
    resize:
      format !== "pdf" && (req.resizeWidth !== undefined || req.resizeHeight !== undefined)
        ? { width: req.resizeWidth ?? null, height: req.resizeHeight ?? null }
        : null,
    pdf: {
      format: req.pdfFormat ?? D.pdfFormat,
      landscape: req.pdfLandscape ?? D.pdfLandscape,
      printBackground: req.pdfPrintBackground ?? D.pdfPrintBackground,
      scale: req.pdfScale ?? D.pdfScale,
      margin: {
        // A running header/footer prints inside its margin: room for it unless one was given.
        top: req.pdfMargin?.top ?? (req.pdfHeader ? PDF_TEMPLATE_MARGIN : "0"),
        right: req.pdfMargin?.right ?? "0",
        bottom: req.pdfMargin?.bottom ?? (req.pdfFooter ? PDF_TEMPLATE_MARGIN : "0"),
        left: req.pdfMargin?.left ?? "0",
      },
      headerTemplate: req.pdfHeader ? printTemplate(req.pdfHeader) : null,
      footerTemplate: req.pdfFooter ? printTemplate(req.pdfFooter) : null,
      outline: req.pdfOutline ?? D.pdfOutline,
      tagged: req.pdfTagged ?? D.pdfTagged,
      pageRanges: req.pdfPageRanges ?? null,
    },
    watermark: options.watermark,
    credentials: null,
    geo: null,
    clip: req.clip ?? null,
    omitBackground: req.omitBackground ?? D.omitBackground,
    timezone: req.timezone ?? null,
    locale: req.locale ?? null,
    mediaType: req.mediaType ?? null,
    reducedMotion: req.reducedMotion ?? D.reducedMotion,
    liveMotion: req.liveMotion ?? D.liveMotion,
    requireComplete: req.requireComplete ?? D.requireComplete,
    failOnStatus: req.failOnStatus ?? null,
    actions: req.actions ?? [],
  };
}

/** The margin a pdfHeader/pdfFooter gets when its side's margin was not set. */
const PDF_TEMPLATE_MARGIN = "0.6in";

/** Placeholders of pdfHeader/pdfFooter → the classes Chromium fills in when printing. */
const TEMPLATE_FIELDS: Record<string, string> = {
  page: "pageNumber",
  pages: "totalPages",
  date: "date",
  title: "title",
  url: "url",
};

/**
 * A pdfHeader/pdfFooter as Chromium's print template: placeholders become its classes, and a
 * readable default size (Chromium's own is tiny); the customer's styles override it.
 */
export function printTemplate(html: string): string {
  const filled = html.replace(
    /\{\{\s*(page|pages|date|title|url)\s*\}\}/g,
    (_, name: string) => `<span class="${TEMPLATE_FIELDS[name] ?? ""}"></span>`,
  );
  return `<div style="font-size:10px;width:100%;margin:0 0.4in;">${filled}</div>`;
}

/**
 * Without fullPage a clip is cut from the viewport, so it must lie inside it (400 naming clip).
 * With fullPage only its width is known now; its bottom is checked against the page's height
 * once the page has loaded (page-capture.ts).
 */
function checkClip(clip: Clip, viewport: { width: number; height: number }, fullPage: boolean) {
  const details: Array<{ path: string; message: string }> = [];
  if (clip.x + clip.width > viewport.width)
    details.push({
      path: "clip.width",
      message: `x + width must be at most the viewport width (${viewport.width}).`,
    });
  if (!fullPage && clip.y + clip.height > viewport.height)
    details.push({
      path: "clip.height",
      message: `y + height must be at most the viewport height (${viewport.height}); use fullPage for page coordinates.`,
    });
  if (details.length > 0)
    throw new ApiError("VALIDATION_ERROR", "The clip lies outside the page.", { details });
}

/**
 * A geo capture: png of the fixed viewport, the proxy's own waits. What it cannot honour was
 * refused before (capture-request/prepare.ts); the rest of the spec keeps its defaults.
 */
function toGeoSpec(
  req: CaptureRequest,
  country: string,
  options: { watermark: string | null },
): CaptureSpec {
  const base = toCaptureSpec(
    {
      ...req,
      geo: undefined,
      format: "png",
      width: undefined,
      height: undefined,
      device: undefined,
    },
    options,
  );
  return {
    ...base,
    viewport: { ...GEO_VIEWPORT },
    geo: { country, city: req.geoCity ?? null, state: req.geoState ?? null },
  };
}
