/**
 * The capture request contract (POST /v1/screenshot, /json; GET subset; render links; batches).
 * Fields are optional here; defaults are applied by `src/capture/spec.ts`, so the normaliser can
 * tell what a caller actually set. Cross-field rules live in `captureRules`.
 */
import { storageOptionSchema } from "./storage";
import { z } from "zod";
import { LIMITS } from "./limits";
import {
  byteLength,
  cssLength,
  cssSelector,
  hasControlChars,
  intIn,
  isPlainObject,
  maxBytes,
  maxChars,
  NOT_EMPTY,
  numberIn,
} from "./primitives";

export const FORMATS = ["png", "jpeg", "webp", "pdf"] as const;
export const WAIT_UNTIL = ["load", "domcontentloaded", "networkidle0", "networkidle2"] as const;
export const DEVICES = [
  "desktop",
  "iphone_15",
  "iphone_se",
  "pixel_8",
  "ipad",
  "ipad_pro",
] as const;
export const RESOURCE_TYPES = ["font", "image", "media", "stylesheet", "other"] as const;
export const PDF_FORMATS = ["A4", "Letter", "Legal", "Tabloid", "A3"] as const;
export const EXTRACT_FORMATS = ["markdown", "json", "html"] as const;
export const MEDIA_TYPES = ["screen", "print"] as const;
export const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;
export const GEO_COUNTRIES = [
  "AF",
  "AL",
  "DZ",
  "AR",
  "AU",
  "AT",
  "BD",
  "BE",
  "BR",
  "BG",
  "CA",
  "CL",
  "CN",
  "CO",
  "HR",
  "CZ",
  "DK",
  "EG",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HK",
  "HU",
  "IN",
  "ID",
  "IE",
  "IL",
  "IT",
  "JP",
  "KE",
  "KR",
  "LV",
  "LT",
  "MY",
  "MX",
  "NL",
  "NZ",
  "NG",
  "NO",
  "PK",
  "PE",
  "PH",
  "PL",
  "PT",
  "RO",
  "RU",
  "SA",
  "SG",
  "SK",
  "ZA",
  "ES",
  "SE",
  "CH",
  "TW",
  "TH",
  "TR",
  "UA",
  "AE",
  "GB",
  "US",
  "VN",
] as const;

/**
 * Request headers a customer may never set: the spec's four, plus the hop-by-hop and proxy
 * headers Chromium's network stack will not send (with one of them set, the navigation stalls
 * until the timeout instead of failing). `Proxy-*` as a whole.
 */
export const FORBIDDEN_HEADERS = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "cookie2",
]);
const isForbiddenHeader = (name: string): boolean => {
  const lower = name.toLowerCase();
  return FORBIDDEN_HEADERS.has(lower) || lower.startsWith("proxy-");
};
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Cookies are checked here against what Chromium will accept (Network.setCookies answers a
 * bare "Invalid cookie fields" otherwise, after a credit was reserved): no control characters
 * (tab included) or `;`, no leading/trailing whitespace (the browser would trim it and then
 * refuse the changed cookie), name + value at most 4,096 UTF-8 bytes, a path at most 1,024
 * bytes once percent-encoded, and the `__Secure-` / `__Host-` prefix rules (any letter case).
 */
const COOKIE_CONTROL = /[\u0000-\u001f\u007f;]/;
const EDGE_SPACE = /^[ \t]|[ \t]$/;

/** Length of a cookie path once the browser percent-encodes it (non-ASCII bytes and a few
 *  ASCII characters become `%XX`). */
function encodedPathBytes(path: string): number {
  let n = 0;
  for (const byte of new TextEncoder().encode(path))
    n += byte >= 0x80 || ' "<>`{}'.includes(String.fromCharCode(byte)) ? 3 : 1;
  return n;
}

