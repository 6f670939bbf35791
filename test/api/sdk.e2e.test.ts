/**
 * The SDK (sdk/) driving a started `wrangler dev`: bytes with parsed metadata, a JSON capture,
 * an async job polled to completion and its result fetched, a batch of recordings awaited and
 * its GIFs fetched, the page content calls, a render link minted and fetched (miss, then hit),
 * the account, webhook operations, a typed EdgeshotError, a small crawl of the crawl fixture
 * site read back through `crawl.pages()`, a cancel and a map, and a monitor of the monitor
 * fixture site's start page taken through every `monitors` call.
 */
import { GifReader } from "omggif";
import { beforeAll, describe, expect, it } from "vitest";
import { Edgeshot, EdgeshotError } from "../../sdk/src/index";
import type { CrawlPage, MonitorCheckPageOutput } from "../../sdk/src/index";
import {
  createAccount,
  CRAWL_SITE_ORIGIN as SITE,
  FIXTURE_ORIGIN,
  sharedService,
  type Service,
} from "../helpers/e2e";
import { decodeImage } from "../helpers/images";

let service: Service;
let sdk: Edgeshot;
beforeAll(async () => {
  service = sharedService();
  const { apiKey } = await createAccount(service.base, "pro");
  sdk = new Edgeshot({ apiKey, baseUrl: service.base });
});
const page = (run: string) => `${FIXTURE_ORIGIN}/boxes.html?run=${run}`;
const small = { width: 400, height: 300, deviceScaleFactor: 1, waitUntil: "load" } as const;

