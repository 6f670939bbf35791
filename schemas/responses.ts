/**
 * The response contract: every JSON body the service answers with, as zod schemas beside the
 * request schemas. Handlers type what they return from these (`z.output<…>`), so a shape
 * changes here first; an SDK or an OpenAPI document can be generated from them. Those about
 * async jobs and batches, and about the account, are in ./responses/ (re-exported here).
 */
import { z } from "zod";
import { PAGE_LOADERS } from "./crawl-enums";
import { EXTRACT_FORMATS, FORMATS } from "./capture";
import { completenessSchema } from "./responses/completeness";

export * from "./responses/jobs";
export * from "./responses/completeness";
export * from "./responses/account";
export * from "./responses/webhooks";
export * from "./responses/requests";
export * from "./responses/animate";

const iso = z.iso.datetime();

// ---- The envelope ------------------------------------------------------------------------

export const usageSchema = z
  .object({
    /** Credits this request spent. */
    credits: z.number().int(),
    /** Credits left this month; null on unlimited plans. */
    remaining: z.number().int().nullable(),
  })
  .meta({ id: "Usage" });
export type Usage = z.output<typeof usageSchema>;

export const metaSchema = z
  .object({
    requestId: z.string(),
    timestamp: iso,
    usage: usageSchema.optional(),
  })
  .meta({ id: "Meta" });
export type Meta = z.output<typeof metaSchema>;

export const errorDetailSchema = z
  .object({ path: z.string(), message: z.string() })
  .meta({ id: "ErrorDetail" });

export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(errorDetailSchema).optional(),
    /** Where the code is explained: `/docs/errors#<CODE>` on this service. */
    docs: z.string(),
  }),
  meta: metaSchema,
});

export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, meta: metaSchema });
}

// ---- Captures ----------------------------------------------------------------------------

/** POST /v1/extract, and `extracted` on a JSON capture. */
export const extractionSchema = z
  .object({
    /** The page the content was read from (after redirects). */
    url: z.string(),
    format: z.enum(EXTRACT_FORMATS),
    content: z.string(),
    /** Article metadata; "" when the page does not say. */
    title: z.string(),
    byline: z.string(),
    excerpt: z.string(),
    siteName: z.string(),
    /** Characters of article text. */
    length: z.number().int(),
    loadTimeMs: z.number(),
    rendered: z.enum(PAGE_LOADERS).optional().meta({
      description:
        "POST /v1/extract: how the page was read — http (fetched, no browser) or browser (see `render`).",
    }),
  })
  .meta({ id: "Extraction" });
export type ExtractionData = z.output<typeof extractionSchema>;

/** What a captured page says about itself; "" where it says nothing. */
export const pageMetadataSchema = z
  .object({
    title: z.string().describe("The page's <title>."),
    finalUrl: z.string().describe("Where the page ended up after redirects."),
    targetStatus: z
      .number()
      .int()
      .nullable()
      .describe("The main document's final HTTP status; null for html/markdown sources."),
    openGraph: z
      .object({
        title: z.string(),
        description: z.string(),
        image: z.string(),
        siteName: z.string(),
      })
      .describe("The page's og:title, og:description, og:image and og:site_name."),
    watermarked: z.literal(true).optional().describe("Free plan: the output carries a watermark."),
  })
  .describe("Facts read from the captured page.");
export type PageMetadataData = z.output<typeof pageMetadataSchema>;

