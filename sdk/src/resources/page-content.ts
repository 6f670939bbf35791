/**
 * Page content: a rendered page's HTML or visible text, scraped elements, typed fields and the
 * page's own structured markup, links, and its HTML with a screenshot — each from one page load,
 * one credit. Bound onto the client as `edgeshot.content`, `.scrape`, `.json`, `.links` and
 * `.snapshot`.
 */
import type {
  ContentRequest,
  JsonRequest,
  Links,
  LinksRequest,
  PageContent,
  Scrape,
  ScrapeRequest,
  Snapshot,
  SnapshotRequest,
  Structured,
} from "../generated/index.js";
import type { Transport } from "../transport.js";

export function pageContentCalls(t: Transport) {
  return {
    /** POST /v1/content (as JSON): the rendered HTML, or the visible text with contentFormat: "text". */
    content: (request: ContentRequest) => t.json<PageContent>("POST", "/v1/content", request),
    /** POST /v1/scrape: every match of each selector (at most 100). */
    scrape: (request: ScrapeRequest) => t.json<Scrape>("POST", "/v1/scrape", request),
    /**
     * POST /v1/json: named fields by CSS selector, typed (numbers in the page's locale, URLs,
     * dates, booleans; lists and nested objects), and/or with `kind` a product, article or
     * organization from the page's JSON-LD, microdata, RDFa, meta tags and framework state.
     */
    json: (request: JsonRequest) => t.json<Structured>("POST", "/v1/json", request),
    /** POST /v1/links: the page's links, absolute and de-duplicated. */
    links: (request: LinksRequest) => t.json<Links>("POST", "/v1/links", request),
    /** POST /v1/snapshot: the rendered HTML and a base64 screenshot of one load. */
    snapshot: (request: SnapshotRequest) => t.json<Snapshot>("POST", "/v1/snapshot", request),
  };
}