describe("@edgeshot/sdk against wrangler dev", () => {
  it("screenshot(): PNG bytes with the metadata headers parsed", async () => {
    const shot = await sdk.screenshot({ url: page("sdk-bytes"), ...small });
    expect(shot.contentType).toBe("image/png");
    const img = decodeImage(shot.bytes);
    expect([img.width, img.height]).toEqual([400, 300]);
    expect(img.pixel(10, 10)).toEqual([255, 0, 0]);
    expect(shot.metadata).toMatchObject({ width: 400, height: 300, format: "png" });
    expect(shot.metadata.size).toBe(shot.bytes.byteLength);
    expect(shot.metadata.creditsCharged).toBe(1);
    expect(shot.metadata.quality).toMatch(/^(full|degraded|best_attempt)$/);
  });

  it("screenshotJson(): base64 image and usage in meta", async () => {
    const json = await sdk.screenshotJson({ url: page("sdk-json"), ...small, format: "jpeg" });
    expect(json.format).toBe("jpeg");
    expect(json.meta.usage?.credits).toBe(1);
    const img = decodeImage(Uint8Array.from(atob(json.image), (c) => c.charCodeAt(0)));
    expect(img.width).toBe(400);
  });

  it("screenshotAsync() + jobs.wait(): completes, and the result URL serves the image", async () => {
    const accepted = await sdk.screenshotAsync({ url: page("sdk-async"), ...small });
    expect(accepted.status).toBe("queued");
    const job = await sdk.jobs.wait(accepted.jobId, { intervalMs: 500, timeoutMs: 90_000 });
    expect(job.status).toBe("completed");
    expect(job.resultUrl).toBeTruthy();
    const result = await sdk.fetchSigned(job.resultUrl ?? "");
    expect(decodeImage(result.bytes).width).toBe(400);
  });

  it("animateBatch() + batches.wait(): one GIF job per URL, the recording's credits each", async () => {
    const urls = [1, 2].map((i) => `${FIXTURE_ORIGIN}/animate-bands.html?run=sdk-abatch-${i}`);
    const accepted = await sdk.animateBatch({
      urls,
      defaults: { ...small, format: "gif", duration: 1, fps: 5 },
    });
    expect(accepted.totalJobs).toBe(2);
    expect(accepted.jobs.map((j) => j.url)).toEqual(urls);
    expect(accepted.meta.usage?.credits).toBe(2);
    const batch = await sdk.batches.wait(accepted.batchId, { intervalMs: 500, timeoutMs: 90_000 });
    expect([batch.status, batch.completedJobs]).toEqual(["completed", 2]);
    for (const job of batch.jobs ?? []) {
      const clip = await sdk.fetchSigned(job.resultUrl ?? "");
      expect(clip.contentType).toBe("image/gif");
      const gif = new GifReader(clip.bytes);
      expect([gif.width, gif.height, gif.numFrames()]).toEqual([400, 300, 5]);
    }
  });

  it("content(), scrape(), json(), links(), snapshot(): one credit each, JSON", async () => {
    const url = page("sdk-content");
    const content = await sdk.content({ url, ...small });
    expect(content.html).toContain("<body");
    expect(content.truncated).toBe(false);
    expect(content.meta.usage?.credits).toBe(1);
    const text = await sdk.content({ url, ...small, contentFormat: "text" });
    expect(typeof text.text).toBe("string");
    const scraped = await sdk.scrape({ url, ...small, elements: [{ selector: "body" }] });
    expect(scraped.results[0]?.matches).toHaveLength(1);
    const ld = {
      "@type": "Product",
      name: "Kettle",
      offers: { price: "34.50", priceCurrency: "GBP" },
    };
    const structured = await sdk.json({
      html: `<script type="application/ld+json">${JSON.stringify(ld)}</script><p class="p">1.299,00 €</p>`,
      ...small,
      fields: { price: { selector: ".p", type: "number" } },
      kind: "auto",
    });
    expect(structured.fields).toEqual({ price: 1299 });
    expect(structured.markup).toMatchObject({ kind: "product", values: { price: 34.5 } });
    expect(structured.meta.usage?.credits).toBe(1);
    const links = await sdk.links({ url, ...small });
    expect(Array.isArray(links.links)).toBe(true);
    const snap = await sdk.snapshot({ url, ...small });
    expect(decodeImage(Uint8Array.from(atob(snap.screenshot), (c) => c.charCodeAt(0))).width).toBe(
      400,
    );
    expect(snap.html).toContain("<body");
  });

  it("renderLinks.create(): the link renders (miss) then serves the cache (hit); tags escape it", async () => {
    const link = await sdk.renderLinks.create({ url: page("sdk-link"), ...small });
    const first = await sdk.fetchSigned(link.url);
    expect(first.metadata.cache).toBe("miss");
    expect(decodeImage(first.bytes).width).toBe(400);
    const second = await sdk.fetchSigned(link.url);
    expect(second.metadata.cache).toBe("hit");
    expect(link.imgTag('a "quoted" alt', { width: 400 })).toBe(
      `<img src="${link.url.replaceAll("&", "&#38;")}" alt="a &#34;quoted&#34; alt" width="400">`,
    );
    expect(link.ogImageTags()).toContain('property="og:image"');
  });

  it("account() and credentialCheck()", async () => {
    const account = await sdk.account();
    expect(account.plan).toBe("pro");
    expect(account.usage.used).toBeGreaterThanOrEqual(3);
    const check = await sdk.credentialCheck();
    expect(check.valid).toBe(true);
  });

  it("webhooks: test() sends a signed ping, deliveries() lists, redeliver() of an unknown id is a 404; requests() logs it", async () => {
    const hook = `${FIXTURE_ORIGIN}/webhook?run=sdk-hook-${Date.now()}`;
    expect(await sdk.webhooks.test(hook)).toMatchObject({ delivered: true, status: 200 });
    const log = await sdk.webhooks.deliveries({ limit: "5" });
    expect(Array.isArray(log.items)).toBe(true);
    // The request log has the test send made a moment before (written just after its answer).
    let routes: string[] = [];
    for (let i = 0; i < 20 && !routes.includes("/v1/webhooks/test"); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 250));
      routes = (await sdk.requests({ status: "2xx" })).items.map((r) => r.route);
    }
    expect(routes).toContain("/v1/webhooks/test");
    await expect(sdk.webhooks.redeliver(crypto.randomUUID())).rejects.toMatchObject({
      code: "NOT_FOUND",
      status: 404,
    });
  });

  it("errors surface as EdgeshotError with code, status, details and requestId", async () => {
    const err = await sdk.screenshot({ url: page("sdk-bad"), width: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EdgeshotError);
    const e = err as EdgeshotError;
    expect([e.code, e.status]).toEqual(["VALIDATION_ERROR", 400]);
    expect(e.details.map((d) => d.path)).toContain("width");
    expect(e.requestId).toMatch(/^req_/);
    const bad = new Edgeshot({ apiKey: "svc_nope", baseUrl: service.base });
    await expect(bad.account()).rejects.toMatchObject({ code: "INVALID_API_KEY", status: 401 });
  });
});

