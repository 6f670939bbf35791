/**
 * A monitored page's pixels compared with its baseline's (docs/MONITORS.md, "No noise"):
 * pixelmatch (YIQ distance, anti-aliased pixels not counted) over the two PNGs with the masks —
 * the monitor's `ignoreRegions` and the page's learnt volatile regions — copied from the baseline
 * into the new image first, so nothing inside them can count. The changed pixels are grouped
 * into regions (8 px cells, cells within 16 px joined) whose boxes are the exact extent of their
 * changed pixels.
 *
 * Volatile regions are learnt from two captures of the page taken one after the other: what
 * differs between them, each area widened along its line to the run of ink it belongs to (a
 * clock's seconds differ in two loads a second apart, its minutes in the next check: the whole
 * "12:03:45" is masked, not the last digit), and up and down to its rows of ink.
 *
 * Images are 1 CSS px a pixel: a monitor captures at deviceScaleFactor 1.
 */
import { encode } from "fast-png";
import pixelmatch from "pixelmatch";
import { MONITOR } from "../../schemas/limits";
import { toRgba } from "../watches/compare";

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

const CELL = 8;
/** Cells this far apart (in cells) belong to one region. */
const JOIN = 2;
/** A learnt region grows along its line over gaps of background up to this many px. */
const RUN_GAP = 24;
const PAD = 4;
const MAX_MASK_BOXES = 50;

/** The pixels that differ between two same-sized images (a mask: 1 = changed). */
function changedPixels(a: Rgba, b: Rgba): { mask: Uint8Array; count: number } {
  const out = new Uint8Array(a.width * a.height * 4);
  pixelmatch(a.data, b.data, out, a.width, a.height, {
    threshold: 0.1,
    includeAA: false,
    diffMask: true,
  });
  const mask = new Uint8Array(a.width * a.height);
  let count = 0;
  for (let i = 0; i < mask.length; i++)
    if ((out[i * 4 + 3] ?? 0) !== 0) {
      mask[i] = 1;
      count++;
    }
  return { mask, count };
}

/** Regions of changed pixels: cells joined when within JOIN cells, boxes exact to the pixel. */
export function regionsOf(mask: Uint8Array, width: number, height: number, max: number): Box[] {
  const cw = Math.ceil(width / CELL);
  const ch = Math.ceil(height / CELL);
  const cells = new Uint8Array(cw * ch);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (mask[y * width + x]) cells[Math.floor(y / CELL) * cw + Math.floor(x / CELL)] = 1;
  const label = new Int32Array(cw * ch).fill(-1);
  const boxes: Array<{ x0: number; y0: number; x1: number; y1: number; cells: number[] }> = [];
  for (let start = 0; start < cells.length; start++) {
    if (!cells[start] || label[start] !== -1) continue;
    const id = boxes.length;
    const members: number[] = [];
    const stack = [start];
    label[start] = id;
    while (stack.length > 0) {
      const c = stack.pop() as number;
      members.push(c);
      const cx = c % cw;
      const cy = Math.floor(c / cw);
      for (let dy = -JOIN; dy <= JOIN; dy++)
        for (let dx = -JOIN; dx <= JOIN; dx++) {
          const nx = cx + dx;
          const ny = cy + dy;
          if (nx < 0 || ny < 0 || nx >= cw || ny >= ch) continue;
          const n = ny * cw + nx;
          if (cells[n] && label[n] === -1) {
            label[n] = id;
            stack.push(n);
          }
        }
    }
    boxes.push({ x0: width, y0: height, x1: -1, y1: -1, cells: members });
  }
  // Exact extents: the changed pixels of each region's cells.
  for (const region of boxes) {
    for (const c of region.cells) {
      const cx = (c % cw) * CELL;
      const cy = Math.floor(c / cw) * CELL;
      for (let y = cy; y < Math.min(cy + CELL, height); y++)
        for (let x = cx; x < Math.min(cx + CELL, width); x++) {
          if (!mask[y * width + x]) continue;
          if (x < region.x0) region.x0 = x;
          if (y < region.y0) region.y0 = y;
          if (x > region.x1) region.x1 = x;
          if (y > region.y1) region.y1 = y;
        }
    }
  }
  const all = boxes.map((r) => ({
    x: r.x0,
    y: r.y0,
    width: r.x1 - r.x0 + 1,
    height: r.y1 - r.y0 + 1,
  }));
  if (all.length <= max) return all.sort((a, b) => a.y - b.y || a.x - b.x);
  // The largest `max - 1`, and one box around the rest.
  all.sort((a, b) => b.width * b.height - a.width * a.height);
  const kept = all.slice(0, max - 1);
  const rest = all.slice(max - 1);
  kept.push(union(rest));
  return kept.sort((a, b) => a.y - b.y || a.x - b.x);
}

