/**
 * The MCP tools' inputs (POST /mcp, docs/MCP.md): each a strict subset of a REST contract's own
 * fields (`captureShape`, `extractRequestSchema`, the render-link body), picked — never
 * redefined — so bounds, defaults, descriptions and messages are the REST ones. A tool sends
 * the parsed arguments on to the REST route's own code, which checks them again with the route's
 * full schema (its cross-field rules). The JSON Schemas in tools/list are `z.toJSONSchema` of
 * these (src/http/mcp/tools.ts).
 *
 * Why subsets: a tool's schema is read by a model on every turn, so it offers what an agent
 * needs to look at or read a page; everything else stays on the REST routes. crawl_start and map
 * take their REST bodies whole (schemas/crawl.ts): a crawl's options are what it is. A monitor's
 * are many (capture options, thresholds, webhooks): monitor_create offers the site and what is
 * compared, picked from POST /v1/monitors' body (schemas/monitors.ts).
 */
import { z } from "zod";
import { animateRequestSchema } from "./animate";
import { captureShape, captureRules } from "./capture";
import { crawlPagesQuery, crawlRequestSchema, mapRequestSchema } from "./crawl";
import { extractRequestSchema } from "./extract";
import { checkPagesQuery, monitorCreateSchema, monitorListQuery } from "./monitors";
import { contentRequestSchema, linksRequestSchema, scrapeRequestSchema } from "./page-content";
import { NOT_EMPTY } from "./primitives";
import { renderLinkRequestSchema } from "./render-link";
import { jsonRequestSchema } from "./structured";

function pick<K extends keyof typeof captureShape>(keys: readonly K[]) {
  return Object.fromEntries(keys.map((k) => [k, captureShape[k]])) as Pick<typeof captureShape, K>;
}

/** What a page is and how it loads: every capture tool takes these. */
const TARGET = [
  "url",
  "html",
  "markdown",
  "width",
  "height",
  "device",
  "darkMode",
  "waitUntil",
  "waitForSelector",
  "delay",
  "timeout",
  "blockAds",
  "blockCookieBanners",
  "hideSelectors",
] as const;

/** What an image capture adds. */
const IMAGE = ["fullPage", "selector", "clip", "deviceScaleFactor", "quality", "cacheTtl"] as const;

export const screenshotToolSchema = z
  .strictObject({
    ...pick([...TARGET, ...IMAGE]),
    format: captureShape.format.unwrap().exclude(["pdf"]).optional().meta({
      description: "Image format of the hosted full-size output (the pdf tool makes PDFs).",
      default: "png",
    }),
  })
  .superRefine(captureRules);

export const pdfToolSchema = z
  .strictObject(
    pick([
      ...TARGET,
      "pdfFormat",
      "pdfLandscape",
      "pdfPrintBackground",
      "pdfScale",
      "pdfPageRanges",
      "cacheTtl",
    ]),
  )
  .superRefine(captureRules);

/** read_page always answers Markdown: the reader's other formats are for programs. */
export const readPageToolSchema = extractRequestSchema.omit({ extractFormat: true });

export const renderLinkToolSchema = z
  .strictObject({
    ...pick([...TARGET, ...IMAGE, "format"]),
    expiresIn: renderLinkRequestSchema.shape.expiresIn,
  })
  .superRefine(captureRules);

const { contentFormat, stripScripts } = contentRequestSchema.shape;
export const pageContentToolSchema = z
  .strictObject({ ...pick(TARGET), contentFormat, stripScripts })
  .superRefine(captureRules);

export const scrapeToolSchema = z
  .strictObject({ ...pick(TARGET), elements: scrapeRequestSchema.shape.elements })
  .superRefine(captureRules);

const { fields, kind } = jsonRequestSchema.shape;
export const structuredDataToolSchema = z
  .strictObject({ ...pick(TARGET), fields, kind })
  .superRefine(captureRules);

const { visibleOnly, internalOnly, includeNonHttp } = linksRequestSchema.shape;
export const linksToolSchema = z
  .strictObject({ ...pick(TARGET), visibleOnly, internalOnly, includeNonHttp })
  .superRefine(captureRules);

/** record_page: the clip's own options of POST /v1/animate; always hosted (a link). */
const { format, scenario, duration, fps, scrollTillSelector, scrollBack } =
  animateRequestSchema.shape;
export const recordPageToolSchema = z.strictObject({
  ...pick(TARGET),
  format,
  scenario,
  duration,
  fps,
  scrollTillSelector,
  scrollBack,
});

export const accountUsageToolSchema = z.strictObject({});

