/**
 * Crawl and map against the crawl fixture site (test/fixtures/crawl-site.ts: robots.txt with
 * Disallow and Crawl-delay, a sitemap index with a gzipped sitemap, an orphan page, cycles,
 * fragments, relative links and <base href>, a link and a redirect to private addresses,
 * 404/500 pages, a slow page, a PDF, nofollow links, a deep chain), rendered by the real
 * browser through the real capture queue. The expected sets are written out here by hand; the
 * site's own request log proves what was fetched, and how often.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Crawl, CrawlDryRun, CrawlPage, CrawlSummary, MapResult } from "../../schemas/crawl";
import type { Crawl as CrawlDo } from "../../src/crawl/crawl-do";
import { addUrl } from "../../src/crawl/frontier";
import { CRAWL } from "../../schemas/limits";
import { PLANS } from "../../src/accounts/plans";
import { crawlStub } from "../../src/crawl/crawl-stub";
import { handleCaptureBatch } from "../../src/queues/capture-jobs";
import { bearer, createAccount, setAccount, type TestAccount } from "../helpers/accounts";
import { accountDo } from "../helpers/account-do";
import {
  call,
  CANARY,
  envelope,
  FIXTURES,
  fixtureLog,
  postJson,
  runId,
  type LoggedRequest,
} from "../helpers/http";
import { deliver, poll, waitForWebhooks, webhookUrl } from "../helpers/jobs";

const SITE = (env as unknown as { CRAWL_SITE_ORIGIN: string }).CRAWL_SITE_ORIGIN;
/** The crawl site at scale: a sitemap index of 10 urlsets listing /tree/1 … /tree/100000. */
const SCALE = (env as unknown as { SCALE_SITE_ORIGIN: string }).SCALE_SITE_ORIGIN;
const SMALL = { width: 640, height: 480 };

interface SiteRequest {
  method: string;
  path: string;
  at: number;
}
async function siteLog(since: number): Promise<SiteRequest[]> {
  return (await (await fetch(`${SITE}/__log?since=${since}`)).json()) as SiteRequest[];
}
async function canaryHits(since: number): Promise<SiteRequest[]> {
  const all = (await (await fetch(`${CANARY}/__log`)).json()) as (SiteRequest & { at?: number })[];
  return all.filter((r) => r.path.startsWith("/crawl-canary") && (r.at ?? since) >= since);
}

async function start(account: TestAccount, body: Record<string, unknown>) {
  const res = await postJson("/v1/crawl", { ...SMALL, ...body }, bearer(account.apiKey));
  return { res, body: await envelope<{ crawlId: string; status: string; statusUrl: string }>(res) };
}

const FINAL = new Set(["completed", "cancelled", "failed"]);
async function finished(account: TestAccount, crawlId: string, timeoutMs = 120_000) {
  return poll(
    () => crawlStub(env, account.accountId, crawlId).summary(),
    (s) => s !== null && FINAL.has(s.status),
    timeoutMs,
    250,
  ) as Promise<CrawlSummary>;
}

/** Every result of /pages (or /errors), following `nextCursor`; `status` filters /pages. */
async function allPages(
  account: TestAccount,
  crawlId: string,
  list: "pages" | "errors" = "pages",
  status?: string,
): Promise<CrawlPage[]> {
  const pages: CrawlPage[] = [];
  let cursor: string | null = "";
  while (cursor !== null) {
    const q = new URLSearchParams({ limit: "7" });
    if (cursor) q.set("cursor", cursor);
    if (status) q.set("status", status);
    const res = await call(`/v1/crawl/${crawlId}/${list}?${q}`, {
      headers: bearer(account.apiKey),
    });
    const body = await envelope<{ pages: CrawlPage[]; nextCursor: string | null }>(res);
    expect(res.status).toBe(200);
    pages.push(...(body.data?.pages ?? []));
    cursor = body.data?.nextCursor ?? null;
  }
  return pages;
}

const path = (url: string) => {
  const u = new URL(url);
  return u.origin === SITE ? `${u.pathname}${u.search}` : u.href;
};
const where = (pages: CrawlPage[], keep: (p: CrawlPage) => boolean) =>
  pages
    .filter(keep)
    .map((p) => path(p.url))
    .sort();
const sorted = (list: string[]) => [...list].sort();

async function remaining(account: TestAccount): Promise<number> {
  const res = await call("/v1/account", { headers: bearer(account.apiKey) });
  return (await envelope<{ usage: { remaining: number } }>(res)).data?.usage.remaining ?? NaN;
}

const ARTICLES = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `/articles/${from + i}`);
const FIXTURE_PORT = Number(new URL(CANARY).port) - 3;

