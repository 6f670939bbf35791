/**
 * What crawl and map answer (docs/CRAWL.md): a page's result, a crawl's summary and results, the
 * listing, the map, and the crawl's two webhook events. The requests are in ../crawl.ts.
 */
import { z } from "zod";
import { CRAWL } from "../limits";
import { listingSchema } from "./jobs";
import { markupSchema } from "../responses";
import { completenessSchema } from "./completeness";
import {
  CRAWL_STATUSES,
  CRAWL_STOPPED_BY,
  PAGE_LOADERS,
  PAGE_REASONS,
  PAGE_STATUSES,
} from "../crawl-enums";

const linkSchema = z.object({ url: z.string(), text: z.string() });
const metadataSchema = z.object({
  title: z.string(),
  statusCode: z.number().int().nullable(),
  openGraph: z.object({
    title: z.string(),
    description: z.string(),
    image: z.string(),
    siteName: z.string(),
  }),
});

export const crawlPageSchema = z
  .object({
    url: z.string(),
    depth: z.number().int(),
    status: z.enum(PAGE_STATUSES),
    reason: z.enum(PAGE_REASONS).optional(),
    foundOn: z.string().optional().meta({
      description:
        "The page whose links had this URL first. None for the start URL and URLs from sitemaps.",
    }),
    rendered: z.enum(PAGE_LOADERS).optional().meta({
      description:
        "How a rendered page was loaded: http (fetched and converted without a browser) or browser. With render: auto, decided page by page.",
    }),
    cachedAt: z.string().optional().meta({
      description:
        "A page reused rather than loaded again (reason cached, or not_modified after a conditional request): when the result it carries was loaded (ISO 8601).",
    }),
    statusCode: z.number().int().optional(),
    finalUrl: z.string().optional(),
    completeness: completenessSchema.optional().meta({
      description:
        "Pages rendered in the browser: how complete the page was (its screenshot's report with the screenshot format, else as its content was read: `blankRatio` null). None for pages rendered over http.",
    }),
    markdown: z.string().optional(),
    html: z.string().optional(),
    text: z.string().optional(),
    links: z.array(linkSchema).optional(),
    metadata: metadataSchema.optional(),
    screenshotUrl: z.string().optional(),
    json: z
      .object({
        fields: z
          .custom<Record<string, string | number | boolean | null | object>>(
            (v) => typeof v === "object" && v !== null,
          )
          .describe("`fields`: each field's value, typed, as POST /v1/json answers them.")
          .optional(),
        truncated: z.boolean().optional(),
        markup: markupSchema.optional(),
      })
      .optional()
      .meta({ description: "The json format: the page's fields and/or markup." }),
    contentUrl: z
      .string()
      .optional()
      .meta({
        description: `Set instead of markdown/html/text/json when they total more than ${CRAWL.inlineBytes / 1024} KB: a signed URL of the page's JSON.`,
      }),
  })
  .meta({ id: "CrawlPage" });
export type CrawlPage = z.output<typeof crawlPageSchema>;

export const crawlCountsSchema = z.object({
  rendered: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  queued: z.number().int(),
  cached: z.number().int().meta({
    description: "Of the skipped pages: reused from an earlier crawl of the account (maxAge).",
  }),
  notModified: z.number().int().meta({
    description:
      "Of the skipped pages: unchanged since modifiedSince (sitemap lastmod, Last-Modified) or answered 304 to a conditional request.",
  }),
});
export type CrawlCounts = z.output<typeof crawlCountsSchema>;

/** The crawl as listed (GET /v1/crawls) and as the head of GET /v1/crawl/{id}. */
export const crawlSummarySchema = z
  .object({
    crawlId: z.string(),
    url: z.string(),
    status: z.enum(CRAWL_STATUSES),
    stoppedBy: z.enum(CRAWL_STOPPED_BY).optional(),
    counts: crawlCountsSchema,
    limit: z.number().int(),
    creditsUsed: z.number().int(),
    createdAt: z.string(),
    completedAt: z.string().optional(),
  })
  .meta({ id: "CrawlSummary" });
export type CrawlSummary = z.output<typeof crawlSummarySchema>;

export const crawlPagesSchema = z.object({
  pages: z.array(crawlPageSchema),
  nextCursor: z.string().nullable(),
});
export type CrawlPages = z.output<typeof crawlPagesSchema>;

export const crawlSchema = crawlSummarySchema.extend(crawlPagesSchema.shape).meta({ id: "Crawl" });
export type Crawl = z.output<typeof crawlSchema>;

export const crawlStartedSchema = z
  .object({
    crawlId: z.string(),
    status: z.literal("queued"),
    statusUrl: z.string(),
  })
  .meta({ id: "CrawlStarted" });

export const crawlDryRunSchema = z
  .object({
    dryRun: z.literal(true),
    urls: z.array(z.string()).meta({
      description:
        "The URLs known before rendering (the start URL, the sitemaps', the start page's links), up to the limit.",
    }),
    truncated: z.boolean().meta({ description: "More URLs were found than the limit." }),
    credits: z.number().int().meta({ description: "What rendering `urls` would cost." }),
    maxCredits: z.number().int().meta({
      description: "The most the crawl can cost: `limit` pages (links found deeper count too).",
    }),
  })
  .meta({ id: "CrawlDryRun" });
export type CrawlDryRun = z.output<typeof crawlDryRunSchema>;

export const crawlListingSchema = listingSchema(crawlSummarySchema);

export const mapResultSchema = z
  .object({
    urls: z.array(z.object({ url: z.string(), source: z.enum(["sitemap", "links"]) })),
    truncated: z.boolean(),
  })
  .meta({ id: "MapResult" });
export type MapResult = z.output<typeof mapResultSchema>;

/** `crawl.completed`: the crawl's final summary. */
export const crawlCompletedEventSchema = crawlSummarySchema
  .extend({ event: z.literal("crawl.completed") })
  .meta({ id: "CrawlCompletedEvent" });

/** `crawl.page` (when asked for): what one page became — never its content. */
export const crawlPageEventSchema = z
  .object({
    event: z.literal("crawl.page"),
    crawlId: z.string(),
    page: crawlPageSchema.pick({
      url: true,
      depth: true,
      status: true,
      reason: true,
      statusCode: true,
      foundOn: true,
      rendered: true,
      cachedAt: true,
      completeness: true,
    }),
  })
  .meta({ id: "CrawlPageEvent" });