describe("@edgeshot/sdk: crawl and map against wrangler dev", () => {
  const pageOptions = { width: 400, height: 300, waitUntil: "load" } as const;
  const path = (url: string) => {
    const u = new URL(url);
    return u.origin === SITE ? `${u.pathname}${u.search}` : u.href;
  };
  const collect = async (pages: AsyncIterable<CrawlPage>) => {
    const all: CrawlPage[] = [];
    for await (const page of pages) all.push(page);
    return all;
  };

  it("crawl.start() + wait(), then pages() iterates every result across cursors", async () => {
    const started = await sdk.crawl.start({
      url: `${SITE}/articles?page=1`,
      limit: 3,
      maxDepth: 1,
      sitemap: "skip",
      include: ["/articles/*"],
      ...pageOptions,
    });
    expect(started.status).toBe("queued");
    expect(started.statusUrl).toBe(`${service.base}/v1/crawl/${started.crawlId}`);
    const done = await sdk.crawl.wait(started.crawlId, { intervalMs: 500, timeoutMs: 100_000 });
    expect([done.status, done.stoppedBy]).toEqual(["completed", "limit"]);
    expect(done.counts.rendered).toBe(3);
    expect(done.creditsUsed).toBe(3);

    // One result a request: the iterator must follow nextCursor to see them all.
    const oneByOne = await collect(sdk.crawl.pages(started.crawlId, { limit: 1 }));
    const total = done.counts.rendered + done.counts.skipped + done.counts.failed;
    expect(oneByOne.length).toBe(total);
    expect(oneByOne.length).toBeGreaterThan(3);
    expect(await collect(sdk.crawl.pages(started.crawlId))).toEqual(oneByOne);
    const rendered = oneByOne.filter((p) => p.status === "rendered");
    expect(rendered.map((p) => path(p.url))).toContain("/articles?page=1");
    expect(rendered).toHaveLength(3);
    for (const page of rendered.filter((p) => /^\/articles\/\d+$/.test(path(p.url)))) {
      const n = path(page.url).split("/").pop();
      expect(page.markdown).toContain(`marker crawl-article-${n} appears on this page only`);
    }
    expect(oneByOne.filter((p) => p.reason === "pattern").map((p) => path(p.url))).toEqual(
      expect.arrayContaining(["/", "/articles?page=2"]),
    );
    // status filters; errors() lists what was refused or failed (nothing, here); foundOn.
    const skipped = await collect(sdk.crawl.pages(started.crawlId, { status: "skipped" }));
    expect(skipped).toEqual(oneByOne.filter((p) => p.status === "skipped"));
    expect(await collect(sdk.crawl.errors(started.crawlId))).toEqual([]);
    const renderedUrls = rendered.map((p) => p.url);
    for (const p of skipped) expect(renderedUrls, p.url).toContain(p.foundOn);
    // A dry run of the same crawl, start page only: nothing rendered, nothing started.
    const dry = await sdk.crawl.dryRun({ url: `${SITE}/articles?page=1`, maxDepth: 0, limit: 3 });
    expect(dry).toMatchObject({
      dryRun: true,
      urls: [`${SITE}/articles?page=1`],
      truncated: false,
      credits: 1,
      maxCredits: 3,
    });
    const listed = await sdk.crawl.list();
    expect(listed.items.find((c) => c.crawlId === started.crawlId)?.status).toBe("completed");
  }, 120_000);

  it("crawl.cancel(): cancelled, nothing new starts, and wait() resolves with it", async () => {
    const started = await sdk.crawl.start({
      url: `${SITE}/`,
      limit: 5,
      sitemap: "skip",
      ...pageOptions,
    });
    const cancelled = await sdk.crawl.cancel(started.crawlId);
    expect(cancelled.status).toBe("cancelled");
    const done = await sdk.crawl.wait(started.crawlId, { intervalMs: 500, timeoutMs: 30_000 });
    expect([done.status, done.stoppedBy]).toEqual(["cancelled", "cancelled"]);
    expect(done.creditsUsed).toBe(done.counts.rendered);
    const err = await sdk.crawl
      .get("00000000-0000-4000-8000-000000000000")
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "CRAWL_NOT_FOUND", status: 404 });
  }, 60_000);

  it("map(): sitemap and link URLs in scope, robots.txt obeyed, one credit", async () => {
    const map = await sdk.map({ url: `${SITE}/` });
    expect(map.meta.usage?.credits).toBe(1);
    const by = (source: string) =>
      map.urls.filter((u) => u.source === source).map((u) => path(u.url));
    expect(by("sitemap")).toEqual(expect.arrayContaining(["/orphan", "/orphan-gz"]));
    expect(by("links")).toEqual(expect.arrayContaining(["/cycle/a", "/slow"]));
    expect(map.urls.map((u) => path(u.url))).not.toContain("/private/secret");
    expect(map.truncated).toBe(false);
    const cut = await sdk.map({ url: `${SITE}/`, limit: 2, sitemap: "skip" });
    expect([cut.urls.length, cut.truncated]).toEqual([2, true]);
  }, 60_000);
});

