/**
 * What the crawl tools show a model: a crawl's summary and a page of its results as text, each
 * page's content cut at `CRAWL_STATUS_VIEW.contentChars` — saying how much was left out and
 * where the whole is — and a map's URLs. The data is GET /v1/crawl/{id}'s and POST /v1/map's,
 * unchanged (src/crawl/views.ts); only its telling is here.
 */
import type { Crawl, CrawlPage, MapResult } from "../../../schemas/crawl";
import { CRAWL_STATUS_VIEW } from "../../../schemas/mcp";

/** Links listed per page (the rest counted). */
const LINKS_SHOWN = 20;

const count = (n: number) => n.toLocaleString("en-US");

/** `value` cut at `max` UTF-16 units, never inside a surrogate pair. */
export function cut(value: string, max: number): { shown: string; cut: boolean } {
  if (value.length <= max) return { shown: value, cut: false };
  const end = /[\uD800-\uDBFF]/.test(value.charAt(max - 1)) ? max - 1 : max;
  return { shown: value.slice(0, end), cut: true };
}

/** The body a model reads of a page: its Markdown, else its text, else its HTML — bounded. */
function content(page: CrawlPage, crawlId: string): string[] {
  if (page.contentUrl)
    return [
      `Content: over the inline size, not shown; its JSON (markdown/html/text) is at ${page.contentUrl}`,
    ];
  const [label, value] =
    page.markdown !== undefined
      ? ["Markdown", page.markdown]
      : page.text !== undefined
        ? ["Text", page.text]
        : page.html !== undefined
          ? ["HTML", page.html]
          : [null, ""];
  if (label === null) return [];
  const { shown, cut: wasCut } = cut(value, CRAWL_STATUS_VIEW.contentChars);
  if (!wasCut) return [`${label}:`, shown];
  return [
    `${label}:`,
    shown,
    `[Cut: ${count(shown.length)} of ${count(value.length)} characters shown. The whole page: GET /v1/crawl/${crawlId}/pages, or read_page on its URL (1 credit).]`,
  ];
}

/** One result: a heading with its status, then what it holds. */
export function pageText(page: CrawlPage, crawlId: string): string {
  const why =
    page.status === "rendered"
      ? ""
      : `: ${page.reason ?? "unknown"}${page.statusCode === undefined ? "" : ` (HTTP ${page.statusCode})`}`;
  const lines = [`## ${page.url} — ${page.status}${why}, depth ${page.depth}`];
  if (page.finalUrl && page.finalUrl !== page.url) lines.push(`Final URL: ${page.finalUrl}`);
  if (page.metadata) lines.push(`Title: ${page.metadata.title}`);
  if (page.screenshotUrl) lines.push(`Screenshot: ${page.screenshotUrl}`);
  if (page.links) {
    const more = page.links.length - LINKS_SHOWN;
    lines.push(
      `Links (${page.links.length}):`,
      ...page.links.slice(0, LINKS_SHOWN).map((l) => `- ${l.url}${l.text ? ` — ${l.text}` : ""}`),
      ...(more > 0 ? [`- … and ${more} more`] : []),
    );
  }
  lines.push(...content(page, crawlId));
  return lines.join("\n");
}

/** The crawl's head: status, counts, credits, and what to call next. */
export function crawlHeader(view: Crawl, cursor: string | undefined): string {
  const c = view.counts;
  const running = view.status === "queued" || view.status === "running";
  const next =
    view.nextCursor !== null
      ? `More results: call crawl_status with crawlId "${view.crawlId}" and cursor "${view.nextCursor}".`
      : running
        ? `No more finished results yet; the crawl is ${view.status}: call crawl_status again in a few seconds${cursor ? ` with cursor "${cursor}"` : ""} for the results finished since.`
        : "That is the last result.";
  return [
    `Crawl ${view.crawlId} of ${view.url}: ${view.status}${view.stoppedBy ? ` (stopped by ${view.stoppedBy})` : ""}.`,
    `Pages: ${c.rendered} rendered, ${c.skipped} skipped, ${c.failed} failed, ${c.queued} queued (limit ${view.limit}). Credits used: ${view.creditsUsed}.`,
    view.pages.length === 0
      ? "No results in this range."
      : `${view.pages.length} result${view.pages.length === 1 ? "" : "s"} below, in the order pages finished.`,
    next,
  ].join("\n");
}

/** A map's URLs, one a line with where each was found. */
export function mapText(data: MapResult): string {
  const from = (source: string) => data.urls.filter((u) => u.source === source).length;
  return [
    `${data.urls.length} URLs (${from("sitemap")} from sitemaps, ${from("links")} from the start page's links)${data.truncated ? "; more were found than limit: the rest are left out" : ""}.`,
    ...data.urls.map((u) => `- ${u.url} (${u.source})`),
  ].join("\n");
}
