/**
 * Page controls against fixture pages, checked in pixels and in the fixture server's request
 * log: ad blocking, consent walls, hideSelectors, blockResourceTypes, css, js, cookies, headers,
 * and how they compose with user agents and device presets.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CONSENT_HIDE_SELECTORS } from "../../src/capture/page/consent-walls";
import { SCRIPT_ERROR_HINT } from "../../src/capture/failures";
import type { CompletenessData } from "../../schemas/responses";
import { Capturer } from "../helpers/capture";
import { elementFor } from "../helpers/consent-markup";
import { envelope, FIXTURES, fixtureLog, runId, type LoggedRequest } from "../helpers/http";
import { decodeImage, near, outputSize, type Decoded, type Rgb } from "../helpers/images";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

/** The fixture server under a third-party name (an ad host in tests: AD_BLOCK_EXTRA_HOSTS). */
const AD_ORIGIN = FIXTURES.replace("127.0.0.1", "ads.localhost");
const AD_HOST = new URL(AD_ORIGIN).host;
const page = (name: string, run: string, origin = FIXTURES) => `${origin}/${name}?run=${run}`;
const small = { waitUntil: "load", width: 400, height: 300, deviceScaleFactor: 1 } as const;

const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];
const BLUE: Rgb = [0, 0, 255];
const YELLOW: Rgb = [255, 255, 0];
const WHITE: Rgb = [255, 255, 255];
const MAGENTA: Rgb = [255, 0, 255];
const CYAN: Rgb = [0, 255, 255];

/** The decoded image, and the capture's completeness report (its header). */
async function shot(
  body: Record<string, unknown>,
): Promise<Decoded & { completeness: CompletenessData }> {
  const { res, bytes } = await cap.post(body);
  if (res.status !== 200)
    throw new Error(`capture failed: ${res.status} ${new TextDecoder().decode(bytes)}`);
  const completeness = JSON.parse(
    res.headers.get("x-service-completeness") ?? "null",
  ) as CompletenessData;
  return Object.assign(decodeImage(bytes), { completeness });
}

/** Pixels of `color` in the image (every pixel scanned). */
function countColor(img: Decoded, color: Rgb, tolerance = 8): number {
  let n = 0;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) if (near(img.pixel(x, y), color, tolerance)) n++;
  return n;
}

const hosts = (log: LoggedRequest[]) => log.map((r) => `${r.headers.host} ${r.path}`).sort();
const fromAdHost = (log: LoggedRequest[]) => log.filter((r) => r.headers.host === AD_HOST);

describe("blockAds", () => {
  it("ad requests never reach the server with blockAds on (the default) and do with it off", async () => {
    const offRun = runId();
    const off = await shot({ ...small, url: page("controls-ads.html", offRun), blockAds: false });
    expect(hosts(fromAdHost(await fixtureLog(offRun)))).toEqual(
      [
        `${AD_HOST} /controls-ad-frame.html`,
        `${AD_HOST} /controls-ad.js`,
        `${AD_HOST} /img/ad.png`,
      ].sort(),
    );
    expect(off.pixel(10, 10)).toEqual(RED); // the ad script painted its slot
    expect(off.pixel(10, 130)).toEqual(RED); // the ad image
    expect(off.pixel(10, 210)).toEqual(RED); // the ad iframe
    expect(off.completeness.adsBlocked).toBe(0);

    const onRun = runId();
    const on = await shot({ ...small, url: page("controls-ads.html", onRun) });
    expect(hosts(await fixtureLog(onRun))).toEqual([
      `${new URL(FIXTURES).host} /controls-ads.html`,
    ]);
    expect(on.pixel(10, 10)).toEqual(WHITE);
    expect(countColor(on, RED)).toBe(0); // no ad pixels anywhere
    expect(on.pixel(350, 50)).toEqual(BLUE); // the page's own content is untouched
    // The report counts what was refused: the three ad requests the unblocked run served.
    expect(on.completeness.adsBlocked).toBe(3);
  });

  it("never blocks a site's own requests on its own pages (first party)", async () => {
    const run = runId();
    const img = await shot({
      ...small,
      url: page("controls-ads.html", run, AD_ORIGIN),
      blockAds: true,
    });
    expect(fromAdHost(await fixtureLog(run))).toHaveLength(4); // the page and its three "ad" requests
    expect(img.pixel(10, 10)).toEqual(RED);
  });

  it("the GET endpoint honours blockAds=false", async () => {
    const run = runId();
    const { res } = await cap.get({
      url: page("controls-ads.html", run),
      blockAds: "false",
      waitUntil: "load",
      width: "400",
      height: "300",
    });
    expect(res.status).toBe(200);
    expect(fromAdHost(await fixtureLog(run))).toHaveLength(3);
  });
});

