/**
 * Crawl and map (docs/CRAWL.md): POST /v1/crawl, GET /v1/crawl/{id} and its pages, DELETE
 * /v1/crawl/{id}, GET /v1/crawls, POST /v1/map — the request bodies, the listing queries and the
 * views. The per-page capture options are the capture contract's own fields (same bounds and
 * messages); the plan's page cap on `limit` is checked by the route (src/accounts/plans.ts).
 */
import { z } from "zod";
import { captureFields } from "./capture";
import { listQuery, pagesQuery } from "./jobs";
import { CRAWL } from "./limits";
import { hasControlChars, intIn, NOT_EMPTY } from "./primitives";
import { fieldsSchema, MARKUP_KINDS } from "./structured";
import {
  CRAWL_EVENTS,
  CRAWL_FORMATS,
  CRAWL_SCOPES,
  CRAWL_STATUSES,
  PAGE_STATUSES,
  RENDER_MODES,
  SITEMAP_MODES,
} from "./crawl-enums";

export * from "./crawl-enums";
export * from "./responses/crawl";

/**
 * A URL path glob: `*` within a segment, `**` across segments, `?` one character, `[…]` a class
 * (`[^…]` negated); every other character stands for itself. Refused here (400 naming the
 * pattern) rather than matching nothing, or otherwise than another glob dialect would, in
 * silence: braces, `|`, extglobs (`+(…)`, `@(…)`, `!(…)`), `[]` and `[!…]`.
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
  // What other glob dialects read as syntax and ours would read otherwise (src/crawl/glob.ts):
  // refused rather than matching differently in silence.
  if (/\[[!^]?\]/.test(pattern))
    return "An empty class ([] or [^]) is not supported: list its characters.";
  if (pattern.includes("[!")) return "Negate a class with [^…], not [!…].";
  if (pattern.includes("|")) return "Alternatives (a|b) are not supported: use one pattern each.";
  if (/[!+@]\(/.test(pattern)) return "Extended globs such as +(…) are not supported.";
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

export function unique<T>(values: readonly T[], ctx: z.RefinementCtx): void {
  const seen = new Set<T>();
  values.forEach((v, i) => {
    if (seen.has(v)) ctx.addIssue({ code: "custom", path: [i], message: "Listed twice." });
    seen.add(v);
  });
}

/** What a crawl, a map and a monitor share: where to start, what is in scope, the sitemap. */
export const siteFields = {
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

/** The page options a crawl (and a monitor) applies to every page: the capture contract's own fields. */
export const pageOptions = {
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
        "Pages to render at most (each plan caps it: Free 10, Basic 50, Starter 100, Pro 1,000, Enterprise 20,000).",
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
          "What each page becomes: markdown (reader mode), html (rendered DOM), text (visible text), links, metadata (title, Open Graph), screenshot (PNG, hosted URL; +1 credit), json (`fields` and/or `kind`, as POST /v1/json reads them).",
        default: ["markdown"],
      }),
    fields: fieldsSchema.optional().meta({
      description:
        "The json format: fields by selector, read on every page as POST /v1/json reads them.",
    }),
    kind: z.enum(MARKUP_KINDS).optional().meta({
      description:
        "The json format: a product, article or organization read from every page's own markup, as POST /v1/json reads it.",
    }),
    followNofollow: z.boolean().optional().meta({
      description: 'Follow links marked rel="nofollow".',
      default: false,
    }),
    maxConcurrency: intIn(CRAWL.maxConcurrency.min, CRAWL.maxConcurrency.max).optional().meta({
      description:
        "Pages of one host loaded at once (politeness; robots.txt Crawl-delay still spaces their starts): by default 2, or 4 with render never/auto. The crawl loads at most the larger of this and 4 (8 with render never/auto) pages at once.",
      default: CRAWL.maxConcurrency.default,
    }),
    render: z.enum(RENDER_MODES).optional().meta({
      description:
        "always: every page in the browser (1 credit); never: every page fetched over HTTP and converted without a browser (half a credit, billed 1 per 2 pages; no screenshot or json format); auto: fetched over HTTP first, in the browser only when the document needs scripts to show its content (an empty app root, no readable text). Each page says which in `rendered`.",
      default: "always",
    }),
    maxAge: intIn(0, CRAWL.pageCacheSeconds, "seconds")
      .optional()
      .meta({
        description: `Incremental crawls: reuse a page this account's crawls loaded within this many seconds with the same formats, render and page options (reason cached, free); an older one is asked again with a conditional request when the site gave an ETag or Last-Modified (a 304: reason not_modified, free). 0: always ask. At most ${CRAWL.pageCacheSeconds} (7 days).`,
      }),
    modifiedSince: z.iso
      .datetime({
        offset: true,
        error: "Must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z.",
      })
      .optional()
      .meta({
        description:
          "Incremental crawls: pages not changed since then are skipped (reason not_modified, free): a sitemap <lastmod> before it (never requested), a Last-Modified before it, or a 304 to a conditional request. Their links are still followed when known.",
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
    dryRun: z.boolean().optional().meta({
      description:
        "Start nothing and charge nothing: answer the URLs the sitemaps and the start page's links give now (up to `limit`) and what the crawl would cost.",
      default: false,
    }),
  })
  .superRefine((value, ctx) => {
    for (const format of ["screenshot", "json"] as const)
      if (value.render === "never" && value.formats?.includes(format))
        ctx.addIssue({
          code: "custom",
          path: ["render"],
          message: `The ${format} format is read in the browser: render "never" cannot take it.`,
        });
    if (value.webhookEvents !== undefined && value.webhookUrl === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["webhookEvents"],
        message: "webhookEvents requires webhookUrl.",
      });
    const json = value.formats?.includes("json") ?? false;
    if (json && value.fields === undefined && value.kind === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["fields"],
        message: "The json format needs fields or kind.",
      });
    for (const key of ["fields", "kind"] as const)
      if (!json && value[key] !== undefined)
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `${key} applies to the json format: add "json" to formats.`,
        });
  })
  .meta({ id: "CrawlRequest" });
export type CrawlRequest = z.output<typeof crawlRequestSchema>;

export const mapRequestSchema = z
  .strictObject({
    ...siteFields,
    limit: intIn(CRAWL.mapLimit.min, CRAWL.mapLimit.max).optional().meta({
      description:
        "URLs to return at most (each plan caps it: Free, Basic and Starter 5,000, Pro 10,000, Enterprise 100,000).",
      default: CRAWL.mapLimit.default,
    }),
  })
  .meta({ id: "MapRequest" });
export type MapRequest = z.output<typeof mapRequestSchema>;

export const crawlListQuery = listQuery("crawl", CRAWL_STATUSES);

/** GET /v1/crawl/{id}/pages: `status` filters, `cursor` from the last answer, `limit` ≤ 100. */
export const crawlPagesQuery = pagesQuery(PAGE_STATUSES, CRAWL.pagesPerList.max);

/** GET /v1/crawl/{id}/errors: `cursor` from the last answer, `limit` ≤ 100. */
export const crawlErrorsQuery = crawlPagesQuery.omit({ status: true });
