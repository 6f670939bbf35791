/**
 * How much of a capture is one colour (docs/CAPTURE.md, "Complete captures"): a thumbnail of the
 * captured region, at most THUMB_PX wide, rendered by Chromium at that scale (one small
 * screenshot: no full-size image is encoded or decoded for it), and the share of its pixels in
 * the most common colour. Colours are compared at 4 bits a channel, so the encoder's dithering
 * and anti-aliased edges of a flat background count as that background.
 */
import type { Page } from "@cloudflare/puppeteer";
import { decode } from "fast-png";
import { fromBase64 } from "../../encoding";
import { pageClient } from "../page/page-client";

/** The thumbnail's width: wide enough that a line of body text still shows. */
const THUMB_PX = 160;

/** At or above this share of one colour, a capture looks blank. */
export const BLANK_RATIO = 0.995;

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
  /** The region reaches past the viewport (a full page). */
  beyond: boolean;
}

/** The share (0–1, three decimals) of `region`'s pixels in its most common colour. */
export async function blankRatio(page: Page, region: Region): Promise<number> {
  const scale = Math.min(1, THUMB_PX / Math.max(1, region.width));
  const { data } = await pageClient(page).send("Page.captureScreenshot", {
    format: "png",
    optimizeForSpeed: true,
    clip: {
      x: region.x,
      y: region.y,
      width: Math.max(1, region.width),
      height: Math.max(1, region.height),
      scale,
    },
    captureBeyondViewport: region.beyond,
  });
  return dominantShare(fromBase64(data));
}

/**
 * The share (0–1, three decimals) of a PNG's pixels in its most common colour, read from the
 * encoded output itself (no second screenshot): the image data inflated by the runtime's native
 * zlib (DecompressionStream) a chunk at a time and unfiltered row by row, with only two rows in
 * memory. Every row is unfiltered (a row's filter reads the one above it), but only every
 * `step`-th row is counted, so at most ~SAMPLE_PX pixels are, however tall a full page is.
 * Null for a PNG this does not read (not 8-bit RGB/RGBA/grey, or interlaced): not measured.
 */
export async function pngDominantShare(png: Uint8Array): Promise<number | null> {
  const header = readPngHeader(png);
  if (header === null) return null;
  const { width, height, channels, idat } = header;
  const rowBytes = width * channels;
  const step = Math.max(1, Math.ceil((width * height) / SAMPLE_PX));
  const counts = new Uint32Array(1 << (4 * channels));
  let prev = new Uint8Array(rowBytes);
  let row = new Uint8Array(rowBytes);
  let filter = -1;
  let filled = 0;
  let y = 0;
  let best = 0;
  let counted = 0;
  const finishRow = () => {
    unfilter(filter, row, prev, channels);
    if (y % step === 0) {
      if (channels === 3) {
        for (let i = 0; i < rowBytes; i += 3) {
          const key = ((row[i]! >> 4) << 8) | ((row[i + 1]! >> 4) << 4) | (row[i + 2]! >> 4);
          const n = ++counts[key]!;
          if (n > best) best = n;
        }
      } else {
        for (let i = 0; i < rowBytes; i += channels) {
          let key = 0;
          for (let c = 0; c < channels; c++) key = (key << 4) | (row[i + c]! >> 4);
          const n = ++counts[key]!;
          if (n > best) best = n;
        }
      }
      counted += width;
    }
    const t = prev;
    prev = row;
    row = t;
    filter = -1;
    filled = 0;
    y++;
  };
  const stream = new Blob(idat).stream().pipeThrough(new DecompressionStream("deflate"));
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let at = 0;
    while (at < value.length && y < height) {
      if (filter < 0) {
        filter = value[at++]!;
        if (rowBytes === 0) finishRow();
        continue;
      }
      const take = Math.min(rowBytes - filled, value.length - at);
      row.set(value.subarray(at, at + take), filled);
      filled += take;
      at += take;
      if (filled === rowBytes) finishRow();
    }
  }
  if (counted === 0) return 1;
  return Math.round((best / counted) * 1000) / 1000;
}

/** Pixels counted at most by `pngDominantShare` (rows skipped beyond it). */
const SAMPLE_PX = 1_100_000;

interface PngHeader {
  width: number;
  height: number;
  channels: number;
  idat: Uint8Array[];
}

/** IHDR and the IDAT chunks of an 8-bit, non-interlaced grey/RGB/grey-alpha/RGBA PNG; else null. */
function readPngHeader(png: Uint8Array): PngHeader | null {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (png.length < 33 || view.getUint32(0) !== 0x89504e47) return null;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(png[at + 4]!, png[at + 5]!, png[at + 6]!, png[at + 7]!);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const depth = data[8];
      const colour = data[9];
      const interlace = data[12];
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colour ?? -1] ?? 0;
      if (depth !== 8 || interlace !== 0 || channels === 0) return null;
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  return channels === 0 || idat.length === 0 ? null : { width, height, channels, idat };
}

/** PNG row filters (RFC 2083, 6.2), in place on `row` given the row above. */
function unfilter(filter: number, row: Uint8Array, prev: Uint8Array, bpp: number): void {
  const n = row.length;
  switch (filter) {
    case 1:
      for (let i = bpp; i < n; i++) row[i] = (row[i]! + row[i - bpp]!) & 255;
      break;
    case 2:
      for (let i = 0; i < n; i++) row[i] = (row[i]! + prev[i]!) & 255;
      break;
    case 3:
      for (let i = 0; i < bpp; i++) row[i] = (row[i]! + (prev[i]! >> 1)) & 255;
      for (let i = bpp; i < n; i++) row[i] = (row[i]! + ((row[i - bpp]! + prev[i]!) >> 1)) & 255;
      break;
    case 4:
      for (let i = 0; i < bpp; i++) row[i] = (row[i]! + prev[i]!) & 255;
      for (let i = bpp; i < n; i++) {
        const a = row[i - bpp]!;
        const b = prev[i]!;
        const c = prev[i - bpp]!;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        row[i] = (row[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
      }
      break;
  }
}

/** The share of the most common colour (4 bits a channel) among a PNG's pixels. */
export function dominantShare(png: Uint8Array): number {
  const { width, height, channels, depth, data } = decode(png);
  const pixels = width * height;
  if (pixels === 0) return 1;
  const shift = depth === 16 ? 12 : 4;
  const counts = new Map<number, number>();
  let best = 0;
  for (let p = 0; p < pixels; p++) {
    let key = 0;
    for (let c = 0; c < channels; c++) key = (key << 4) | ((data[p * channels + c] ?? 0) >> shift);
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    if (n > best) best = n;
  }
  return Math.round((best / pixels) * 1000) / 1000;
}