describe("blockCookieBanners", () => {
  const onetrust = { waitUntil: "load", width: 800, height: 600, deviceScaleFactor: 1 } as const;

  /** Paints the first band green when the window can scroll to y=1000, purple when it cannot. */
  const scrollProbe = `scrollTo(0, 1000); const scrolled = scrollY === 1000; scrollTo(0, 0);
    document.querySelector(".band").style.background = scrolled ? "rgb(0, 128, 0)" : "rgb(128, 0, 128)";`;

  it("without it the OneTrust wall covers the page and the page cannot scroll", async () => {
    const img = await shot({
      ...onetrust,
      url: page("controls-onetrust.html", runId()),
      js: scrollProbe,
    });
    expect(img.pixel(400, 500)).toEqual(MAGENTA);
    expect(near(img.pixel(400, 100), [64, 0, 64], 3)).toBe(true); // purple behind the dark filter
  });

  it("hides the OneTrust banner and filter, and the page scrolls again", async () => {
    const view = await shot({
      ...onetrust,
      url: page("controls-onetrust.html", runId()),
      blockCookieBanners: true,
      js: scrollProbe,
    });
    expect(countColor(view, MAGENTA)).toBe(0);
    // The OneTrust container, its banner and its dark filter.
    expect(view.completeness.consentRemoved).toBe(3);
    expect(view.pixel(400, 100)).toEqual([0, 128, 0]);
    expect(view.pixel(400, 500)).toEqual([0, 128, 0]);

    const full = await shot({
      ...onetrust,
      url: page("controls-onetrust.html", runId()),
      blockCookieBanners: true,
      fullPage: true,
    });
    expect([full.width, full.height]).toEqual([800, 4000]);
    expect([
      full.pixel(10, 500),
      full.pixel(10, 1500),
      full.pixel(10, 2500),
      full.pixel(10, 3500),
    ]).toEqual([RED, BLUE, GREEN, YELLOW]);
    expect(countColor(full, MAGENTA)).toBe(0);
  });

  for (const lock of ["inline", "class"]) {
    it(`undoes a position-fixed body lock set by ${lock === "inline" ? "an inline style" : "Didomi's lock class"}`, async () => {
      const url = `${page("controls-scroll-lock.html", runId())}&lock=${lock}`;
      const locked = await shot({ ...small, url });
      expect(locked.pixel(10, 10)).toEqual(BLUE); // the first 500 px band is pushed off screen
      const freed = await shot({ ...small, url, blockCookieBanners: true });
      expect(freed.pixel(10, 10)).toEqual(RED);
      expect(countColor(freed, MAGENTA)).toBe(0);
    });
  }

  it("hides an element for every curated selector, and leaves look-alike content and <body> alone", async () => {
    // Static full-width strips, also for <dialog open> (absolute and fit-content by default).
    const strip =
      "height:4px;width:auto;margin:0;padding:0;border:0;position:static;background:#f0f";
    const walls = CONSENT_HIDE_SELECTORS.map((s) => elementFor(s, strip)).join("\n");
    const lookAlikes = [
      '<div class="cookie-recipe">',
      '<div id="cookie-banners-history">',
      '<div class="has-cookie-banner">',
      '<div class="cookie-consent-docs">',
      '<div role="region" aria-label="Cookie recipes">',
      '<div id="consent-form">',
      '<section class="cookies">',
      '<div class="consent">',
    ].map(
      (open) =>
        `${open.replace(/>$/, ' style="height:4px;background:#0ff">')}</${/^<(\w+)/.exec(open)?.[1] ?? "div"}>`,
    );
    const html = `<!doctype html><html class="cookie-consent"><body class="Cookie-Banner cookie-consent" style="margin:0;background:#fff">
      ${walls}<main>${lookAlikes.join("")}</main></body></html>`;
    const opts = {
      html,
      waitUntil: "load",
      width: 320,
      height: 1200,
      deviceScaleFactor: 1,
      fullPage: true,
    } as const;

    const shown = await shot(opts);
    expect(countColor(shown, MAGENTA, 0)).toBe(CONSENT_HIDE_SELECTORS.length * 4 * 320);
    const hidden = await shot({ ...opts, blockCookieBanners: true });
    expect(countColor(hidden, MAGENTA, 0)).toBe(0);
    expect(countColor(hidden, CYAN, 0)).toBe(lookAlikes.length * 4 * 320);
  });
});

