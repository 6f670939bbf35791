/** The change detection of watch runs: pixel shares, the diff image, size changes, text lines. */
import { encode } from "fast-png";
import { describe, expect, it } from "vitest";
import { compareImages, compareText, toRgba } from "../../src/watches/compare";

/** A w×h PNG filled with `bg`, with `rects` ([x, y, w, h, rgb]) painted on it. */
function png(
  w: number,
  h: number,
  bg: [number, number, number],
  rects: Array<[number, number, number, number, [number, number, number]]> = [],
  channels: 3 | 4 = 4,
): Uint8Array {
  const data = new Uint8Array(w * h * channels);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const r = rects.find(([rx, ry, rw, rh]) => x >= rx && x < rx + rw && y >= ry && y < ry + rh);
      const c = r ? r[4] : bg;
      data.set(channels === 4 ? [...c, 255] : c, (y * w + x) * channels);
    }
  }
  return encode({ width: w, height: h, data, channels });
}

const WHITE: [number, number, number] = [255, 255, 255];
const BLUE: [number, number, number] = [0, 0, 255];

describe("compareImages", () => {
  it("identical images: 0 %, and a diff with no red", () => {
    const a = png(100, 50, WHITE, [[10, 10, 20, 20, BLUE]]);
    const diff = compareImages(a, a);
    expect(diff.changedPercent).toBe(0);
    const rgba = toRgba(diff.diffPng);
    for (let i = 0; i < rgba.data.length; i += 4)
      expect([rgba.data[i], rgba.data[i + 1], rgba.data[i + 2]]).not.toEqual([255, 0, 0]);
  });

  it("a changed block: its exact share, red exactly there (RGB against RGBA input)", () => {
    const a = png(100, 50, WHITE, [], 3);
    const b = png(100, 50, WHITE, [[10, 5, 20, 10, BLUE]]);
    const diff = compareImages(a, b);
    expect(diff.changedPercent).toBe(4); // 200 of 5,000 pixels
    const rgba = toRgba(diff.diffPng);
    let red = 0;
    for (let y = 0; y < 50; y++) {
      for (let x = 0; x < 100; x++) {
        const i = (y * 100 + x) * 4;
        const isRed = rgba.data[i] === 255 && rgba.data[i + 1] === 0 && rgba.data[i + 2] === 0;
        const inBlock = x >= 10 && x < 30 && y >= 5 && y < 15;
        expect(isRed, `${x},${y}`).toBe(inBlock);
        if (isRed) red++;
      }
    }
    expect(red).toBe(200);
  });

  it("a page that grew: the new area counts as changed", () => {
    const a = png(100, 50, WHITE);
    const b = png(100, 100, WHITE);
    const diff = compareImages(a, b);
    expect(diff.changedPercent).toBe(50);
    expect([diff.width, diff.height]).toEqual([100, 100]);
  });
});

describe("compareText", () => {
  it("added and removed lines; moved lines are no change", () => {
    const diff = compareText("Title\nPrice: 10\nFooter", "Footer\nTitle\nPrice: 12\n\n");
    expect(diff).toEqual({ added: ["Price: 12"], removed: ["Price: 10"], changedPercent: 33.33 });
    expect(compareText("a\nb", "b\na").changedPercent).toBe(0);
    expect(compareText("", "").changedPercent).toBe(0);
  });
});
