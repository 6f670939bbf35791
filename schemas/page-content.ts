/**
 * The page content request contracts (POST /v1/content, /v1/scrape, /v1/links, /v1/snapshot):
 * the capture contract's own fields, so bounds and messages match, minus what only an image or
 * a PDF or another route uses (refused by name: strict objects), plus each route's own fields.
 * The capture's cross-field rules (`captureRules`) apply unchanged.
 */
import { z } from "zod";
import { captureRules, captureShape } from "./capture";
import { RENDER_MODES } from "./crawl-enums";
import { LIMITS } from "./limits";
import { cssSelector, hasControlChars, maxChars } from "./primitives";

/** Fields of a request other routes handle (hosted, async, storage, extraction) and PDF options. */
const NOT_ON_CONTENT_ROUTES = {
  hosted: true,
  async: true,
  webhookUrl: true,
  storage: true,
  cacheTtl: true,
  extract: true,
  extractFormat: true,
  pdfFormat: true,
  pdfLandscape: true,
  pdfPrintBackground: true,
  pdfScale: true,
  pdfMargin: true,
  pdfHeader: true,
  pdfFooter: true,
  pdfPageRanges: true,
  pdfOutline: true,
  pdfTagged: true,
} as const;

/** Fields that shape an image: only the snapshot, which takes one, accepts them. */
const IMAGE_ONLY = {
  format: true,
  quality: true,
  selector: true,
  resizeWidth: true,
  resizeHeight: true,
  clip: true,
  omitBackground: true,
} as const;

/** Capture fields the page content routes refuse (the playground offers them on captures only). */
export const CAPTURE_ONLY_FIELDS = Object.keys(NOT_ON_CONTENT_ROUTES);
/** Capture fields only the routes with an image take (captures and the snapshot). */
export const IMAGE_ONLY_FIELDS = Object.keys(IMAGE_ONLY);

const captureObject = z.strictObject(captureShape);
const snapshotOptions = captureObject.omit(NOT_ON_CONTENT_ROUTES).shape;
export const pageOptions = captureObject.omit({ ...NOT_ON_CONTENT_ROUTES, ...IMAGE_ONLY }).shape;

const stripScripts = z.boolean().meta({
  description:
    "Remove <script> elements, on* event-handler attributes and javascript: URLs from the rendered HTML.",
  default: true,
});

export const CONTENT_FORMATS = ["html", "text"] as const;

/**
 * `render` on the routes that read a page's content without needing its layout: /v1/content and
 * /v1/links (/v1/extract has its own). What only a browser does is refused with `never`.
 */
const render = z.enum(RENDER_MODES).optional().meta({
  description:
    "always: the page loaded in the browser; never: its document fetched over HTTP (an html source: taken as given) and read without a browser — no script runs, so js, actions and waitForSelector are refused, and the options of a browser (waitUntil, device, css, …) do not apply; auto: read over HTTP unless the document needs scripts to show its content or the request needs a browser, then in the browser. 1 credit either way; `rendered` in the answer says which.",
  default: "always",
});

/** Under `render: "never"`, a field only a browser can honour is the caller's 400. */
function refuseBrowserOnly(
  value: { render?: string; js?: unknown; actions?: unknown; waitForSelector?: unknown },
  ctx: z.RefinementCtx,
  more: Record<string, unknown> = {},
): void {
  if (value.render !== "never") return;
  const fields = {
    js: value.js,
    actions: value.actions,
    waitForSelector: value.waitForSelector,
    ...more,
  };
  for (const [field, set] of Object.entries(fields))
    if (set !== undefined && set !== false)
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `Needs the browser: not with render "never".`,
      });
}

export const contentRequestSchema = z
  .strictObject({
    ...pageOptions,
    contentFormat: z.enum(CONTENT_FORMATS).optional().meta({
      description: "html: the rendered DOM serialized; text: the page's visible text.",
      default: "html",
    }),
    stripScripts: stripScripts.optional(),
    render,
  })
  .superRefine((value, ctx) => {
    captureRules(value, ctx);
    refuseBrowserOnly(value, ctx);
    if (value.stripScripts !== undefined && value.contentFormat === "text")
      ctx.addIssue({
        code: "custom",
        path: ["stripScripts"],
        message: "stripScripts applies to contentFormat html.",
      });
  })
  .meta({ id: "ContentRequest" });
export type ContentRequest = z.output<typeof contentRequestSchema>;

export const attributeName = maxChars(LIMITS.attributeNameChars)
  .min(1, "Must not be empty.")
  .refine((s) => !hasControlChars(s) && !/[\s"'>/=]/.test(s), "Not an attribute name.");

export const scrapeElementSchema = z
  .strictObject({
    selector: cssSelector(LIMITS.selectorChars).meta({
      description: "A CSS selector; every match in document order (at most 100 are returned).",
    }),
    attributes: z
      .array(attributeName)
      .max(LIMITS.scrapeAttributes, `At most ${LIMITS.scrapeAttributes} attributes.`)
      .optional()
      .meta({
        description:
          "The attributes to return for each match (absent ones are left out); all of them when omitted.",
      }),
  })
  .meta({ id: "ScrapeElement" });
export type ScrapeElement = z.output<typeof scrapeElementSchema>;

export const scrapeRequestSchema = z
  .strictObject({
    ...pageOptions,
    elements: z
      .array(scrapeElementSchema)
      .min(1, "At least one element.")
      .max(LIMITS.scrapeSelectors, `At most ${LIMITS.scrapeSelectors} elements.`)
      .meta({ description: "The elements to read, 1 to 20 selectors." }),
  })
  .superRefine(captureRules)
  .meta({ id: "ScrapeRequest" });
export type ScrapeRequest = z.output<typeof scrapeRequestSchema>;

export const linksRequestSchema = z
  .strictObject({
    ...pageOptions,
    visibleOnly: z.boolean().optional().meta({
      description: "Only links the page renders (not display:none, visibility:hidden or 0×0).",
      default: false,
    }),
    internalOnly: z.boolean().optional().meta({
      description: "Only links to the page's own host.",
      default: false,
    }),
    includeNonHttp: z.boolean().optional().meta({
      description: "Also list javascript:, mailto:, tel: and other non-http(s) links.",
      default: false,
    }),
    render,
  })
  .superRefine((value, ctx) => {
    captureRules(value, ctx);
    refuseBrowserOnly(value, ctx, { visibleOnly: value.visibleOnly });
  })
  .meta({ id: "LinksRequest" });
export type LinksRequest = z.output<typeof linksRequestSchema>;

export const SNAPSHOT_FORMATS = ["png", "jpeg", "webp"] as const;

export const snapshotRequestSchema = z
  .strictObject({
    ...snapshotOptions,
    format: z
      .enum(SNAPSHOT_FORMATS)
      .optional()
      .meta({ description: "The screenshot's format.", default: "png" }),
    stripScripts: stripScripts.optional(),
  })
  .superRefine(captureRules)
  .meta({ id: "SnapshotRequest" });
export type SnapshotRequest = z.output<typeof snapshotRequestSchema>;
