/**
 * HTTP-first crawls (`render: "auto" | "never"`, docs/CRAWL.md) against the crawl fixture site's
 * /hybrid/ pages (test/fixtures/crawl-site.ts): a static home and article, a JS-only app whose
 * script writes its article and a link, and a redirect to the canary. The site's request log
 * tells the browser's requests from the Worker's: Chromium's navigations carry
 * `sec-fetch-mode: navigate` and it fetches the app's script; the Worker's fetch does neither.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Crawl, CrawlPage, CrawlSummary } from "../../schemas/crawl";
import type { ExtractionData, LinksData, PageContentData } from "../../schemas/responses";
import { crawlStub } from "../../src/crawl/crawl-stub";
import { HYBRID } from "../fixtures/crawl-site";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { call, CANARY, envelope, postJson } from "../helpers/http";
import { poll } from "../helpers/jobs";

const SITE = (env as unknown as { CRAWL_SITE_ORIGIN: string }).CRAWL_SITE_ORIGIN;

interface SiteRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  at: number;
}
async function siteLog(since: number): Promise<SiteRequest[]> {
  const all = (await (await fetch(`${SITE}/__log?since=${since}`)).json()) as SiteRequest[];
  return all.filter((r) => r.path.startsWith("/hybrid/"));
}
async function canaryHits(since: number): Promise<unknown[]> {
  const all = (await (await fetch(`${CANARY}/__log`)).json()) as { path: string; at?: number }[];
  return all.filter((r) => r.path.startsWith("/crawl-canary") && (r.at ?? since) >= since);
}
async function usage(account: TestAccount): Promise<{ used: number; remaining: number }> {
  const res = await call("/v1/account", { headers: bearer(account.apiKey) });
  const data = (await envelope<{ usage: { used: number; remaining: number } }>(res)).data;
  return { used: data?.usage.used ?? NaN, remaining: data?.usage.remaining ?? NaN };
}
const remaining = async (account: TestAccount) => (await usage(account)).remaining;

/** Runs a crawl of /hybrid/ to its end: its view, its pages by path, the site's log of it. */
async function crawl(account: TestAccount, body: Record<string, unknown>) {
  const since = Date.now();
  const before = await usage(account);
  const res = await postJson(
    "/v1/crawl",
    { url: `${SITE}/hybrid/`, scope: "path", sitemap: "skip", limit: 10, ...body },
    bearer(account.apiKey),
  );
  expect(res.status).toBe(202);
  const crawlId = (await envelope<{ crawlId: string }>(res)).data?.crawlId ?? "";
  await poll(
    () => crawlStub(env, account.accountId, crawlId).summary(),
    (s: CrawlSummary | null) => s !== null && s.status === "completed",
    120_000,
    250,
  );
  const view = await envelope<Crawl>(
    await call(`/v1/crawl/${crawlId}`, { headers: bearer(account.apiKey) }),
  );
  // The site's own pages (a leaf's link home to / is out of path scope).
  const pages = new Map<string, CrawlPage>(
    (view.data?.pages ?? [])
      .map((p): [string, CrawlPage] => [new URL(p.url).pathname, p])
      .filter(([path]) => path.startsWith("/hybrid/")),
  );
  return {
    view: view.data,
    pages,
    log: await siteLog(since),
    canary: await canaryHits(since),
    ...(await charges(account, before)),
  };
}

/**
 * What a completed crawl charged: its credits committed (`used`; its Crawl DO commits them in
 * batches, all before it completes), and what it holds still (none: what its renderers held and
 * did not spend is refunded by then).
 */
async function charges(account: TestAccount, before: { used: number; remaining: number }) {
  const after = await usage(account);
  return {
    charged: after.used - before.used,
    held: before.remaining - after.remaining - (after.used - before.used),
  };
}

const navigations = (log: SiteRequest[]) =>
  log.filter((r) => r.headers["sec-fetch-mode"] === "navigate").map((r) => r.path);