describe("hideSelectors", () => {
  it("hidden elements' pixels are gone, others stay; a selector matching nothing is no error", async () => {
    const url = page("controls-page.html", runId());
    const before = await shot({ ...small, url });
    expect([before.pixel(50, 50), before.pixel(200, 50), before.pixel(350, 50)]).toEqual([
      RED,
      GREEN,
      BLUE,
    ]);
    const after = await shot({
      ...small,
      url,
      hideSelectors: ["#hide-me", ".also-hide", "#nothing-matches-this", "div.nope > span"],
    });
    expect([after.pixel(50, 50), after.pixel(200, 50), after.pixel(350, 50)]).toEqual([
      WHITE,
      WHITE,
      BLUE,
    ]);
    expect(countColor(after, RED)).toBe(0);
  });
});

describe("blockResourceTypes", () => {
  const opts = { ...small, waitUntil: "networkidle0" } as const;
  const PATHS = {
    stylesheet: "/controls-style.css",
    font: "/controls-font.woff2",
    image: "/img/controls.png",
    media: "/controls-media.webm",
    other: "/controls-beacon",
  } as const;
  /** A `<link rel=prefetch>`: "other" too, though Chromium's interception calls it a fetch. */
  const PREFETCH = "/controls-prefetch.js";
  const paths = async (run: string) => (await fixtureLog(run)).map((r) => r.path);

  it("without it every kind is requested", async () => {
    const run = runId();
    const img = await shot({ ...opts, url: page("controls-resources.html", run) });
    expect(await paths(run)).toEqual(
      expect.arrayContaining([...Object.values(PATHS), PREFETCH, "/controls-data.json"]),
    );
    expect(img.pixel(50, 50)).toEqual(RED);
    expect(img.pixel(250, 50)).toEqual(BLUE);
  });

  for (const [type, path] of Object.entries(PATHS)) {
    it(`${type}: never requested, and nothing else is blocked with it`, async () => {
      const run = runId();
      await shot({
        ...opts,
        url: page("controls-resources.html", run),
        blockResourceTypes: [type],
      });
      const seen = await paths(run);
      expect(seen).not.toContain(path);
      if (type === "other") expect(seen).not.toContain(PREFETCH);
      else expect(seen).toContain(PREFETCH);
      const others = Object.values(PATHS).filter((p) => p !== path);
      expect(seen).toEqual(expect.arrayContaining([...others, "/controls-data.json"]));
    });
  }

  it("all five at once: images and stylesheets are gone from the pixels; the page's fetch() still runs", async () => {
    const run = runId();
    const img = await shot({
      ...opts,
      url: page("controls-resources.html", run),
      blockResourceTypes: Object.keys(PATHS),
    });
    expect((await paths(run)).sort()).toEqual(["/controls-data.json", "/controls-resources.html"]);
    expect(img.pixel(50, 50)).toEqual(WHITE);
    expect(img.pixel(250, 50)).toEqual(WHITE);
  });
});

