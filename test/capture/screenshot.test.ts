/** The capture endpoints against fixture pages: pixels, sizes, headers and credits. */
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { envelope, FIXTURES, fixtureLog, runId } from "../helpers/http";
import { decodeImage, near, outputSize, sniff } from "../helpers/images";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

const page = (name: string, run = runId()) => `${FIXTURES}/${name}?run=${run}`;
const base = { waitUntil: "load", blockAds: false } as const;

async function pdfInfo(bytes: Uint8Array) {
  const doc = await getDocumentProxy(bytes);
  const first = await doc.getPage(1);
  const { text } = await extractText(doc, { mergePages: true });
  return { pages: doc.numPages, width: first.view[2] ?? 0, height: first.view[3] ?? 0, text };
}

describe("POST /v1/screenshot — images", () => {
  it("PNG: dimensions are viewport × scale and known boxes sit at known pixels", async () => {
    const { res, bytes } = await cap.post({
      ...base,
      url: page("boxes.html"),
      width: 400,
      height: 300,
      deviceScaleFactor: 2,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(sniff(bytes)).toBe("png");
    const img = decodeImage(bytes);
    expect([img.width, img.height]).toEqual([800, 600]);
    expect(img.pixel(20, 20)).toEqual([255, 0, 0]); // red box (0..100 CSS px → 0..200 px)
    expect(img.pixel(420, 20)).toEqual([0, 255, 0]); // green at x=200 CSS
    expect(img.pixel(20, 420)).toEqual([0, 0, 255]); // blue at y=200 CSS
    expect(img.pixel(300, 300)).toEqual([255, 255, 255]);
  });

  it("sends every 'always' header, image cache headers and the usage headers", async () => {
    const url = page("boxes.html");
    const { res, bytes } = await cap.post({
      ...base,
      url,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
    });
    const h = Object.fromEntries(res.headers);
    expect(h["x-screenshot-url"]).toBe(url);
    expect(h["x-screenshot-width"]).toBe("320");
    expect(h["x-screenshot-height"]).toBe("240");
    expect(h["x-screenshot-size"]).toBe(String(bytes.byteLength));
    expect(Date.parse(h["x-screenshot-captured-at"] ?? "")).not.toBeNaN();
    expect(h["x-service-format"]).toBe("png");
    expect(h["x-service-quality"]).toBe("full");
    expect(h["x-service-wait-strategy"]).toBe("load");
    expect(Number(h["x-service-load-time-ms"])).toBeGreaterThan(0);
    expect(h["x-ratelimit-remaining"]).toMatch(/^\d+$/);
    expect(h["x-ratelimit-reset"]).toMatch(/^\d+$/);
    expect(h["cache-control"]).toBe("public, max-age=3600, s-maxage=3600");
    expect(h["x-service-credits-charged"]).toBe("1");
    expect(h["x-service-truncated"]).toBeUndefined();
    expect(h["x-service-auto-scrolled"]).toBeUndefined();
  });

  it("JPEG and WebP: right magic, size and content type; JPEG quality 10 is smaller than 90", async () => {
    const url = page("boxes.html");
    const opts = { ...base, url, width: 640, height: 480, deviceScaleFactor: 1 };
    const low = await cap.post({ ...opts, format: "jpeg", quality: 10 });
    const high = await cap.post({ ...opts, format: "jpeg", quality: 90 });
    const webp = await cap.post({ ...opts, format: "webp", quality: 80 });
    expect(low.res.headers.get("content-type")).toBe("image/jpeg");
    expect(sniff(low.bytes)).toBe("jpeg");
    expect(outputSize(low.bytes)).toEqual({ width: 640, height: 480 });
    expect(low.bytes.byteLength).toBeLessThan(high.bytes.byteLength);
    expect(near(decodeImage(high.bytes).pixel(50, 50), [255, 0, 0], 12)).toBe(true);
    expect(webp.res.headers.get("content-type")).toBe("image/webp");
    expect(sniff(webp.bytes)).toBe("webp");
    expect(outputSize(webp.bytes)).toEqual({ width: 640, height: 480 });
  });

  it("darkMode flips a prefers-color-scheme page", async () => {
    const opts = { ...base, url: page("dark.html"), width: 320, height: 240, deviceScaleFactor: 1 };
    const light = decodeImage((await cap.post(opts)).bytes);
    const dark = decodeImage((await cap.post({ ...opts, darkMode: true })).bytes);
    expect(light.pixel(10, 10)).toEqual([255, 255, 255]);
    expect(dark.pixel(10, 10)).toEqual([0, 0, 0]);
  });

  it("selector: the output is the element's box × scale", async () => {
    const { res, bytes } = await cap.post({
      ...base,
      url: page("boxes.html"),
      selector: "#target",
      deviceScaleFactor: 2,
    });
    expect(res.status).toBe(200);
    const img = decodeImage(bytes);
    expect([img.width, img.height]).toEqual([246, 90]);
    expect(img.pixel(236, 84)).toEqual([255, 0, 255]); // bottom-right corner, clear of the text
  });

  it("selector that matches nothing → CAPTURE_FAILED with the sanitized message, no credit", async () => {
    const before = await cap.json({ ...base, url: page("boxes.html"), width: 320, height: 240 });
    const remaining = before.body.meta.usage?.remaining ?? 0;
    const { res, body } = await cap.json({
      ...base,
      url: page("boxes.html"),
      selector: "#missing",
    });
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({
      code: "CAPTURE_FAILED",
      message: "The specified element was not found.",
      details: [{ path: "selector", message: 'No element matches "#missing".' }],
    });
    const after = await cap.json({ ...base, url: page("boxes.html"), width: 320, height: 240 });
    // The failed capture cost nothing: only the successful one after it is charged.
    expect(after.body.meta.usage?.remaining).toBe(remaining - 1);
  });
});

describe("full page", () => {
  it("scrolls a 12,000 px lazy page: full height, and the lazy images were fetched", async () => {
    const run = runId();
    const { res, bytes } = await cap.post({
      ...base,
      url: `${FIXTURES}/lazy?h=12000&run=${run}`,
      fullPage: true,
      width: 800,
      height: 800,
      deviceScaleFactor: 1,
    });
    expect(res.status).toBe(200);
    expect(outputSize(bytes)).toEqual({ width: 800, height: 12000 });
    expect(res.headers.get("x-service-auto-scrolled")).toBe("true");
    expect(res.headers.get("x-service-truncated")).toBeNull();
    const lazy = (await fixtureLog(run)).filter((r) => r.path.startsWith("/img/lazy-"));
    expect(lazy.length).toBe(12);
  });

  it("does not scroll a page where nothing reacts to scrolling (no observers, listeners, lazy elements)", async () => {
    const { res, bytes } = await cap.post({
      ...base,
      url: `${FIXTURES}/tall?h=3000&run=${runId()}`,
      fullPage: true,
      width: 400,
      height: 800,
      deviceScaleFactor: 1,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-auto-scrolled")).toBeNull();
    expect(outputSize(bytes)).toEqual({ width: 400, height: 3000 });
  });

  it("does scroll for a page that lazy-loads from an onscroll handler", async () => {
    const { res, bytes } = await cap.post({
      ...base,
      url: page("scroll-lazy.html"),
      fullPage: true,
      width: 400,
      height: 800,
      deviceScaleFactor: 1,
    });
    expect(res.headers.get("x-service-auto-scrolled")).toBe("true");
    expect(decodeImage(bytes).pixel(10, 2500)).toEqual([0, 0, 255]);
  });

  it("truncates a 20,000 px page at 16,384 CSS px with x-service-truncated", async () => {
    const { res, bytes } = await cap.post({
      ...base,
      url: `${FIXTURES}/tall?h=20000&run=${runId()}`,
      fullPage: true,
      width: 400,
      height: 800,
      deviceScaleFactor: 1,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-truncated")).toBe("true");
    const img = decodeImage(bytes);
    expect([img.width, img.height]).toEqual([400, 16384]);
    expect(img.pixel(10, 500)).toEqual([255, 0, 0]); // band 0 red
    expect(img.pixel(10, 1500)).toEqual([0, 0, 255]); // band 1 blue
    expect(img.pixel(10, 16_300)).toEqual([255, 0, 0]); // band 16 → red again
  });
});

describe("PDF", () => {
  it("A4 portrait by default: page size, text, inline disposition, no cache-control", async () => {
    const { res, bytes } = await cap.post({ ...base, url: page("text.html"), format: "pdf" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe('inline; filename="edgeshot-capture.pdf"');
    expect(res.headers.get("cache-control")).toBeNull();
    const info = await pdfInfo(bytes);
    expect(Math.round(info.width)).toBe(596);
    expect(Math.round(info.height)).toBe(843);
    expect(info.text).toContain("Edgeshot PDF fixture");
  });

  it("Letter and landscape change the page size", async () => {
    const letter = await pdfInfo(
      (await cap.post({ ...base, url: page("text.html"), format: "pdf", pdfFormat: "Letter" }))
        .bytes,
    );
    expect([Math.round(letter.width), Math.round(letter.height)]).toEqual([612, 792]);
    const land = await pdfInfo(
      (await cap.post({ ...base, url: page("text.html"), format: "pdf", pdfLandscape: true }))
        .bytes,
    );
    expect(land.width).toBeGreaterThan(land.height);
  });
});

describe("html, markdown and templates", () => {
  it("renders html with Mustache data, escaping {{var}} and not {{{var}}}", async () => {
    const html = `<body style="margin:0"><div id="a">{{name}}</div><div id="b">{{{name}}}</div>
      {{#boxes}}<div style="width:50px;height:50px;background:{{color}}"></div>{{/boxes}}</body>`;
    const { res, body } = await cap.json<{ image: string; url: string }>({
      ...base,
      html,
      data: { name: "<i>x</i>", boxes: [{ color: "#ff0000" }, { color: "#0000ff" }] },
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
    });
    expect(res.status).toBe(200);
    const img = decodeImage(Uint8Array.from(atob(body.data?.image ?? ""), (c) => c.charCodeAt(0)));
    // two stacked 50px boxes after two text lines: red then blue
    const column = Array.from({ length: 240 }, (_, y) => img.pixel(10, y));
    expect(column.some((p) => p[0] === 255 && p[2] === 0)).toBe(true);
    expect(column.some((p) => p[2] === 255 && p[0] === 0)).toBe(true);
    expect(body.data?.url).toBe("about:blank");
  });

  it("markdown renders with typography; darkMode gives the dark theme", async () => {
    const md = "# Title\n\nSome *text*.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
    const light = decodeImage(
      (await cap.post({ ...base, markdown: md, width: 400, height: 300, deviceScaleFactor: 1 }))
        .bytes,
    );
    const dark = decodeImage(
      (
        await cap.post({
          ...base,
          markdown: md,
          darkMode: true,
          width: 400,
          height: 300,
          deviceScaleFactor: 1,
        })
      ).bytes,
    );
    expect(light.pixel(2, 298).every((v) => v > 200)).toBe(true);
    expect(dark.pixel(2, 298).every((v) => v < 80)).toBe(true);
  });
});

describe("waiting", () => {
  it("bestAttempt: a page that never goes network-idle is captured as degraded at 'load'", async () => {
    const { res, bytes } = await cap.post({
      url: page("never-idle.html"),
      waitUntil: "networkidle0",
      timeout: 5,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
      blockAds: false,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-quality")).toBe("degraded");
    expect(res.headers.get("x-service-wait-strategy")).toBe("load");
    expect(decodeImage(bytes).pixel(5, 5)).toEqual([0, 255, 0]);
  });

  it("without bestAttempt the same page is 408 TIMEOUT", async () => {
    const { res, body } = await cap.json({
      url: page("never-idle.html"),
      waitUntil: "networkidle0",
      timeout: 5,
      bestAttempt: false,
      blockAds: false,
    });
    expect(res.status).toBe(408);
    expect(body.error).toMatchObject({
      code: "TIMEOUT",
      message: "The page took too long to load.",
    });
  });

  it("a main document that never answers fails with TIMEOUT even with bestAttempt", async () => {
    const { res } = await cap.post({
      url: `${FIXTURES}/hang?run=${runId()}`,
      timeout: 5,
      blockAds: false,
    });
    expect(res.status).toBe(408);
  });

  it("waitForSelector and delay are honoured", async () => {
    const html = `<body style="margin:0"><script>setTimeout(() => { document.body.innerHTML = '<div id="late" style="width:100px;height:100px;background:#f00"></div>'; }, 300);</script></body>`;
    const { res, bytes } = await cap.post({
      html,
      waitForSelector: "#late",
      delay: 100,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
    });
    expect(res.status).toBe(200);
    expect(decodeImage(bytes).pixel(10, 10)).toEqual([255, 0, 0]);
  });
});

describe("JSON endpoint", () => {
  it("returns the envelope with base64 image and every data field, plus meta.usage", async () => {
    const url = page("boxes.html");
    const { body } = await cap.json({
      ...base,
      url,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
    });
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      contentType: "image/png",
      url,
      width: 320,
      height: 240,
      format: "png",
      quality: "full",
      waitStrategy: "load",
    });
    const image = Uint8Array.from(atob(String(body.data?.image)), (c) => c.charCodeAt(0));
    expect(body.data?.bytesSize).toBe(image.byteLength);
    expect(sniff(image)).toBe("png");
    expect(body.meta.usage?.credits).toBe(1);
    expect(typeof body.meta.usage?.remaining).toBe("number");
    expect(body.data?.metadata).not.toHaveProperty("watermarked");
  });
});

describe("GET /v1/screenshot", () => {
  it("takes the query subset with the key in the query", async () => {
    const url = page("boxes.html");
    const res = await fetchGet({
      url,
      width: "320",
      height: "240",
      deviceScaleFactor: "1",
      fullPage: "0",
      waitUntil: "load",
      blockAds: "false",
    });
    expect(res.status).toBe(200);
    expect(outputSize(new Uint8Array(await res.arrayBuffer()))).toEqual({
      width: 320,
      height: 240,
    });
  });

  it("names POST-only parameters, repeated parameters and non-decimal numbers", async () => {
    const cases: Array<[Record<string, string> | string, string]> = [
      [{ url: "https://example.com", css: "x" }, "css"],
      [{ url: "https://example.com", hosted: "true" }, "hosted"],
      ["url=https://example.com&url=https://example.org", "url"],
      [{ url: "https://example.com", width: "0x500" }, "width"],
      [{ url: "https://example.com", width: "1e3" }, "width"],
      [{ url: "https://example.com", width: " 1280 " }, "width"],
      [{ url: "https://example.com", width: "" }, "width"],
      [{ url: "https://example.com", delay: "1e309" }, "delay"],
      [{ url: "https://example.com", quality: "NaN" }, "quality"],
      [{ url: "https://example.com", fullPage: "yes" }, "fullPage"],
      [{ url: "https://example.com", widht: "100" }, "widht"],
      [{ width: "500" }, "url"],
    ];
    for (const [query, field] of cases) {
      const res = await fetchGet(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      const body = await envelope(res);
      expect(body.error?.code).toBe("VALIDATION_ERROR");
      expect(
        body.error?.details?.map((d) => d.path),
        JSON.stringify(query),
      ).toContain(field);
    }
  });

  async function fetchGet(query: Record<string, string> | string): Promise<Response> {
    const qs = typeof query === "string" ? query : new URLSearchParams(query).toString();
    const { call } = await import("../helpers/http");
    return call(`/v1/screenshot?${qs}&key=${cap.account.apiKey}`);
  }
});