/** What a default crawl from `/` (host scope, maxDepth 2, sitemaps on) makes of the site. */
const EXPECTED = {
  rendered: [
    "/",
    // depth 1: linked from the home page, or named by a sitemap
    "/about",
    "/cycle/a",
    "/links/fragments",
    "/docs/guide/intro",
    "/base",
    "/dupes",
    "/nofollow",
    "/outside",
    "/redirect-ok",
    "/slow",
    "/deep/1",
    "/articles?page=1",
    "/star-only/page",
    "/orphan",
    "/orphan-gz",
    ...ARTICLES(45, 48),
    "/articles/1",
    // depth 2
    "/cycle/b",
    "/fragment-target",
    "/docs/reference",
    "/docs/guide/setup",
    "/docs/api",
    "/docs/faq?x=1",
    ...ARTICLES(2, 10),
    "/articles?page=2",
    "/deep/2",
    "/star-only/child",
  ],
  robots: ["/private/secret", "/no-edgeshot/page", "/private/in-sitemap"],
  blocked: ["/redirect-private"],
  notHtml: ["/file.pdf", "/image.png"],
  scope: [
    `http://127.0.0.1:${FIXTURE_PORT}/small.html`,
    "http://10.0.0.1/",
    `http://127.0.0.1:${FIXTURE_PORT + 3}/crawl-canary`,
    "https://example.com/",
  ],
  depth: [...ARTICLES(11, 20), "/articles?page=3", "/deep/3"],
  failed: { "/missing": 404, "/broken": 500 },
};

let pro: TestAccount;
beforeAll(async () => {
  pro = await createAccount("pro");
});

