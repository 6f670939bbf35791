/**
 * Complete captures (docs/CAPTURE.md, "Complete captures"), against the pages of
 * test/fixtures/complete-pages.ts: every kind of lazy content, a sticky header, late web fonts,
 * emoji and non-Latin scripts, a page a script builds late, a page blank by design, a page that
 * animates forever. Each page is captured once (the carousel twice) and everything about it is
 * checked on that one capture: the pixels, and the completeness report against the fixture
 * server's log.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CompletenessData } from "../../schemas/responses";
import { Capturer } from "../helpers/capture";
import { call, envelope, FIXTURES, fixtureLog, runId } from "../helpers/http";
import { decodeImage, near, type Decoded, type Rgb } from "../helpers/images";
import { fromBase64 } from "../../src/encoding";
import {
  COMPLETE_COLOURS,
  FONT_LAYOUT,
  LAZY_LAYOUT,
  SCRIPT_SAMPLES,
} from "../fixtures/complete-layout";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

interface Captured {
  status: number;
  img: Decoded;
  pixels: Uint8Array;
  report: CompletenessData;
}

/** One JSON capture: its decoded image and its completeness report. */
async function capture(body: Record<string, unknown>): Promise<Captured> {
  const { res, body: env } = await cap.json<{ image: string; completeness: CompletenessData }>({
    width: 800,
    height: 800,
    deviceScaleFactor: 1,
    blockAds: false,
    ...body,
  });
  if (!env.data) throw new Error(`capture failed: ${res.status} ${JSON.stringify(env.error)}`);
  const pixels = fromBase64(env.data.image);
  return {
    status: res.status,
    img: decodeImage(pixels),
    pixels,
    report: env.data.completeness,
  };
}

const colour = (name: keyof typeof COMPLETE_COLOURS): Rgb => [...COMPLETE_COLOURS[name]];

describe("lazy content on a 6,000 px full page with a sticky header", () => {
  const run = runId();
  let shot: Captured;
  beforeAll(async () => {
    shot = await capture({
      url: `${FIXTURES}/complete/lazy?run=${run}`,
      fullPage: true,
      waitUntil: "load",
    });
  });

  it("every lazy image is in the image at its place, decoded: loading=lazy and IntersectionObserver", () => {
    const { img } = shot;
    expect([img.width, img.height]).toEqual([800, LAZY_LAYOUT.height]);
    for (const name of ["eager", "lazy1", "lazy2", "io1", "io2"] as const)
      expect(img.pixel(70, LAZY_LAYOUT[name] + 50), name).toEqual(colour(name));
  });

  it("the content-visibility: auto section is rendered", () => {
    expect(near(shot.img.pixel(400, LAZY_LAYOUT.hidden + 100), colour("hidden"))).toBe(true);
  });

  it("the sticky header is drawn once, at the top", () => {
    const header = colour("header");
    const rows: number[] = [];
    for (let y = 0; y < shot.img.height; y++)
      if (near(shot.img.pixel(600, y), header)) rows.push(y);
    expect(rows.length).toBe(LAZY_LAYOUT.header);
    expect(rows[0]).toBe(0);
  });

  it("the report matches what the fixture server served", async () => {
    const log = await fixtureLog(run);
    const served = (name: string) => log.filter((r) => r.path === `/complete/img/${name}.png`);
    const lazy = ["lazy1", "lazy2", "io1", "io2"].flatMap(served);
    expect(lazy.length).toBe(4);
    expect(served("eager").length).toBe(1);
    expect(log.filter((r) => r.path === "/complete/missing.png").length).toBe(1);
    expect(shot.report).toMatchObject({
      failedRequests: 1, // the 404 image
      pendingRequests: 0,
      fontsLoaded: true,
      images: { loaded: 5, total: 6 },
      lazyTriggered: lazy.length,
      retried: false,
      consentRemoved: 0,
      adsBlocked: 0,
    });
    expect(shot.report.scrolledPx).toBeGreaterThan(LAZY_LAYOUT.io2 - 800);
    expect(shot.report.blankRatio).toBeGreaterThan(0.5);
    expect(shot.report.blankRatio).toBeLessThan(0.995);
  });
});