export const cookieSchema = z
  .strictObject({
    name: maxChars(LIMITS.cookieNameChars)
      .min(1, NOT_EMPTY)
      .refine((s) => !COOKIE_CONTROL.test(s) && !/[=\s,]/.test(s), "Invalid cookie name."),
    value: maxChars(LIMITS.cookieValueChars).refine(
      (s) => !COOKIE_CONTROL.test(s) && !EDGE_SPACE.test(s),
      "Invalid cookie value: no control characters, `;` or leading/trailing spaces.",
    ),
    domain: maxChars(LIMITS.cookieDomainChars).optional(),
    path: maxChars(LIMITS.cookiePathChars)
      .startsWith("/", "Must start with /.")
      .refine(
        (s) => !COOKIE_CONTROL.test(s) && !EDGE_SPACE.test(s),
        "Invalid cookie path: no control characters, `;` or trailing spaces.",
      )
      .refine(
        (s) => encodedPathBytes(s) <= LIMITS.cookieAttributeBytes,
        `Must be at most ${LIMITS.cookieAttributeBytes} bytes percent-encoded.`,
      )
      .optional(),
    httpOnly: z.boolean().optional(),
    secure: z.boolean().optional(),
    sameSite: z.enum(["Strict", "Lax", "None"]).optional(),
    expires: z
      .number()
      .int("Must be a Unix timestamp in seconds.")
      .min(0)
      .max(253402300799)
      .optional(),
  })
  .superRefine((cookie, ctx) => {
    if (byteLength(cookie.name) + byteLength(cookie.value) > LIMITS.cookieNameValueBytes) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: `Name and value together must be at most ${LIMITS.cookieNameValueBytes} bytes (UTF-8).`,
      });
    }
    const name = cookie.name.toLowerCase();
    if ((name.startsWith("__secure-") || name.startsWith("__host-")) && cookie.secure !== true) {
      ctx.addIssue({
        code: "custom",
        path: ["secure"],
        message: "A __Secure- or __Host- cookie needs secure: true.",
      });
    }
    if (name.startsWith("__host-") && cookie.path !== undefined && cookie.path !== "/") {
      ctx.addIssue({
        code: "custom",
        path: ["path"],
        message: "A __Host- cookie must have path /.",
      });
    }
    if (name.startsWith("__host-") && cookie.domain !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["domain"],
        message: "A __Host- cookie cannot set a domain.",
      });
    }
  });
export type CookieInput = z.infer<typeof cookieSchema>;

/**
 * Custom request headers: validated by hand (not z.record) so a `__proto__` key can never be
 * assigned onto an object; the output is a list of pairs.
 */
export const headersSchema = z
  .unknown()
  .transform((value, ctx): Array<[string, string]> => {
    if (!isPlainObject(value)) {
      ctx.addIssue({
        code: "custom",
        message: "Must be an object of header names to string values.",
      });
      return z.NEVER;
    }
    const entries = Object.entries(value);
    if (entries.length > LIMITS.headers) {
      ctx.addIssue({ code: "custom", message: `At most ${LIMITS.headers} headers.` });
      return z.NEVER;
    }
    const out: Array<[string, string]> = [];
    for (const [name, v] of entries) {
      const path = [name];
      if (!HEADER_NAME.test(name)) {
        ctx.addIssue({ code: "custom", path, message: "Invalid header name." });
      } else if (isForbiddenHeader(name)) {
        ctx.addIssue({ code: "custom", path, message: `The ${name} header cannot be overridden.` });
      } else if (typeof v !== "string") {
        ctx.addIssue({ code: "custom", path, message: "Header values must be strings." });
      } else if (v.length > LIMITS.headerValueChars) {
        ctx.addIssue({
          code: "custom",
          path,
          message: `Must be at most ${LIMITS.headerValueChars} characters.`,
        });
      } else if (hasControlChars(v) || /[^\u0009\u0020-\u00ff]/.test(v)) {
        ctx.addIssue({
          code: "custom",
          path,
          message: "Header values must be printable Latin-1 without CR or LF.",
        });
      } else {
        out.push([name, v]);
      }
    }
    return out;
  })
  .meta({
    override: {
      type: "object",
      maxProperties: LIMITS.headers,
      additionalProperties: { type: "string", maxLength: LIMITS.headerValueChars },
    },
  });

/** Mustache data: a JSON object of at most 256 KB serialized. */
export const dataSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (!isPlainObject(value)) {
      ctx.addIssue({ code: "custom", message: "Must be a JSON object." });
    } else if (new TextEncoder().encode(JSON.stringify(value)).byteLength > LIMITS.dataBytes) {
      ctx.addIssue({ code: "custom", message: "Must be at most 256 KB serialized." });
    }
  })
  .transform((v) => v as Record<string, unknown>)
  .meta({ override: { type: "object", additionalProperties: true } });

