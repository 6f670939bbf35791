/**
 * The shape of a CaptureSpec (built by src/capture-request/spec.ts): plain data, so it crosses RPC and queue
 * boundaries unchanged. Fields added later are optional, as older job documents lack them.
 */
import type {
  Action,
  Clip,
  FORMATS,
  MEDIA_TYPES,
  PDF_FORMATS,
  RESOURCE_TYPES,
  StatusMatcher,
  WAIT_UNTIL,
} from "../../schemas/capture";
import type { ScrapeElement } from "../../schemas/page-content";
import type { FieldMap } from "../../schemas/structured";

export type Format = (typeof FORMATS)[number];
export type WaitUntil = (typeof WAIT_UNTIL)[number];

export interface OutputPlan {
  formats: Format[];
  /** The page's article, read in the page (extraction: src/extract/reader.ts). */
  article: boolean;
  /** Page content read in the page (./page-content.ts); null = none. */
  content: ContentPlan | null;
  /**
   * A recording instead of images (POST /v1/animate; ./outputs/animation.ts): null/absent = none.
   * Absent in job documents written before it existed.
   */
  animation?: AnimationPlan | null;
}

/** What one recording films and how it is encoded (docs/ANIMATE.md). */
export interface AnimationPlan {
  format: "webm" | "mp4" | "gif";
  scenario: "scroll" | "still";
  durationMs: number;
  fps: number;
  /** scroll: CSS px per second, or the scroll's seconds down; neither = the whole clip. */
  scrollSpeed: number | null;
  scrollDurationMs: number | null;
  scrollTillSelector: string | null;
  scrollBack: boolean;
  startDelayMs: number;
}

/** The page content outputs of one load; null / false for a part not asked for. */
export interface ContentPlan {
  html: { stripScripts: boolean } | null;
  text: boolean;
  links: { visibleOnly: boolean; internalOnly: boolean; includeNonHttp: boolean } | null;
  elements: ScrapeElement[] | null;
  /** Fields by selector (POST /v1/json; ./page/page-structured.ts). */
  fields?: FieldMap | null;
  /** The page's own markup: JSON-LD, microdata, RDFa, meta tags, framework state. */
  markup?: boolean;
}

export interface SpecCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: "Strict" | "Lax" | "None";
  expires?: number;
}

export interface CaptureSpec {
  /**
   * What the one page load renders: image/PDF outputs in this order, and/or the rendered DOM
   * (for reader-mode extraction). The capture pipeline sets it from the requested outputs.
   */
  outputs: OutputPlan;
  source: { kind: "url"; url: string } | { kind: "html"; html: string };
  format: Format;
  /** JPEG/WebP quality; null for PNG and PDF. */
  quality: number | null;
  viewport: {
    width: number;
    height: number;
    deviceScaleFactor: number;
    isMobile: boolean;
    hasTouch: boolean;
  };
  /** null = the browser's own user agent, de-"Headless"-ed. */
  userAgent: string | null;
  fullPage: boolean;
  darkMode: boolean;
  waitUntil: WaitUntil;
  timeoutMs: number;
  bestAttempt: boolean;
  waitForSelector: string | null;
  delayMs: number;
  selector: string | null;
  blockAds: boolean;
  blockCookieBanners: boolean;
  blockResourceTypes: Array<(typeof RESOURCE_TYPES)[number]>;
  hideSelectors: string[];
  css: string | null;
  js: string | null;
  cookies: SpecCookie[];
  headers: Array<[string, string]>;
  resize: { width: number | null; height: number | null } | null;
  pdf: {
    format: (typeof PDF_FORMATS)[number];
    landscape: boolean;
    printBackground: boolean;
    scale: number;
    margin: { top: string; right: string; bottom: string; left: string };
    /** Running header/footer as Chromium print templates (artifacts); null = none. */
    headerTemplate: string | null;
    footerTemplate: string | null;
    /** A document outline (bookmarks) from the headings, and tagged (accessible) output. */
    outline: boolean;
    /** Tagged (accessible) output, Chromium's default; absent in older job documents (= true). */
    tagged?: boolean;
    /** Pages to keep ("1-3,5"); null/absent = all. */
    pageRanges?: string | null;
    /**
     * Elements (a CSS selector) whose text becomes the printed page count before any image is
     * taken (artifacts: "Page 1 of N" on the PNG); null/absent = none.
     */
    pagesInto?: string | null;
  };
  /** Text tiled over images (Free plan); null = no watermark. */
  watermark: string | null;
  /** HTTP credentials taken out of a `user:pass@host` URL. */
  credentials: { username: string; password: string } | null;
  /**
   * Geo-targeted capture: rendered by the geo provider in this country (capture/geo/), not by
   * our browsers; null = an ordinary capture. Absent in job documents written before it existed.
   */
  geo?: GeoTarget | null;
  /**
   * Page emulation and capture options (docs/CAPTURE-OPTIONS.md). Optional because job documents
   * written before they existed lack them: absent means the default (null / false).
   */
  clip?: Clip | null;
  omitBackground?: boolean;
  timezone?: string | null;
  locale?: string | null;
  mediaType?: (typeof MEDIA_TYPES)[number] | null;
  reducedMotion?: boolean;
  failOnStatus?: StatusMatcher[] | null;
  actions?: Action[];
  /**
   * Completeness (docs/CAPTURE.md, "Complete captures"): animations, transitions and videos left
   * running (default: frozen), and an incomplete capture failed instead of answered.
   */
  liveMotion?: boolean;
  requireComplete?: boolean;
}

export interface GeoTarget {
  /** ISO 3166-1 alpha-2, upper case as the spec lists it. */
  country: string;
  city: string | null;
  state: string | null;
}

/** True when `status` is one of `matchers`: an exact code or its class ("4xx"). */
export function statusMatches(matchers: readonly StatusMatcher[], status: number): boolean {
  const cls = `${Math.floor(status / 100)}xx`;
  return matchers.some((m) => m === status || m === cls);
}