describe("a default crawl of the fixture site", () => {
  let crawlId: string;
  let pages: CrawlPage[];
  let since: number;
  let creditsBefore: number;

  beforeAll(async () => {
    since = Date.now();
    creditsBefore = await remaining(pro);
    const { res, body } = await start(pro, { url: `${SITE}/`, limit: 100 });
    expect(res.status).toBe(202);
    expect(body.data?.status).toBe("queued");
    crawlId = body.data?.crawlId ?? "";
    expect(body.data?.statusUrl).toMatch(new RegExp(`/v1/crawl/${crawlId}$`));
    await finished(pro, crawlId, 180_000);
    pages = await allPages(pro, crawlId);
  }, 240_000);

  it("renders exactly the pages in scope, depth and robots.txt, each once", () => {
    expect(where(pages, (p) => p.status === "rendered")).toEqual(sorted(EXPECTED.rendered));
    expect(pages.length).toBe(new Set(pages.map((p) => p.url)).size);
  });

  it("lists every skipped URL with its reason, and the failed pages with their status", () => {
    const skipped = (reason: string) =>
      where(pages, (p) => p.status === "skipped" && p.reason === reason);
    expect(skipped("robots")).toEqual(sorted(EXPECTED.robots));
    expect(skipped("blocked")).toEqual(sorted(EXPECTED.blocked));
    expect(skipped("not_html")).toEqual(sorted(EXPECTED.notHtml));
    expect(skipped("scope")).toEqual(sorted(EXPECTED.scope));
    expect(skipped("depth")).toEqual(sorted(EXPECTED.depth));
    const failed = pages.filter((p) => p.status === "failed");
    expect(Object.fromEntries(failed.map((p) => [path(p.url), [p.reason, p.statusCode]]))).toEqual({
      "/missing": ["http_error", 404],
      "/broken": ["http_error", 500],
    });
    expect(where(pages, () => true).length).toBe(
      EXPECTED.rendered.length + 3 + 1 + 2 + 4 + EXPECTED.depth.length + 2,
    );
  });

  it("names the page each URL was found on; /errors and ?status= list the pages asked for", async () => {
    const found = (p: string) => pages.find((page) => path(page.url) === p)?.foundOn;
    expect(found("/")).toBeUndefined(); // the start URL
    expect(found("/orphan")).toBeUndefined(); // a sitemap's
    // /cycle/a is linked from / and from /about, both seeds at depth 0: the first of the two to
    // be rendered names it.
    expect([`${SITE}/`, `${SITE}/about`]).toContain(found("/cycle/a"));
    // /cycle/a and /links/fragments are both at depth 1 and both link to /cycle/b: the first of
    // the two to be rendered names it, and which one that is depends on the queue's order.
    expect([`${SITE}/cycle/a`, `${SITE}/links/fragments`]).toContain(found("/cycle/b"));
    expect(found("/deep/3")).toBe(`${SITE}/deep/2`); // skipped (depth) at once, found on /deep/2
    const errors = await allPages(pro, crawlId, "errors");
    expect(where(errors, () => true)).toEqual(
      sorted([...EXPECTED.robots, ...EXPECTED.blocked, "/missing", "/broken"]),
    );
    expect(errors.find((p) => path(p.url) === "/missing")).toMatchObject({
      status: "failed",
      reason: "http_error",
      statusCode: 404,
    });
    const failed = await allPages(pro, crawlId, "pages", "failed");
    expect(where(failed, () => true)).toEqual(sorted(["/missing", "/broken"]));
    const skipped = await allPages(pro, crawlId, "pages", "skipped");
    expect(skipped.length).toBe(pages.filter((p) => p.status === "skipped").length);
    const bad = await call(`/v1/crawl/${crawlId}/pages?status=done`, {
      headers: bearer(pro.apiKey),
    });
    expect(bad.status).toBe(400);
    expect((await envelope(bad)).error?.details?.[0]?.path).toBe("status");
  });

  it("is completed, counted and charged one credit a rendered page", async () => {
    const res = await call(`/v1/crawl/${crawlId}`, { headers: bearer(pro.apiKey) });
    const view = (await envelope<Crawl>(res)).data;
    expect(view?.status).toBe("completed");
    expect(view?.stoppedBy).toBeUndefined();
    expect(view?.counts).toEqual({
      rendered: EXPECTED.rendered.length,
      skipped: pages.filter((p) => p.status === "skipped").length,
      failed: 2,
      queued: 0,
      cached: 0,
      notModified: 0,
    });
    expect(view?.creditsUsed).toBe(EXPECTED.rendered.length);
    expect(await remaining(pro)).toBe(creditsBefore - EXPECTED.rendered.length);
    expect(view?.pages.length).toBe(20);
  });

  it("fetches robots.txt once, each page once, nothing disallowed, private or nofollowed", async () => {
    const log = await siteLog(since);
    const gets = (p: string) => log.filter((r) => r.method === "GET" && r.path === p).length;
    expect(gets("/robots.txt")).toBe(1);
    for (const p of [...EXPECTED.rendered, "/missing", "/broken", "/redirect-private"])
      expect(gets(p), p).toBe(1);
    expect(gets("/landing")).toBe(1); // /redirect-ok's target
    for (const p of [...EXPECTED.robots, "/nofollowed", "/deep/3", "/articles/11", "/api"])
      expect(gets(p), p).toBe(0);
    expect(await canaryHits(since)).toEqual([]);
    // No screenshot: the pages load text-only. /articles/3's image is not fetched, nor counted
    // as one that did not load; its Markdown still names it.
    expect(gets("/figures/3.png")).toBe(0);
    const article = pages.find((p) => path(p.url) === "/articles/3");
    expect(article?.completeness?.images).toEqual({ loaded: 0, total: 0 });
    expect(article?.markdown).toContain(`![Figure 3](${SITE}/figures/3.png)`);
  });

  it("goes on while /slow answers: another page is fetched meanwhile", async () => {
    // Local queues deliver one batch at a time: a page sent while /slow's batch ran used to wait
    // for /slow, and the crawl went one page at a time. The renderer of a finished page now
    // takes the next one itself. /slow holds its answer until another page was requested after
    // it, for at most 10 s (the fixture's SLOW): a request inside those 10 s was made while /slow
    // was still unanswered, however slowly a loaded machine renders. (Two lanes' worth — two
    // pages in that time — is not asserted: on a loaded machine one render took ~5 s and the
    // second lane met one page in 10 s.)
    const log = await siteLog(since);
    const slow = log.find((r) => r.path === "/slow");
    expect(slow).toBeDefined();
    const during = log.filter(
      (r) =>
        r.path !== "/slow" &&
        [...EXPECTED.rendered, ...EXPECTED.notHtml, ...Object.keys(EXPECTED.failed)].includes(
          r.path,
        ) &&
        r.at > (slow?.at ?? 0) &&
        r.at < (slow?.at ?? 0) + 10_000,
    );
    const near = log
      .filter((r) => Math.abs(r.at - (slow?.at ?? 0)) < 12_000)
      .map((r) => `${r.at - (slow?.at ?? 0)} ${r.path}`);
    expect(during.length, near.join("\n")).toBeGreaterThanOrEqual(1);
  });

  it("gives each page the formats asked for: reader-mode Markdown by default", () => {
    const article = pages.find((p) => path(p.url) === "/articles/7");
    expect(article?.markdown).toContain("marker crawl-article-7 appears on this page only");
    expect(article?.html).toBeUndefined();
    const redirected = pages.find((p) => path(p.url) === "/redirect-ok");
    expect(redirected?.finalUrl).toBe(`${SITE}/landing`);
    // No article there: the whole page as Markdown, what it does not show left out.
    expect(redirected?.markdown).toBe(
      [
        "# Landing",
        "Landing: a page of the crawl site.",
        `-   [/](${SITE}/)`,
        "| Plan | Price |\n| --- | --- |\n| **Pro** | 9 |",
      ].join("\n\n"),
    );
  });

  it("another account's crawl is 404 CRAWL_NOT_FOUND, and it is listed for its own", async () => {
    const other = await createAccount("pro");
    for (const p of [`/v1/crawl/${crawlId}`, `/v1/crawl/${crawlId}/pages`]) {
      const res = await call(p, { headers: bearer(other.apiKey) });
      expect(res.status).toBe(404);
      expect((await envelope(res)).error?.code).toBe("CRAWL_NOT_FOUND");
    }
    const list = await call("/v1/crawls", { headers: bearer(pro.apiKey) });
    const items = (await envelope<{ items: CrawlSummary[] }>(list)).data?.items ?? [];
    expect(items.find((c) => c.crawlId === crawlId)?.status).toBe("completed");
  });
});

