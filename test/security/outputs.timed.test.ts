/**
 * Class A7–A8 (issue 13): what the service answers must not leak, and must not be a 500.
 * - A `js` error's message is a read-back channel for whatever the page can see: the caller
 *   gets the sanitized 400 CAPTURE_FAILED "Screenshot capture failed." (a stable hint code may
 *   be in `details`), never the page's text.
 * - Outputs the encoders cannot produce are a clean 4xx or a correct (possibly truncated)
 *   capture, never a 500: WebP's 16,383 px limit, a zero-height page, a huge `selector`
 *   element, one 100,000 px square at −50,000 px, 3840 × 16,384 CSS px at scale 3, a JPEG
 *   element wider than libjpeg's 65,500 px.
 * - A capture that fails by the page or the caller's options is a 4xx on every route, charged
 *   nothing: /v1/scrape as /v1/links, a page that navigates itself to about:blank; and a page that
 *   makes its URL 2 MB long is captured with the reported URL cut to 8,192 characters.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../schemas/limits";
import { Capturer } from "../helpers/capture";
import { call, envelope, FIXTURES, postJson, runId, type Envelope } from "../helpers/http";
import { decodeImage, near, outputSize, sniff } from "../helpers/images";
import { SMALL } from "./run";
import { creditsUsed } from "../helpers/api";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

describe.concurrent("a `js` error is not echoed (class A)", () => {
  const scripts = [
    "throw new Error(document.body.innerText)",
    "throw document.body.innerText",
    "Promise.reject(new Error(document.body.innerText))",
    "(async () => { throw new TypeError(document.body.innerText); })()",
    "null.x[document.body.innerText]",
  ];
  for (const js of scripts) {
    it(js, async () => {
      const run = runId();
      const url = `${FIXTURES}/sec/text?run=${run}`;
      for (const path of ["/v1/screenshot", "/v1/screenshot/json"]) {
        const res = await cap.postRaw(JSON.stringify({ ...SMALL, url, js }), path);
        const text = await res.text();
        expect(text, path).not.toContain(`TOP-SECRET-${run}`);
        expect(text, path).not.toContain("4111");
        expect(res.status, path).toBe(400);
        const body = JSON.parse(text) as {
          error?: { code: string; message: string; details?: unknown };
        };
        expect(body.error?.code).toBe("CAPTURE_FAILED");
        expect(body.error?.message).toBe("Screenshot capture failed.");
      }
    });
  }
});

/** A structurally valid WebP: RIFF size matches, one image chunk with sane dimensions. */
function expectValidWebp(bytes: Uint8Array): { width: number; height: number } {
  expect(sniff(bytes)).toBe("webp");
  const riff =
    (bytes[4] ?? 0) | ((bytes[5] ?? 0) << 8) | ((bytes[6] ?? 0) << 16) | ((bytes[7] ?? 0) << 24);
  expect(riff + 8).toBe(bytes.byteLength);
  const size = outputSize(bytes);
  expect(size.width).toBeGreaterThan(0);
  expect(size.height).toBeGreaterThan(0);
  expect(size.height).toBeLessThanOrEqual(16_383);
  expect(size.width).toBeLessThanOrEqual(16_383);
  return size;
}

async function expectCleanLimit(res: Response, bytes: Uint8Array): Promise<void> {
  const body = JSON.parse(new TextDecoder().decode(bytes)) as {
    error?: { code: string; message: string };
  };
  expect(res.status).toBe(413);
  expect(body.error?.code).toBe("PAYLOAD_TOO_LARGE");
  expect(body.error?.message).toMatch(/limit/i);
}