describe("css and js", () => {
  const url = () => page("controls-page.html", runId());
  const keep = (img: Decoded) => img.pixel(350, 50);

  it("css is applied before the capture", async () => {
    expect(
      keep(
        await shot({
          ...small,
          url: url(),
          css: "#keep { background: rgb(255, 200, 0) !important; }",
        }),
      ),
    ).toEqual([255, 200, 0]);
  });

  it("js runs after navigation, after the css, and its effect is captured", async () => {
    const js = `const k = document.getElementById("keep");
      k.style.background = getComputedStyle(k).backgroundColor === "rgb(255, 200, 0)" ? "rgb(0, 200, 100)" : "rgb(1, 2, 3)";`;
    expect(
      keep(
        await shot({ ...small, url: url(), css: "#keep { background: rgb(255, 200, 0); }", js }),
      ),
    ).toEqual([0, 200, 100]);
  });

  it("a promise-returning js is awaited", async () => {
    const js = `new Promise((resolve) => setTimeout(() => { document.getElementById("keep").style.background = "rgb(10, 20, 30)"; resolve(); }, 700))`;
    expect(keep(await shot({ ...small, url: url(), js }))).toEqual([10, 20, 30]);
  });

  it("a js whose value cannot be serialised (window) is fine", async () => {
    expect(
      keep(
        await shot({
          ...small,
          url: url(),
          js: "document.getElementById('keep').style.background = 'rgb(9, 9, 9)'; window",
        }),
      ),
    ).toEqual([9, 9, 9]);
  });

  const failing: Array<[string, string, string]> = [
    ["throws", "throw new Error('boom in script')", "boom in script"],
    ["rejects", "Promise.reject(new TypeError('async boom'))", "async boom"],
    ["does not parse", "this is not javascript", "Unexpected identifier"],
  ];
  for (const [what, js, detail] of failing) {
    it(`a js that ${what} → 400 CAPTURE_FAILED with a stable hint, never the script's own message`, async () => {
      const res = await cap.postRaw(JSON.stringify({ ...small, url: url(), js }));
      expect(res.status).toBe(400);
      const body = await envelope(res);
      expect(body.error?.code).toBe("CAPTURE_FAILED");
      expect(body.error?.message).toBe("Screenshot capture failed.");
      expect(body.error?.details).toEqual([{ path: "js", message: SCRIPT_ERROR_HINT }]);
      expect(JSON.stringify(body)).not.toContain(detail);
    });
  }

  it("a js that never settles is bounded by the timeout → 408 TIMEOUT", async () => {
    const started = Date.now();
    const res = await cap.postRaw(
      JSON.stringify({ ...small, url: url(), js: "new Promise(() => {})", timeout: 5 }),
    );
    expect(res.status).toBe(408);
    expect((await envelope(res)).error?.code).toBe("TIMEOUT");
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe("cookies and headers", () => {
  const cookies = [
    { name: "session", value: "abc123" },
    {
      name: "prefs",
      value: "dark%20mode/x+y==",
      domain: "127.0.0.1",
      httpOnly: true,
      sameSite: "Lax",
    },
    { name: "scoped", value: "1", path: "/private" },
  ];
  const headers = {
    "X-Edgeshot-Test": 'hello "world"',
    Authorization: "Bearer t0k3n",
    "Accept-Language": "fr-CH, fr;q=0.9",
  };

  it("arrive at the target exactly as sent, on the document and its same-host subresources only", async () => {
    const run = runId();
    await shot({
      ...small,
      url: page("controls-page.html", run),
      blockAds: false,
      cookies,
      headers,
    });
    const log = await fixtureLog(run);
    const target = log.filter((r) => r.headers.host === new URL(FIXTURES).host);
    expect(target.map((r) => r.path).sort()).toEqual(["/controls-first.js", "/controls-page.html"]);
    for (const r of target) {
      expect(r.headers.cookie).toBe("session=abc123; prefs=dark%20mode/x+y==");
      expect(r.headers["x-edgeshot-test"]).toBe('hello "world"');
      expect(r.headers.authorization).toBe("Bearer t0k3n");
      expect(r.headers["accept-language"]).toBe("fr-CH, fr;q=0.9");
    }
    const third = fromAdHost(log);
    expect(third.map((r) => r.path)).toEqual(["/controls-third.js"]);
    expect(third[0]?.headers.cookie).toBeUndefined();
    expect(third[0]?.headers["x-edgeshot-test"]).toBeUndefined();
    expect(third[0]?.headers.authorization).toBeUndefined();
  });

  it("a cookie's path is honoured", async () => {
    const run = runId();
    await shot({
      ...small,
      url: page("controls-resources.html", run),
      cookies: [{ name: "scoped", value: "1", path: "/img" }],
    });
    const log = await fixtureLog(run);
    expect(log.find((r) => r.path === "/img/controls.png")?.headers.cookie).toBe("scoped=1");
    expect(log.find((r) => r.path === "/controls-resources.html")?.headers.cookie).toBeUndefined();
  });

  it("forbidden headers and CR/LF are refused with 400 before anything is fetched", async () => {
    const run = runId();
    const bad = [
      { Host: "evil.example" },
      { connection: "close" },
      { "Content-Length": "5" },
      { "TRANSFER-ENCODING": "chunked" },
      { "X-A": "a\r\nX-Injected: 1" },
    ];
    for (const h of bad) {
      const res = await cap.postRaw(
        JSON.stringify({ ...small, url: page("controls-page.html", run), headers: h }),
      );
      expect(res.status).toBe(400);
      expect((await envelope(res)).error?.code).toBe("VALIDATION_ERROR");
    }
    expect(await fixtureLog(run)).toEqual([]);
  });

  it('a cookie domain that is not the target host or its parent → 400 "Invalid cookie domain."', async () => {
    const run = runId();
    for (const domain of ["example.com", "0.0.1", "ads.localhost"]) {
      const res = await cap.postRaw(
        JSON.stringify({
          ...small,
          url: page("controls-page.html", run),
          cookies: [{ name: "a", value: "b", domain }],
        }),
      );
      expect(res.status).toBe(400);
      const body = await envelope(res);
      expect(body.error?.message).toBe("Invalid cookie domain.");
      expect(body.error?.details?.[0]?.path).toBe("cookies[0].domain");
    }
    expect(await fixtureLog(run)).toEqual([]);
  });
});

describe("composition with userAgent and device presets", () => {
  it("a device preset with cookies, headers, blocked images, hidden elements and css", async () => {
    const run = runId();
    const { res, bytes } = await cap.post({
      url: page("controls-resources.html", run),
      waitUntil: "load",
      device: "iphone_se",
      cookies: [{ name: "c", value: "1" }],
      headers: { "X-Composed": "yes" },
      blockResourceTypes: ["image"],
      hideSelectors: ["#styled"],
      css: "html, body { background: rgb(255, 200, 0) !important; }",
    });
    expect(res.status).toBe(200);
    expect(outputSize(bytes)).toEqual({ width: 750, height: 1334 }); // 375 × 667 at 2×
    const img = decodeImage(bytes);
    expect(img.pixel(100, 100)).toEqual([255, 200, 0]); // no red image: the css background shows
    expect(img.pixel(500, 100)).toEqual([255, 200, 0]); // #styled (200..300 CSS px) is hidden
    const log = await fixtureLog(run);
    expect(log.map((r) => r.path)).not.toContain("/img/controls.png");
    const doc = log.find((r) => r.path === "/controls-resources.html");
    expect(doc?.headers["user-agent"]).toMatch(/iPhone/);
    expect(doc?.headers["x-composed"]).toBe("yes");
    expect(doc?.headers.cookie).toBe("c=1");
  });

  it("an explicit userAgent overrides the preset's and reaches every request", async () => {
    const run = runId();
    const userAgent = "EdgeshotTest/1.0 (+fixtures)";
    await shot({
      ...small,
      url: page("controls-page.html", run),
      device: "pixel_8",
      userAgent,
      blockAds: false,
    });
    const log = await fixtureLog(run);
    expect(log.length).toBe(3);
    for (const r of log) expect(r.headers["user-agent"]).toBe(userAgent);
  });
});