/** crawl_start and map take the REST bodies whole: a crawl is what POST /v1/crawl starts. */
export const crawlStartToolSchema = crawlRequestSchema;
export const mapToolSchema = mapRequestSchema;

/**
 * What one crawl_status call shows: this many results, each page's Markdown (or text, or HTML)
 * cut at this many characters — a model reads every character of a tool result.
 */
export const CRAWL_STATUS_VIEW = { results: 10, contentChars: 3000 } as const;

export const crawlStatusToolSchema = z.strictObject({
  crawlId: z.string().min(1, NOT_EMPTY).meta({ description: "The crawlId crawl_start answered." }),
  cursor: crawlPagesQuery.shape.cursor.meta({
    description:
      "Where to go on: the cursor the last crawl_status answered (omit it for the first results).",
  }),
});

/** What monitor_create offers of POST /v1/monitors' body (the rest stays on the REST route). */
const MONITOR_CREATE = [
  "url",
  "name",
  "scope",
  "include",
  "exclude",
  "sitemap",
  "limit",
  "maxDepth",
  "schedule",
  "compare",
  "fields",
  "ignore",
  "dryRun",
] as const;
const monitorBody = monitorCreateSchema.shape;
export const monitorCreateToolSchema = z.strictObject(
  Object.fromEntries(MONITOR_CREATE.map((k) => [k, monitorBody[k]])) as Pick<
    typeof monitorBody,
    (typeof MONITOR_CREATE)[number]
  >,
);

/**
 * What the monitor tools show at once: a check's pages a call (those not unchanged), the
 * characters of a page's text diff and of a field's value, a dry run's URLs, monitors a call,
 * and the latest checks told while none has completed.
 */
export const MONITOR_TOOLS_VIEW = {
  pages: 10,
  diffChars: 1500,
  valueChars: 200,
  urls: 50,
  monitors: 20,
  checks: 5,
} as const;

const monitorId = z
  .string()
  .min(1, NOT_EMPTY)
  .meta({ description: "The monitorId monitor_create or monitor_list answered." });

export const monitorCheckToolSchema = z.strictObject({ monitorId });

export const monitorChangesToolSchema = z
  .strictObject({
    monitorId,
    checkId: z.string().min(1, NOT_EMPTY).optional().meta({
      description:
        "The check to read (monitor_check answers its checkId); omit it for the monitor's latest completed check.",
    }),
    status: checkPagesQuery.shape.status.unwrap().exclude(["unchanged"]).optional().meta({
      description:
        "Only the pages of this status; omit it for every page that was new, removed, changed or failed (unchanged pages are only counted).",
    }),
    cursor: checkPagesQuery.shape.cursor.meta({
      description:
        "Where to go on: the cursor the last monitor_changes answered, with its checkId (omit it for the first pages).",
    }),
  })
  .superRefine((value, ctx) => {
    // A cursor is a place in one check's pages: without the check, the latest could be another.
    if (value.cursor !== undefined && value.checkId === undefined)
      ctx.addIssue({ code: "custom", path: ["cursor"], message: "cursor requires checkId." });
  });

export const monitorListToolSchema = z.strictObject({
  status: monitorListQuery.shape.status.meta({ description: "Only active or only paused ones." }),
  cursor: monitorListQuery.shape.cursor.meta({
    description: "Where to go on: the cursor the last monitor_list answered.",
  }),
});

/** MCP tool annotations (hints to the client, not guarantees). */
export interface McpToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  openWorldHint: boolean;
}

interface McpToolDefinition {
  title: string;
  /** Written for a model: what it does, when to use it (and when not), what it costs. */
  description: string;
  input: z.ZodType;
  annotations: McpToolAnnotations;
}

/** Reads the open web, changes nothing anywhere. */
const READS_THE_WEB = { readOnlyHint: true, openWorldHint: true } as const;
const { results: STATUS_RESULTS, contentChars: STATUS_CHARS } = CRAWL_STATUS_VIEW;
const { pages: MONITOR_PAGES, diffChars: MONITOR_DIFF_CHARS } = MONITOR_TOOLS_VIEW;

/**
 * The tools, in tools/list order. What each one runs is src/http/mcp/tools.ts; this catalogue
 * is also what `npm run openapi` writes into docs/MCP-TOOLS.md (`--check` fails when stale).
 */