/**
 * An IANA time zone name the runtime knows (its `Intl` list, aliases such as `UTC` included):
 * the browser runs the same ICU data. Offsets (`+01:00`) are not names and are refused.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-]*(?:\/[A-Za-z0-9_+\-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A well-formed BCP 47 language tag (`de-DE`, `pt-BR`, `zh-Hant-TW`) the runtime supports. */
export function isLocale(tag: string): boolean {
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(tag)) return false;
  try {
    return (
      Intl.getCanonicalLocales(tag).length === 1 &&
      Intl.DateTimeFormat.supportedLocalesOf([tag]).length === 1
    );
  } catch {
    return false;
  }
}

/** A rectangle of the page in CSS pixels (page coordinates with fullPage, else the viewport's). */
export const clipSchema = z
  .strictObject({
    x: numberIn(0, LIMITS.fullPageMaxCssPx).describe("Left edge, CSS px."),
    y: numberIn(0, LIMITS.fullPageMaxCssPx).describe("Top edge, CSS px."),
    width: numberIn(1, LIMITS.width.max).describe("Width, CSS px."),
    height: numberIn(1, LIMITS.fullPageMaxCssPx).describe("Height, CSS px."),
  })
  .describe(
    "Capture exactly this rectangle, in CSS px. Without fullPage it must lie inside the viewport; with fullPage the coordinates are page coordinates and it must lie inside the page.",
  );
export type Clip = z.output<typeof clipSchema>;

/** One `failOnStatus` entry: an exact status code or a class such as "4xx". */
export const statusMatcherSchema = z
  .union([intIn(100, 599), z.enum(STATUS_CLASSES)], {
    error: 'Must be a status code (100-599) or a class: "1xx" … "5xx".',
  })
  .describe('An HTTP status code (404) or a class ("4xx", "5xx").');
export type StatusMatcher = z.output<typeof statusMatcherSchema>;

/**
 * Keys a `press` action may name: printable ASCII characters one at a time, and the named keys
 * of the US keyboard layout the browser driver knows (anything else it would refuse mid-capture).
 */
const NAMED_KEYS = new Set([
  "Enter",
  "Tab",
  "Escape",
  "Backspace",
  "Delete",
  "Insert",
  "Home",
  "End",
  "PageUp",
  "PageDown",
  "ArrowUp",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "Shift",
  "Control",
  "Alt",
  "Meta",
  "Space",
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
]);
export const isKeyName = (key: string): boolean => NAMED_KEYS.has(key) || /^[\x20-\x7e]$/.test(key);

const selectorField = () => cssSelector(LIMITS.selectorChars);
/** One step of `actions`: an object with exactly one of these keys. */
export const actionSchema = z
  .union(
    [
      z.strictObject({ click: selectorField().describe("Click the first element matching.") }),
      z.strictObject({ hover: selectorField().describe("Move the mouse over the element.") }),
      z.strictObject({
        type: z
          .strictObject({
            selector: selectorField(),
            text: maxChars(LIMITS.actionTextChars),
          })
          .describe(
            `Focus the element and type text (at most ${LIMITS.actionTextChars} characters).`,
          ),
      }),
      z.strictObject({
        press: z
          .string()
          .refine(isKeyName, "Unknown key.")
          .describe('Press a key: "Enter", "Tab", "Escape", "ArrowDown", "a", …'),
      }),
      z.strictObject({
        scroll: z
          .union([
            z.strictObject({ y: numberIn(0, LIMITS.fullPageMaxCssPx) }),
            z.strictObject({ selector: selectorField() }),
          ])
          .describe("Scroll the window to y (CSS px) or the element into view."),
      }),
      z.strictObject({
        wait: intIn(0, LIMITS.actionWaitMs).describe(
          `Wait this many ms (at most ${LIMITS.actionWaitMs}).`,
        ),
      }),
      z.strictObject({
        waitForSelector: selectorField().describe("Wait until an element matches."),
      }),
    ],
    {
      error: `Must be one action: {click}, {hover}, {type: {selector, text}}, {press}, {scroll: {y} | {selector}}, {wait: ms ≤ ${LIMITS.actionWaitMs}} or {waitForSelector}, with valid values (CSS selectors, text ≤ ${LIMITS.actionTextChars} characters).`,
    },
  )
  .describe("One step of actions.");
