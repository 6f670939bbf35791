/**
 * Validation of capture bodies: every bound, type, enum and conflict gives 400 with one
 * `details` entry naming the field — and no credit, no browser.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { envelope } from "../helpers/http";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

const url = "https://example.com/";
const emoji = "😀";

/** [body, field expected in details] */
const BAD: Array<[Record<string, unknown>, string]> = [
  [{}, "url"],
  [{ url, html: "<p>x</p>" }, "html"],
  [{ html: "x", markdown: "y" }, "markdown"],
  [{ url, data: { a: 1 } }, "data"],
  [{ html: "x", data: [1] }, "data"],
  [{ url, webhookUrl: "https://example.com/hook" }, "webhookUrl"],
  [{ url: 42 }, "url"],
  [{ url, width: "1280" }, "width"],
  [{ url, width: 319 }, "width"],
  [{ url, width: 3841 }, "width"],
  [{ url, height: 239 }, "height"],
  [{ url, height: 2161 }, "height"],
  [{ url, width: 1e21 }, "width"],
  [{ url, width: 2 ** 53 + 1 }, "width"],
  [{ url, quality: 0 }, "quality"],
  [{ url, quality: 101 }, "quality"],
  [{ url, quality: 80.5 }, "quality"],
  [{ url, deviceScaleFactor: 0 }, "deviceScaleFactor"],
  [{ url, deviceScaleFactor: 3.5 }, "deviceScaleFactor"],
  [{ url, pdfScale: 2.01 }, "pdfScale"],
  [{ url, pdfScale: 0.09 }, "pdfScale"],
  [{ url, resizeWidth: 15 }, "resizeWidth"],
  [{ url, resizeHeight: 2161 }, "resizeHeight"],
  [{ url, cacheTtl: 3599 }, "cacheTtl"],
  [{ url, cacheTtl: 2592001 }, "cacheTtl"],
  [{ url, delay: -1 }, "delay"],
  [{ url, delay: 10001 }, "delay"],
  [{ url, timeout: 4 }, "timeout"],
  [{ url, timeout: 61 }, "timeout"],
  [{ url, fullPage: "true" }, "fullPage"],
  [{ url, format: "PNG" }, "format"],
  [{ url, format: "gif" }, "format"],
  [{ url, waitUntil: "networkidle" }, "waitUntil"],
  [{ url, device: "iphone_16" }, "device"],
  [{ url, pdfFormat: "a4" }, "pdfFormat"],
  [{ url, blockResourceTypes: ["script"] }, "blockResourceTypes[0]"],
  [{ url, hideSelectors: "div" }, "hideSelectors"],
  [{ url, hideSelectors: Array.from({ length: 51 }, () => "div") }, "hideSelectors"],
  [{ url, hideSelectors: ["div[["] }, "hideSelectors[0]"],
  [{ url, selector: "div[[" }, "selector"],
  [{ url, selector: ":has(" }, "selector"],
  [{ url, selector: "}" }, "selector"],
  [{ url, selector: "a".repeat(501) }, "selector"],
  [{ url, waitForSelector: emoji.repeat(501) }, "waitForSelector"],
  [{ url, userAgent: emoji.repeat(513) }, "userAgent"],
  [{ url, css: "a".repeat(50 * 1024 + 1) }, "css"],
  [{ url, js: "a".repeat(50 * 1024 + 1) }, "js"],
  [{ url, cookies: {} }, "cookies"],
  [
    { url, cookies: Array.from({ length: 51 }, (_, i) => ({ name: `c${i}`, value: "v" })) },
    "cookies",
  ],
  [{ url, cookies: [{ name: "a", value: "x".repeat(4097) }] }, "cookies[0].value"],
  [{ url, cookies: [{ name: "a", value: "b", sameSite: "none" }] }, "cookies[0].sameSite"],
  [{ url, cookies: [{ name: "a", value: "b", expires: "tomorrow" }] }, "cookies[0].expires"],
  [{ url, cookies: [{ name: "a\r\nb", value: "b" }] }, "cookies[0].name"],
  [{ url, headers: { Host: "evil.com" } }, "headers.Host"],
  [{ url, headers: { "content-LENGTH": "1" } }, "headers.content-LENGTH"],
  [{ url, headers: { "X-A": "a\r\nInjected: 1" } }, "headers.X-A"],
  [{ url, headers: { "X-A": "x".repeat(4097) } }, "headers.X-A"],
  [{ url, headers: { "bad name": "x" } }, "headers.bad name"],
  [{ url, headers: { "X-A": "ünï€" } }, "headers.X-A"],
  [{ url, pdfMargin: { top: "1 in" } }, "pdfMargin.top"],
  [{ url, pdfMargin: { top: "-1in" } }, "pdfMargin.top"],
  [{ url, pdfMargin: { top: "1e999px" } }, "pdfMargin.top"],
  [{ url, pdfMargin: { top: "1ft" } }, "pdfMargin.top"],
  [{ url, pdfMargin: { top: 10 } }, "pdfMargin.top"],
  [{ url, pdfMargin: { top: "calc(1px + 1px)" } }, "pdfMargin.top"],
  [{ url, geo: "XX" }, "geo"],
  [{ url, geoCity: "Paris" }, "geoCity"],
  [{ url, geo: "FR", geoCity: "a".repeat(101) }, "geoCity"],
  [{ url, widht: 100 }, "widht"],
];