describe.concurrent("encoder limits: a clean answer, never a 500 (class A)", () => {
  it("webp full page of a 12,000 px page at the default scale → 200 truncated WebP or 413", async () => {
    const { res, bytes } = await cap.post({
      url: `${FIXTURES}/tall?h=12000`,
      format: "webp",
      fullPage: true,
      waitUntil: "load",
      timeout: 30,
    });
    expect([200, 413], new TextDecoder().decode(bytes.slice(0, 200))).toContain(res.status);
    if (res.status === 413) return expectCleanLimit(res, bytes);
    expectValidWebp(bytes);
    expect(res.headers.get("x-service-truncated")).toBe("true");
  });

  it("a zero-height page, full page → 200", async () => {
    for (const source of [
      { url: `${FIXTURES}/zero` },
      { html: `<html style="display:none"><body></body></html>` },
    ]) {
      for (const format of ["png", "webp"] as const) {
        const { res, bytes } = await cap.post({ ...SMALL, ...source, fullPage: true, format });
        expect(
          res.status,
          `${JSON.stringify(source)} ${format}: ${new TextDecoder().decode(bytes.slice(0, 200))}`,
        ).toBe(200);
        expect(sniff(bytes)).toBe(format);
      }
    }
  });

  it("a selector element 20,000 px tall → not a 500 (png and webp)", async () => {
    const html = `<body style="margin:0"><div id="x" style="width:300px;height:20000px;background:linear-gradient(#0a0,#00a)"></div></body>`;
    for (const format of ["png", "webp"] as const) {
      const { res, bytes } = await cap.post({
        html,
        selector: "#x",
        format,
        width: 320,
        height: 240,
        waitUntil: "load",
      });
      expect([200, 413], `${format}: ${new TextDecoder().decode(bytes.slice(0, 200))}`).toContain(
        res.status,
      );
      if (res.status === 413) await expectCleanLimit(res, bytes);
      else if (format === "webp") expectValidWebp(bytes);
      else expect(sniff(bytes)).toBe("png");
    }
  });

  it("width 3840, full page of a 16,384 px page at scale 3 → 200 or 413 naming the limit", async () => {
    const { res, bytes } = await cap.post({
      url: `${FIXTURES}/tall?h=16384`,
      width: 3840,
      deviceScaleFactor: 3,
      fullPage: true,
      waitUntil: "load",
      timeout: 60,
    });
    expect([200, 413], new TextDecoder().decode(bytes.slice(0, 200))).toContain(res.status);
    if (res.status === 413) await expectCleanLimit(res, bytes);
    else expect(sniff(bytes)).toBe("png");
  });
});

// One at a time: the 2^28 px capture below takes the browser for half a minute.
describe("a selector element off the page's canvas: clipped to the page, never a 500", () => {
  it("a selector element 100,000 × 100,000 px at −50,000 px as JPEG → 200: its part inside the page, cut to the encoder, truncated", async () => {
    // Blue, with a red 100 px square at the page's top-left corner (the element's centre).
    const element = (position: string) =>
      `<body style="margin:0"><div id="x" style="position:${position};left:-50000px;top:-50000px;width:100000px;height:100000px;background:#00f"><div style="position:absolute;left:50000px;top:50000px;width:100px;height:100px;background:#f00"></div></div></body>`;
    const shoot = (html: string) =>
      cap.post({ ...SMALL, html, selector: "#x", format: "jpeg", quality: 90, timeout: 60 });

    // Fixed: the part inside the page is the viewport; decoded, it is the element's centre.
    const fixed = await shoot(element("fixed"));
    expect(fixed.res.status, new TextDecoder().decode(fixed.bytes.slice(0, 300))).toBe(200);
    expect(fixed.res.headers.get("x-service-truncated")).toBe("true");
    const image = decodeImage(fixed.bytes);
    expect([image.width, image.height]).toEqual([320, 240]);
    expect(near(image.pixel(50, 50), [255, 0, 0], 24)).toBe(true);
    expect(near(image.pixel(200, 150), [0, 0, 255], 24)).toBe(true);

    // Absolute: the page reaches 50,000 px each way; the capture is 50,000 px wide and as tall
    // as the 2^28 px bitmap budget allows (its 1 GiB of pixels is too much to decode here).
    const absolute = await shoot(element("absolute"));
    expect(absolute.res.status, new TextDecoder().decode(absolute.bytes.slice(0, 300))).toBe(200);
    expect(absolute.res.headers.get("x-service-truncated")).toBe("true");
    expect(sniff(absolute.bytes)).toBe("jpeg");
    expect(outputSize(absolute.bytes)).toEqual({
      width: 50_000,
      height: Math.floor(2 ** 28 / 50_000),
    });
  }, 120_000);

  it("a selector element wholly outside the page → 400 naming selector", async () => {
    const html = `<body style="margin:0"><div id="x" style="position:absolute;left:-200000px;top:-50000px;width:100000px;height:100000px;background:#00f"></div></body>`;
    const { res, bytes } = await cap.post({ ...SMALL, html, selector: "#x", format: "jpeg" });
    const body = JSON.parse(new TextDecoder().decode(bytes)) as {
      error?: { code: string; details?: Array<{ path: string }> };
    };
    expect(res.status).toBe(400);
    expect(body.error?.code).toBe("CAPTURE_FAILED");
    expect(body.error?.details?.[0]?.path).toBe("selector");
  });
});

/** The credits `account` has used this month (GET /v1/account). */
const used = (account: Capturer) => creditsUsed(account.auth);

/** A failed answer: its status, and the envelope's code and the paths of its details. */
async function failure(
  res: Response,
): Promise<{ status: number; code?: string; paths?: string[] }> {
  const body: Envelope = await envelope(res);
  return {
    status: res.status,
    code: body.error?.code,
    paths: body.error?.details?.map((d) => d.path),
  };
}

