/** Extraction on top of the capture engine: the DOM-only spec, the JSON route's `extracted`. */
import { describe, expect, it } from "vitest";
import type { CaptureResult } from "../../src/capture/page/page-capture";
import { NO_METADATA } from "../../src/capture/page/page-read";
import { CONSENT_HIDE_SELECTORS } from "../../src/capture/page/consent-walls";
import { toCaptureSpec } from "../../src/capture-request/spec";
import { extractedField, extractionResult } from "../../src/pipeline/pipeline";
import {
  extractFromCapture,
  extractOnlySpec,
  requestedExtraction,
  toCaptureRequest,
} from "../../src/pipeline/extraction";
import { ApiError } from "../../src/errors";
import { readHtml } from "../helpers/extract";

const PROSE =
  "Readable prose about rendering pages at the edge, long enough to count as a real sentence. ";
const ARTICLE = `<html><head><title>T</title></head><body><article><p>${PROSE.repeat(4)}</p>
  <p class="note">NOTE TEXT ${PROSE}</p><div id="CybotCookiebotDialog"><p>COOKIE TEXT ${PROSE}</p></div>
  <p>${PROSE.repeat(4)}</p></article></body></html>`;

const spec = (extra: Parameters<typeof toCaptureSpec>[0] = {}) =>
  toCaptureSpec({ url: "https://example.com/post", ...extra }, { watermark: null });

/** A capture whose page reader read `html` (null: the capture was not asked to read). */
const result = (html: string | null, removeSelectors: readonly string[] = []): CaptureResult => ({
  bytes: new Uint8Array(0),
  content: null,
  article: html === null ? null : readHtml(html, "https://example.com/final", removeSelectors),
  contentType: "text/html",
  width: 1280,
  height: 800,
  quality: "full",
  completeness: null,
  waitStrategy: "networkidle2",
  truncated: false,
  autoScrolled: false,
  watermarked: false,
  finalUrl: "https://example.com/final",
  page: NO_METADATA,
});

describe("POST /v1/extract's capture", () => {
  it("carries the navigation fields over and leaves extractFormat out", () => {
    const req = toCaptureRequest({
      url: "https://e.com",
      extractFormat: "json",
      timeout: 10,
      hideSelectors: [".x"],
      blockCookieBanners: true,
    });
    expect(req).toEqual({
      url: "https://e.com",
      timeout: 10,
      hideSelectors: [".x"],
      blockCookieBanners: true,
    });
  });

  it("is a DOM-only, text-only load: no images, media or fonts, no full-page scroll", () => {
    const s = extractOnlySpec(spec({ fullPage: true }));
    expect(s.outputs).toEqual({ formats: [], article: true, content: null });
    expect(s.blockResourceTypes).toEqual(["image", "media", "font"]);
    expect(s.fullPage).toBe(false);
    expect(s.waitUntil).toBe("networkidle2");
  });

  it("reads against the final URL; the elements the reader is told to remove are gone", () => {
    const plain = extractFromCapture(result(ARTICLE), "markdown", 7);
    expect(plain).toMatchObject({ url: "https://example.com/final", loadTimeMs: 7 });
    expect(plain.content).toContain("NOTE TEXT");
    expect(plain.content).toContain("COOKIE TEXT");
    const hidden = extractFromCapture(
      result(ARTICLE, [".note", ...CONSENT_HIDE_SELECTORS]),
      "markdown",
      7,
    );
    expect(hidden.content).not.toContain("NOTE TEXT");
    expect(hidden.content).not.toContain("COOKIE TEXT");
  });

  it("a capture without a DOM is a programming error, not an extraction failure", () => {
    expect(() => extractFromCapture(result(null), "markdown", 0)).toThrow(/read no article/);
  });
});

describe("extract on POST /v1/screenshot/json", () => {
  it("asks for extraction only with extract: true; markdown by default", () => {
    expect(requestedExtraction({})).toBeNull();
    expect(requestedExtraction({ extract: false })).toBeNull();
    expect(requestedExtraction({ extract: true })).toBe("markdown");
    expect(requestedExtraction({ extract: true, extractFormat: "html" })).toBe("html");
  });

  it("refuses extractFormat without extract: true", () => {
    for (const req of [
      { extractFormat: "json" as const },
      { extract: false, extractFormat: "json" as const },
    ]) {
      let err: unknown;
      try {
        requestedExtraction(req);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).details).toEqual([
        { path: "extractFormat", message: "Requires extract: true." },
      ]);
    }
  });

  it("`extracted` is the extraction data when the page has an article", () => {
    const field = extractedField(extractionResult(result(ARTICLE), "html", 3));
    expect(field.extracted?.format).toBe("html");
    expect(field).not.toHaveProperty("extractionError");
  });

  it("no article: extracted null with the error the extract endpoint would give", () => {
    const field = extractedField(
      extractionResult(result("<html><body><button>Sign in</button></body></html>"), "markdown", 3),
    );
    expect(field).toEqual({
      extracted: null,
      extractionError: { code: "EXTRACTION_FAILED", message: expect.any(String) },
    });
  });

  it("over the size cap: extracted null with PAYLOAD_TOO_LARGE", () => {
    const big = `<html><body><article>${`<p>${"word ".repeat(150)}</p>`.repeat(1500)}</article></body></html>`;
    const field = extractedField(extractionResult(result(big), "json", 3));
    expect(field).toMatchObject({
      extracted: null,
      extractionError: { code: "PAYLOAD_TOO_LARGE" },
    });
  });
});