describe("capture body validation", () => {
  it.each(
    BAD.map(
      ([body, field]) =>
        [
          field,
          JSON.stringify(body)
            .slice(0, 80)
            .replace(/[^\x20-\x7e]/g, "?"),
          body,
        ] as const,
    ),
  )("%s ← %s", async (field, _label, body) => {
    const res = await cap.postRaw(JSON.stringify(body));
    expect(res.status).toBe(400);
    const env = await envelope(res);
    expect(env.error?.code).toBe("VALIDATION_ERROR");
    expect(env.error?.details?.map((d) => d.path)).toContain(field);
  });

  it("a JSON __proto__ key is refused as an unknown field and pollutes nothing", async () => {
    const res = await cap.postRaw(`{"url":"${url}","__proto__":{"polluted":true}}`);
    expect(res.status).toBe(400);
    expect((await envelope(res)).error?.details?.map((d) => d.path)).toContain("__proto__");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("malformed JSON → INVALID_JSON; non-object top level → VALIDATION_ERROR", async () => {
    expect((await envelope(await cap.postRaw('{"url":'))).error?.code).toBe("INVALID_JSON");
    for (const top of ["[]", "null", '"x"', "42"]) {
      const res = await cap.postRaw(top);
      expect(res.status).toBe(400);
      expect((await envelope(res)).error?.code).toBe("VALIDATION_ERROR");
    }
  });

  it("a private target is 400 INVALID_URL naming url", async () => {
    for (const target of [
      "http://127.0.0.1/",
      "http://169.254.169.254/latest/meta-data",
      "file:///etc/passwd",
      "http://localhost:8787/",
    ]) {
      const res = await cap.postRaw(JSON.stringify({ url: target }));
      expect(res.status).toBe(400);
      const body = await envelope(res);
      expect(body.error?.code).toBe("INVALID_URL");
      expect(body.error?.details?.[0]?.path).toBe("url");
    }
  });

  it("extract is refused on the binary route, with the field named", async () => {
    for (const body of [
      { url, extract: true },
      { url, extractFormat: "markdown" },
    ]) {
      const res = await cap.postRaw(JSON.stringify(body));
      expect(res.status).toBe(400);
      expect((await envelope(res)).error?.details?.map((d) => d.path)).toContain(
        Object.keys(body)[1],
      );
    }
  });

  it("geo: unsupported options → 422; below Pro → 403 (no provider → 503: test/capture/geo.test.ts)", async () => {
    const conflict = await cap.postRaw(JSON.stringify({ url, geo: "FR", fullPage: true }));
    expect(conflict.status).toBe(422);
    expect((await envelope(conflict)).error?.code).toBe("GEO_FEATURE_UNAVAILABLE");
    const free = await Capturer.create("starter");
    const gated = await free.postRaw(JSON.stringify({ url, geo: "FR" }));
    expect(gated.status).toBe(403);
    expect((await envelope(gated)).error?.code).toBe("PLAN_UPGRADE_REQUIRED");
  });

  it("plan gates: cookies, headers and URL credentials on Free → 403 PLAN_UPGRADE_REQUIRED", async () => {
    const free = await Capturer.create("free");
    for (const body of [
      { url, cookies: [{ name: "a", value: "b" }] },
      { url, headers: { "X-A": "b" } },
      { url: "https://user:pass@example.com/" },
    ]) {
      const res = await free.postRaw(JSON.stringify(body));
      expect(res.status).toBe(403);
      expect((await envelope(res)).error?.code).toBe("PLAN_UPGRADE_REQUIRED");
    }
  });

  it("cookie domains must equal or be a parent of the target host", async () => {
    for (const domain of ["evil.com", ".com", "example.com.evil.com", "127.0.0.1", "co.uk"]) {
      const res = await cap.postRaw(
        JSON.stringify({
          url: "https://www.example.com/",
          cookies: [{ name: "a", value: "b", domain }],
        }),
      );
      expect(res.status, domain).toBe(400);
      const body = await envelope(res);
      expect(body.error?.message).toBe("Invalid cookie domain.");
      expect(body.error?.details?.[0]?.path).toBe("cookies[0].domain");
    }
  });
});
