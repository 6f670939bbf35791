/**
 * The SDK (sdk/) driving a started `wrangler dev`: bytes with parsed metadata, a JSON capture,
 * an async job polled to completion and its result fetched, the page content calls, a render
 * link minted and fetched (miss, then hit), the account, webhook operations, and a typed
 * EdgeshotError.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Edgeshot, EdgeshotError } from "../../sdk/src/index";
import { createAccount, FIXTURE_ORIGIN, sharedService, type Service } from "../helpers/e2e";
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

  it("content(), scrape(), links(), snapshot(): one credit each, JSON", async () => {
    const url = page("sdk-content");
    const content = await sdk.content({ url, ...small });
    expect(content.html).toContain("<body");
    expect(content.truncated).toBe(false);
    expect(content.meta.usage?.credits).toBe(1);
    const text = await sdk.content({ url, ...small, contentFormat: "text" });
    expect(typeof text.text).toBe("string");
    const scraped = await sdk.scrape({ url, ...small, elements: [{ selector: "body" }] });
    expect(scraped.results[0]?.matches).toHaveLength(1);
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