describe("fonts", () => {
  const run = runId();
  let shot: Captured;
  beforeAll(async () => {
    shot = await capture({
      url: `${FIXTURES}/complete/fonts?run=${run}`,
      waitUntil: "domcontentloaded",
    });
  });

  /** The dark pixels of a box, as a string of 0/1 (its glyph's shape). */
  const ink = (left: number, top: number, size: number) => {
    let bits = "";
    for (let y = top; y < top + size; y++)
      for (let x = left; x < left + size; x++) {
        const [r, g, b] = shot.img.pixel(x, y);
        bits += r + g + b < 600 ? "1" : "0";
      }
    return bits;
  };

  it("a web font served 1.5 s late is waited for (font-display: block text is drawn)", async () => {
    const { top, height } = FONT_LAYOUT.late;
    expect(ink(0, top, height).includes("1")).toBe(true);
    expect(shot.report.fontsLoaded).toBe(true);
    const log = await fixtureLog(run);
    expect(log.filter((r) => r.path === "/complete/late.woff2").length).toBe(1);
  });

  it("emoji in colour; CJK, Hangul, kana, Arabic, Hebrew and Devanagari as real glyphs, not tofu", () => {
    const { box, top } = FONT_LAYOUT;
    const glyphs = SCRIPT_SAMPLES.map((_, i) => ink(i * box, top, box));
    const tofu = glyphs[glyphs.length - 1];
    for (const [i, c] of SCRIPT_SAMPLES.slice(0, -1).entries()) {
      expect(glyphs[i]?.includes("1"), c).toBe(true);
      expect(glyphs[i] === tofu, `${c} is tofu`).toBe(false);
    }
    // The emoji has colour: some pixel far from grey.
    let coloured = 0;
    for (let y = top; y < top + box; y++)
      for (let x = 0; x < box; x++) {
        const [r, g, b] = shot.img.pixel(x, y);
        if (Math.max(r, g, b) - Math.min(r, g, b) > 80) coloured++;
      }
    expect(coloured).toBeGreaterThan(100);
  });
});

describe("blank shots", () => {
  it("a page blank for 1.2 s while a script builds it is waited for and taken again once", async () => {
    const shot = await capture({
      url: `${FIXTURES}/complete/late-build?run=${runId()}`,
      width: 400,
      height: 300,
    });
    expect(shot.img.pixel(50, 150)).toEqual(colour("built"));
    expect(shot.img.pixel(350, 150)).toEqual([255, 255, 255]);
    expect(shot.report.retried).toBe(true);
    expect(shot.report.blankRatio).toBeCloseTo(0.5, 1);
  });

  it("a page blank by design is answered at once, blank, without a retry", async () => {
    const { res, bytes } = await cap.post({
      url: `${FIXTURES}/complete/blank?run=${runId()}`,
      width: 400,
      height: 300,
      deviceScaleFactor: 1,
      waitUntil: "load",
    });
    expect(res.status).toBe(200);
    const report = JSON.parse(
      res.headers.get("x-service-completeness") ?? "{}",
    ) as CompletenessData;
    expect(report).toMatchObject({
      blankRatio: 1,
      retried: false,
      images: { loaded: 0, total: 0 },
    });
    expect(decodeImage(bytes).pixel(200, 150)).toEqual([255, 255, 255]);
  });
});

describe("deterministic pixels", () => {
  const url = () => `${FIXTURES}/complete/carousel?run=${runId()}`;
  const carousel = { width: 400, height: 400, waitUntil: "load" } as const;

  it("a page animating forever, captured twice, is pixel-identical: motion frozen, caret hidden", async () => {
    const first = await capture({ ...carousel, url: url() });
    await new Promise((r) => setTimeout(r, 333));
    // A complete page passes requireComplete.
    const second = await capture({ ...carousel, url: url(), requireComplete: true });
    expect(second.pixels.byteLength).toBe(first.pixels.byteLength);
    expect(Buffer.from(second.pixels).equals(Buffer.from(first.pixels))).toBe(true);
    // The endless slide is paused on its first frame; the 5 s fade jumped to its end.
    expect(first.img.pixel(50, 50)).toEqual(colour("slide"));
    expect(first.img.pixel(250, 200)).toEqual([0, 170, 0]);
  });

  it("liveMotion keeps it running: the 5 s fade is caught on its way", async () => {
    const live = await capture({ ...carousel, url: url(), liveMotion: true });
    const [, green] = live.img.pixel(250, 200);
    expect(green).toBeGreaterThan(170); // white fading to green: not there yet
  });
});

describe("requireComplete", () => {
  it("an incomplete capture (a 404 image in the region) is 502 CAPTURE_FAILED naming what is missing, not charged", async () => {
    const own = await Capturer.create("pro");
    const { res, body } = await own.json({
      url: `${FIXTURES}/complete/lazy?run=${runId()}`,
      width: 800,
      height: 800,
      waitUntil: "load",
      requireComplete: true,
    });
    expect(res.status).toBe(502);
    expect(body.error).toMatchObject({
      code: "CAPTURE_FAILED",
      details: [{ path: "requireComplete", message: "1 of 2 image(s) did not load." }],
    });
    const usage = await envelope<{ usage: { used: number } }>(
      await call("/v1/usage", { headers: own.auth }),
    );
    expect(usage.data?.usage.used).toBe(0);
  });
});