// One at a time: side by side they waited out the browser slots (503 SERVICE_BUSY), and the 2 MB
// URL page alone takes 10–25 s to capture on a loaded machine.
describe("a failed capture is the page's or the caller's: 4xx, nothing charged", () => {
  it("/v1/scrape answers js, waitForSelector and failOnStatus failures as /v1/links does", async () => {
    // An account of its own: nothing it asks for succeeds, so its usage must stay at 0.
    const mine = await Capturer.create("pro");
    const page = `${FIXTURES}/sec/text?run=${runId()}`;
    const scrape = { ...SMALL, elements: [{ selector: "body" }] };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["/v1/scrape", { ...scrape, url: page, js: "throw new Error('no')" }, "js"],
      ["/v1/links", { ...SMALL, url: page, js: "throw new Error('no')" }, "js"],
      [
        "/v1/scrape",
        { ...scrape, url: page, waitForSelector: "#never", timeout: 5 },
        "waitForSelector",
      ],
      [
        "/v1/scrape",
        { ...scrape, url: `${FIXTURES}/status?code=404&run=${runId()}`, failOnStatus: [404] },
        "failOnStatus",
      ],
    ];
    const answers = await Promise.all(
      cases.map(async ([path, body]) => failure(await postJson(path, body, mine.auth))),
    );
    cases.forEach(([path, , field], i) => {
      expect(answers[i], `${path} naming ${field}`).toEqual({
        status: 400,
        code: "CAPTURE_FAILED",
        paths: [field],
      });
    });
    expect(await used(mine)).toBe(0);
  });

  it("`js` that navigates the page to about:blank → 400 naming url (or the blank page), never a 500", async () => {
    const mine = await Capturer.create("pro");
    const url = `${FIXTURES}/sec/text?run=${runId()}`;
    const { res, bytes } = await mine.post({ ...SMALL, url, js: "location.href = 'about:blank'" });
    const text = new TextDecoder().decode(bytes.slice(0, 300));
    // The navigation commits while the outputs are taken: the page left its document.
    if (res.status !== 200) {
      expect(res.status, text).toBe(400);
      const body = JSON.parse(new TextDecoder().decode(bytes)) as Envelope;
      expect(body.error?.code).toBe("CAPTURE_FAILED");
      expect(body.error?.details?.map((d) => d.path)).toEqual(["url"]);
      expect(await used(mine)).toBe(0);
    } else {
      // It committed before them: the blank page is what was captured, and is said to be.
      expect(res.headers.get("x-screenshot-url")).toBe("about:blank");
      expect(await used(mine)).toBe(1);
    }
  });

  it("a page that makes its URL 2 MB long: captured, the URL reported cut (JSON 8,192 characters, headers 2,048); its render link charged once", async () => {
    const mine = await Capturer.create("pro");
    const url = `${FIXTURES}/sec/text?run=${runId()}`;
    const js = `history.replaceState(null, "", "?" + "a".repeat(2 * 1024 * 1024))`;
    const cut = (reported: string | null | undefined, length: number, what: string) => {
      expect(reported?.length, what).toBe(length);
      expect(reported?.startsWith(`${FIXTURES}/sec/text?aaaa`), what).toBe(true);
    };
    const shot = await mine.json<{ url: string; metadata: { finalUrl: string } }>({
      ...SMALL,
      url,
      js,
    });
    expect(shot.res.status, JSON.stringify(shot.body.error)).toBe(200);
    cut(shot.body.data?.url, LIMITS.urlChars, "url");
    cut(shot.body.data?.metadata.finalUrl, LIMITS.urlChars, "metadata.finalUrl");

    const minted = await postJson("/v1/render/link", { ...SMALL, url, js }, mine.auth);
    const link = (await envelope<{ url: string }>(minted)).data?.url ?? "";
    const before = await used(mine);
    for (const cache of ["miss", "hit"]) {
      const view = await call(link.slice(link.indexOf("/v1/render")));
      expect(view.status, cache).toBe(200);
      expect(view.headers.get("x-service-cache")).toBe(cache);
      for (const name of ["x-screenshot-url", "x-service-final-url"])
        cut(view.headers.get(name), 2048, `${cache}: ${name}`);
      expect(sniff(new Uint8Array(await view.arrayBuffer()))).toBe("png");
    }
    expect(await used(mine)).toBe(before + 1);
  });

  it("a selector element 100,000 px wide at the page's origin as JPEG → 200 cut to 65,500 px (WebP: 16,383), truncated", async () => {
    const html = `<body style="margin:0"><div id="x" style="width:100000px;height:200px;background:#00f"></div></body>`;
    for (const [format, width] of [
      ["jpeg", 65_500],
      ["webp", 16_383],
    ] as const) {
      const { res, bytes } = await cap.post({ ...SMALL, html, selector: "#x", format });
      expect(res.status, `${format}: ${new TextDecoder().decode(bytes.slice(0, 300))}`).toBe(200);
      expect(res.headers.get("x-service-truncated"), format).toBe("true");
      expect(sniff(bytes)).toBe(format);
      expect(outputSize(bytes), format).toEqual({ width, height: 200 });
    }
  });
});