export const MCP_TOOLS = {
  screenshot: {
    title: "Screenshot a web page",
    description:
      "Renders a public web page (or HTML or Markdown you supply) in a real Chromium and returns what it looks like: an image sized for you to look at (long edge at most 1,568 px; a full-page capture is scaled down as a whole), the page's final URL and title, and a link to the full-size image (PNG by default) that stays valid for cacheTtl seconds. Use it to see layout, visual state or anything text does not show; to read a page's words use read_page instead. Costs one credit, like POST /v1/screenshot; private and internal addresses are refused.",
    input: screenshotToolSchema,
    annotations: { title: "Screenshot a web page", ...READS_THE_WEB },
  },
  pdf: {
    title: "Print a web page to PDF",
    description:
      "Prints a public web page (or HTML or Markdown you supply) to PDF in a real Chromium, as a browser's print would, and returns a link to the PDF (valid for cacheTtl seconds) with its page count, the final URL and title. Use it when a document is wanted — to hand to a person or another tool; to read the page yourself use read_page. Costs one credit, like POST /v1/screenshot with format pdf; private and internal addresses are refused.",
    input: pdfToolSchema,
    annotations: { title: "Print a web page to PDF", ...READS_THE_WEB },
  },
  read_page: {
    title: "Read a web page",
    description:
      "Loads a public web page in a real Chromium (scripts run, so client-rendered pages work) and returns its main content in reader mode as Markdown: the title, the byline and the article text, without navigation, ads or other clutter. Use it to read, quote or summarise what a page says; it fails with EXTRACTION_FAILED on pages without a main text (a login wall, an app shell). Costs one credit, like POST /v1/extract; private and internal addresses are refused.",
    input: readPageToolSchema,
    annotations: { title: "Read a web page", ...READS_THE_WEB },
  },
  page_content: {
    title: "Get a page's HTML or text",
    description:
      "Loads a public web page (or HTML or Markdown you supply) in a real Chromium, scripts run, and returns what it holds after rendering: the DOM serialized as HTML (contentFormat html, scripts stripped by default) or all of its visible text (contentFormat text) — not just the article, unlike read_page. Use it for pages that are not articles (listings, tables, app pages) or when you need the markup; prefer contentFormat text, far shorter, unless you need the markup (HTML is cut at 5 MB, text at 2 MB). Costs one credit, like POST /v1/content; private and internal addresses are refused.",
    input: pageContentToolSchema,
    annotations: { title: "Get a page's HTML or text", ...READS_THE_WEB },
  },
  scrape: {
    title: "Scrape elements of a page",
    description:
      "Loads a public web page in a real Chromium and returns, for each CSS selector you give (1 to 20), every matching element in document order (at most 100 each): its visible text, its outerHTML, its attributes (the ones you name, or all) and its box on the page. Use it to pull specific data — prices, headings, table cells, links of one list — when you know or can guess the selectors; to read a whole page use read_page or page_content. Costs one credit, like POST /v1/scrape; private and internal addresses are refused.",
    input: scrapeToolSchema,
    annotations: { title: "Scrape elements of a page", ...READS_THE_WEB },
  },
  structured_data: {
    title: "Read structured data from a page",
    description:
      "Loads a public web page (or HTML you supply) in a real Chromium, scripts run, and returns typed JSON without guessing: named fields you define by CSS selector (numbers read in the page's locale — 1.299,00 € is 1299 — absolute URLs, ISO dates, booleans; lists and nested lists of objects, e.g. every product card of a listing), and/or with kind product, article, organization or auto what the page itself declares in JSON-LD, microdata, RDFa, Open Graph/Twitter tags or Next.js/Nuxt state (name, price, currency, availability, SKU, brand, images, rating; headline, authors, dates), each value saying which markup it came from. Use kind alone first on product and article pages: it needs no selectors. Costs one credit, like POST /v1/json; private and internal addresses are refused.",
    input: structuredDataToolSchema,
    annotations: { title: "Read structured data from a page", ...READS_THE_WEB },
  },
  links: {
    title: "List the links of a page",
    description:
      "Loads a public web page in a real Chromium, scripts run, and returns its links: absolute URL, visible text, rel, and whether it stays on the page's host — optionally only the visible ones, only internal ones, or with mailto:, tel: and other non-http links too. Use it to find where to go next on a site, or to collect a site's pages before reading them. Costs one credit, like POST /v1/links; private and internal addresses are refused.",
    input: linksToolSchema,
    annotations: { title: "List the links of a page", ...READS_THE_WEB },
  },
  record_page: {
    title: "Record a video of a web page",
    description:
      "Loads a public web page (or HTML or Markdown you supply) in a real Chromium and records its viewport: scenario scroll (the default) scrolls it from the top to scrollTillSelector or its end, scenario still films it as it moves on its own (animations, carousels). Returns a link to the clip — webm by default, mp4 or gif — valid for 24 hours, with its size, frames and the page's final URL. Use it for a preview clip of a landing page or to show motion a screenshot cannot; to look at the page yourself use screenshot. Costs one credit per started 5 seconds of clip, like POST /v1/animate; private and internal addresses are refused.",
    input: recordPageToolSchema,
    annotations: { title: "Record a video of a web page", ...READS_THE_WEB },
  },
  render_link: {
    title: "Make a render link",
    description:
      "Makes a signed URL that renders a screenshot of a page when opened — for an <img> in HTML, Markdown or an email you are writing — without an API key in it. Nothing is captured now and no credit is spent; the first view renders and costs one credit, later views are served from the cache for cacheTtl seconds, and the link works until expiresIn. The page is checked now: a private or internal address is refused here, not on first view.",
    input: renderLinkToolSchema,
    // Mints a link (additive, nothing changed or removed); loads nothing now.
    annotations: {
      title: "Make a render link",
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: false,
    },
  },
  crawl_start: {
    title: "Start crawling a website",
    description:
      "Starts crawling a website in the background from a public URL: Edgeshot renders each page in a real Chromium, follows its links (and the site's sitemaps) within scope (the start URL's host by default, or its path, or its whole domain), at most maxDepth links from the start page and at most limit pages, always obeying robots.txt, and turns each page into reader-mode Markdown (or the other formats asked for). It answers at once with a crawlId: follow it with crawl_status, every few seconds, until the status is completed, and read the results there. Use it to read or collect many pages of one site; for a single page use read_page, and to only list a site's URLs use map. Each rendered page costs one credit (two with the screenshot format), charged as it completes; skipped and failed pages cost nothing, and the crawl stops when the credits run out. With dryRun true nothing is started or charged: it answers the URLs known now and what the crawl would cost. Private and internal addresses are refused and never requested.",
    input: crawlStartToolSchema,
    // Starts a crawl kept on the account (additive, nothing changed or removed), loading pages.
    annotations: {
      title: "Start crawling a website",
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: true,
    },
  },
  crawl_status: {
    title: "Read a crawl's status and results",
    description: `Reports on a crawl that crawl_start started: its status (queued, running, completed, cancelled or failed) and what stopped it, how many pages were rendered, skipped, failed or are still queued, the credits used, and up to ${STATUS_RESULTS} results in the order pages finished — each page's URL, depth and status (with the reason a page was skipped or failed) and its Markdown, cut at ${STATUS_CHARS.toLocaleString("en-US")} characters (each cut says how much was left out). Pass the cursor it answers to read the next results; while the crawl is queued or running, call it again every few seconds. It loads nothing and costs nothing: the results were paid for as the pages were rendered.`,
    input: crawlStatusToolSchema,
    // Reads what this service kept of the crawl; reaches no web page.
    annotations: {
      title: "Read a crawl's status and results",
      readOnlyHint: true,
      openWorldHint: false,
    },
  },
  map: {
    title: "Map a website's URLs",
    description:
      "Lists the URLs of a website without rendering each page: those named by its sitemaps (robots.txt Sitemap: lines and /sitemap.xml, indexes and .xml.gz followed) and the links of its start page rendered in a real Chromium, kept to the same scope, include/exclude patterns and robots.txt as a crawl, each marked with where it was found (sitemap or links), at most limit URLs (100 unless you ask for more: up to 5,000 on Free, Basic and Starter, 10,000 on Pro, 100,000 on Enterprise). Use it to see what a site holds before crawling it or reading chosen pages; it returns no page content. Costs one credit, like POST /v1/map; private and internal addresses are refused.",
    input: mapToolSchema,
    annotations: { title: "Map a website's URLs", ...READS_THE_WEB },
  },
  monitor_create: {
    title: "Monitor a website for changes",
    description:
      "Creates a site monitor: Edgeshot checks a website on a schedule (every 1,440 minutes unless you give intervalMinutes or a cron expression in UTC; each plan has a shortest interval), rendering its pages in a real Chromium as a crawl does (within scope, at most limit pages and maxDepth links from the start URL, obeying robots.txt), and compares each page with what it saw before: new, removed, changed (its pixels, the words of its visible text, and the fields you name by CSS selector), unchanged or failed. What changes on every load (clocks, rotating banners, animations) is learnt and not reported, nor is what the ignore selectors hide. The first check starts at once and sets the baseline. It answers the monitorId, the schedule and a signed Atom feed URL of the changes; read what a check found with monitor_changes, and check again now with monitor_check. Each page a check renders costs one credit. With dryRun true nothing is created or charged: it answers the URLs a check would cover and its credits per check and per month. Private and internal addresses are refused.",
    input: monitorCreateToolSchema,
    // Creates a monitor kept on the account (additive), whose checks load pages.
    annotations: {
      title: "Monitor a website for changes",
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: true,
    },
  },
  monitor_check: {
    title: "Check a monitored website now",
    description:
      "Starts a check of a monitor's site now, beside its schedule, and answers at once with the queued check's checkId: pass it to monitor_changes every few seconds until the check is completed, then read what changed there. Use it after the site was changed, or to know the state now rather than at the next scheduled check. Each page the check renders costs one credit; skipped and failed pages cost nothing. Fails with CHECK_IN_PROGRESS while a check of the monitor is queued or running.",
    input: monitorCheckToolSchema,
    // Starts a check kept on the account (additive), loading pages.
    annotations: {
      title: "Check a monitored website now",
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: true,
    },
  },
  monitor_changes: {
    title: "Read what a monitor's check found",
    description: `Reports on a check of a site monitor: its status, its counts of new, removed, changed, unchanged and failed pages, and the credits it used, then up to ${MONITOR_PAGES} of its pages that were not unchanged, in the order they were checked — each page's URL and status (a failed page's reason), a new page's screenshot link, and for a changed page what changed: the share of changed pixels with the boxes of the changed regions and a link to the diff image (changes in red), the words removed and added (cut at ${MONITOR_DIFF_CHARS.toLocaleString("en-US")} characters a page), and each changed field's value before and after. Without checkId it reads the latest completed check, and lists the recent checks when none has completed yet; pass the checkId monitor_check answered to follow that check, and the cursor it answers for the next pages. It loads nothing and costs nothing.`,
    input: monitorChangesToolSchema,
    // Reads what this service kept of the checks; reaches no web page.
    annotations: {
      title: "Read what a monitor's check found",
      readOnlyHint: true,
      openWorldHint: false,
    },
  },
  monitor_list: {
    title: "List site monitors",
    description: `Lists the account's site monitors, newest first, ${MONITOR_TOOLS_VIEW.monitors} at a time: each one's monitorId, name, start URL, status (active or paused), schedule, next check, and its last check's status and counts. Pass the cursor it answers for the next ones. Use it to find a monitorId for monitor_changes or monitor_check. It loads nothing and costs nothing.`,
    input: monitorListToolSchema,
    annotations: { title: "List site monitors", readOnlyHint: true, openWorldHint: false },
  },
  account_usage: {
    title: "Account usage",
    description:
      "Tells the plan of the account behind this connection, the credits used and left this month, when they reset, and the rate limit per minute — what GET /v1/account answers, less the webhook signing secret. Use it before a long run of captures, or when a call failed with USAGE_EXCEEDED or RATE_LIMITED. Free.",
    input: accountUsageToolSchema,
    annotations: { title: "Account usage", readOnlyHint: true, openWorldHint: false },
  },
} satisfies Record<string, McpToolDefinition>;

