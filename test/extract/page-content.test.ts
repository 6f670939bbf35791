/**
 * POST /v1/content, /v1/scrape, /v1/links, /v1/snapshot against fixture pages rendered by the
 * real browser: a page whose list and shadow root are built after load, with a same-origin
 * frame, hidden elements, relative, duplicate and non-http links under a <base href>.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { LinksData, PageContentData, ScrapeData, SnapshotData } from "../../schemas/responses";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { dashboardSession } from "../helpers/dashboard";
import { call, envelope, FIXTURES, fixtureLog, postJson, runId } from "../helpers/http";
import { decodeImage } from "../helpers/images";

let account: TestAccount;
beforeAll(async () => {
  account = await createAccount("pro");
});

const page = (name: string, run = runId()) => `${FIXTURES}/${name}?run=${run}`;
const SMALL = { width: 640, height: 480, deviceScaleFactor: 1 };

async function post<T>(path: string, body: Record<string, unknown>, headers = {}) {
  const res = await postJson(
    path,
    { ...SMALL, ...body },
    { ...bearer(account.apiKey), ...headers },
  );
  return { res, body: await envelope<T>(res) };
}

async function remaining(): Promise<number> {
  const res = await call("/v1/account", { headers: bearer(account.apiKey) });
  const body = await envelope<{ usage: { remaining: number } }>(res);
  return body.data?.usage.remaining ?? Number.NaN;
}

const TEXT = [
  "Quick actions",
  "Served statically.",
  // Inline elements a margin sets apart, inline-blocks, flex items: separated as they show.
  "Home Article Shop",
  "Fast Cheap",
  "Left",
  "Right",
  // Padding around inline code next to its own text, elements with nothing between: joined.
  "Call run(). Then bolditalic.",
  "Item alpha",
  "Item beta",
  "Item gamma",
  "Shadow text",
  "Shadow link",
  "Guide Guide again About Outside Mail Script link",
  "Frame text",
  "Frame link",
].join("\n");

describe("POST /v1/content", () => {
  it("answers the rendered DOM as text/html: built after load, shadow DOM kept, scripts stripped", async () => {
    const url = page("quick-actions.html");
    const res = await postJson("/v1/content", { ...SMALL, url }, bearer(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("x-service-final-url")).toBe(url);
    expect(res.headers.get("x-service-page-title")).toBe("Quick%20actions%20fixture");
    expect(res.headers.get("x-service-truncated")).toBeNull();
    expect(res.headers.get("x-service-credits-charged")).toBe("1");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    // The report, as the content was read: no shot, no image on the page.
    expect(JSON.parse(res.headers.get("x-service-completeness") ?? "null")).toMatchObject({
      blankRatio: null,
      pendingRequests: 0,
      fontsLoaded: true,
      images: { loaded: 0, total: 0 },
      retried: false,
    });
    const html = await res.text();
    expect(html.startsWith('<!DOCTYPE html><html lang="en"><head>')).toBe(true);
    expect(html).toContain(
      '<ul id="list"><li class="item" data-name="alpha">Item alpha</li><li class="item" data-name="beta">Item beta</li><li class="item" data-name="gamma">Item gamma</li></ul>',
    );
    expect(html).toContain(
      `<div id="host"><template shadowrootmode="open"><p>Shadow text</p><a href="/shadow.html">Shadow link</a></template></div>`,
    );
    expect(html).not.toContain("<script");
    expect(html).not.toContain("onclick");
    expect(html).toContain("<a>Script link</a>");
    expect(html).toContain('<a href="mailto:team@example.org">Mail</a>');
    expect(html.endsWith("</html>")).toBe(true);
  });

  it("stripScripts: false keeps scripts and handlers; JSON with Accept: application/json", async () => {
    const url = page("quick-actions.html");
    const { res, body } = await post<PageContentData>(
      "/v1/content",
      { url, stripScripts: false },
      { accept: "application/json" },
    );
    expect(res.status).toBe(200);
    const data = body.data as PageContentData;
    expect(data).toMatchObject({
      url,
      truncated: false,
      metadata: { title: "Quick actions fixture", finalUrl: url, targetStatus: 200 },
    });
    expect(data.text).toBeUndefined();
    expect(data.html).toContain("<script>");
    expect(data.html).toContain('<body onclick="void 0">');
    expect(data.html).toContain('<a href="javascript:void(0)">Script link</a>');
    expect(body.meta.usage?.credits).toBe(1);
  });

  it("contentFormat text: the visible text of the flat tree and same-origin frames, hidden text left out", async () => {
    const res = await postJson(
      "/v1/content",
      { ...SMALL, url: page("quick-actions.html"), contentFormat: "text" },
      bearer(account.apiKey),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe(TEXT);
  });

  it("html sources and page controls: the DOM after js, hideSelectors and actions; the report", async () => {
    const run = runId();
    // One image that loads and one the server answers 404: the report counts what it served.
    const img = (name: string) =>
      `<img src="${FIXTURES}/${name}?run=${run}" width="10" height="10" alt="">`;
    const { res, body } = await post<PageContentData>(
      "/v1/content",
      {
        html: `${img("pixel.png")}${img("missing.png")}<p id="a">one</p><button id="b" onclick="this.textContent='clicked'">press</button>`,
        js: "document.getElementById('a').textContent = 'two'",
        hideSelectors: ["#a"],
        actions: [{ click: "#b" }],
        contentFormat: "text",
      },
      { accept: "application/json" },
    );
    expect(res.status, JSON.stringify(body.error)).toBe(200);
    expect(body.data).toMatchObject({ url: "about:blank", text: "clicked", truncated: false });
    const served = (await fixtureLog(run)).map((r) => r.path).sort();
    expect(served).toEqual(["/missing.png", "/pixel.png"]);
    expect(body.data?.completeness).toEqual({
      blankRatio: null,
      pendingRequests: 0,
      failedRequests: 1,
      fontsLoaded: true,
      images: { loaded: 1, total: 2 },
      lazyTriggered: 0,
      scrolledPx: 0,
      retried: false,
      consentRemoved: 0,
      adsBlocked: 0,
    });
  });

  it("cuts the HTML at 5 MB and the text at 2 MB, and says so", async () => {
    const res = await postJson(
      "/v1/content",
      { ...SMALL, url: page("quick-actions-big.html") },
      bearer(account.apiKey),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-truncated")).toBe("true");
    const html = new Uint8Array(await res.arrayBuffer());
    expect(html.byteLength).toBe(5 * 1024 * 1024);
    const { body } = await post<PageContentData>(
      "/v1/content",
      { url: page("quick-actions-big.html"), contentFormat: "text" },
      { accept: "application/json" },
    );
    expect(body.data?.truncated).toBe(true);
    expect(new TextEncoder().encode(body.data?.text).byteLength).toBe(2 * 1024 * 1024);
  });
});

describe("POST /v1/scrape", () => {
  it("every match's text, html, attributes and box, in document order", async () => {
    const { res, body } = await post<ScrapeData>("/v1/scrape", {
      url: page("quick-actions.html"),
      elements: [
        { selector: "li.item", attributes: ["data-name", "missing"] },
        { selector: "h1" },
        { selector: ".gone" },
        { selector: "#nothing" },
      ],
    });
    expect(res.status, JSON.stringify(body.error)).toBe(200);
    const [items, h1, gone, nothing] = body.data?.results ?? [];
    expect(items?.truncated).toBe(false);
    expect(items?.matches.map((m) => [m.text, m.html, m.attributes])).toEqual(
      ["alpha", "beta", "gamma"].map((n) => [
        `Item ${n}`,
        `<li class="item" data-name="${n}">Item ${n}</li>`,
        { "data-name": n },
      ]),
    );
    expect(h1?.matches).toHaveLength(1);
    expect(h1?.matches[0]?.attributes).toEqual({ id: "title", "data-kind": "heading" });
    const box = h1?.matches[0]?.box;
    expect(box?.x).toBe(8);
    expect(box?.width).toBe(640 - 16);
    expect(box?.height).toBeGreaterThan(20);
    // Hidden elements match, with no visible text and an empty box.
    expect(gone?.matches.map((m) => [m.text, m.box.width, m.box.height])).toEqual([
      ["", 0, 0],
      ["", 0, 0],
    ]);
    expect(nothing).toEqual({ selector: "#nothing", matches: [], truncated: false });
    expect(body.meta.usage?.credits).toBe(1);
  });

  it("keeps 100 matches per selector and marks the rest truncated", async () => {
    const { res, body } = await post<ScrapeData>("/v1/scrape", {
      url: page("quick-actions-big.html"),
      elements: [{ selector: "p.many" }],
    });
    expect(res.status).toBe(200);
    const [many] = body.data?.results ?? [];
    expect(many?.matches).toHaveLength(100);
    expect(many?.matches[99]?.text).toBe("Paragraph 99");
    expect(many?.truncated).toBe(true);
  });

  it.each([
    [{ elements: [] }, "elements"],
    [{ elements: Array.from({ length: 21 }, () => ({ selector: "p" })) }, "elements"],
    [{ elements: [{ selector: "p" }, { selector: "div >" }] }, "elements[1].selector"],
    [{ elements: [{ selector: ":foo" }] }, "elements[0].selector"],
    [{ elements: [{ selector: "p", attributes: ["a b"] }] }, "elements[0].attributes[0]"],
    [{ elements: [{ selector: "p", extra: 1 }] }, "elements[0].extra"],
    [{}, "elements"],
    [{ elements: [{ selector: "p" }], format: "png" }, "format"],
  ])("refuses %j with a 400 naming %s, before any browser work or charge", async (extra, path) => {
    const before = await remaining();
    const run = runId();
    const { res, body } = await post("/v1/scrape", {
      url: page("quick-actions.html", run),
      ...extra,
    });
    expect(res.status).toBe(400);
    expect(body.error?.code).toBe("VALIDATION_ERROR");
    expect(body.error?.details?.map((d) => d.path)).toContain(path);
    expect(await fixtureLog(run)).toEqual([]);
    expect(await remaining()).toBe(before);
  });
});

describe("POST /v1/links", () => {
  const G = `${FIXTURES}/docs/guide.html`;
  it("absolute, de-duplicated, fragments dropped, <base href> honoured, shadow and frame links", async () => {
    const { res, body } = await post<LinksData>("/v1/links", { url: page("quick-actions.html") });
    expect(res.status, JSON.stringify(body.error)).toBe(200);
    expect(body.data?.truncated).toBe(false);
    expect(body.data?.links).toEqual([
      { url: G, text: "Guide", rel: "", internal: true },
      { url: `${FIXTURES}/about.html`, text: "About", rel: "nofollow noopener", internal: true },
      { url: "https://example.org/out?q=1", text: "Outside", rel: "", internal: false },
      { url: `${FIXTURES}/hidden.html`, text: "Hidden link", rel: "", internal: true },
      { url: `${FIXTURES}/empty.html`, text: "Empty", rel: "", internal: true },
      { url: `${FIXTURES}/shadow.html`, text: "Shadow link", rel: "", internal: true },
      { url: `${FIXTURES}/frame-link.html`, text: "Frame link", rel: "", internal: true },
    ]);
    expect(body.meta.usage?.credits).toBe(1);
  });

  it("visibleOnly, internalOnly and includeNonHttp", async () => {
    const { body } = await post<LinksData>("/v1/links", {
      url: page("quick-actions.html"),
      visibleOnly: true,
      internalOnly: true,
    });
    expect(body.data?.links.map((l) => l.url)).toEqual([
      G,
      `${FIXTURES}/about.html`,
      `${FIXTURES}/shadow.html`,
      `${FIXTURES}/frame-link.html`,
    ]);
    const all = await post<LinksData>("/v1/links", {
      url: page("quick-actions.html"),
      includeNonHttp: true,
    });
    expect(all.body.data?.links.filter((l) => !l.url.startsWith("http"))).toEqual([
      { url: "mailto:team@example.org", text: "Mail", rel: "", internal: false },
      { url: "javascript:void(0)", text: "Script link", rel: "", internal: false },
    ]);
  });

  it("keeps 2,000 links and marks the list truncated", async () => {
    const { body } = await post<LinksData>("/v1/links", { url: page("quick-actions-big.html") });
    expect(body.data?.links).toHaveLength(2000);
    expect(body.data?.links[1999]?.url).toBe(`${FIXTURES}/l/1999`);
    expect(body.data?.truncated).toBe(true);
  });
});

describe("POST /v1/snapshot", () => {
  it("the HTML and a screenshot from ONE navigation, one credit", async () => {
    const run = runId();
    const url = page("quick-actions.html", run);
    const before = await remaining();
    const { res, body } = await post<SnapshotData>("/v1/snapshot", { url, format: "jpeg" });
    expect(res.status, JSON.stringify(body.error)).toBe(200);
    const data = body.data as SnapshotData;
    expect(data).toMatchObject({
      url,
      format: "jpeg",
      contentType: "image/jpeg",
      width: 640,
      height: 480,
      truncated: false,
    });
    expect(data.screenshot.startsWith("/9j/")).toBe(true);
    // The snapshot's report is its shot's: a JPEG's blank ratio is measured on a thumbnail.
    expect(data.completeness).toMatchObject({ pendingRequests: 0, retried: false });
    expect(data.completeness?.blankRatio).toBeGreaterThan(0.5);
    expect(data.completeness?.blankRatio).toBeLessThan(0.995);
    expect(data.html).toContain('<li class="item" data-name="gamma">Item gamma</li>');
    expect(data.html).not.toContain("<script");
    expect(body.meta.usage?.credits).toBe(1);
    expect(await remaining()).toBe(before - 1);
    const log = await fixtureLog(run);
    expect(log.filter((e) => e.path === "/quick-actions.html")).toHaveLength(1);
  });

  it("user HTML: declarative shadow roots render as parsed, their scripts run, no marker is left", async () => {
    // Written markup gets a marker in every declarative root for the hardening
    // (src/capture/guard/dsd-markers.ts); the marker removes itself as the parser inserts it.
    const html = await (await fetch(page("declarative-shadow.html"))).text();
    expect(html).toContain('shadowrootmode="closed"');
    const { res, body } = await post<SnapshotData>("/v1/snapshot", { html });
    expect(res.status, JSON.stringify(body.error)).toBe(200);
    const data = body.data as SnapshotData;
    expect(data.html).toContain("Open root text, its script ran");
    expect(data.html).not.toContain("edgeshot-dsd-root");
    const image = decodeImage(Uint8Array.from(atob(data.screenshot), (c) => c.charCodeAt(0)));
    expect(image.pixel(10, 50)).toEqual([0, 255, 0]); // the open root's content
    expect(image.pixel(10, 150)).toEqual([0, 0, 255]); // the closed root's content
  });

  it("Free plan: the watermark is on the screenshot only, never in the HTML", async () => {
    const free = await createAccount("free");
    const res = await postJson(
      "/v1/snapshot",
      { ...SMALL, url: page("quick-actions.html") },
      bearer(free.apiKey),
    );
    const body = await envelope<SnapshotData>(res);
    expect(res.status, JSON.stringify(body.error)).toBe(200);
    expect(body.data?.metadata.watermarked).toBe(true);
    expect(body.data?.html).not.toContain("edgeshot.dev");
  });

  it("refuses pdf (400 naming format) and refunds a failed screenshot", async () => {
    const pdf = await post("/v1/snapshot", { url: page("quick-actions.html"), format: "pdf" });
    expect(pdf.res.status).toBe(400);
    expect(pdf.body.error?.details?.map((d) => d.path)).toEqual(["format"]);
    const before = await remaining();
    const missing = await post("/v1/snapshot", {
      url: page("quick-actions.html"),
      selector: "#nothing",
    });
    expect(missing.res.status).toBe(400);
    expect(missing.body.error?.code).toBe("CAPTURE_FAILED");
    expect(await remaining()).toBe(before);
  });
});

describe("every page content route", () => {
  const ROUTES: Array<[string, Record<string, unknown>]> = [
    ["/v1/content", {}],
    ["/v1/scrape", { elements: [{ selector: "p" }] }],
    ["/v1/links", {}],
    ["/v1/snapshot", {}],
  ];

  it.each(ROUTES)(
    "%s: an oversized html source is a 400 naming html, uncharged",
    async (path, extra) => {
      const before = await remaining();
      const { res, body } = await post(path, { ...extra, html: "x".repeat(5 * 1024 * 1024 + 1) });
      expect(res.status).toBe(400);
      expect(body.error?.details?.map((d) => d.path)).toContain("html");
      expect(await remaining()).toBe(before);
    },
  );

  it.each(ROUTES)(
    "%s: geo is refused (the geo provider renders pixels only)",
    async (path, extra) => {
      const { res, body } = await post(path, { ...extra, url: page("small.html"), geo: "DE" });
      expect(res.status).toBe(422);
      expect(body.error?.code).toBe("GEO_FEATURE_UNAVAILABLE");
      expect(body.error?.details?.map((d) => d.path)).toEqual(["geo"]);
    },
  );

  it.each(ROUTES)(
    "%s: a blocked target is refused by the URL guard, uncharged",
    async (path, extra) => {
      const before = await remaining();
      const { res, body } = await post(path, { ...extra, url: "http://169.254.169.254/latest" });
      expect(res.status).toBe(400);
      expect(body.error?.code).toBe("INVALID_URL");
      expect(await remaining()).toBe(before);
    },
  );

  it.each(ROUTES)(
    "%s: Idempotency-Key replays the first answer, charged once",
    async (path, extra) => {
      const before = await remaining();
      const key = `qa-${runId()}`;
      const request = { ...extra, url: page("small.html") };
      const headers = { "idempotency-key": key, accept: "application/json" };
      const first = await post(path, request, headers);
      expect(first.res.status).toBe(200);
      const second = await post(path, request, headers);
      expect(second.res.status).toBe(200);
      expect(second.res.headers.get("idempotent-replayed")).toBe("true");
      expect(await remaining()).toBe(before - 1);
    },
  );
});

describe("the dashboard playground's page actions", () => {
  it("runs each action as its route answers it, billed to the session's account", async () => {
    // The Free plan allows 3 requests a minute: two sessions (two accounts) share the five runs.
    const sessions = [await dashboardSession(), await dashboardSession()];
    let runs = 0;
    const url = page("quick-actions.html");
    const run = async <T>(action: string, extra: Record<string, unknown> = {}) => {
      const session = sessions[runs++ < 3 ? 0 : 1];
      const res = await session!.pageAction(action, { ...SMALL, url, ...extra });
      const body = await envelope<T>(res);
      expect(res.status, JSON.stringify(body.error)).toBe(200);
      expect(body.meta.usage?.credits).toBe(1);
      return body.data as T;
    };
    expect((await run<PageContentData>("content", { contentFormat: "text" })).text).toBe(TEXT);
    expect((await run<PageContentData>("content")).html).toContain("Item gamma</li>");
    const scraped = await run<ScrapeData>("scrape", { elements: [{ selector: "li" }] });
    expect(scraped.results[0]?.matches.map((m) => m.text)).toEqual([
      "Item alpha",
      "Item beta",
      "Item gamma",
    ]);
    expect((await run<LinksData>("links")).links).toHaveLength(7);
    const snap = await run<SnapshotData>("snapshot");
    expect(snap.html).toContain("Item gamma</li>");
    expect(snap.screenshot.length).toBeGreaterThan(100);
  });

  it("refuses an unknown action (404) and a post without the CSRF header (403)", async () => {
    const session = await dashboardSession();
    const unknown = await session.pageAction("toString", { url: page("small.html") });
    expect(unknown.status).toBe(404);
    const res = await call("/dashboard/api/page/links", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: "https://edgeshot.test",
        cookie: session.cookie,
      },
      body: JSON.stringify({ url: page("small.html") }),
    });
    expect(res.status).toBe(403);
  });
});