describe("render: auto", () => {
  it("renders only the app page in the browser; the rest are fetched and converted", async () => {
    const account = await createAccount("pro");
    const { view, pages, log, canary, charged, held } = await crawl(account, { render: "auto" });

    // What each page became, and how.
    const how = Object.fromEntries([...pages].map(([path, p]) => [path, p.rendered ?? p.reason]));
    expect(how).toEqual({
      "/hybrid/": "http",
      "/hybrid/static": "http",
      "/hybrid/app": "browser",
      // Linked only by the app's script: found because the browser ran it.
      "/hybrid/from-app": "http",
      "/hybrid/to-canary": "blocked",
    });
    expect(pages.get("/hybrid/static")?.markdown).toContain(HYBRID.staticPhrase);
    expect(pages.get("/hybrid/app")?.markdown).toContain(HYBRID.appPhrase);
    expect(pages.get("/hybrid/static")?.statusCode).toBe(200);
    // Only the page the browser rendered has a report; the app's script was served, none pending.
    expect(pages.get("/hybrid/static")?.completeness).toBeUndefined();
    expect(pages.get("/hybrid/app")?.completeness).toMatchObject({
      blankRatio: null,
      pendingRequests: 0,
      failedRequests: 0,
      retried: false,
    });

    // The browser navigated to the app page alone (after the Worker fetched its document once).
    expect(navigations(log)).toEqual(["/hybrid/app"]);
    const gets = (p: string) => log.filter((r) => r.path === p).length;
    expect(gets("/hybrid/app")).toBe(2);
    expect(gets("/hybrid/app.js")).toBe(1);
    for (const p of ["/hybrid/", "/hybrid/static", "/hybrid/from-app"]) expect(gets(p), p).toBe(1);
    expect(canary).toEqual([]);

    // 3 HTTP pages (½ credit each, billed 1 per 2: 2) + 1 browser page (1).
    expect(view?.creditsUsed).toBe(3);
    expect(charged).toBe(3);
    expect(held).toBe(0);
  }, 150_000);
});

describe("render: never", () => {
  it("never opens a browser, yields the static Markdown, and the guard still refuses the canary", async () => {
    const account = await createAccount("pro");
    const { view, pages, log, canary, charged, held } = await crawl(account, {
      render: "never",
      formats: ["markdown", "html", "text", "links", "metadata"],
    });

    expect(navigations(log)).toEqual([]);
    expect(log.map((r) => r.path)).not.toContain("/hybrid/app.js");
    expect(log.every((r) => r.headers["user-agent"]?.includes("Edgeshot/1.0"))).toBe(true);

    const how = Object.fromEntries([...pages].map(([path, p]) => [path, p.rendered ?? p.reason]));
    // The app's link is written by its script: without a browser it is never found.
    expect(how).toEqual({
      "/hybrid/": "http",
      "/hybrid/static": "http",
      "/hybrid/app": "http",
      "/hybrid/to-canary": "blocked",
    });
    const article = pages.get("/hybrid/static");
    expect(article?.markdown).toContain(HYBRID.staticPhrase);
    expect(article?.text).toContain(HYBRID.staticPhrase);
    expect(article?.html).toContain(HYBRID.staticPhrase);
    expect(article?.metadata).toMatchObject({ title: "Static article", statusCode: 200 });
    expect(article?.links).toEqual([{ url: `${SITE}/hybrid/`, text: "/hybrid/" }]);
    const app = pages.get("/hybrid/app");
    expect(app?.html).not.toContain("<script");
    expect(app?.markdown ?? "").not.toContain(HYBRID.appPhrase);
    expect(canary).toEqual([]);
    expect(pages.get("/hybrid/to-canary")?.status).toBe("skipped");

    // 3 HTTP pages: 2 credits.
    expect(view?.counts.rendered).toBe(3);
    expect(view?.creditsUsed).toBe(2);
    expect(charged).toBe(2);
    expect(held).toBe(0);
  }, 150_000);

  it.each([
    [{ render: "sometimes" }, "render"],
    [{ render: "never", formats: ["markdown", "screenshot"] }, "render"],
    [{ render: "never", formats: ["json"], kind: "article" }, "render"],
  ])("%j → 400 naming %s, nothing created", async (change, field) => {
    const account = await createAccount("pro");
    const res = await postJson(
      "/v1/crawl",
      { url: `${SITE}/hybrid/`, ...change },
      bearer(account.apiKey),
    );
    expect(res.status).toBe(400);
    const body = await envelope(res);
    expect(body.error?.details?.map((d) => d.path)).toContain(field);
    const list = await call("/v1/crawls", { headers: bearer(account.apiKey) });
    expect((await envelope<{ items: unknown[] }>(list)).data?.items).toEqual([]);
  });

  it("a dry run prices HTTP pages: half a credit each, rounded up", async () => {
    const account = await createAccount("pro");
    const res = await postJson(
      "/v1/crawl",
      {
        url: `${SITE}/hybrid/`,
        scope: "path",
        sitemap: "skip",
        limit: 5,
        render: "never",
        dryRun: true,
      },
      bearer(account.apiKey),
    );
    const data = (await envelope<{ urls: string[]; credits: number; maxCredits: number }>(res))
      .data;
    expect(res.status).toBe(200);
    expect(data?.urls.length).toBe(4); // the start page and its three links
    expect(data?.credits).toBe(2);
    expect(data?.maxCredits).toBe(3);
  }, 60_000);
});

