/**
 * Every capture field with its own rules, description and default. Fields are optional only in
 * `captureShape` (schemas/capture.ts), so the normaliser can tell what a caller actually set.
 */
import { z } from "zod";
import { LIMITS } from "../limits";
import {
  cssLength,
  cssSelector,
  hasControlChars,
  intIn,
  maxBytes,
  maxChars,
  NOT_EMPTY,
  numberIn,
} from "../primitives";
import { storageOptionSchema } from "../storage";
import { actionSchema } from "./actions";
import {
  DEVICES,
  EXTRACT_FORMATS,
  FORMATS,
  GEO_COUNTRIES,
  MEDIA_TYPES,
  PDF_FORMATS,
  RESOURCE_TYPES,
  WAIT_UNTIL,
} from "./enums";
import { cookieSchema, headersSchema } from "./network";
import { pdfPageRangesSchema, pdfTemplate } from "./pdf";
import { clipSchema, dataSchema, isLocale, isTimeZone, statusMatcherSchema } from "./values";

const L = LIMITS;
export const captureFields = {
  url: z.string().min(1, NOT_EMPTY).meta({
    description: "The public http(s) URL to capture. Exactly one of url, html or markdown.",
  }),
  html: maxBytes(L.htmlBytes).min(1, NOT_EMPTY).meta({
    description: "Raw HTML to render, at most 5 MB (UTF-8). Exactly one of url, html or markdown.",
  }),
  markdown: maxBytes(L.markdownBytes).min(1, NOT_EMPTY).meta({
    description:
      "Markdown rendered with the default typography (darkMode gives the dark theme), at most 5 MB.",
  }),
  data: dataSchema.meta({
    description:
      "Mustache data filled into html or markdown ({{var}} escaped, {{{var}}} raw, sections, inverted sections, dotted names); at most 256 KB serialized. Not with url.",
  }),
  format: z.enum(FORMATS).meta({ description: "Output format.", default: "png" }),
  width: intIn(L.width.min, L.width.max).meta({
    description: "Viewport width in CSS pixels.",
    default: L.width.default,
  }),
  height: intIn(L.height.min, L.height.max).meta({
    description: "Viewport height in CSS pixels.",
    default: L.height.default,
  }),
  fullPage: z.boolean().meta({
    description:
      "Capture the full scrollable page (scrolled to load lazy content; at most 16,384 px tall).",
    default: false,
  }),
  darkMode: z
    .boolean()
    .meta({ description: "Emulate prefers-color-scheme: dark.", default: false }),
  blockAds: z.boolean().meta({ description: "Block ads and trackers.", default: true }),
  quality: intIn(L.quality.min, L.quality.max).meta({
    description: "JPEG/WebP quality; ignored for PNG and PDF.",
    default: L.quality.default,
  }),
  delay: intIn(L.delayMs.min, L.delayMs.max, "ms").meta({
    description: "Milliseconds to wait after the page loaded.",
    default: L.delayMs.default,
  }),
  deviceScaleFactor: numberIn(L.deviceScaleFactor.min, L.deviceScaleFactor.max).meta({
    description: "Device pixel ratio.",
    default: L.deviceScaleFactor.default,
  }),
  blockResourceTypes: z
    .array(z.enum(RESOURCE_TYPES))
    .max(RESOURCE_TYPES.length)
    .meta({ description: "Resource types not loaded." }),
  timeout: intIn(L.timeoutSeconds.min, L.timeoutSeconds.max, "seconds").meta({
    description: "Navigation timeout in seconds.",
    default: L.timeoutSeconds.default,
  }),
  waitUntil: z
    .enum(WAIT_UNTIL)
    .meta({ description: "When navigation counts as complete.", default: "networkidle2" }),
  waitForSelector: cssSelector(L.selectorChars).meta({
    description: "Wait until this CSS selector matches (at most 500 characters).",
  }),
  bestAttempt: z.boolean().meta({
    description:
      "On a timeout, fall back to less strict wait strategies and capture anyway (x-service-quality tells which).",
    default: true,
  }),
  selector: cssSelector(L.selectorChars).meta({
    description:
      "Capture only the first element matching this CSS selector (at most 500 characters).",
  }),
  device: z.enum(DEVICES).meta({
    description:
      "Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.",
  }),
  hideSelectors: z
    .array(cssSelector(L.selectorChars))
    .max(L.hideSelectors, `At most ${L.hideSelectors} selectors.`)
    .meta({
      description:
        "CSS selectors set to display:none before capture; no error when nothing matches.",
    }),
  blockCookieBanners: z
    .boolean()
    .meta({ description: "Hide common consent walls (a curated CSS list).", default: false }),
  resizeWidth: intIn(L.resizeWidth.min, L.resizeWidth.max).meta({
    description:
      "Downscale the image to this width (never upscales; aspect kept when only one side is given). Images only.",
  }),
  resizeHeight: intIn(L.resizeHeight.min, L.resizeHeight.max).meta({
    description: "Downscale the image to this height (never upscales). Images only.",
  }),
  css: maxBytes(L.cssBytes).meta({ description: "CSS injected before capture, at most 50 KB." }),
  js: maxBytes(L.jsBytes).meta({
    description: "JavaScript run after navigation completes, at most 50 KB.",
  }),
  cookies: z
    .array(cookieSchema)
    .max(L.cookies, `At most ${L.cookies} cookies.`)
    .meta({ description: "Cookies set before navigation (not on the Free plan), at most 50." }),
  headers: headersSchema.meta({
    description:
      "Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.",
  }),
  userAgent: maxChars(L.userAgentChars)
    .refine((s) => !hasControlChars(s), "Must not contain control characters.")
    .meta({ description: "User-Agent string, at most 512 characters." }),
  pdfFormat: z
    .enum(PDF_FORMATS)
    .meta({ description: "PDF paper size (format pdf only).", default: "A4" }),
  pdfLandscape: z
    .boolean()
    .meta({ description: "Landscape PDF pages (format pdf only).", default: false }),
  pdfPrintBackground: z
    .boolean()
    .meta({ description: "Print backgrounds in the PDF (format pdf only).", default: true }),
  pdfScale: numberIn(L.pdfScale.min, L.pdfScale.max).meta({
    description: "PDF rendering scale (format pdf only).",
    default: L.pdfScale.default,
  }),
  pdfMargin: z
    .strictObject({
      top: cssLength.optional(),
      right: cssLength.optional(),
      bottom: cssLength.optional(),
      left: cssLength.optional(),
    })
    .meta({ description: "PDF page margins as CSS lengths (format pdf only); zero when omitted." }),
  geo: z.enum(GEO_COUNTRIES).meta({
    description:
      "Two-letter country to render from (Pro and Enterprise): PNG at 1280x800 through the geo proxy.",
  }),
  geoCity: maxChars(L.geoPlaceChars)
    .min(1)
    .meta({ description: "City within geo, at most 100 characters; requires geo." }),
  geoState: maxChars(L.geoPlaceChars)
    .min(1)
    .meta({ description: "State within geo, at most 100 characters; requires geo." }),
  hosted: z.boolean().meta({
    description: "Store the output and answer with a signed URL instead of bytes (POST only).",
    default: false,
  }),
  extract: z.boolean().meta({
    description: "Also return reader-mode content (POST /v1/screenshot/json only).",
    default: false,
  }),
  extractFormat: z
    .enum(EXTRACT_FORMATS)
    .meta({ description: "Shape of the extracted content.", default: "markdown" }),
  async: z
    .boolean()
    .meta({ description: "Queue the capture and answer 202 with a jobId.", default: false }),
  webhookUrl: z.string().min(1).meta({
    description: "Public HTTPS URL that receives job.completed / job.failed; requires async.",
  }),
  /** Deliver the async result to a storage destination (schemas/storage.ts). */
  storage: storageOptionSchema.meta({
    description:
      "Deliver the async result to a storage destination (Pro and Enterprise); requires async.",
  }),
  cacheTtl: intIn(L.cacheTtl.min, L.cacheTtl.max, "seconds").meta({
    description: "Seconds the result (hosted URL, async result, render cache) stays available.",
    default: L.cacheTtl.default,
  }),
  clip: clipSchema,
  omitBackground: z
    .boolean()
    .describe(
      "PNG/WebP: a transparent background where the page paints none (alpha 0 at unpainted pixels).",
    ),
  timezone: maxChars(L.timezoneChars)
    .refine(isTimeZone, "Must be an IANA time zone name such as Europe/Berlin.")
    .describe("IANA time zone the page runs in (Date, Intl), e.g. America/New_York."),
  locale: maxChars(L.localeChars)
    .refine(isLocale, "Must be a supported BCP 47 language tag such as de-DE.")
    .describe(
      "BCP 47 locale: navigator.language(s), the Accept-Language header and Intl defaults, e.g. de-DE.",
    ),
  mediaType: z.enum(MEDIA_TYPES).describe("CSS media type to emulate: screen (default) or print."),
  reducedMotion: z.boolean().describe("Emulate prefers-reduced-motion: reduce."),
  liveMotion: z
    .boolean()
    .describe(
      "Keep animations, transitions and videos running. Default false: they are settled (finite ones at their end, endless ones and videos on their first frame) and carets hidden, so two captures of an unchanged page are identical.",
    ),
  requireComplete: z
    .boolean()
    .describe(
      "Fail with 502 CAPTURE_FAILED (not charged) instead of answering an incomplete capture: the wait strategy did not hold, requests were still pending, a font or an image in the captured region had not loaded, or the shot stayed blank while the page was still working.",
    ),
  pdfHeader: pdfTemplate.describe(
    "PDF: HTML printed at the top of every page (≤ 10 KB); {{page}}, {{pages}}, {{date}}, {{title}} and {{url}} are filled in. Nothing is loaded: only inline data: URLs.",
  ),
  pdfFooter: pdfTemplate.describe(
    "PDF: HTML printed at the bottom of every page (≤ 10 KB); same placeholders as pdfHeader.",
  ),
  pdfPageRanges: pdfPageRangesSchema.describe('PDF: the pages to keep, e.g. "1-3,5".'),
  pdfOutline: z.boolean().describe("PDF: bookmarks (a document outline) from the headings."),
  pdfTagged: z
    .boolean()
    .describe(
      "PDF: tagged (accessible) output; default true. false gives a smaller, untagged file.",
    ),
  actions: z
    .array(actionSchema)
    .max(L.actions, `At most ${L.actions} actions.`)
    .describe(
      "Steps run in order once the page is ready (after js, before delay), all within the timeout. A selector that matches nothing fails the capture naming the step.",
    ),
  failOnStatus: z
    .array(statusMatcherSchema)
    .min(1, NOT_EMPTY)
    .max(L.failOnStatusEntries, `At most ${L.failOnStatusEntries} entries.`)
    .describe(
      "Fail the capture (no credit) when the main document's final HTTP status matches one of these codes or classes. Default: capture whatever the page answers.",
    ),
} as const;
