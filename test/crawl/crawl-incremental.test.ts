/**
 * Incremental crawls (`maxAge`, `modifiedSince`, docs/CRAWL.md) against the crawl fixture site's
 * /incr/ pages (test/fixtures/crawl-site.ts, INCR: ETags, a Last-Modified, a page without
 * validators, a page that changes on every request) and its sitemaps' `<lastmod>`s. Every crawl
 * is `render: "never"` (no browser) and small; the site's request log shows the conditional
 * headers sent and which pages were not requested at all.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Crawl, CrawlPage, CrawlSummary } from "../../schemas/crawl";
import { crawlStub } from "../../src/crawl/crawl-stub";
import { INCR, LASTMOD } from "../fixtures/crawl-site";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { call, envelope, postJson } from "../helpers/http";
import { poll } from "../helpers/jobs";

const SITE = (env as unknown as { CRAWL_SITE_ORIGIN: string }).CRAWL_SITE_ORIGIN;
/** Every page of /incr/: the home's four, and the one only /incr/dated links. */
const ALL = [...INCR.pages, "/incr/behind-dated"];
const every = (fate: string) => Object.fromEntries(ALL.map((p) => [p, fate]));

interface SiteRequest {
  path: string;
  headers: Record<string, string | undefined>;
}
async function remaining(account: TestAccount): Promise<number> {
  const res = await call("/v1/account", { headers: bearer(account.apiKey) });
  return (await envelope<{ usage: { remaining: number } }>(res)).data?.usage.remaining ?? NaN;
}

/** Runs a crawl to its end: its view, its pages by path, the site's log of it, what it cost. */
async function crawl(account: TestAccount, body: Record<string, unknown>) {
  const since = Date.now();
  const before = await remaining(account);
  const res = await postJson(
    "/v1/crawl",
    { url: `${SITE}/incr/`, scope: "path", sitemap: "skip", render: "never", limit: 10, ...body },
    bearer(account.apiKey),
  );
  expect(res.status).toBe(202);
  const crawlId = (await envelope<{ crawlId: string }>(res)).data?.crawlId ?? "";
  await poll(
    () => crawlStub(env, account.accountId, crawlId).summary(),
    (s: CrawlSummary | null) => s !== null && s.status === "completed",
    60_000,
    100,
  );
  const view = (
    await envelope<Crawl>(await call(`/v1/crawl/${crawlId}`, { headers: bearer(account.apiKey) }))
  ).data;
  const pages = new Map<string, CrawlPage>(
    (view?.pages ?? []).map((p): [string, CrawlPage] => [new URL(p.url).pathname, p]),
  );
  const log = (await (await fetch(`${SITE}/__log?since=${since}`)).json()) as SiteRequest[];
  return { view, pages, log, charged: before - (await remaining(account)) };
}

/** What each page became: `rendered`, or its skip reason. */
const fates = (pages: Map<string, CrawlPage>) =>
  Object.fromEntries([...pages].map(([path, p]) => [path, p.reason ?? p.status]));