export type McpToolName = keyof typeof MCP_TOOLS;
export type McpToolInput<N extends McpToolName> = z.output<(typeof MCP_TOOLS)[N]["input"]>;

/** A tools/list entry: the input's JSON Schema generated from its zod schema. */
export interface McpToolListing {
  name: McpToolName;
  title: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  annotations: McpToolAnnotations;
}

type JsonSchema = Record<string, unknown>;

/**
 * A schema with an id (`.meta({ id })`, the REST bodies crawl_start and map take whole) comes out
 * as `{$ref: "#/$defs/<id>", $defs}`; a tool's input must be an object schema at its root, so the
 * referenced definition is put there (any other definitions stay in `$defs`).
 */
function rootInlined(schema: JsonSchema): JsonSchema {
  const { $ref, $defs, ...rest } = schema;
  const name = typeof $ref === "string" ? /^#\/\$defs\/([^/]+)$/.exec($ref)?.[1] : undefined;
  if (name === undefined || typeof $defs !== "object" || $defs === null) return schema;
  const { [name]: root, ...others } = $defs as Record<string, JsonSchema>;
  if (root === undefined) return schema;
  return { ...rest, ...root, ...(Object.keys(others).length > 0 ? { $defs: others } : {}) };
}

export function mcpToolList(): McpToolListing[] {
  return Object.entries(MCP_TOOLS).map(([name, tool]) => {
    const { $schema: _dialect, ...schema } = rootInlined(
      z.toJSONSchema(tool.input, { io: "input" }),
    );
    return {
      name: name as McpToolName,
      title: tool.title,
      description: tool.description,
      inputSchema: schema as McpToolListing["inputSchema"],
      annotations: tool.annotations,
    };
  });
}