export type Action = z.output<typeof actionSchema>;

/**
 * A PDF header/footer template loads nothing: no scripts, frames, links to stylesheets, and no
 * URL other than an inline `data:` one (in src, srcset, href, url(), @import). The one reason
 * found, or null.
 */
export function templateProblem(html: string): string | null {
  if (
    /<\s*(script|iframe|frame|object|embed|link|meta|base|svg|video|audio|source|portal)\b/i.test(
      html,
    )
  )
    return "Scripts, frames, embeds, link/meta/base, svg and media elements are not allowed.";
  if (/@import/i.test(html)) return "@import is not allowed.";
  if (/\bon[a-z]+\s*=/i.test(html)) return "Event handler attributes are not allowed.";
  const urls = [
    ...html.matchAll(
      /\b(?:src|href|srcset|action|poster|background)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
  const cssUrls = [...html.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\)/gi)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? "",
  );
  if ([...urls, ...cssUrls].some((u) => !/^\s*data:/i.test(u)))
    return "Only inline data: URLs may be referenced (nothing is loaded while printing).";
  if (/&#|&[a-z]+;|\\/i.test([...urls, ...cssUrls].join("")))
    return "URLs must not contain escapes.";
  return null;
}

const pdfTemplate = maxBytes(LIMITS.pdfTemplateBytes)
  .min(1, NOT_EMPTY)
  .superRefine((html, ctx) => {
    const problem = templateProblem(html);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
  });

/** "1-3,5", "2-": pages counted from 1, ranges ascending. */
export const pdfPageRangesSchema = maxChars(LIMITS.pdfPageRangesChars).superRefine((s, ctx) => {
  const parts = s.split(",").map((p) => p.trim());
  for (const part of parts) {
    const m = /^(\d{1,5})(?:\s*-\s*(\d{1,5})?)?$/.exec(part);
    const from = Number(m?.[1]);
    const to = m?.[2] === undefined ? from : Number(m[2]);
    if (!m || from < 1 || to < from) {
      ctx.addIssue({
        code: "custom",
        message: 'Must be page numbers and ranges such as "1-3,5" (pages count from 1).',
      });
      return;
    }
  }
});

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
  delay: intIn(L.delayMs.min, L.delayMs.max).meta({
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
  timeout: intIn(L.timeoutSeconds.min, L.timeoutSeconds.max).meta({
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
  cacheTtl: intIn(L.cacheTtl.min, L.cacheTtl.max).meta({
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

type Fields = typeof captureFields;
type OptionalShape<T extends Record<string, z.ZodType>> = { [K in keyof T]: z.ZodOptional<T[K]> };

function optionalShape<T extends Record<string, z.ZodType>>(fields: T): OptionalShape<T> {
  const out: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(fields)) out[key] = schema.optional();
  return out as OptionalShape<T>;
}

/** PDF page sizes in inches, portrait. */
const PDF_PAGE_INCHES: Record<(typeof PDF_FORMATS)[number], [number, number]> = {
  A4: [210 / 25.4, 297 / 25.4],
  Letter: [8.5, 11],
  Legal: [8.5, 14],
  Tabloid: [11, 17],
  A3: [297 / 25.4, 420 / 25.4],
};
const INCHES_PER_UNIT: Record<string, number> = {
  px: 1 / 96,
  in: 1,
  cm: 1 / 2.54,
  mm: 1 / 25.4,
  pt: 1 / 72,
  pc: 1 / 6,
};
const inches = (length: string | undefined): number => {
  const m = /^(\d+(?:\.\d+)?)([a-z]+)$/.exec(length ?? "0");
  return m ? Number(m[1]) * (INCHES_PER_UNIT[m[2] ?? ""] ?? 0) : 0;
};
/** Margins must leave this much of the page (Chromium refuses an empty content area with a
 *  bare "invalid print parameters"; a Free-plan footer takes 0.4in of a zero bottom margin). */
const PDF_MIN_CONTENT_INCHES = 1;

type PdfMargin = { top?: string; right?: string; bottom?: string; left?: string };

/** Margins that leave too little of the page: an issue per offending pair, at `path`. */
export function pdfMarginIssues(
  margin: PdfMargin,
  size: (typeof PDF_FORMATS)[number],
  landscape: boolean,
  path: ReadonlyArray<string>,
  ctx: z.RefinementCtx,
): void {
  const [w, h] = PDF_PAGE_INCHES[size];
  const [width, height] = landscape ? [h, w] : [w, h];
  for (const [sides, extent] of [
    [["top", "bottom"], height],
    [["left", "right"], width],
  ] as const) {
    if (inches(margin[sides[0]]) + inches(margin[sides[1]]) > extent - PDF_MIN_CONTENT_INCHES) {
      ctx.addIssue({
        code: "custom",
        path: [...path, sides[0]],
        message: `${sides[0]} + ${sides[1]} margins must leave at least ${PDF_MIN_CONTENT_INCHES}in of the ${extent.toFixed(2)}in page.`,
      });
    }
  }
}

/** Cross-field rules every capture request obeys, wherever it arrives from. */
export function captureRules(value: Partial<CaptureParams>, ctx: z.RefinementCtx): void {
  if (value.pdfMargin !== undefined) {
    pdfMarginIssues(
      value.pdfMargin,
      value.pdfFormat ?? "A4",
      value.pdfLandscape === true,
      ["pdfMargin"],
      ctx,
    );
  }
  const sources = (["url", "html", "markdown"] as const).filter((k) => value[k] !== undefined);
  if (sources.length !== 1) {
    ctx.addIssue({
      code: "custom",
      path: sources.length === 0 ? ["url"] : [sources[1] ?? "url"],
      message: "Exactly one of url, html or markdown is required.",
    });
  }
  if (value.data !== undefined && value.url !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["data"],
      message: "data is only allowed with html or markdown.",
    });
  }
  if (value.webhookUrl !== undefined && value.async !== true) {
    ctx.addIssue({
      code: "custom",
      path: ["webhookUrl"],
      message: "webhookUrl requires async: true.",
    });
  }
  if (value.storage !== undefined && value.async !== true) {
    ctx.addIssue({
      code: "custom",
      path: ["storage"],
      message: "storage requires async: true (only async results are delivered to a bucket).",
    });
  }
  if (value.clip !== undefined) {
    if (value.selector !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["clip"],
        message: "clip and selector exclude each other.",
      });
    if (value.format === "pdf")
      ctx.addIssue({ code: "custom", path: ["clip"], message: "clip applies to images, not pdf." });
    if (value.clip.y + value.clip.height > LIMITS.fullPageMaxCssPx)
      ctx.addIssue({
        code: "custom",
        path: ["clip", "height"],
        message: `y + height must be at most ${LIMITS.fullPageMaxCssPx}.`,
      });
  }
  if (
    value.omitBackground === true &&
    value.format !== undefined &&
    !["png", "webp"].includes(value.format)
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["omitBackground"],
      message: "omitBackground needs format png or webp.",
    });
  }
  if (value.pdfOutline === true && value.pdfTagged === false) {
    ctx.addIssue({
      code: "custom",
      path: ["pdfTagged"],
      message: "pdfOutline needs a tagged PDF (the outline is built from its structure).",
    });
  }
  if (value.failOnStatus !== undefined && value.url === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["failOnStatus"],
      message: "failOnStatus needs a url target (html and markdown have no HTTP status).",
    });
  }
  if ((value.geoCity !== undefined || value.geoState !== undefined) && value.geo === undefined) {
    ctx.addIssue({
      code: "custom",
      path: [value.geoCity !== undefined ? "geoCity" : "geoState"],
      message: "Requires geo.",
    });
  }
}

export const captureShape = optionalShape(captureFields);
export const captureRequestSchema = z
  .strictObject(captureShape)
  .superRefine(captureRules)
  .meta({ id: "CaptureRequest" });
export type CaptureParams = { [K in keyof Fields]: z.output<Fields[K]> };
export type CaptureRequest = z.output<typeof captureRequestSchema>;
