/**
 * The comparison of a monitored page (src/monitors/visual.ts, text.ts) on images and texts made here:
 * regions boxed to their changed pixels, masks honoured, volatile regions widened to their line
 * of ink (a clock's seconds learnt, its minutes masked too), volatile lines found again by their
 * anchor, word-level text changes and field changes.
 */
import { encode } from "fast-png";
import { describe, expect, it } from "vitest";
import { fieldChanges, learnLines, textChange, withoutVolatile } from "../../src/monitors/text";
import { learnRegions, regionsOf, visualChange } from "../../src/monitors/visual";
import { decodeImage } from "../helpers/images";

const W = 320;
const H = 200;
type Rect = { x: number; y: number; width: number; height: number; rgb: [number, number, number] };

/** A white PNG with `rects` painted. */
function png(rects: Rect[]): Uint8Array {
  const data = new Uint8Array(W * H * 4).fill(255);
  for (const r of rects)
    for (let y = r.y; y < r.y + r.height; y++)
      for (let x = r.x; x < r.x + r.width; x++) data.set([...r.rgb, 255], (y * W + x) * 4);
  return encode({ width: W, height: H, data, channels: 4 });
}

const BLACK: [number, number, number] = [0, 0, 0];
/** "Glyphs" of a line of text at y 50: 8 px wide, 4 px apart, from x 20; `marks` picks shapes. */
function line(marks: string): Rect[] {
  return [...marks].map((m, i) => ({
    x: 20 + i * 12,
    y: 50,
    width: 8,
    height: m === "1" ? 6 : 12,
    rgb: BLACK,
  }));
}

describe("visual change", () => {
  it("boxes the changed pixels exactly and counts them", () => {
    const before = png([{ x: 100, y: 120, width: 40, height: 20, rgb: [0, 0, 255] }]);
    const after = png([{ x: 100, y: 120, width: 40, height: 20, rgb: [255, 0, 0] }]);
    const change = visualChange(before, after, []);
    expect(change.changedPixels).toBe(800);
    expect(change.regions).toEqual([{ x: 100, y: 120, width: 40, height: 20 }]);
    expect(change.changedPercent).toBe(1.25);
    const diff = decodeImage(change.diffPng);
    expect(diff.pixel(110, 125)).toEqual([255, 0, 0]);
    expect(diff.pixel(10, 10)[0]).toBeGreaterThan(240);
  });

  it("counts nothing inside a mask", () => {
    const before = png([{ x: 100, y: 120, width: 40, height: 20, rgb: [0, 0, 255] }]);
    const after = png([{ x: 100, y: 120, width: 40, height: 20, rgb: [255, 0, 0] }]);
    expect(
      visualChange(before, after, [{ x: 96, y: 116, width: 50, height: 30 }]).changedPixels,
    ).toBe(0);
  });

  it("joins changes within 16 px and keeps far ones apart", () => {
    const mask = new Uint8Array(W * H);
    const mark = (x: number, y: number) => (mask[y * W + x] = 1);
    mark(10, 10);
    mark(22, 10); // 12 px away: the same region
    mark(200, 150); // far: its own
    expect(regionsOf(mask, W, H, 20)).toEqual([
      { x: 10, y: 10, width: 13, height: 1 },
      { x: 200, y: 150, width: 1, height: 1 },
    ]);
  });

  it("an image of another size differs whole", () => {
    const small = encode({
      width: 10,
      height: 10,
      data: new Uint8Array(400).fill(255),
      channels: 4,
    });
    const change = visualChange(small, png([]), []);
    expect(change.changedPercent).toBe(100);
    expect(change.regions).toEqual([{ x: 0, y: 0, width: W, height: H }]);
  });
});

describe("learnt regions", () => {
  it("widen a change along its line of ink, so the next change on that line is masked", () => {
    // "12:03:45" then "12:03:46": only the last glyph differs between the two learning loads.
    const first = png(line("00000000"));
    const second = png(line("00000001"));
    const learnt = learnRegions(first, second);
    expect(learnt).toHaveLength(1);
    const [region] = learnt;
    // The whole run of glyphs (x 20 … 112), padded by 4 px — not just the last glyph.
    expect(region).toEqual({ x: 16, y: 46, width: 100, height: 20 });
    // Minutes later the first glyphs differ too: still nothing outside the mask.
    const later = png(line("11000010"));
    expect(visualChange(second, later, learnt).changedPixels).toBe(0);
    // A change elsewhere on the page is still seen.
    const elsewhere = png([
      ...line("00000001"),
      { x: 200, y: 150, width: 10, height: 10, rgb: BLACK },
    ]);
    expect(visualChange(second, elsewhere, learnt).regions).toEqual([
      { x: 200, y: 150, width: 10, height: 10 },
    ]);
  });

  it("are none for two identical captures", () => {
    expect(learnRegions(png(line("0000")), png(line("0000")))).toEqual([]);
  });
});

describe("text", () => {
  const page = (clock: string, banner: string, price: string) =>
    [
      "Home",
      "Welcome.",
      `Local time: ${clock}`,
      banner,
      "Spin",
      `The price is ${price} dollars.`,
    ].join("\n");

  it("learns the lines that differ between two loads and leaves them out later", () => {
    const rules = learnLines(
      page("05:01:02.345", "Offer: free shipping", "10"),
      page("05:01:03.001", "Members save", "10"),
    );
    expect(rules).toEqual([{ after: "Welcome.", lines: 2 }]);
    const before = withoutVolatile(page("05:01:02.345", "Offer: free shipping", "10"), rules);
    const after = withoutVolatile(page("07:44:10.999", "New arrivals", "12"), rules);
    expect(after.left).toBe(2);
    expect(after.lines).toEqual(["Home", "Welcome.", "Spin", "The price is 12 dollars."]);
    const change = textChange(before.lines, after.lines);
    expect(change).toEqual({
      added: 1,
      removed: 1,
      parts: [
        { op: "removed", text: "10" },
        { op: "added", text: "12" },
      ],
      truncated: false,
    });
  });

  it("counts whole added and removed lines as words", () => {
    expect(textChange(["a b", "c"], ["a b", "d e f"])).toMatchObject({ added: 3, removed: 1 });
    expect(textChange(["a"], ["a", "new line here"])).toMatchObject({
      added: 3,
      removed: 0,
      parts: [{ op: "added", text: "new line here" }],
    });
  });

  it("bounds its parts", () => {
    const before = Array.from({ length: 150 }, (_, i) => `line ${i}`);
    const after = before.map((l) => `${l} changed`);
    const change = textChange(before, after);
    expect(change.parts).toHaveLength(100);
    expect(change.truncated).toBe(true);
    expect(change.added).toBe(150);
  });
});

describe("fields", () => {
  it("lists the fields whose values differ", () => {
    expect(
      fieldChanges({ title: "A", price: "10", gone: "x" }, { title: "A", price: "12", added: "y" }),
    ).toEqual([
      { name: "price", before: "10", after: "12" },
      { name: "gone", before: "x", after: null },
      { name: "added", before: null, after: "y" },
    ]);
  });
});
