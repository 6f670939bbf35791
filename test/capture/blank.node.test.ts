/**
 * The blank ratio read from a PNG output's own bytes (src/capture/outputs/blank.ts) against a full
 * decode of the same image: PNGs built here with each row filter, so every unfilter path runs.
 */
import { deflateSync } from "node:zlib";
import { encode } from "fast-png";
import { describe, expect, it } from "vitest";
import { dominantShare, pngDominantShare } from "../../src/capture/outputs/blank";

/** The PNG filter (RFC 2083, 6.2) of one byte: `x` given left `a`, above `b`, upper-left `c`. */
function filterByte(type: number, x: number, a: number, b: number, c: number): number {
  const predictor = [
    0,
    a,
    b,
    (a + b) >> 1,
    (() => {
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    })(),
  ][type]!;
  return (x - predictor) & 255;
}

/** A PNG of `pixels` (8 bits a channel), row y filtered with `filters[y % filters.length]`. */
function png(
  width: number,
  height: number,
  channels: 3 | 4,
  pixels: Uint8Array,
  filters: number[],
): Uint8Array {
  const row = width * channels;
  const raw = new Uint8Array(height * (row + 1));
  for (let y = 0; y < height; y++) {
    const type = filters[y % filters.length]!;
    raw[y * (row + 1)] = type;
    for (let i = 0; i < row; i++) {
      const at = y * row + i;
      const a = i >= channels ? pixels[at - channels]! : 0;
      const b = y > 0 ? pixels[at - row]! : 0;
      const c = y > 0 && i >= channels ? pixels[at - row - channels]! : 0;
      raw[y * (row + 1) + 1 + i] = filterByte(type, pixels[at]!, a, b, c);
    }
  }
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(Buffer.from(type, "latin1"), 4);
    out.set(data, 8);
    return out; // the CRC is not checked by either reader
  };
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = 8;
  ihdr[9] = channels === 4 ? 6 : 2;
  const data = deflateSync(raw);
  // Two IDAT chunks, as encoders split long streams.
  const half = data.length >> 1;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", data.subarray(0, half)),
    chunk("IDAT", data.subarray(half)),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** A white page with a coloured block and a noisy band: about `1 - share` of it not white. */
function page(width: number, height: number, channels: 3 | 4): Uint8Array {
  const pixels = new Uint8Array(width * height * channels).fill(255);
  let seed = 7;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * channels;
      if (x > 10 && x < 60 && y > 5 && y < 30) pixels.set([200, 40, 40], at);
      else if (y > 40 && y < 50) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        pixels.set([seed & 255, (seed >> 8) & 255, (seed >> 16) & 255], at);
      }
    }
  return pixels;
}

describe("the blank ratio read from a PNG's own bytes", () => {
  it("agrees with a full decode for every row filter, RGB and RGBA", async () => {
    for (const channels of [3, 4] as const) {
      const pixels = page(120, 64, channels);
      for (const filters of [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4]]) {
        const bytes = png(120, 64, channels, pixels, filters);
        const share = await pngDominantShare(bytes);
        expect(share).toBe(dominantShare(bytes));
        expect(share).toBeGreaterThan(0.7);
        expect(share).toBeLessThan(0.995);
      }
    }
  });

  it("a one-colour image is 1; an image it does not read (16-bit) is null, not a guess", async () => {
    const flat = new Uint8Array(50 * 20 * 3).fill(30);
    expect(await pngDominantShare(png(50, 20, 3, flat, [2]))).toBe(1);
    const deep = encode({ width: 4, height: 4, depth: 16, channels: 3, data: new Uint16Array(48) });
    expect(await pngDominantShare(deep)).toBeNull();
  });

  it("a page taller than the sample counts every n-th row, close to the whole", async () => {
    const width = 400;
    const height = 4000; // 1.6 M pixels: every second row counted
    const pixels = new Uint8Array(width * height * 3).fill(250);
    // The top quarter dark: a quarter of the pixels.
    pixels.fill(20, 0, width * 1000 * 3);
    const share = await pngDominantShare(png(width, height, 3, pixels, [1, 2, 4]));
    expect(share).toBeCloseTo(0.75, 2);
  });
});