describe("POST /v1/extract with render", () => {
  it("never reads a static page without a browser; auto renders the app; the guard holds", async () => {
    const account = await createAccount("pro");
    const since = Date.now();
    const before = await remaining(account);
    const extract = async (body: Record<string, unknown>) => {
      const res = await postJson("/v1/extract", body, bearer(account.apiKey));
      return { status: res.status, body: await envelope<ExtractionData>(res) };
    };

    const page = await extract({ url: `${SITE}/hybrid/static`, render: "never" });
    expect(page.status).toBe(200);
    expect(page.body.data?.rendered).toBe("http");
    expect(page.body.data?.content).toContain(HYBRID.staticPhrase);
    expect(page.body.data?.title).toBe("Static article");

    const app = await extract({ url: `${SITE}/hybrid/app`, render: "auto" });
    expect(app.status).toBe(200);
    expect(app.body.data?.rendered).toBe("browser");
    expect(app.body.data?.content).toContain(HYBRID.appPhrase);

    const canaryRedirect = await extract({ url: `${SITE}/hybrid/to-canary`, render: "never" });
    expect(canaryRedirect.status).toBe(400);
    expect(canaryRedirect.body.error?.code).toBe("CAPTURE_FAILED");

    const bad = await extract({ url: `${SITE}/hybrid/static`, render: "sometimes" });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.details?.map((d) => d.path)).toContain("render");

    const log = await siteLog(since);
    expect(navigations(log)).toEqual(["/hybrid/app"]);
    expect(await canaryHits(since)).toEqual([]);
    // Two extractions answered (1 credit each); the refused one and the 400 cost nothing.
    expect(before - (await remaining(account))).toBe(2);
  }, 120_000);
});

