/**
 * What the monitor tools show a model (src/http/mcp/monitor-views.ts): a changed page's pixels,
 * regions, words and fields; the text diff and field values bounded, each cut told with the
 * sizes and where the whole is; failed, removed and new pages; the next call named; a monitor
 * and a dry run. The end-to-end test (test/mcp/mcp.e2e.test.ts) reads a real check of one page;
 * the bounds and the other statuses need pages the fixture site does not give it.
 */
import { describe, expect, it } from "vitest";
import { MONITOR_TOOLS_VIEW } from "../../schemas/mcp";
import type { CheckPage, CheckView, MonitorView } from "../../schemas/monitors";
import {
  changesHeader,
  checkPageText,
  createdText,
  dryRunText,
  monitorText,
  noCompletedCheckText,
} from "../../src/http/mcp/monitor-views";

const MONITOR_ID = "11111111-2222-4333-8444-555555555555";
const CHECK_ID = "66666666-7777-4888-8999-000000000000";
const WHERE = `/v1/monitors/${MONITOR_ID}/checks/${CHECK_ID}/pages`;

const check = (extra: Partial<CheckView> = {}): CheckView => ({
  checkId: CHECK_ID,
  monitorId: MONITOR_ID,
  trigger: "manual",
  status: "completed",
  counts: { new: 1, removed: 1, changed: 2, unchanged: 3, failed: 1 },
  identical: 2,
  creditsUsed: 6,
  baseline: false,
  createdAt: "2026-01-01T00:00:00.000Z",
  completedAt: "2026-01-01T00:00:09.000Z",
  ...extra,
});

const monitor = (extra: Partial<MonitorView> = {}): MonitorView => ({
  monitorId: MONITOR_ID,
  name: "Shop",
  url: "https://example.com/",
  status: "active",
  schedule: { intervalMinutes: 1440 },
  nextCheckAt: "2026-01-02T00:00:00.000Z",
  lastCheck: check(),
  feedUrl: `https://svc.example/v1/monitors/${MONITOR_ID}/feed?account=a&sig=s`,
  settings: {
    url: "https://example.com/",
    scope: "host",
    limit: 20,
    maxDepth: 2,
    compare: ["visual", "text", "fields"],
    fields: [{ name: "price", selector: ".price" }],
    ignore: [".nav"],
  },
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...extra,
});

const changed = (extra: Partial<CheckPage>): CheckPage => ({
  url: "https://example.com/pricing",
  status: "changed",
  statusCode: 200,
  ...extra,
});