describe("crawl options", () => {
  it("formats: html, text, links, metadata, json and a screenshot (2 credits a page); include/exclude", async () => {
    const before = await remaining(pro);
    const { body } = await start(pro, {
      url: `${SITE}/articles?page=1`,
      limit: 3,
      maxDepth: 1,
      sitemap: "skip",
      include: ["/articles/*"],
      exclude: ["/articles/2"],
      formats: ["html", "text", "links", "metadata", "screenshot", "json"],
      fields: {
        heading: { selector: "h1" },
        links: { selector: "ul a", attribute: "href", type: "url", list: true },
      },
    });
    const crawlId = body.data?.crawlId ?? "";
    const summary = await finished(pro, crawlId);
    const pages = await allPages(pro, crawlId);
    // The start page is always rendered; the patterns apply to the URLs found.
    expect(where(pages, (p) => p.status === "rendered")).toEqual([
      "/articles/1",
      "/articles/3",
      "/articles?page=1",
    ]);
    expect(where(pages, (p) => p.reason === "pattern")).toEqual([
      "/",
      "/articles/2",
      "/articles?page=2",
    ]);
    expect(summary.stoppedBy).toBe("limit");
    const page = pages.find((p) => path(p.url) === "/articles/3");
    expect(page?.text).toContain("marker crawl-article-3");
    expect(page?.html).toContain("crawl-article-3");
    expect(page?.links?.map((l) => path(l.url))).toContain("/articles?page=1");
    expect(page?.metadata?.title).toMatch(/^Article 3: /);
    expect(page?.metadata?.statusCode).toBe(200);
    // json: the fields typed as POST /v1/json types them (hrefs resolved against the page).
    expect(page?.json?.fields?.heading).toBe(page?.metadata?.title);
    expect(page?.json?.fields?.links).toContain(`${SITE}/articles?page=1`);
    expect(page?.json?.truncated).toBe(false);
    const shot = await call(
      new URL(page?.screenshotUrl ?? "").pathname + new URL(page?.screenshotUrl ?? "").search,
    );
    expect(shot.status).toBe(200);
    expect(shot.headers.get("content-type")).toBe("image/png");
    // The page's report is its screenshot's: a text page on white, nothing pending, its image
    // (fetched: a screenshot's page loads everything) loaded.
    expect(page?.completeness).toMatchObject({
      pendingRequests: 0,
      images: { loaded: 1, total: 1 },
      scrolledPx: 0,
      retried: false,
    });
    expect(page?.completeness?.blankRatio).toBeGreaterThan(0.5);
    expect(page?.completeness?.blankRatio).toBeLessThan(0.995);
    expect(summary.creditsUsed).toBe(6);
    expect(await remaining(pro)).toBe(before - 6);
  }, 120_000);

  it("domain scope puts the canary in scope: the guard skips it as blocked, no request reaches it", async () => {
    const since = Date.now();
    const { body } = await start(pro, {
      url: `${SITE}/outside`,
      maxDepth: 1,
      sitemap: "skip",
      scope: "domain",
      limit: 5,
    });
    const crawlId = body.data?.crawlId ?? "";
    await finished(pro, crawlId);
    const pages = await allPages(pro, crawlId);
    expect(where(pages, (p) => p.reason === "blocked")).toContain(
      `http://127.0.0.1:${FIXTURE_PORT + 3}/crawl-canary`,
    );
    expect(await canaryHits(since)).toEqual([]);
  }, 120_000);
});

describe("sharing the browser with captures", () => {
  it("a crawl page waits for its slot while an interactive capture runs (background work)", async () => {
    const account = await createAccount("pro");
    const since = Date.now();
    const run = runId();
    // An interactive capture whose page answers after 3 s: it holds its slot all that time.
    const shot = postJson(
      "/v1/screenshot",
      { url: `${FIXTURES}/slow?ms=3000&run=${run}`, width: 320, height: 240, waitUntil: "load" },
      bearer(account.apiKey),
    );
    const [slow] = await poll(
      () => fixtureLog(run) as Promise<Array<LoggedRequest & { at: number }>>,
      (log) => log.length > 0,
      20_000,
      50,
    );
    const { body } = await start(account, {
      url: `${SITE}/articles/30?run=${run}`,
      limit: 1,
      maxDepth: 0,
      sitemap: "skip",
    });
    expect((await shot).status).toBe(200);
    expect((await finished(account, body.data?.crawlId ?? "")).counts.rendered).toBe(1);
    const [page] = (await siteLog(since)).filter((r) => r.path === `/articles/30?run=${run}`);
    // Started as a capture, the crawl's page would have been requested at once; it waited.
    expect(page?.at ?? 0).toBeGreaterThanOrEqual((slow?.at ?? Infinity) + 3_000);
  }, 60_000);
});

