/**
 * Crawl and map (docs/CRAWL.md): POST /v1/crawl, GET /v1/crawl/{id} and its pages, DELETE
 * /v1/crawl/{id}, GET /v1/crawls, POST /v1/map — the request bodies, the listing queries and the
 * views. The per-page capture options are the capture contract's own fields (same bounds and
 * messages); the plan's page cap on `limit` is checked by the route (src/accounts/plans.ts).
 */
import { z } from "zod";
import { captureFields } from "./capture";
import { listQuery } from "./jobs";
import { CRAWL } from "./limits";
import { listingSchema } from "./responses";
import { hasControlChars, intIn, NOT_EMPTY } from "./primitives";

export const CRAWL_STATUSES = ["queued", "running", "completed", "cancelled", "failed"] as const;
export type CrawlStatus = (typeof CRAWL_STATUSES)[number];
export const CRAWL_STOPPED_BY = ["limit", "credits", "cancelled"] as const;
export type CrawlStoppedBy = (typeof CRAWL_STOPPED_BY)[number];
export const CRAWL_SCOPES = ["path", "host", "domain"] as const;
export const SITEMAP_MODES = ["include", "skip", "only"] as const;
export const CRAWL_FORMATS = [
  "markdown",
  "html",
  "text",
  "links",
  "metadata",
  "screenshot",
] as const;
export type CrawlFormat = (typeof CRAWL_FORMATS)[number];
export const CRAWL_EVENTS = ["crawl.completed", "crawl.page"] as const;
export type CrawlEvent = (typeof CRAWL_EVENTS)[number];
export const PAGE_STATUSES = ["rendered", "skipped", "failed"] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];
/** Why a page was skipped or failed. */
export const PAGE_REASONS = [
  "robots",
  "pattern",
  "scope",
  "depth",
  "blocked",
  "not_html",
  "http_error",
  "timeout",
  "unreachable",
  "credits",
  "cancelled",
  "capture_failed",
] as const;
export type PageReason = (typeof PAGE_REASONS)[number];

/**
 * A URL path glob: `*` within a segment, `**` across segments, `?` one character, `[…]` a class.
 * Refused here (400 naming the pattern) rather than matching nothing in silence.
 */
export function globProblem(pattern: string): string | null {
  if (pattern.trim() === "") return NOT_EMPTY;
  if ([...pattern].length > CRAWL.patternChars)
    return `Must be at most ${CRAWL.patternChars} characters.`;
  if (hasControlChars(pattern) || /\s/.test(pattern))
    return "Must not contain spaces or control characters.";
  if (!pattern.startsWith("/") && !pattern.startsWith("*")) return "Must start with / or *.";
  if (/\*{3,}/.test(pattern)) return "Use * (within a segment) or ** (across segments).";
  let depth = 0;
  for (const ch of pattern) {
    if (ch === "[") {
      if (depth > 0) return "Character classes do not nest.";
      depth++;
    } else if (ch === "]") {
      if (depth === 0) return "Unbalanced ].";
      depth--;
    }
  }
  if (depth !== 0) return "Unbalanced [.";
  if (/[{}]/.test(pattern)) return "Braces are not supported: use one pattern each.";
  return null;
}

const glob = z.string().superRefine((s, ctx) => {
  const problem = globProblem(s);
  if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
});
const patterns = (what: string) =>
  z
    .array(glob)
    .max(CRAWL.patterns, `At most ${CRAWL.patterns} patterns.`)
    .meta({
      description: `URL path globs a page must ${what} (\`*\` within a segment, \`**\` across segments). At most ${CRAWL.patterns}.`,
    });

function unique<T>(values: readonly T[], ctx: z.RefinementCtx): void {
  const seen = new Set<T>();
  values.forEach((v, i) => {
    if (seen.has(v)) ctx.addIssue({ code: "custom", path: [i], message: "Listed twice." });
    seen.add(v);
  });
}

/** What a crawl and a map share: where to start, what is in scope, the sitemap. */
const siteFields = {
  url: z.string().min(1, NOT_EMPTY).meta({
    description: "The start URL: a public http(s) URL.",
  }),
  scope: z.enum(CRAWL_SCOPES).optional().meta({
    description:
      "path: under the start URL's path; host: the start URL's host; domain: its registrable domain, subdomains included.",
    default: "host",
  }),
  include: patterns("match").optional(),
  exclude: patterns("not match").optional(),
  sitemap: z.enum(SITEMAP_MODES).optional().meta({
    description:
      "include: seed from robots.txt Sitemap: lines and /sitemap.xml (indexes and .xml.gz too) and follow links; skip: links only; only: sitemap URLs only.",
    default: "include",
  }),
};