describe("monitor_changes' view of a page", () => {
  it("tells a changed page's pixels and regions, diff image, words, fields and masks", () => {
    const text = checkPageText(
      changed({
        visual: {
          changedPixels: 20000,
          changedPercent: 3.91,
          regions: [
            { x: 100, y: 200, width: 200, height: 100 },
            { x: 0, y: 0, width: 8, height: 8 },
          ],
          beforeUrl: "https://svc.example/before",
          afterUrl: "https://svc.example/after",
          diffUrl: "https://svc.example/diff",
        },
        text: {
          added: 2,
          removed: 1,
          parts: [
            { op: "removed", text: "10" },
            { op: "added", text: "12" },
            { op: "added", text: 'today "only"' },
          ],
          truncated: false,
        },
        fields: [
          { name: "price", before: "10", after: "12" },
          { name: "canonical", before: null, after: "https://example.com/p" },
        ],
        masked: { regions: [{ x: 0, y: 40, width: 120, height: 20 }], lines: 1 },
      }),
      WHERE,
    );
    expect(text.split("\n")).toEqual([
      "## https://example.com/pricing — changed",
      "Visual: 20,000 pixels changed (3.91%) in 2 regions: 200×100 at (100, 200); 8×8 at (0, 0).",
      "Diff image (changes in red): https://svc.example/diff",
      "Text: 2 words added, 1 word removed:",
      '- "10"',
      '+ "12"',
      '+ "today \\"only\\""',
      "Fields:",
      '- price: "10" → "12"',
      '- canonical: (none) → "https://example.com/p"',
      "Not compared (volatile or ignored): 1 region, 1 line of text.",
    ]);
  });

  it("cuts the text diff at its bound and says how much is left and where the whole is", () => {
    const max = MONITOR_TOOLS_VIEW.diffChars;
    const parts = Array.from({ length: 40 }, (_, i) => ({
      op: i % 2 === 0 ? ("removed" as const) : ("added" as const),
      text: `${String(i).padStart(2, "0")}${"x".repeat(98)}`, // 100 characters each
    }));
    const text = checkPageText(
      changed({ text: { added: 400, removed: 400, parts, truncated: true } }),
      WHERE,
    );
    expect(text).toContain("(the stored diff is itself cut: at most 100 parts of 500 characters)");
    // 15 parts of 100 characters fill the bound; the 16th is not shown.
    expect(text).toContain(`"14${"x".repeat(98)}"`);
    expect(text).not.toContain('"15x');
    expect(text).toContain(
      `[Cut at 1,500 characters: 25 more parts (2,500 characters) not shown. The whole diff: GET ${WHERE}.]`,
    );
    expect(text.length).toBeLessThan(max + 600);
  });

  it("cuts one long part, and a long field value, within their bounds", () => {
    const long = "word ".repeat(1000); // 5,000 characters
    const text = checkPageText(
      changed({
        text: { added: 1000, removed: 0, parts: [{ op: "added", text: long }], truncated: false },
        fields: [{ name: "body", before: long, after: null }],
      }),
      WHERE,
    );
    expect(text).toContain(
      `+ ${JSON.stringify(long.slice(0, MONITOR_TOOLS_VIEW.diffChars))}… (1,500 of 5,000 characters)`,
    );
    expect(text).toContain(
      `- body: ${JSON.stringify(long.slice(0, MONITOR_TOOLS_VIEW.valueChars))}… (200 of 5,000 characters) → (none)`,
    );
    expect(text).not.toContain("more part");
    expect(text.length).toBeLessThan(2000);
  });

  it("tells a failed page's reason, a removed page's status code, a new page's screenshot", () => {
    expect(
      checkPageText(
        { url: "https://e.com/b", status: "failed", reason: "http_error", statusCode: 500 },
        WHERE,
      ),
    ).toBe("## https://e.com/b — failed: http_error (HTTP 500)");
    expect(
      checkPageText({ url: "https://e.com/g", status: "removed", statusCode: 404 }, WHERE),
    ).toBe("## https://e.com/g — removed (HTTP 404)");
    expect(
      checkPageText(
        { url: "https://e.com/n", status: "new", statusCode: 200, screenshotUrl: "https://s/n" },
        WHERE,
      ),
    ).toBe("## https://e.com/n — new\nScreenshot: https://s/n");
  });
});