function union(boxes: Box[]): Box {
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Copies the pixels of `boxes` from `from` into `into` (same size). */
function paste(from: Rgba, into: Rgba, boxes: readonly Box[]): void {
  for (const box of boxes) {
    const x0 = Math.max(0, box.x);
    const x1 = Math.min(into.width, box.x + box.width);
    for (let y = Math.max(0, box.y); y < Math.min(into.height, box.y + box.height); y++) {
      if (x1 <= x0) break;
      const o = (y * into.width + x0) * 4;
      into.data.set(from.data.subarray(o, o + (x1 - x0) * 4), o);
    }
  }
}

export interface VisualChange {
  changedPixels: number;
  /** Share of the image's pixels, 0–100, two decimals. */
  changedPercent: number;
  regions: Box[];
  /** The new capture faded, changed pixels red, masked boxes tinted blue. */
  diffPng: Uint8Array;
}

/** The new capture against the baseline, outside `masks`. Images of another size differ whole. */
export function visualChange(
  beforePng: Uint8Array,
  afterPng: Uint8Array,
  masks: readonly Box[],
): VisualChange {
  const before = toRgba(beforePng);
  const after = toRgba(afterPng);
  if (before.width !== after.width || before.height !== after.height) {
    const total = after.width * after.height;
    const mask = new Uint8Array(total).fill(1);
    return {
      changedPixels: total,
      changedPercent: 100,
      regions: [{ x: 0, y: 0, width: after.width, height: after.height }],
      diffPng: diffImage(after, mask, []),
    };
  }
  const masked: Rgba = { ...after, data: after.data.slice() };
  paste(before, masked, masks);
  const { mask, count } = changedPixels(before, masked);
  const total = after.width * after.height;
  return {
    changedPixels: count,
    changedPercent: total === 0 ? 0 : Math.round((count / total) * 10_000) / 100,
    regions: regionsOf(mask, after.width, after.height, MONITOR.regions),
    diffPng: diffImage(after, mask, masks),
  };
}

function diffImage(after: Rgba, mask: Uint8Array, masks: readonly Box[]): Uint8Array {
  const { width, height } = after;
  const out = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const o = i * 4;
    if (mask[i]) {
      out.set([255, 0, 0, 255], o);
      continue;
    }
    const r = after.data[o] ?? 0;
    const g = after.data[o + 1] ?? 0;
    const b = after.data[o + 2] ?? 0;
    const grey = 255 + (0.29889531 * r + 0.58662247 * g + 0.11448223 * b - 255) * 0.1;
    out.set([grey, grey, grey, 255], o);
  }
  for (const box of masks)
    for (let y = Math.max(0, box.y); y < Math.min(height, box.y + box.height); y++)
      for (let x = Math.max(0, box.x); x < Math.min(width, box.x + box.width); x++) {
        const o = (y * width + x) * 4;
        if (mask[y * width + x]) continue;
        out[o] = Math.round((out[o] ?? 0) * 0.7);
        out[o + 1] = Math.round((out[o + 1] ?? 0) * 0.8);
      }
  return encode({ width, height, data: out, channels: 4 });
}

/**
 * The volatile regions of a page from two captures of it: what differs, each area widened along
 * its line to the run of ink it is part of (in the second capture), padded. Empty when the two
 * are the same size and identical; the whole page when their sizes differ.
 */
