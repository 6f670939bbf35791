/** The crawl contract's names (docs/CRAWL.md): statuses, scopes, formats, events, page reasons. */
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
  "json",
] as const;
export type CrawlFormat = (typeof CRAWL_FORMATS)[number];
/** How a crawl's pages are loaded (docs/CRAWL.md, "HTTP first"). */
export const RENDER_MODES = ["auto", "always", "never"] as const;
export type RenderMode = (typeof RENDER_MODES)[number];
/** How one page was loaded: a plain HTTP fetch, or the browser. */
export const PAGE_LOADERS = ["http", "browser"] as const;
export type PageLoader = (typeof PAGE_LOADERS)[number];
export const CRAWL_EVENTS = ["crawl.completed", "crawl.page"] as const;
export type CrawlEvent = (typeof CRAWL_EVENTS)[number];
export const PAGE_STATUSES = ["rendered", "skipped", "failed"] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];
/** Why a page was skipped or failed. */
export const PAGE_REASONS = [
  "robots",
  "pattern",
  "pattern_budget",
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
  "cached",
  "not_modified",
] as const;
export type PageReason = (typeof PAGE_REASONS)[number];
