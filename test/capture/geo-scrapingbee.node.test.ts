/** The ScrapingBee adapter as a table: the request it builds, and what each answer becomes. */
import { describe, expect, it } from "vitest";
import { scrapingBee } from "../../src/capture/geo/scrapingbee";
import { toCaptureSpec } from "../../src/capture-request/spec";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const KEY = "k-0123456789";

function geoSpec(extra: Record<string, unknown> = {}) {
  const spec = toCaptureSpec(
    { url: "https://example.com/a?b=c&d=e", geo: "DE", ...extra },
    { watermark: null },
  );
  if (!spec.geo || spec.source.kind !== "url") throw new Error("not a geo spec");
  return { ...spec, geo: spec.geo, source: spec.source };
}

function answer(status: number, headers: Record<string, string>, body: Uint8Array | string = "") {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return scrapingBee.interpret({ status, headers: new Headers(headers), body: bytes });
}

describe("ScrapingBee adapter", () => {
  it("builds the documented GET: key, encoded url, premium proxy, lower-case country, 1280×800, wait and timeout", () => {
    const request = scrapingBee.request(
      geoSpec({ delay: 1500, timeout: 45 }),
      "https://app.scrapingbee.com",
      KEY,
    );
    const url = new URL(request.url);
    expect(request.method).toBe("GET");
    expect(url.origin + url.pathname).toBe("https://app.scrapingbee.com/api/v1/");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      api_key: KEY,
      url: "https://example.com/a?b=c&d=e",
      render_js: "true",
      premium_proxy: "true",
      country_code: "de",
      screenshot: "true",
      window_width: "1280",
      window_height: "800",
      wait: "1500",
      timeout: "45000",
    });
    expect(url.search).toContain("url=https%3A%2F%2Fexample.com%2Fa%3Fb%3Dc%26d%3De");
    expect(scrapingBee.supports).toEqual({ geoCity: false, geoState: false });
  });

  it("maps every kind of answer", () => {
    const ok = answer(
      200,
      {
        "content-type": "image/png",
        "spb-initial-status-code": "200",
        "spb-resolved-url": "https://example.com/z",
      },
      PNG,
    );
    expect(ok).toEqual({ ok: true, png: PNG, finalUrl: "https://example.com/z" });
    const cases: Array<[number, Record<string, string>, string, string, number, boolean]> = [
      [
        200,
        { "content-type": "image/png", "spb-initial-status-code": "503" },
        "",
        "CAPTURE_FAILED",
        400,
        true,
      ],
      [
        200,
        { "content-type": "text/html", "spb-initial-status-code": "200" },
        "<html>oops</html>",
        "CAPTURE_FAILED",
        502,
        true,
      ],
      [
        404,
        { "spb-initial-status-code": "404" },
        '{"error":"Not found"}',
        "CAPTURE_FAILED",
        400,
        true,
      ],
      [
        500,
        { "spb-initial-status-code": "500" },
        '{"error":"Server responded with 500"}',
        "CAPTURE_FAILED",
        400,
        true,
      ],
      [401, {}, '{"message":"Invalid api key"}', "CONFIGURATION_ERROR", 503, false],
      [400, {}, '{"message":"bad"}', "CONFIGURATION_ERROR", 503, false],
      [429, {}, '{"message":"Too many concurrent requests"}', "CONFIGURATION_ERROR", 503, true],
      [500, {}, '{"message":"retry"}', "CONFIGURATION_ERROR", 503, true],
    ];
    for (const [status, headers, body, code, httpStatus, transient] of cases) {
      const out = answer(status, headers, body);
      expect(out.ok, `${status} ${body}`).toBe(false);
      if (out.ok) continue;
      expect(
        [out.failure.code, out.failure.status, out.failure.transient],
        `${status} ${body}`,
      ).toEqual([code, httpStatus, transient]);
      expect(out.failure.message).not.toContain(body || "\u0000");
    }
  });
});