export function learnRegions(firstPng: Uint8Array, secondPng: Uint8Array): Box[] {
  const a = toRgba(firstPng);
  const b = toRgba(secondPng);
  if (a.width !== b.width || a.height !== b.height)
    return [{ x: 0, y: 0, width: b.width, height: b.height }];
  const { mask, count } = changedPixels(a, b);
  if (count === 0) return [];
  return regionsOf(mask, b.width, b.height, MAX_MASK_BOXES).map((box) => {
    const run = inkRun(b, box);
    const rows = inkRows(b, { ...box, x: run.x0, width: run.x1 - run.x0 });
    const x0 = Math.max(0, run.x0 - PAD);
    const y0 = Math.max(0, rows.y0 - PAD);
    const x1 = Math.min(b.width, run.x1 + PAD);
    const y1 = Math.min(b.height, rows.y1 + PAD);
    return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  });
}

/**
 * How far the run's ink reaches up and down: rows of its columns unlike the white or the run's
 * background above and below, across gaps up to 2 px (a glyph that changed may be shorter than
 * its line: "1" against "0", a descender).
 */
function inkRows(img: Rgba, box: Box): { y0: number; y1: number } {
  const { width, data } = img;
  const bg = background(img, box.y, box.y + box.height);
  const ink = (y: number) => {
    for (let x = box.x; x < box.x + box.width; x++)
      if (differs(data, (y * width + x) * 4, bg)) return true;
    return false;
  };
  let y0 = box.y;
  for (let y = box.y - 1, gap = 0; y >= 0 && gap <= 2; y--) {
    if (ink(y)) {
      y0 = y;
      gap = 0;
    } else gap++;
  }
  let y1 = box.y + box.height;
  for (let y = box.y + box.height, gap = 0; y < img.height && gap <= 2; y++) {
    if (ink(y)) {
      y1 = y + 1;
      gap = 0;
    } else gap++;
  }
  return { y0, y1 };
}

/** The most common colour of rows [from, to) (sampled), as 0xRRGGBB. */
function background(img: Rgba, from: number, to: number): number {
  const { width, data } = img;
  const seen = new Map<number, number>();
  for (let y = from; y < Math.min(img.height, to); y += 2)
    for (let x = 0; x < width; x += 4) {
      const o = (y * width + x) * 4;
      const key = ((data[o] ?? 0) << 16) | ((data[o + 1] ?? 0) << 8) | (data[o + 2] ?? 0);
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  let bg = 0;
  let most = -1;
  for (const [key, n] of seen)
    if (n > most) {
      most = n;
      bg = key;
    }
  return bg;
}

function differs(data: Uint8Array, o: number, bg: number): boolean {
  const d =
    Math.abs((data[o] ?? 0) - ((bg >> 16) & 255)) +
    Math.abs((data[o + 1] ?? 0) - ((bg >> 8) & 255)) +
    Math.abs((data[o + 2] ?? 0) - (bg & 255));
  return d > 48;
}

/** How far a box's line of ink reaches left and right: columns of its band unlike the band's background. */
function inkRun(img: Rgba, box: Box): { x0: number; x1: number } {
  const { width, data } = img;
  const from = box.y;
  const to = Math.min(img.height, box.y + box.height);
  const bg = background(img, from, to);
  const ink = (x: number) => {
    for (let y = from; y < to; y++) if (differs(data, (y * width + x) * 4, bg)) return true;
    return false;
  };
  let x0 = box.x;
  for (let x = box.x - 1, gap = 0; x >= 0 && gap < RUN_GAP; x--) {
    if (ink(x)) {
      x0 = x;
      gap = 0;
    } else gap++;
  }
  let x1 = box.x + box.width;
  for (let x = box.x + box.width, gap = 0; x < width && gap < RUN_GAP; x++) {
    if (ink(x)) {
      x1 = x + 1;
      gap = 0;
    } else gap++;
  }
  return { x0, x1 };
}
