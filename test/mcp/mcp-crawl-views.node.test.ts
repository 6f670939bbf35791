/**
 * What crawl_status shows a model (src/http/mcp/crawl-views.ts): each page's content bounded,
 * the cut told with the sizes and where the whole is, a large page's contentUrl, the links
 * capped, and the next call named. The end-to-end test (test/mcp/mcp.e2e.test.ts) reads a real
 * crawl; the bounds need pages longer than the fixture site's.
 */
import { describe, expect, it } from "vitest";
import type { Crawl, CrawlPage } from "../../schemas/crawl";
import { CRAWL_STATUS_VIEW } from "../../schemas/mcp";
import { crawlHeader, cut, mapText, pageText } from "../../src/http/mcp/crawl-views";

const ID = "11111111-2222-4333-8444-555555555555";
const rendered = (extra: Partial<CrawlPage>): CrawlPage => ({
  url: "https://example.com/a",
  depth: 1,
  status: "rendered",
  ...extra,
});
const view = (extra: Partial<Crawl>): Crawl => ({
  crawlId: ID,
  url: "https://example.com/",
  status: "completed",
  counts: { rendered: 3, skipped: 2, failed: 1, queued: 0, cached: 0, notModified: 0 },
  limit: 20,
  creditsUsed: 3,
  createdAt: "2026-01-01T00:00:00.000Z",
  pages: [rendered({})],
  nextCursor: null,
  ...extra,
});

describe("crawl_status's view of a page", () => {
  const max = CRAWL_STATUS_VIEW.contentChars;

  it("shows Markdown within the bound whole", () => {
    const text = pageText(rendered({ markdown: "# Hello\n\nWorld." }), ID);
    expect(text).toBe("## https://example.com/a — rendered, depth 1\nMarkdown:\n# Hello\n\nWorld.");
  });

  it("cuts longer Markdown at the bound and says how much and where the whole is", () => {
    const markdown = "word ".repeat(2000); // 10,000 characters
    const text = pageText(rendered({ markdown }), ID);
    expect(text).toContain(markdown.slice(0, max));
    expect(text).not.toContain(markdown.slice(0, max + 1));
    expect(text).toContain(`[Cut: 3,000 of 10,000 characters shown.`);
    expect(text).toContain(`GET /v1/crawl/${ID}/pages`);
    expect(text.length).toBeLessThan(max + 400);
  });

  it("never cuts inside a surrogate pair", () => {
    const value = `${"a".repeat(max - 1)}😀tail`;
    expect(cut(value, max)).toEqual({ shown: "a".repeat(max - 1), cut: true });
  });

  it("falls back to text, then HTML, and gives a large page's contentUrl instead", () => {
    expect(pageText(rendered({ text: "plain" }), ID)).toContain("Text:\nplain");
    expect(pageText(rendered({ html: "<p>x</p>" }), ID)).toContain("HTML:\n<p>x</p>");
    const big = pageText(
      rendered({ contentUrl: "https://svc.example/v1/crawl-content?sig=1" }),
      ID,
    );
    expect(big).toContain("not shown; its JSON (markdown/html/text) is at https://svc.example/");
  });

  it("tells a skipped or failed page's reason and status code, lists at most 20 links", () => {
    const failed = pageText(
      {
        url: "https://example.com/x",
        depth: 2,
        status: "failed",
        reason: "http_error",
        statusCode: 404,
      },
      ID,
    );
    expect(failed).toBe("## https://example.com/x — failed: http_error (HTTP 404), depth 2");
    const links = Array.from({ length: 25 }, (_, i) => ({ url: `https://e.com/${i}`, text: "" }));
    const text = pageText(rendered({ links }), ID);
    expect(text).toContain("Links (25):");
    expect(text).toContain("- https://e.com/19");
    expect(text).not.toContain("- https://e.com/20");
    expect(text).toContain("- … and 5 more");
  });
});

describe("crawl_status's header", () => {
  it("names the next call: the cursor, a poll while running, or the end", () => {
    expect(crawlHeader(view({ nextCursor: "42" }), undefined)).toContain(
      `call crawl_status with crawlId "${ID}" and cursor "42".`,
    );
    const running = crawlHeader(view({ status: "running" }), "7");
    expect(running).toContain(
      'the crawl is running: call crawl_status again in a few seconds with cursor "7"',
    );
    const done = crawlHeader(view({ stoppedBy: "limit" }), undefined);
    expect(done).toContain(`Crawl ${ID} of https://example.com/: completed (stopped by limit).`);
    expect(done).toContain(
      "Pages: 3 rendered, 2 skipped, 1 failed, 0 queued (limit 20). Credits used: 3.",
    );
    expect(done).toContain("That is the last result.");
  });

  it("map: one URL a line with its source, and the cut told", () => {
    const text = mapText({
      urls: [
        { url: "https://e.com/a", source: "sitemap" },
        { url: "https://e.com/b", source: "links" },
      ],
      truncated: true,
    });
    expect(text.split("\n")).toEqual([
      "2 URLs (1 from sitemaps, 1 from the start page's links); more were found than limit: the rest are left out.",
      "- https://e.com/a (sitemap)",
      "- https://e.com/b (links)",
    ]);
  });
});