describe("monitor_changes' header", () => {
  const call = `monitor_changes with monitorId "${MONITOR_ID}" and checkId "${CHECK_ID}"`;

  it("tells the check and names the next call: the cursor, a poll while running, or the end", () => {
    const more = changesHeader(monitor(), check(), 10, { cursor: undefined, nextCursor: "42" });
    expect(more.split("\n")).toEqual([
      `Monitor ${MONITOR_ID} of https://example.com/.`,
      `Check ${CHECK_ID} (manual, completed): 1 new, 1 removed, 2 changed, 3 unchanged, 1 failed; 6 credits used; started 2026-01-01T00:00:00.000Z, completed 2026-01-01T00:00:09.000Z.`,
      "10 pages below (unchanged pages are only counted), in the order they were checked.",
      `More pages: call ${call} and cursor "42".`,
    ]);
    const running = changesHeader(
      monitor(),
      check({ status: "running", completedAt: undefined }),
      0,
      { cursor: "7", nextCursor: null },
    );
    expect(running).toContain("No pages in this range.");
    expect(running).toContain(
      `The check is running: call ${call} and cursor "7" again in a few seconds for the pages checked since.`,
    );
    expect(changesHeader(monitor(), check(), 1, { cursor: undefined, nextCursor: null })).toMatch(
      /1 page below .*\nThat is the last page\.$/,
    );
  });

  it("says when the check set the baseline, and when a later check exists", () => {
    const later = check({ checkId: "later", status: "queued", completedAt: undefined });
    const text = changesHeader(
      monitor({ lastCheck: later }),
      check({ trigger: "created", baseline: true }),
      1,
      { cursor: undefined, nextCursor: null },
    );
    expect(text).toContain(`Check ${CHECK_ID} (created, completed, baseline)`);
    expect(text).toContain("This check set the baseline: every page it saw is new");
    expect(text).toContain("A later check, later, is queued.");
  });

  it("before any completed check: the recent checks, or how to start one", () => {
    const queued = check({ status: "queued", completedAt: undefined, creditsUsed: 1 });
    expect(noCompletedCheckText(monitor(), [queued]).split("\n")).toEqual([
      `Monitor ${MONITOR_ID} of https://example.com/: no completed check yet.`,
      "Its latest checks, newest first:",
      `- Check ${CHECK_ID} (manual, queued): 1 new, 1 removed, 2 changed, 3 unchanged, 1 failed; 1 credit used; started 2026-01-01T00:00:00.000Z.`,
      `Call monitor_changes with monitorId "${MONITOR_ID}" again in a few seconds, or with a checkId to read a running check's pages so far.`,
    ]);
    expect(noCompletedCheckText(monitor({ nextCheckAt: null, status: "paused" }), [])).toContain(
      "It is paused and has no check: monitor_check checks now.",
    );
  });
});

describe("a monitor and a dry run", () => {
  it("tells what a monitor watches, when, what it compares, its last check and its feed", () => {
    const text = createdText(monitor({ lastCheck: null }));
    expect(text.split("\n")).toEqual([
      `Monitor ${MONITOR_ID} "Shop" of https://example.com/: active.`,
      "Schedule: every 1,440 minutes; next check: 2026-01-02T00:00:00.000Z.",
      "A check covers at most 20 pages (scope host, 2 links deep) and compares visual, text, fields; fields: price; ignored: .nav.",
      "No check yet.",
      `Atom feed of its changes (no key needed): https://svc.example/v1/monitors/${MONITOR_ID}/feed?account=a&sig=s`,
      `Its first check runs now and sets the baseline (every page new). Call monitor_changes with monitorId "${MONITOR_ID}" in a few seconds to see it; after that it tells what changed. monitor_check checks again now.`,
      "Each page a check renders costs 1 credit; skipped and failed pages cost nothing.",
    ]);
    const ignore = Array.from({ length: 7 }, (_, i) => `.ad-${i}`);
    const cron = monitorText(
      monitor({
        schedule: { cron: "0 6 * * 1-5" },
        name: null,
        status: "paused",
        nextCheckAt: null,
        settings: { url: "https://example.com/", ignore },
      }),
    );
    expect(cron).toContain(`Monitor ${MONITOR_ID} of https://example.com/: paused.`);
    expect(cron).toContain('Schedule: cron "0 6 * * 1-5" (UTC); next check: none while paused.');
    expect(cron).toContain(`Last: Check ${CHECK_ID} (manual, completed)`);
    expect(cron).toContain(
      "compares visual, text, fields; ignored: .ad-0, .ad-1, .ad-2, .ad-3, .ad-4, … and 2 more.",
    );
  });

  it("a dry run: its credits, and at most 50 of its URLs", () => {
    const urls = Array.from({ length: 60 }, (_, i) => `https://e.com/${i}`);
    const text = dryRunText({
      dryRun: true,
      urls,
      truncated: true,
      creditsPerCheck: 60,
      checksPerMonth: 30,
      creditsPerMonth: 1800,
    });
    const lines = text.split("\n");
    expect(lines.slice(0, 2)).toEqual([
      "Dry run: nothing created, nothing charged.",
      "A check would cover 60 pages (the site has more than limit: the rest are left out): 60 credits a check, 30 checks in 30 days, 1,800 credits a month.",
    ]);
    expect(lines).toContain("- https://e.com/49");
    expect(lines).not.toContain("- https://e.com/50");
    expect(lines.at(-1)).toBe("- … and 10 more");
  });
});
