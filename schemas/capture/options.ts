/**
 * Every capture option, classified once, keyed by the request's fields (./fields.ts): how GET
 * /v1/screenshot takes it from the query (or not at all), whether a geo capture honours it, and
 * whether only the routes that name it may take it. The record's type requires every field, so
 * a new option does not compile until someone decides all three here.
 *
 * The lists the rules read are derived from it, in the fields' order: GET's parameters by type
 * and its POST-only names (../capture-query.ts), the options a geo capture refuses and the
 * route-specific ones (src/capture/request.ts).
 */
import type { captureFields } from "./fields";

export type CaptureOption = keyof typeof captureFields;

interface OptionClass {
  /** GET /v1/screenshot's query type, or false: POST only (named in GET's 400). */
  get: "string" | "number" | "boolean" | false;
  /**
   * With `geo`: honoured ("yes"); refused when stated with other than its default ("no"); or
   * "value": the geo check reads the value itself (a format other than png, `extract: true`).
   */
  geo: "yes" | "no" | "value";
  /** Only routes that say they handle it take it; every other route refuses it (400). */
  routeSpecific?: true;
}

const NONE = { get: false, geo: "no" } as const;
const STRING = { get: "string", geo: "no" } as const;
const NUMBER = { get: "number", geo: "no" } as const;
const BOOLEAN = { get: "boolean", geo: "no" } as const;
const POST_ROUTE = { get: false, geo: "yes", routeSpecific: true } as const;

export const CAPTURE_OPTIONS: Record<CaptureOption, OptionClass> = {
  url: { get: "string", geo: "yes" },
  html: NONE,
  markdown: NONE,
  data: { get: false, geo: "yes" },
  format: { get: "string", geo: "value" },
  width: { get: "number", geo: "yes" },
  height: { get: "number", geo: "yes" },
  fullPage: BOOLEAN,
  darkMode: BOOLEAN,
  blockAds: BOOLEAN,
  quality: { get: "number", geo: "yes" },
  delay: { get: "number", geo: "yes" },
  deviceScaleFactor: NUMBER,
  blockResourceTypes: NONE,
  timeout: { get: "number", geo: "yes" },
  waitUntil: { get: "string", geo: "yes" },
  waitForSelector: STRING,
  bestAttempt: { get: "boolean", geo: "yes" },
  selector: STRING,
  device: { get: "string", geo: "yes" },
  hideSelectors: NONE,
  blockCookieBanners: BOOLEAN,
  resizeWidth: { get: "number", geo: "yes" },
  resizeHeight: { get: "number", geo: "yes" },
  css: NONE,
  js: NONE,
  cookies: NONE,
  headers: NONE,
  userAgent: STRING,
  pdfFormat: STRING,
  pdfLandscape: BOOLEAN,
  pdfPrintBackground: BOOLEAN,
  pdfScale: NUMBER,
  pdfMargin: NONE,
  geo: { get: "string", geo: "yes" },
  geoCity: { get: "string", geo: "yes" },
  geoState: { get: "string", geo: "yes" },
  hosted: POST_ROUTE,
  extract: { get: false, geo: "value", routeSpecific: true },
  extractFormat: POST_ROUTE,
  async: POST_ROUTE,
  webhookUrl: POST_ROUTE,
  storage: POST_ROUTE,
  cacheTtl: { get: false, geo: "yes" },
  clip: NONE,
  omitBackground: BOOLEAN,
  timezone: STRING,
  locale: STRING,
  mediaType: STRING,
  reducedMotion: BOOLEAN,
  liveMotion: BOOLEAN,
  requireComplete: BOOLEAN,
  pdfHeader: NONE,
  pdfFooter: NONE,
  pdfPageRanges: STRING,
  pdfOutline: BOOLEAN,
  pdfTagged: BOOLEAN,
  actions: NONE,
  failOnStatus: NONE,
};

const OPTIONS = Object.keys(CAPTURE_OPTIONS) as CaptureOption[];

/** The options whose class matches `test`, in the fields' order. */
export function optionsWhere(test: (c: OptionClass) => boolean): CaptureOption[] {
  return OPTIONS.filter((k) => test(CAPTURE_OPTIONS[k]));
}
