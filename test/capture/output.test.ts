/**
 * Output processing: downscaling (sizes, resampling quality, formats, headers, JSON) and the
 * Free-plan watermark (pixels, PDF footer, headers, JSON metadata), against fixture pages.
 */
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { envelope, FIXTURES, runId } from "../helpers/http";
import { decodeImage, near, outputSize, sniff, type Decoded } from "../helpers/images";

let pro: Capturer;
beforeAll(async () => {
  pro = await Capturer.create("pro");
});

const page = (name: string) => `${FIXTURES}/${name}?run=${runId()}`;
const JSON_PATH = "/v1/screenshot/json";
const desktop = { waitUntil: "load", width: 1280, height: 800, deviceScaleFactor: 1 } as const;

async function pdfInfo(bytes: Uint8Array) {
  const doc = await getDocumentProxy(bytes);
  const first = await doc.getPage(1);
  const { text } = await extractText(doc, { mergePages: true });
  return { width: first.view[2] ?? 0, height: first.view[3] ?? 0, text };
}

describe("resizeWidth / resizeHeight", () => {
  it("1280×800 with resizeWidth 640 → 640×400, reported in the headers", async () => {
    const { res, bytes } = await pro.post({
      ...desktop,
      url: page("controls-stripes.html"),
      resizeWidth: 640,
    });
    expect(res.status).toBe(200);
    expect(outputSize(bytes)).toEqual({ width: 640, height: 400 });
    expect(res.headers.get("x-screenshot-width")).toBe("640");
    expect(res.headers.get("x-screenshot-height")).toBe("400");
    expect(res.headers.get("x-screenshot-size")).toBe(String(bytes.byteLength));
  });

  it("resizeHeight alone keeps the aspect ratio; both give the exact box", async () => {
    const tall = await pro.post({
      ...desktop,
      url: page("controls-stripes.html"),
      resizeHeight: 200,
    });
    expect(outputSize(tall.bytes)).toEqual({ width: 320, height: 200 });
    const box = await pro.post({
      ...desktop,
      url: page("controls-stripes.html"),
      resizeWidth: 300,
      resizeHeight: 300,
    });
    expect(outputSize(box.bytes)).toEqual({ width: 300, height: 300 });
  });

  it("never upscales past the source", async () => {
    const wide = await pro.post({
      ...desktop,
      url: page("controls-stripes.html"),
      resizeWidth: 2560,
    });
    expect(outputSize(wide.bytes)).toEqual({ width: 1280, height: 800 });
    const both = await pro.post({
      ...desktop,
      url: page("controls-stripes.html"),
      resizeWidth: 3840,
      resizeHeight: 2160,
    });
    expect(outputSize(both.bytes)).toEqual({ width: 1280, height: 800 });
    const oneSide = await pro.post({
      ...desktop,
      url: page("controls-stripes.html"),
      resizeWidth: 640,
      resizeHeight: 2000,
    });
    expect(outputSize(oneSide.bytes)).toEqual({ width: 640, height: 800 });
  });

  it("resamples with real filtering: 1 px black/white stripes average to gray, not black or white", async () => {
    const { bytes } = await pro.post({
      ...desktop,
      url: page("controls-stripes.html"),
      resizeWidth: 640,
    });
    const img = decodeImage(bytes);
    for (const x of [10, 11, 100, 333, 600]) {
      const [r, g, b] = img.pixel(x, 100);
      expect(r).toBeGreaterThan(90);
      expect(r).toBeLessThan(170);
      expect(near([r, g, b], [r, r, r], 2)).toBe(true);
    }
    expect(img.pixel(320, 300)).toEqual([255, 0, 0]); // the red half stays red
  });

  it("keeps the format and the quality: JPEG and WebP stay JPEG and WebP, quality 10 < quality 95", async () => {
    const url = page("text.html");
    const low = await pro.post({ ...desktop, url, format: "jpeg", quality: 10, resizeWidth: 640 });
    const high = await pro.post({ ...desktop, url, format: "jpeg", quality: 95, resizeWidth: 640 });
    expect(low.res.headers.get("content-type")).toBe("image/jpeg");
    expect(sniff(low.bytes)).toBe("jpeg");
    expect(outputSize(low.bytes)).toEqual({ width: 640, height: 400 });
    expect(low.bytes.byteLength).toBeLessThan(high.bytes.byteLength);
    const webp = await pro.post({ ...desktop, url, format: "webp", quality: 80, resizeWidth: 640 });
    expect(sniff(webp.bytes)).toBe("webp");
    expect(outputSize(webp.bytes)).toEqual({ width: 640, height: 400 });
  });

  it("JSON reports the final size", async () => {
    const res = await pro.postRaw(
      JSON.stringify({ ...desktop, url: page("controls-stripes.html"), resizeWidth: 640 }),
      JSON_PATH,
    );
    expect(res.status).toBe(200);
    const data = (await envelope<{ width: number; height: number; image: string }>(res)).data;
    expect([data?.width, data?.height]).toEqual([640, 400]);
    const image = Uint8Array.from(atob(data?.image ?? ""), (c) => c.charCodeAt(0));
    expect(outputSize(image)).toEqual({ width: 640, height: 400 });
  });

  it("works on the GET endpoint and after a full-page capture", async () => {
    const { res, bytes } = await pro.get({
      url: `${FIXTURES}/tall?h=3000&run=${runId()}`,
      fullPage: "true",
      width: "800",
      height: "600",
      deviceScaleFactor: "1",
      resizeWidth: "400",
      waitUntil: "load",
    });
    expect(res.status).toBe(200);
    expect(outputSize(bytes)).toEqual({ width: 400, height: 1500 });
    expect(decodeImage(bytes).pixel(200, 250)).toEqual([255, 0, 0]); // band 0 (red) at half scale
  });

  it("is ignored for PDF", async () => {
    const { res, bytes } = await pro.post({
      ...desktop,
      url: page("text.html"),
      format: "pdf",
      resizeWidth: 100,
      resizeHeight: 100,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const info = await pdfInfo(bytes);
    expect([Math.round(info.width), Math.round(info.height)]).toEqual([596, 843]);
  });
});

describe("Free-plan watermark", () => {
  const white = { waitUntil: "load", width: 800, height: 600, deviceScaleFactor: 1 } as const;

  /** Pixels of the blank area (right of the black box and the caption) that are not pure white. */
  function marks(img: Decoded): Array<[number, number, number]> {
    const out: Array<[number, number, number]> = [];
    for (let y = 0; y < img.height; y++)
      for (let x = 300; x < img.width; x++) {
        const p = img.pixel(x, y);
        if (p[0] !== 255 || p[1] !== 255 || p[2] !== 255) out.push(p);
      }
    return out;
  }

  it("Free images carry a light, gray, tiled watermark; Pro images of the same page do not", async () => {
    const free = await Capturer.create("free");
    const url = page("controls-white.html");
    const freeShot = await free.post({ ...white, url });
    const proShot = await pro.post({ ...white, url });
    expect(freeShot.res.status).toBe(200);
    expect(freeShot.res.headers.get("x-service-watermarked")).toBe("true");
    expect(proShot.res.headers.get("x-service-watermarked")).toBeNull();

    expect(marks(decodeImage(proShot.bytes))).toEqual([]);
    const freeImg = decodeImage(freeShot.bytes);
    const found = marks(freeImg);
    expect(found.length).toBeGreaterThan(500 * 600 * 0.005); // present over the page...
    expect(found.length).toBeLessThan(500 * 600 * 0.25); // ...but a pattern, not a veil
    for (const [r, g, b] of found) {
      expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeLessThanOrEqual(4); // gray
      expect(Math.min(r, g, b)).toBeGreaterThanOrEqual(190); // light
    }
    // Tiled: marks in each quarter of the blank area.
    const quarters = [
      [300, 550, 0, 300],
      [550, 800, 0, 300],
      [300, 550, 300, 600],
      [550, 800, 300, 600],
    ] as const;
    for (const [x0, x1, y0, y1] of quarters) {
      let n = 0;
      for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++) if (freeImg.pixel(x, y)[0] < 255) n++;
      expect(n).toBeGreaterThan(0);
    }
    // Content stays readable: the black box is still (nearly) black everywhere.
    let darkest = 0;
    for (let y = 0; y < 200; y += 2)
      for (let x = 0; x < 200; x += 2) darkest = Math.max(darkest, freeImg.pixel(x, y)[0]);
    expect(darkest).toBeLessThanOrEqual(60);
  });

  it("JSON: metadata.watermarked is true on Free only; Free PDFs get a footer instead", async () => {
    const free = await Capturer.create("free");
    const json = await free.postRaw(
      JSON.stringify({ ...white, url: page("controls-white.html") }),
      JSON_PATH,
    );
    expect(json.status).toBe(200);
    expect(
      (await envelope<{ metadata: { watermarked?: boolean } }>(json)).data?.metadata.watermarked,
    ).toBe(true);
    const proJson = await pro.postRaw(
      JSON.stringify({ ...white, url: page("controls-white.html") }),
      JSON_PATH,
    );
    expect((await envelope<{ metadata: object }>(proJson)).data?.metadata).not.toHaveProperty(
      "watermarked",
    );

    const freePdf = await free.post({ url: page("text.html"), waitUntil: "load", format: "pdf" });
    expect(freePdf.res.status).toBe(200);
    expect(freePdf.res.headers.get("x-service-watermarked")).toBe("true");
    expect((await pdfInfo(freePdf.bytes)).text).toContain("edgeshot.dev");
    const proPdf = await pro.post({ url: page("text.html"), waitUntil: "load", format: "pdf" });
    expect(proPdf.res.headers.get("x-service-watermarked")).toBeNull();
    const proText = (await pdfInfo(proPdf.bytes)).text;
    expect(proText).toContain("Edgeshot PDF fixture");
    expect(proText).not.toContain("edgeshot.dev");
  });
});