/** POST /v1/screenshot/json. */
export const captureJsonSchema = z
  .object({
    image: z.string(),
    contentType: z.string(),
    url: z.string(),
    /** Images: pixel size (after resize). PDFs: the viewport's CSS size the page was laid out in. */
    width: z.number().int(),
    height: z.number().int(),
    pages: z
      .number()
      .int()
      .optional()
      .meta({ description: "PDF only: the number of pages printed (after pdfPageRanges)." }),
    format: z.enum(FORMATS),
    bytesSize: z.number().int(),
    capturedAt: iso,
    quality: z.string(),
    completeness: completenessSchema.nullable().meta({
      description:
        "How complete the capture is; null for geo captures (rendered by the geo provider).",
    }),
    waitStrategy: z.string(),
    loadTimeMs: z.number(),
    metadata: pageMetadataSchema,
    /** With `extract: true`: the article, or null with `extractionError`. */
    extracted: extractionSchema.nullable().optional(),
    extractionError: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .meta({ id: "CaptureJson" });
export type CaptureJsonData = z.output<typeof captureJsonSchema>;

// ---- Page content (POST /v1/content, /v1/scrape, /v1/links, /v1/snapshot) ----------------

/** What every page content answer says about the load, beside its content. */
const pageLoadFields = {
  /** The page the content was read from (after redirects; about:blank for html/markdown). */
  url: z.string(),
  capturedAt: iso,
  quality: z.string(),
  waitStrategy: z.string(),
  loadTimeMs: z.number(),
  completeness: completenessSchema.nullable().meta({
    description:
      'How complete the page was when it was read (docs/CAPTURE.md, "Complete captures"): with no shot taken (all but /v1/snapshot), nothing is waited for, `blankRatio` is null and images count over the whole document. Null when no browser loaded the page (`rendered: "http"`).',
  }),
  metadata: pageMetadataSchema,
};

/** How a page content answer's page was read, when the request set `render`. */
const renderedField = {
  rendered: z.enum(PAGE_LOADERS).optional().meta({
    description:
      "With `render` auto or never: how the page was read — http (its document fetched and read without a browser) or browser.",
  }),
};

/** POST /v1/content with Accept: application/json. */
export const pageContentSchema = z
  .object({
    ...pageLoadFields,
    ...renderedField,
    /** contentFormat html: the rendered DOM serialized. */
    html: z.string().optional(),
    /** contentFormat text: the page's visible text, one line per block. */
    text: z.string().optional(),
    /** The content was cut at its limit (HTML 5 MB, text 2 MB). */
    truncated: z.boolean(),
  })
  .meta({ id: "PageContent" });
export type PageContentData = z.output<typeof pageContentSchema>;

export const scrapeMatchSchema = z
  .object({
    /** The element's visible text. */
    text: z.string(),
    /** The element's outerHTML. */
    html: z.string(),
    /** The requested attributes it has (all of them when none were named). */
    attributes: z.record(z.string(), z.string()),
    /** Its box in document coordinates, CSS px. */
    box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  })
  .meta({ id: "ScrapeMatch" });

export const scrapeResultSchema = z
  .object({
    selector: z.string(),
    matches: z.array(scrapeMatchSchema),
    /** More than 100 matched, or the response's 5 MB of strings ran out: some are left out or cut. */
    truncated: z.boolean(),
  })
  .meta({ id: "ScrapeResult" });
export type ScrapeResultData = z.output<typeof scrapeResultSchema>;

/** POST /v1/scrape. */
export const scrapeSchema = z
  .object({ ...pageLoadFields, results: z.array(scrapeResultSchema) })
  .meta({ id: "Scrape" });
export type ScrapeData = z.output<typeof scrapeSchema>;

export const pageLinkSchema = z
  .object({
    /** Absolute, without its fragment. */
    url: z.string(),
    /** The link's visible text (else its aria-label or title), at most 500 characters. */
    text: z.string(),
    rel: z.string(),
    /** On the page's own host. */
    internal: z.boolean(),
  })
  .meta({ id: "PageLink" });
export type PageLinkData = z.output<typeof pageLinkSchema>;

/** POST /v1/links. */
export const linksSchema = z
  .object({
    ...pageLoadFields,
    ...renderedField,
    links: z.array(pageLinkSchema),
    /** More than 2,000 links, or some over 2,048 characters: those are left out. */
    truncated: z.boolean(),
  })
  .meta({ id: "Links" });
export type LinksData = z.output<typeof linksSchema>;

// ---- Structured data (POST /v1/json) ----------------------------------------------------

export const MARKUP_SOURCES = [
  "json-ld",
  "microdata",
  "rdfa",
  "next-data",
  "nuxt-data",
  "opengraph",
  "twitter",
] as const;
export type MarkupSource = (typeof MARKUP_SOURCES)[number];

const text = z.string().nullable();
const urls = z.array(z.string());

export const productValuesSchema = z
  .object({
    name: text,
    description: text,
    url: text,
    sku: text,
    gtin: text,
    brand: text,
    /** The first offer's price (a range's low price). */
    price: z.number().nullable(),
    /** ISO 4217, as the page wrote it. */
    currency: text,
    /** schema.org's ItemAvailability name: InStock, OutOfStock, PreOrder, BackOrder, … */
    availability: text,
    images: urls,
    rating: z
      .object({ value: z.number(), count: z.number().nullable(), best: z.number().nullable() })
      .nullable(),
  })
  .meta({ id: "ProductValues" });
export type ProductValues = z.output<typeof productValuesSchema>;

export const articleValuesSchema = z
  .object({
    headline: text,
    description: text,
    url: text,
    authors: z.array(z.string()),
    /** ISO 8601. */
    datePublished: text,
    dateModified: text,
    images: urls,
    publisher: text,
  })
  .meta({ id: "ArticleValues" });
export type ArticleValues = z.output<typeof articleValuesSchema>;

export const organizationValuesSchema = z
  .object({ name: text, description: text, url: text, logo: text, sameAs: urls })
  .meta({ id: "OrganizationValues" });
export type OrganizationValues = z.output<typeof organizationValuesSchema>;

const markupCommon = {
  /** Where each value came from (values not found are left out). */
  sources: z.record(z.string(), z.enum(MARKUP_SOURCES)),
  /** JSON-LD blocks that were not JSON: skipped. */
  skippedJsonLd: z.number().int(),
  /** The page's markup exceeded what is read (4 MB, 200 items): some was left unread. */
  truncated: z.boolean(),
};

export const markupSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("product"), values: productValuesSchema, ...markupCommon }),
    z.object({ kind: z.literal("article"), values: articleValuesSchema, ...markupCommon }),
    z.object({
      kind: z.literal("organization"),
      values: organizationValuesSchema,
      ...markupCommon,
    }),
    z.object({ kind: z.null(), values: z.null(), ...markupCommon }),
  ])
  .meta({ id: "Markup" });
