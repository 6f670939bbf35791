/**
 * Class A7–A8 (issue 13): what the service answers must not leak, and must not be a 500.
 * - A `js` error's message is a read-back channel for whatever the page can see: the caller
 *   gets the sanitized 400 CAPTURE_FAILED "Screenshot capture failed." (a stable hint code may
 *   be in `details`), never the page's text.
 * - Outputs the encoders cannot produce are a clean 4xx or a correct (possibly truncated)
 *   capture, never a 500: WebP's 16,383 px limit, a zero-height page, a huge `selector`
 *   element, 3840 × 16,384 CSS px at scale 3.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { FIXTURES, runId } from "../helpers/http";
import { outputSize, sniff } from "../helpers/images";
import { SMALL } from "./run";

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