describe("@edgeshot/sdk: monitors against wrangler dev", () => {
  const collect = async (pages: AsyncIterable<MonitorCheckPageOutput>) => {
    const all: MonitorCheckPageOutput[] = [];
    for await (const page of pages) all.push(page);
    return all;
  };

  it("monitors: create paused, check now, waitForCheck, checks, pages, dryRun, update, pause/resume, delete", async () => {
    // Only the start page, captured once (no noise learning): one page load for the check, one
    // for the dry run's map.
    const site = `${FIXTURE_ORIGIN}/mon/sdk-mon-${Date.now()}/`;
    const settings = {
      url: site,
      scope: "path",
      sitemap: "skip",
      limit: 3,
      maxDepth: 0,
      learnVolatile: false,
      width: 640,
      height: 480,
    } as const;
    const monitor = await sdk.monitors.create({ ...settings, name: "SDK site", paused: true });
    const id = monitor.monitorId;
    expect(monitor).toMatchObject({
      name: "SDK site",
      url: site,
      status: "paused",
      schedule: { intervalMinutes: 1440 },
      nextCheckAt: null,
      lastCheck: null,
    });
    expect(monitor.settings).toMatchObject({ limit: 3, maxDepth: 0, scope: "path" });
    expect(monitor.feedUrl).toContain(`/v1/monitors/${id}/feed?`);

    // Paused: no check started by itself, but one now does.
    expect((await sdk.monitors.checks(id)).items).toEqual([]);
    const queued = await sdk.monitors.check(id);
    expect(queued).toMatchObject({ monitorId: id, trigger: "manual", baseline: true });
    const check = await sdk.monitors.waitForCheck(id, queued.checkId, {
      intervalMs: 500,
      timeoutMs: 100_000,
    });
    expect(check).toMatchObject({
      checkId: queued.checkId,
      status: "completed",
      counts: { new: 1, removed: 0, changed: 0, unchanged: 0, failed: 0 },
      creditsUsed: 1,
    });
    expect(await sdk.monitors.getCheck(id, queued.checkId)).toMatchObject({
      status: "completed",
      completedAt: check.completedAt,
    });
    const checks = await sdk.monitors.checks(id, { status: "completed" });
    expect(checks.items.map((c) => c.checkId)).toEqual([queued.checkId]);
    expect((await sdk.monitors.get(id)).lastCheck?.checkId).toBe(queued.checkId);

    // The baseline's one page, new, with its capture at the monitor's viewport.
    const pages = await collect(sdk.monitors.pages(id, queued.checkId, { limit: 1 }));
    expect(pages.map((p) => [p.url, p.status])).toEqual([[site, "new"]]);
    const capture = await sdk.fetchSigned(pages[0]?.screenshotUrl ?? "");
    const img = decodeImage(capture.bytes);
    expect([img.width, img.height]).toEqual([640, 480]);
    expect(await collect(sdk.monitors.pages(id, queued.checkId, { status: "changed" }))).toEqual(
      [],
    );

    // The dry run (maxDepth 0: the start page alone) charges nothing.
    const used = (await sdk.account()).usage.used;
    const dry = await sdk.monitors.dryRun(settings);
    expect(dry).toMatchObject({
      dryRun: true,
      urls: [site],
      truncated: false,
      creditsPerCheck: 1,
      checksPerMonth: 30,
      creditsPerMonth: 30,
    });
    expect((await sdk.account()).usage.used).toBe(used);

    const changed = await sdk.monitors.update(id, { name: "Renamed", minChangedWords: 3 });
    expect(changed.name).toBe("Renamed");
    expect(changed.settings).toMatchObject({ minChangedWords: 3, limit: 3 });
    const resumed = await sdk.monitors.resume(id);
    expect(resumed.status).toBe("active");
    expect(Date.parse(resumed.nextCheckAt ?? "")).toBeGreaterThan(Date.now());
    const paused = await sdk.monitors.pause(id);
    expect([paused.status, paused.nextCheckAt]).toEqual(["paused", null]);
    const listed = await sdk.monitors.list({ status: "paused" });
    expect(listed.items.map((m) => m.monitorId)).toContain(id);

    expect(await sdk.monitors.delete(id)).toMatchObject({ monitorId: id, deleted: true });
    const err = await sdk.monitors.get(id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EdgeshotError);
    expect(err).toMatchObject({ code: "MONITOR_NOT_FOUND", status: 404 });
  }, 150_000);
});
