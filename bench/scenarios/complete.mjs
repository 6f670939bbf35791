// The complete scenario (bench/README.md, "Complete"; issue 54's bench): the pages of the
// complete-capture tests (test/fixtures/complete-pages.ts) through the floor and through
// Edgeshot, each capture checked by the tests' own pixel checks — lazy images at their places,
// the content-visibility section drawn, the sticky header once, a late web font drawn, a page a
// script builds late caught built, an endless animation on its first frame and a 5 s fade at its
// end. A capture that fails a check is counted incomplete, not a failure: the floor is expected
// to be incomplete, and the price of completeness is the time ratio.
import { decode as decodePng } from "fast-png";
import { checkPng } from "../lib/stats.mjs";

await import("../lib/ts-register.mjs");
const { COMPLETE_COLOURS, FONT_LAYOUT, LAZY_LAYOUT } =
  await import("../../test/fixtures/complete-layout.ts");

const near = (a, b, tolerance = 8) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

function pixels(buf) {
  const png = decodePng(buf);
  const ch = png.channels;
  return {
    width: png.width,
    height: png.height,
    at(x, y) {
      const i = (y * png.width + x) * ch;
      return [png.data[i], png.data[i + 1], png.data[i + 2]];
    },
  };
}

/**
 * The pages, one per request in turn (request i takes page i mod 4), with the same wait and
 * `fullPage` on both systems, and what makes a capture of each complete.
 */
export const COMPLETE_PAGES = [
  {
    name: "lazy",
    path: "/complete/lazy",
    wait: "load",
    fullPage: true,
    expect: { width: 1280, minHeight: 801 },
    check(img) {
      const missing = [];
      if (img.height < LAZY_LAYOUT.height) missing.push(`height ${img.height}`);
      for (const name of ["eager", "lazy1", "lazy2", "io1", "io2"])
        if (
          LAZY_LAYOUT[name] + 50 >= img.height ||
          !near(img.at(70, LAZY_LAYOUT[name] + 50), COMPLETE_COLOURS[name], 0)
        )
          missing.push(name);
      const y = LAZY_LAYOUT.hidden + 100;
      if (y >= img.height || !near(img.at(400, y), COMPLETE_COLOURS.hidden))
        missing.push("content-visibility section");
      let header = 0;
      for (let y = 0; y < img.height; y++)
        if (near(img.at(600, y), COMPLETE_COLOURS.header)) header++;
      if (header !== LAZY_LAYOUT.header) missing.push(`header rows ${header}`);
      return missing;
    },
  },
  {
    name: "fonts",
    path: "/complete/fonts",
    wait: "domcontentloaded",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    check(img) {
      const { top, height } = FONT_LAYOUT.late;
      for (let y = top; y < top + height; y++)
        for (let x = 0; x < height; x++) {
          const [r, g, b] = img.at(x, y);
          if (r + g + b < 600) return [];
        }
      return ["late web font"];
    },
  },
  {
    name: "late-build",
    path: "/complete/late-build",
    wait: "load",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    check: (img) => (near(img.at(50, 150), COMPLETE_COLOURS.built, 0) ? [] : ["built box"]),
  },
  {
    name: "carousel",
    path: "/complete/carousel",
    wait: "load",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    check(img) {
      const missing = [];
      if (!near(img.at(50, 50), COMPLETE_COLOURS.slide, 0))
        missing.push("slide on its first frame");
      if (!near(img.at(250, 200), [0, 170, 0], 0)) missing.push("fade at its end");
      return missing;
    },
  },
];

export const completePage = (i) => COMPLETE_PAGES[i % COMPLETE_PAGES.length];

/** A capture's PNG checked: `{complete, missing}` (`missing`: "page: part" each). */
export function checkComplete(page, buf) {
  checkPng(buf, page.expect);
  const missing = page.check(pixels(buf)).map((m) => `${page.name}: ${m}`);
  return { complete: missing.length === 0, missing };
}