/** The page options a crawl applies to every page: the capture contract's own fields. */
const pageOptions = {
  waitUntil: captureFields.waitUntil.optional(),
  delay: captureFields.delay.optional(),
  timeout: captureFields.timeout.optional(),
  width: captureFields.width.optional(),
  height: captureFields.height.optional(),
  device: captureFields.device.optional(),
  blockAds: captureFields.blockAds.optional(),
  blockCookieBanners: captureFields.blockCookieBanners.optional(),
  headers: captureFields.headers.optional(),
  cookies: captureFields.cookies.optional(),
};
export type CrawlPageOptions = {
  [K in keyof typeof pageOptions]?: z.output<(typeof pageOptions)[K]>;
};
export const CRAWL_PAGE_OPTIONS = Object.keys(pageOptions) as (keyof typeof pageOptions)[];

export const crawlRequestSchema = z
  .strictObject({
    ...siteFields,
    limit: intIn(CRAWL.limit.min, CRAWL.limit.max).optional().meta({
      description:
        "Pages to render at most (each plan caps it: Free 10, Basic 50, Starter 100, Pro 1,000, Enterprise 10,000).",
      default: CRAWL.limit.default,
    }),
    maxDepth: intIn(CRAWL.maxDepth.min, CRAWL.maxDepth.max).optional().meta({
      description: "Links followed from the start page (sitemap URLs enter at depth 1).",
      default: CRAWL.maxDepth.default,
    }),
    formats: z
      .array(z.enum(CRAWL_FORMATS))
      .min(1, "At least one format.")
      .superRefine(unique)
      .optional()
      .meta({
        description:
          "What each page becomes: markdown (reader mode), html (rendered DOM), text (visible text), links, metadata (title, Open Graph), screenshot (PNG, hosted URL; +1 credit).",
        default: ["markdown"],
      }),
    followNofollow: z.boolean().optional().meta({
      description: 'Follow links marked rel="nofollow".',
      default: false,
    }),
    ...pageOptions,
    webhookUrl: z.string().min(1).optional().meta({
      description: "Signed events of this crawl are POSTed here.",
    }),
    webhookEvents: z
      .array(z.enum(CRAWL_EVENTS))
      .min(1, "At least one event.")
      .superRefine(unique)
      .optional()
      .meta({ description: "Events sent to webhookUrl.", default: ["crawl.completed"] }),
  })
  .superRefine((value, ctx) => {
    if (value.webhookEvents !== undefined && value.webhookUrl === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["webhookEvents"],
        message: "webhookEvents requires webhookUrl.",
      });
  })
  .meta({ id: "CrawlRequest" });
export type CrawlRequest = z.output<typeof crawlRequestSchema>;

export const mapRequestSchema = z
  .strictObject({
    ...siteFields,
    limit: intIn(CRAWL.mapLimit.min, CRAWL.mapLimit.max)
      .optional()
      .meta({
        description: `URLs to return at most (≤ ${CRAWL.mapLimit.max}).`,
        default: CRAWL.mapLimit.default,
      }),
  })
  .meta({ id: "MapRequest" });
export type MapRequest = z.output<typeof mapRequestSchema>;

export const crawlListQuery = listQuery("crawl", CRAWL_STATUSES);

/** GET /v1/crawl/{id}/pages: `cursor` from the last answer, `limit` ≤ 100. */
export const crawlPagesQuery = z.strictObject({
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, "Invalid cursor.")
    .transform(Number)
    .optional(),
  limit: z
    .string()
    .regex(/^[0-9]{1,3}$/, "Must be a whole number.")
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, "Must be at least 1.")
        .max(CRAWL.pagesPerList.max, `Must be at most ${CRAWL.pagesPerList.max}.`),
    )
    .optional(),
});

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
    statusCode: z.number().int().optional(),
    finalUrl: z.string().optional(),
    markdown: z.string().optional(),
    html: z.string().optional(),
    text: z.string().optional(),
    links: z.array(linkSchema).optional(),
    metadata: metadataSchema.optional(),
    screenshotUrl: z.string().optional(),
    contentUrl: z
      .string()
      .optional()
      .meta({
        description: `Set instead of markdown/html/text when they total more than ${CRAWL.inlineBytes / 1024} KB: a signed URL of the page's JSON.`,
      }),
  })
  .meta({ id: "CrawlPage" });
export type CrawlPage = z.output<typeof crawlPageSchema>;

export const crawlCountsSchema = z.object({
  rendered: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  queued: z.number().int(),
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
    }),
  })
  .meta({ id: "CrawlPageEvent" });