export type MarkupData = z.output<typeof markupSchema>;

/** POST /v1/json. */
export const structuredSchema = z
  .object({
    ...pageLoadFields,
    /** `fields`: each field's value, typed (null when not found, unless it has a default). */
    fields: z.record(z.string(), z.unknown()).optional(),
    /** `fields`: the read budget or a 1,000-item list ran out: some values are left out. */
    truncated: z.boolean().optional(),
    /** `kind`: what the page's own markup says (kind null: it describes none of them). */
    markup: markupSchema.optional(),
  })
  .meta({ id: "Structured" });
export type StructuredData = z.output<typeof structuredSchema>;

/** POST /v1/snapshot: the rendered HTML and a screenshot of one page load. */
export const snapshotSchema = z
  .object({
    ...pageLoadFields,
    html: z.string(),
    /** The HTML was cut at 5 MB. */
    truncated: z.boolean(),
    /** The screenshot, base64. */
    screenshot: z.string(),
    contentType: z.string(),
    format: z.enum(FORMATS),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: "Snapshot" });
export type SnapshotData = z.output<typeof snapshotSchema>;

/** POST /v1/screenshot with `hosted: true`. */
export const hostedCaptureSchema = z
  .object({
    url: z.string(),
    expiresAt: iso,
    contentType: z.string(),
    format: z.enum(FORMATS),
    width: z.number().int(),
    height: z.number().int(),
    bytesSize: z.number().int(),
  })
  .meta({ id: "HostedCapture" });
export type HostedCaptureData = z.output<typeof hostedCaptureSchema>;

/** POST /v1/render/link. */
export const renderLinkSchema = z
  .object({
    url: z.string(),
    expiresAt: iso,
    format: z.enum(FORMATS),
    cacheTtl: z.number().int(),
  })
  .meta({ id: "RenderLink" });
export type RenderLinkData = z.output<typeof renderLinkSchema>;

/** POST /v1/artifact: signed URLs of what was rendered, and the share page. */
export const artifactSchema = z
  .object({
    pdfUrl: z.string().optional(),
    pngUrl: z.string().optional(),
    shareUrl: z.string(),
    expiresAt: iso,
    title: z.string(),
    /** Requested outputs that failed to render (their credits refunded), with the reason. */
    failed: z
      .array(z.object({ format: z.enum(["pdf", "png"]), code: z.string(), message: z.string() }))
      .optional(),
    metadata: z.object({ watermarked: z.boolean() }).optional(),
  })
  .meta({ id: "Artifact" });
export type ArtifactData = z.output<typeof artifactSchema>;

// ---- Service -----------------------------------------------------------------------------

/** GET /health (not enveloped). */
export const healthSchema = z
  .object({
    status: z.literal("ok"),
    product: z.string(),
    /** The deployment's version id ("local" in development). */
    version: z.string(),
    timestamp: iso,
  })
  .meta({ id: "Health" });
export type Health = z.output<typeof healthSchema>;

/** GET / (not enveloped): the service index, every route that exists. */
export const serviceIndexSchema = z
  .object({
    name: z.string(),
    version: z.string(),
    /** The interactive API reference (DOCS_URL; /docs on this service by default). */
    docs: z.string(),
    /** The OpenAPI 3.1 document. */
    openapi: z.string(),
    health: z.string(),
    /** Every operation of the OpenAPI document as "METHOD /path", by operationId. */
    endpoints: z.record(z.string(), z.string()),
  })
  .meta({ id: "ServiceIndex" });
export type ServiceIndex = z.output<typeof serviceIndexSchema>;