describe("incremental crawls", () => {
  it("conditional requests where the site gives validators; maxAge reuses pages with no request", async () => {
    const account = await createAccount("pro");

    // 1. A first crawl: every page loaded, no conditional header sent (nothing known yet).
    const first = await crawl(account, {});
    expect(fates(first.pages)).toEqual(every("rendered"));
    const conditional = (r: SiteRequest) =>
      r.headers["if-none-match"] !== undefined || r.headers["if-modified-since"] !== undefined;
    expect(first.log.filter(conditional)).toEqual([]);
    expect(first.charged).toBe(3); // 6 HTTP pages: ½ credit each

    // 2. maxAge 0: nothing reused unasked; each page with validators is asked conditionally.
    const second = await crawl(account, { maxAge: 0 });
    const sent = Object.fromEntries(
      second.log
        .filter((r) => r.path.startsWith("/incr/"))
        .map((r) => [r.path, [r.headers["if-none-match"], r.headers["if-modified-since"]]]),
    );
    expect(sent).toEqual({
      "/incr/": ['"incr-home"', undefined],
      "/incr/etag": ['"incr-etag-1"', undefined],
      "/incr/dated": [undefined, INCR.dated],
      "/incr/plain": [undefined, undefined], // it gave no validator
      "/incr/changing": ['"incr-changing-1"', expect.any(String)],
      "/incr/behind-dated": [undefined, undefined],
    });
    expect(fates(second.pages)).toEqual({
      "/incr/": "not_modified",
      "/incr/etag": "not_modified",
      "/incr/dated": "not_modified",
      "/incr/plain": "rendered",
      "/incr/changing": "rendered",
      // Linked only by /incr/dated: its 304 still gave the links its entry holds.
      "/incr/behind-dated": "rendered",
    });
    // A 304 reuses what the account's crawl loaded: its content, when, and its links (the
    // home's 304 still led to its four pages).
    const home = second.pages.get("/incr/");
    expect(home?.status).toBe("skipped");
    expect(home?.markdown).toContain(INCR.phrase);
    expect(Date.parse(home?.cachedAt ?? "")).toBeLessThan(Date.parse(second.view?.createdAt ?? ""));
    expect(second.pages.get("/incr/plain")?.cachedAt).toBeUndefined();
    expect(second.view?.counts).toMatchObject({
      rendered: 3,
      skipped: 3,
      notModified: 3,
      cached: 0,
    });
    expect(second.charged).toBe(2); // 3 HTTP pages; the 304s are free
    expect(second.view?.creditsUsed).toBe(2);

    // 3. maxAge an hour: every page reused as loaded, none requested, nothing charged.
    const third = await crawl(account, { maxAge: 3600 });
    expect(third.log.filter((r) => r.path.startsWith("/incr/"))).toEqual([]);
    expect(fates(third.pages)).toEqual(every("cached"));
    expect(third.pages.get("/incr/etag")?.markdown).toContain(INCR.phrase);
    expect(third.pages.get("/incr/changing")?.cachedAt).toBeDefined();
    expect(third.view?.counts).toMatchObject({ rendered: 0, skipped: 6, cached: 6 });
    expect(third.charged).toBe(0);

    // 4. Other formats are another result: nothing to reuse, every page loaded again.
    const other = await crawl(account, { maxAge: 3600, formats: ["text"] });
    expect(fates(other.pages)).toEqual(every("rendered"));
    expect(other.pages.get("/incr/etag")?.text).toContain(INCR.phrase);
  }, 120_000);

  it("modifiedSince: a sitemap lastmod before it is never requested; a Last-Modified before it is skipped, its links followed", async () => {
    const account = await createAccount("pro");
    const modifiedSince = "2024-06-01T00:00:00Z";

    const dated = await crawl(account, { modifiedSince });
    expect(fates(dated.pages)).toEqual({
      "/incr/": "rendered",
      "/incr/etag": "rendered",
      "/incr/dated": "not_modified", // Last-Modified 2024-01-01
      "/incr/behind-dated": "rendered", // linked only by the skipped page
      "/incr/plain": "rendered",
      "/incr/changing": "rendered",
    });
    expect(dated.pages.get("/incr/dated")?.markdown).toBeUndefined();
    // Nothing was known of the page: it was requested plainly, and not charged.
    const datedGet = dated.log.find((r) => r.path === "/incr/dated");
    expect(datedGet?.headers["if-modified-since"]).toBeUndefined();
    expect(dated.view?.counts).toMatchObject({ rendered: 5, notModified: 1 });
    expect(dated.charged).toBe(3);

    // The sitemaps' URLs only: those whose <lastmod> is before modifiedSince are skipped unasked.
    const mapped = await crawl(account, {
      url: `${SITE}/`,
      scope: "host",
      sitemap: "only",
      modifiedSince,
    });
    expect([LASTMOD["/orphan"], LASTMOD["/articles/1"], LASTMOD["/about"]]).toEqual([
      "2020-01-01",
      "2024-03-01T12:00:00+00:00",
      "2025-06-01",
    ]);
    const fate = fates(mapped.pages);
    expect(fate["/orphan"]).toBe("not_modified");
    expect(fate["/articles/1"]).toBe("not_modified");
    expect(fate["/about"]).toBe("rendered"); // lastmod 2025
    expect(fate["/"]).toBe("rendered"); // no lastmod
    expect(fate["/orphan-gz"]).toBe("rendered");
    const requested = mapped.log.map((r) => r.path);
    expect(requested).not.toContain("/orphan");
    expect(requested).not.toContain("/articles/1");
    expect(requested).toContain("/about");
    expect(mapped.view?.counts.notModified).toBe(2);
    expect(mapped.pages.get("/orphan")?.foundOn).toBeUndefined();
  }, 120_000);

  it("refuses bad maxAge and modifiedSince with a 400 naming the field, nothing created", async () => {
    const account = await createAccount("pro");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ maxAge: -1 }, "maxAge"],
      [{ maxAge: 1.5 }, "maxAge"],
      [{ maxAge: 7 * 86_400 + 1 }, "maxAge"],
      [{ maxAge: "3600" }, "maxAge"],
      [{ modifiedSince: "yesterday" }, "modifiedSince"],
      [{ modifiedSince: "2024-06-01" }, "modifiedSince"],
      [{ modifiedSince: 1_700_000_000 }, "modifiedSince"],
    ];
    for (const [change, field] of cases) {
      const res = await postJson(
        "/v1/crawl",
        { url: `${SITE}/incr/`, ...change },
        bearer(account.apiKey),
      );
      expect(res.status, JSON.stringify(change)).toBe(400);
      const body = await envelope(res);
      expect(body.error?.details?.map((d) => d.path)).toEqual([field]);
    }
    const list = await call("/v1/crawls", { headers: bearer(account.apiKey) });
    expect((await envelope<{ items: unknown[] }>(list)).data?.items).toEqual([]);
  });
});