describe("stopping", () => {
  it("DELETE cancels: nothing new starts, only rendered pages are charged", async () => {
    const account = await createAccount("pro");
    const before = await remaining(account);
    const { body } = await start(account, { url: `${SITE}/`, limit: 100, sitemap: "skip" });
    const crawlId = body.data?.crawlId ?? "";
    const res = await call(`/v1/crawl/${crawlId}`, {
      method: "DELETE",
      headers: bearer(account.apiKey),
    });
    expect(res.status).toBe(200);
    expect((await envelope<CrawlSummary>(res)).data?.status).toBe("cancelled");
    await new Promise((r) => setTimeout(r, 3000));
    const summary = await crawlStub(env, account.accountId, crawlId).summary();
    expect(summary?.status).toBe("cancelled");
    expect(summary?.stoppedBy).toBe("cancelled");
    expect(summary?.counts.rendered).toBeLessThanOrEqual(1);
    expect(await remaining(account)).toBe(before - (summary?.counts.rendered ?? 0));
  }, 60_000);

  it("a start page that fails leaves the crawl failed, and nothing charged", async () => {
    const account = await createAccount("pro");
    const before = await remaining(account);
    const { body } = await start(account, { url: `${SITE}/missing`, sitemap: "skip" });
    const summary = await finished(account, body.data?.crawlId ?? "");
    expect(summary.status).toBe("failed");
    expect(summary.counts).toEqual({
      rendered: 0,
      skipped: 0,
      failed: 1,
      queued: 0,
      cached: 0,
      notModified: 0,
    });
    expect(await remaining(account)).toBe(before);
  }, 60_000);

  it("credits running out completes the crawl with stoppedBy: credits", async () => {
    const account = await createAccount("free");
    await setAccount(account.accountId, { creditsUsed: 97 });
    const { body } = await start(account, {
      url: `${SITE}/articles?page=1`,
      limit: 10,
      maxDepth: 1,
      sitemap: "skip",
    });
    const summary = await finished(account, body.data?.crawlId ?? "");
    expect(summary.stoppedBy).toBe("credits");
    expect(summary.counts.rendered).toBe(3);
    expect(await remaining(account)).toBe(0);
  }, 120_000);
});

describe("plans and bad input", () => {
  it("refuses a limit over the plan's cap and a second crawl beyond the plan's crawls in flight", async () => {
    const free = await createAccount("free");
    const over = await start(free, { url: `${SITE}/`, limit: 11 });
    expect(over.res.status).toBe(400);
    expect(over.body.error?.details?.[0]?.path).toBe("limit");
    const first = await start(free, { url: `${SITE}/slow`, limit: 1, sitemap: "skip" });
    expect(first.res.status).toBe(202);
    const second = await start(free, { url: `${SITE}/`, limit: 1 });
    expect(second.res.status).toBe(429);
    expect(second.body.error?.code).toBe("CRAWL_LIMIT_REACHED");
    await finished(free, first.body.data?.crawlId ?? "");
  }, 60_000);

  it.each([
    [{ limit: 0 }, "limit"],
    [{ maxDepth: 99 }, "maxDepth"],
    [{ maxConcurrency: 11 }, "maxConcurrency"],
    [{ include: ["/docs/[a"] }, "include[0]"],
    [{ exclude: ["no-slash"] }, "exclude[0]"],
    [{ include: ["/a/[]"] }, "include[0]"],
    [{ exclude: ["/blog/*", "/[!_]*"] }, "exclude[1]"],
    [{ include: ["/(en|fr)/**"] }, "include[0]"],
    [{ exclude: ["/+(a)"] }, "exclude[0]"],
    [{ formats: ["markdown", "pdf"] }, "formats[1]"],
    [{ formats: ["json"] }, "fields"],
    [{ fields: { a: { selector: "h1" } } }, "fields"],
    [{ formats: ["markdown"], kind: "product" }, "kind"],
    [{ formats: ["json"], fields: { a: { selector: "" } } }, "fields.a.selector"],
    [{ url: "http://10.0.0.1/" }, "url"],
    [{ scope: "planet" }, "scope"],
    [{ webhookEvents: ["crawl.page"] }, "webhookEvents"],
  ])("%j → 400 naming %s, nothing charged or created", async (change, field) => {
    const account = await createAccount("pro");
    const before = await remaining(account);
    const { res, body } = await start(account, { url: `${SITE}/`, ...change });
    expect(res.status).toBe(400);
    expect(body.error?.details?.map((d) => d.path)).toContain(field);
    expect(await remaining(account)).toBe(before);
    const list = await call("/v1/crawls", { headers: bearer(account.apiKey) });
    expect((await envelope<{ items: unknown[] }>(list)).data?.items).toEqual([]);
  });
});