describe("POST /v1/content and /v1/links with render", () => {
  it("never reads without a browser; auto goes to the browser for an app or a browser's option; the guard holds", async () => {
    const account = await createAccount("pro");
    const since = Date.now();
    const before = await remaining(account);
    const post = async <T>(path: string, body: Record<string, unknown>) => {
      const headers = { ...bearer(account.apiKey), accept: "application/json" };
      const res = await postJson(path, body, headers);
      return { status: res.status, body: await envelope<T>(res) };
    };
    type Content = PageContentData;

    // never: the static article's text, one line per paragraph; its HTML without scripts.
    const text = await post<Content>("/v1/content", {
      url: `${SITE}/hybrid/static`,
      contentFormat: "text",
      render: "never",
      hideSelectors: ["ul"],
    });
    expect(text.status).toBe(200);
    expect(text.body.data?.rendered).toBe("http");
    expect(text.body.data?.metadata).toMatchObject({ title: "Static article", targetStatus: 200 });
    const lines = text.body.data?.text?.split("\n") ?? [];
    expect(lines).toContain("Static article");
    expect(lines).not.toContain("/hybrid/"); // the link list, hidden
    expect(lines.filter((l) => l.startsWith(HYBRID.staticPhrase)).length).toBe(7);
    const app = await post<Content>("/v1/content", { url: `${SITE}/hybrid/app`, render: "never" });
    expect(app.body.data?.rendered).toBe("http");
    expect(app.body.data?.html).toContain('<div id="root"></div>');
    expect(app.body.data?.html).not.toContain("<script");
    // An html source is read as given.
    const given = await post<Content>("/v1/content", {
      html: "<h1>Given</h1><p>as <b>sent</b></p><script>document.write('no')</script>",
      contentFormat: "text",
      render: "never",
    });
    expect(given.body.data).toMatchObject({ rendered: "http", text: "Given\nas sent" });

    // never: the home page's links, http(s) only, internal.
    const links = await post<LinksData>("/v1/links", { url: `${SITE}/hybrid/`, render: "never" });
    expect(links.status).toBe(200);
    expect(links.body.data?.rendered).toBe("http");
    expect(links.body.data?.links.map((l) => [new URL(l.url).pathname, l.internal])).toEqual([
      ["/hybrid/static", true],
      ["/hybrid/app", true],
      ["/hybrid/to-canary", true],
    ]);

    // auto: the app needs its script (its link is written by it), so the browser reads it.
    const appLinks = await post<LinksData>("/v1/links", {
      url: `${SITE}/hybrid/app`,
      render: "auto",
    });
    expect(appLinks.body.data?.rendered).toBe("browser");
    expect(appLinks.body.data?.links.map((l) => new URL(l.url).pathname)).toEqual([
      "/hybrid/from-app",
    ]);
    // auto with an option only a browser honours: the browser, though the page is static.
    const waited = await post<Content>("/v1/content", {
      url: `${SITE}/hybrid/static`,
      render: "auto",
      waitForSelector: "main",
    });
    expect(waited.body.data?.rendered).toBe("browser");

    // failOnStatus holds without a browser too: a 404 listed is the caller's 400, not charged.
    const missing = await post("/v1/links", {
      url: `${SITE}/missing`,
      render: "never",
      failOnStatus: [404],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details?.map((d) => d.path)).toContain("failOnStatus");

    // The guard: a redirect to the canary is refused before it is requested, and costs nothing.
    const refused = await post("/v1/content", { url: `${SITE}/hybrid/to-canary`, render: "never" });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe("CAPTURE_FAILED");
    for (const [path, body, field] of [
      ["/v1/content", { render: "never", js: "1" }, "js"],
      ["/v1/content", { render: "never", waitForSelector: "main" }, "waitForSelector"],
      ["/v1/links", { render: "never", visibleOnly: true }, "visibleOnly"],
      ["/v1/links", { render: "sometimes" }, "render"],
    ] as const) {
      const bad = await post(path, { url: `${SITE}/hybrid/static`, ...body });
      expect(bad.status, field).toBe(400);
      expect(bad.body.error?.details?.map((d) => d.path)).toContain(field);
    }

    // The browser navigated to the two pages it read, no other.
    expect(navigations(await siteLog(since)).sort()).toEqual(["/hybrid/app", "/hybrid/static"]);
    expect(await canaryHits(since)).toEqual([]);
    // Six answers at 1 credit each; the refusals cost nothing.
    expect(before - (await remaining(account))).toBe(6);
  }, 120_000);
});