describe("delivery and restarts", () => {
  /** A crawl DO with page 1 queued under a known lease, its message never sent. */
  async function queuedPage(account: TestAccount, url: string, leasedAt = Date.now()) {
    const crawlId = crypto.randomUUID();
    const stub = crawlStub(env, account.accountId, crawlId);
    const lease = crypto.randomUUID();
    await runInDurableObject(stub, async (_i: CrawlDo, state) => {
      const config = {
        crawlId,
        accountId: account.accountId,
        plan: "pro",
        url,
        limit: 5,
        maxDepth: 0,
        scope: "host",
        include: [],
        exclude: [],
        sitemap: "skip",
        formats: ["markdown"],
        followNofollow: false,
        options: SMALL,
        origin: "https://edgeshot.test",
      };
      state.storage.sql.exec(
        "INSERT INTO crawl (id, config, status, sitemap_done, created_at) VALUES (1, ?, 'running', 1, ?)",
        JSON.stringify(config),
        Date.now(),
      );
      state.storage.sql.exec(
        "INSERT INTO pages (url, host, depth, state, lease, leased_at) VALUES (?, ?, 0, 'queued', ?, ?)",
        url,
        new URL(url).host,
        lease,
        leasedAt,
      );
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    return {
      crawlId,
      stub,
      message: { kind: "crawl-page", accountId: account.accountId, crawlId, seq: 1, lease },
    };
  }

  it("a duplicate delivery neither renders nor charges twice", async () => {
    const account = await createAccount("pro");
    const before = await remaining(account);
    const since = Date.now();
    const run = runId();
    const { stub, message } = await queuedPage(account, `${SITE}/articles/5?run=${run}`);
    await deliver("capture-jobs", [message, message], (b, e) => handleCaptureBatch(b, e));
    await deliver("capture-jobs", [message], (b, e) => handleCaptureBatch(b, e));
    const gets = (await siteLog(since)).filter((r) => r.path === `/articles/5?run=${run}`);
    expect(gets.length).toBe(1);
    expect((await stub.summary())?.counts.rendered).toBe(1);
    expect(await remaining(account)).toBe(before - 1);
  }, 60_000);

  it("a renderer takes the next pages itself: a sent page's message then renders nothing; two of a host at a time", async () => {
    const account = await createAccount("pro");
    const before = await remaining(account);
    const since = Date.now();
    const run = runId();
    const urls = [21, 22, 23].map((n) => `${SITE}/articles/${n}?run=${run}`);
    const { stub, message } = await queuedPage(account, urls[0] ?? "");
    await runInDurableObject(stub, (_i: CrawlDo, state) => {
      for (const url of urls.slice(1)) addUrl(state.storage.sql, new URL(url), 0, null);
    });
    // Page 1 was sent (its message is `message`): taken, it is leased again and claimed.
    const first = await stub.takeNext();
    expect(first).toMatchObject({ seq: 1, url: urls[0] });
    expect(first && "lease" in first && first.lease).not.toBe(message.lease);
    // Page 2 starts; page 3 waits: two pages of the host are in flight.
    expect(await stub.takeNext()).toMatchObject({ seq: 2, url: urls[1] });
    expect(await stub.takeNext()).toBeNull();
    // The message sent for page 1 finds its lease gone: nothing is fetched, nothing charged.
    await deliver("capture-jobs", [message], (b, e) => handleCaptureBatch(b, e));
    expect((await siteLog(since)).filter((r) => r.path.includes(run))).toEqual([]);
    expect(await remaining(account)).toBe(before);
    // This test took pages 1 and 2 and renders neither: as after their renderers were lost (the
    // watchdog's part), they go back to pending; the alarm sends them, and each renders once.
    await runInDurableObject(stub, (_i: CrawlDo, state) => {
      state.storage.sql.exec("UPDATE pages SET state = 'pending', lease = NULL WHERE seq <= 2");
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const summary = await finished(account, (await stub.summary())?.crawlId ?? "");
    expect(summary.counts.rendered).toBe(3);
    const gets = (await siteLog(since)).filter((r) => r.path.includes(run)).map((r) => r.path);
    expect(sorted(gets)).toEqual(sorted(urls.map(path)));
    expect(await remaining(account)).toBe(before - 3);
  }, 60_000);

  it("a page whose message was lost (a restart) is sent again by the watchdog and rendered", async () => {
    const account = await createAccount("pro");
    const { crawlId, stub } = await queuedPage(
      account,
      `${SITE}/articles/6?run=${runId()}`,
      Date.now() - 120_000,
    );
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const summary = await finished(account, crawlId);
    expect(summary.counts.rendered).toBe(1);
  }, 60_000);

  it("signs crawl.page and crawl.completed webhooks", async () => {
    const run = runId();
    const { body } = await start(pro, {
      url: `${SITE}/articles/8`,
      limit: 1,
      maxDepth: 0,
      sitemap: "skip",
      webhookUrl: webhookUrl(run),
      webhookEvents: ["crawl.page", "crawl.completed"],
    });
    const crawlId = body.data?.crawlId ?? "";
    await finished(pro, crawlId);
    // The page, the two links skipped at once as too deep (each a crawl.page too), the end.
    const deliveries = await waitForWebhooks(run, 4);
    const events = deliveries.map((d) => JSON.parse(d.body) as Record<string, unknown>);
    const completed = events.find((e) => e.event === "crawl.completed");
    expect(completed?.crawlId).toBe(crawlId);
    expect(completed?.counts).toEqual({
      rendered: 1,
      skipped: 2,
      failed: 0,
      queued: 0,
      cached: 0,
      notModified: 0,
    });
    const pages = events
      .filter((e) => e.event === "crawl.page")
      .map((e) => (e as { page: Record<string, unknown> }).page);
    expect(pages.find((p) => p.status === "rendered")).toEqual({
      url: `${SITE}/articles/8`,
      depth: 0,
      status: "rendered",
      statusCode: 200,
      rendered: "browser",
      // Markdown only: the report as the page was read, no shot.
      completeness: {
        blankRatio: null,
        pendingRequests: 0,
        failedRequests: 0,
        fontsLoaded: true,
        images: { loaded: 0, total: 0 },
        lazyTriggered: 0,
        scrolledPx: 0,
        retried: false,
        consentRemoved: 0,
        adsBlocked: 0,
      },
    });
    const skipped = pages.filter((p) => p.status === "skipped");
    expect(skipped.length).toBe(2);
    for (const p of skipped)
      expect(p).toMatchObject({ depth: 1, reason: "depth", foundOn: `${SITE}/articles/8` });
    for (const d of deliveries)
      expect(d.headers["x-service-signature"] ?? d.headers["x-webhook-signature"]).toBeTruthy();
  }, 60_000);
});

describe("the frontier", () => {
  it("keeps each URL at the shortest depth found, whatever order pages finish in", async () => {
    const stub = crawlStub(env, pro.accountId, crypto.randomUUID());
    await runInDurableObject(stub, async (_i: CrawlDo, state) => {
      const sql = state.storage.sql;
      const row = (path: string) =>
        sql
          .exec<{ depth: number; state: string; reason: string | null; done_seq: number | null }>(
            "SELECT depth, state, reason, done_seq FROM pages WHERE url = ?",
            `${SITE}${path}`,
          )
          .one();
      const add = (path: string, depth: number, skip: "depth" | "scope" | null) =>
        addUrl(sql, new URL(`${SITE}${path}`), depth, skip);
      // Met first through a long path (too deep), then through a short one: rendered after all.
      add("/a", 3, "depth");
      expect(row("/a")).toMatchObject({ state: "skipped", reason: "depth" });
      add("/a", 2, null);
      expect(row("/a")).toEqual({ depth: 2, state: "pending", reason: null, done_seq: null });
      // Waiting deep in the queue, then found shallower: it moves up, and never back down.
      add("/b", 3, null);
      add("/b", 1, null);
      add("/b", 2, null);
      expect(row("/b")).toMatchObject({ depth: 1, state: "pending" });
      // Skipped for another reason, or already sent: found again, it stays as it is.
      add("/c", 2, "scope");
      add("/c", 1, null);
      expect(row("/c")).toMatchObject({ depth: 2, state: "skipped", reason: "scope" });
      sql.exec("UPDATE pages SET state = 'queued' WHERE url = ?", `${SITE}/b`);
      add("/b", 0, null);
      expect(row("/b")).toMatchObject({ depth: 1, state: "queued" });
    });
  });
});

describe("retention", () => {
  it("7 days after it ends, a crawl's R2 objects, its index row and its storage are deleted", async () => {
    const account = await createAccount("pro");
    const { body } = await start(account, {
      url: `${SITE}/articles/9`,
      maxDepth: 0,
      sitemap: "skip",
      formats: ["markdown", "screenshot"],
    });
    const crawlId = body.data?.crawlId ?? "";
    await finished(account, crawlId);
    const stub = crawlStub(env, account.accountId, crawlId);
    const [page] = (await stub.pages(0, 10)).pages;
    const key = new URL(page?.screenshotUrl ?? "").pathname.replace("/v1/images/", "");
    expect(await env.OUTPUTS.head(key)).not.toBeNull();
    // Six days on: the alarm keeps everything.
    await runInDurableObject(stub, async (_i: CrawlDo, state) => {
      state.storage.sql.exec("UPDATE crawl SET completed_at = ?", Date.now() - 6 * 86_400_000);
    });
    await runDurableObjectAlarm(stub);
    expect(await stub.summary()).not.toBeNull();
    await runInDurableObject(stub, async (_i: CrawlDo, state) => {
      state.storage.sql.exec("UPDATE crawl SET completed_at = ?", Date.now() - 8 * 86_400_000);
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await env.OUTPUTS.head(key)).toBeNull();
    expect(await accountDo(account.accountId).crawls().get(crawlId)).toBeNull();
    const res = await call(`/v1/crawl/${crawlId}`, { headers: bearer(account.apiKey) });
    expect(res.status).toBe(404);
  }, 60_000);
});

describe("POST /v1/map", () => {
  it("lists sitemap URLs and the start page's links in scope, robots.txt obeyed, for one credit", async () => {
    const account = await createAccount("pro");
    const before = await remaining(account);
    const res = await postJson("/v1/map", { url: `${SITE}/` }, bearer(account.apiKey));
    expect(res.status).toBe(200);
    const data = (await envelope<MapResult>(res)).data;
    const bySource = (s: string) =>
      (data?.urls ?? []).filter((u) => u.source === s).map((u) => path(u.url));
    expect(bySource("sitemap")).toEqual(
      expect.arrayContaining(["/orphan", "/orphan-gz", "/articles/48"]),
    );
    expect(bySource("links")).toEqual(expect.arrayContaining(["/cycle/a", "/slow", "/file.pdf"]));
    const all = (data?.urls ?? []).map((u) => path(u.url));
    for (const p of ["/private/secret", "/private/in-sitemap", "/no-edgeshot/page", "/nofollowed"])
      expect(all).not.toContain(p);
    expect(new Set(all).size).toBe(all.length);
    expect(data?.truncated).toBe(false);
    expect(await remaining(account)).toBe(before - 1);
  }, 60_000);

  it("a crawl's dry run: the URLs known now and the credits, nothing started or charged", async () => {
    const account = await createAccount("pro");
    const before = await remaining(account);
    const res = await postJson(
      "/v1/crawl",
      { url: `${SITE}/`, limit: 20, formats: ["markdown", "screenshot"], dryRun: true },
      bearer(account.apiKey),
    );
    expect(res.status).toBe(200);
    const data = (await envelope<CrawlDryRun>(res)).data;
    expect(data?.urls[0]).toBe(`${SITE}/`);
    expect(data?.urls.length).toBe(20);
    expect(data?.truncated).toBe(true);
    expect(data?.urls.map(path)).toEqual(expect.arrayContaining(["/orphan", "/cycle/a"]));
    expect(data?.urls.map(path)).not.toContain("/private/secret");
    expect([data?.credits, data?.maxCredits]).toEqual([40, 40]); // 2 a page with a screenshot
    // maxDepth 0: the start page alone, known without rendering anything.
    const alone = await postJson(
      "/v1/crawl",
      { url: `${SITE}/about`, maxDepth: 0, limit: 5, dryRun: true },
      bearer(account.apiKey),
    );
    expect((await envelope<CrawlDryRun>(alone)).data).toEqual({
      dryRun: true,
      urls: [`${SITE}/about`],
      truncated: false,
      credits: 1,
      maxCredits: 5,
    });
    expect(await remaining(account)).toBe(before);
    const list = await call("/v1/crawls", { headers: bearer(account.apiKey) });
    expect((await envelope<{ items: CrawlSummary[] }>(list)).data?.items).toEqual([]);
  }, 60_000);

  it("a sitemap index of 100,000 URLs: Enterprise maps them all, each document read once; Pro's cap stops reading", async () => {
    const enterprise = await createAccount("enterprise");
    const cap = PLANS.enterprise.mapUrlCap;
    const counts = async (since: number) =>
      (await (await fetch(`${SCALE}/__log?counts=1&since=${since}`)).json()) as Record<
        string,
        number
      >;
    const map = async (account: TestAccount, limit: number) => {
      const res = await postJson("/v1/map", { url: `${SCALE}/`, limit }, bearer(account.apiKey));
      expect(res.status).toBe(200);
      return (await envelope<MapResult>(res)).data;
    };
    let since = Date.now();
    const all = await map(enterprise, cap);
    const urls = (all?.urls ?? []).map((u) => u.url);
    expect(urls.length).toBe(cap);
    expect(new Set(urls).size).toBe(cap);
    expect(all?.urls.every((u) => u.source === "sitemap")).toBe(true);
    expect([urls[0], urls.at(-1)]).toEqual([`${SCALE}/tree/1`, `${SCALE}/tree/${cap}`]);
    expect(all?.truncated).toBe(false);
    const read = await counts(since);
    const urlsets = Array.from({ length: 10 }, (_, i) => `/sitemap-scale/${i + 1}.xml`);
    for (const doc of ["/robots.txt", "/sitemap-index.xml", ...urlsets]) expect(read[doc]).toBe(1);
    // Pro stops at its cap: the first urlset holds it; the second is opened only to learn that
    // more is listed (truncated), and no other is fetched.
    since = Date.now();
    const some = await map(pro, PLANS.pro.mapUrlCap);
    expect(some?.urls.length).toBe(PLANS.pro.mapUrlCap);
    expect(some?.truncated).toBe(true);
    const proRead = Object.keys(await counts(since)).filter((p) => p.startsWith("/sitemap-scale/"));
    expect(proRead.sort()).toEqual(["/sitemap-scale/1.xml", "/sitemap-scale/2.xml"]);
  }, 120_000);

  it("limit truncates", async () => {
    const res = await postJson("/v1/map", { url: `${SITE}/`, limit: 3 }, bearer(pro.apiKey));
    const data = (await envelope<MapResult>(res)).data;
    expect(data?.urls.length).toBe(3);
    expect(data?.truncated).toBe(true);
  }, 60_000);

  it("refuses a limit over the plan's cap or the schema's bound: 400 naming limit, nothing charged", async () => {
    const before = await remaining(pro);
    for (const limit of [PLANS.pro.mapUrlCap + 1, CRAWL.mapLimit.max + 1]) {
      const res = await postJson("/v1/map", { url: `${SITE}/`, limit }, bearer(pro.apiKey));
      expect(res.status).toBe(400);
      const body = await envelope<MapResult>(res);
      expect(body.error?.details?.map((d) => d.path)).toContain("limit");
    }
    expect(await remaining(pro)).toBe(before);
  });
});
