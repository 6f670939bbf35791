/**
 * Change detection (docs/WATCHES.md). Visual: the new PNG against the last good one with
 * mapbox's pixelmatch (YIQ colour distance, anti-aliased pixels not counted), giving the share
 * of pixels that differ and a diff image — the new capture faded, changed pixels in red. When
 * the sizes differ (a full-page capture grew), the area outside the overlap counts as changed.
 * Text: the page's visible text compared line by line (added and removed lines).
 */
import { decode, encode } from "fast-png";
import pixelmatch from "pixelmatch";

/** pixelmatch's colour-distance threshold (0–1): its default, tolerant of rendering noise. */
const COLOR_THRESHOLD = 0.1;
const CHANGED: readonly [number, number, number] = [255, 0, 0];

export interface VisualDiff {
  /** Share of pixels that differ, 0–100, two decimals. */
  changedPercent: number;
  /** The diff image (PNG), the size of the larger of the two. */
  diffPng: Uint8Array;
  width: number;
  height: number;
}

interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Any PNG (grey, RGB, RGBA; 8 or 16 bits; palette) as 8-bit RGBA. */
export function toRgba(png: Uint8Array): Rgba {
  const img = decode(png);
  const { width, height, channels } = img;
  const n = width * height;
  const out = new Uint8Array(n * 4);
  const src = img.data;
  const scale = img.depth === 16 ? 257 : 1;
  if (img.palette) {
    for (let i = 0; i < n; i++) {
      const entry = img.palette[src[i] ?? 0] ?? [0, 0, 0];
      out[i * 4] = entry[0] ?? 0;
      out[i * 4 + 1] = entry[1] ?? 0;
      out[i * 4 + 2] = entry[2] ?? 0;
      out[i * 4 + 3] = entry[3] ?? 255;
    }
    return { width, height, data: out };
  }
  for (let i = 0; i < n; i++) {
    const at = (c: number) => Math.round((src[i * channels + c] ?? 0) / scale);
    const grey = channels <= 2;
    out[i * 4] = at(0);
    out[i * 4 + 1] = grey ? at(0) : at(1);
    out[i * 4 + 2] = grey ? at(0) : at(2);
    out[i * 4 + 3] = channels === 2 ? at(1) : channels === 4 ? at(3) : 255;
  }
  return { width, height, data: out };
}

/** The top-left `w`×`h` region of an image. */
function crop(img: Rgba, w: number, h: number): Uint8Array {
  if (img.width === w && img.height === h) return img.data;
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    out.set(img.data.subarray(y * img.width * 4, (y * img.width + w) * 4), y * w * 4);
  return out;
}

export function compareImages(beforePng: Uint8Array, afterPng: Uint8Array): VisualDiff {
  const before = toRgba(beforePng);
  const after = toRgba(afterPng);
  const width = Math.max(before.width, after.width);
  const height = Math.max(before.height, after.height);
  const w = Math.min(before.width, after.width);
  const h = Math.min(before.height, after.height);
  const overlapDiff = new Uint8Array(w * h * 4);
  const inOverlap = pixelmatch(crop(before, w, h), crop(after, w, h), overlapDiff, w, h, {
    threshold: COLOR_THRESHOLD,
    includeAA: false,
    diffColor: [...CHANGED],
    alpha: 0.1,
  });
  const outside = width * height - w * h;
  const diff = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (x < w && y < h) {
        diff.set(overlapDiff.subarray((y * w + x) * 4, (y * w + x) * 4 + 4), o);
      } else {
        diff[o] = CHANGED[0];
        diff[o + 1] = CHANGED[1];
        diff[o + 2] = CHANGED[2];
        diff[o + 3] = 255;
      }
    }
  }
  const total = width * height;
  const changedPercent = total === 0 ? 0 : round2(((inOverlap + outside) / total) * 100);
  return {
    changedPercent,
    diffPng: encode({ width, height, data: diff, channels: 4 }),
    width,
    height,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface TextDiff {
  added: string[];
  removed: string[];
  /** Share of lines changed: (added + removed) / (lines before + lines after), 0–100. */
  changedPercent: number;
}

/** Line-by-line comparison (multiset: a line moved is not a change; one added twice counts twice). */
export function compareText(before: string, after: string): TextDiff {
  const lines = (s: string) =>
    s
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
  const a = lines(before);
  const b = lines(after);
  const remaining = new Map<string, number>();
  for (const l of a) remaining.set(l, (remaining.get(l) ?? 0) + 1);
  const added: string[] = [];
  for (const l of b) {
    const left = remaining.get(l) ?? 0;
    if (left > 0) remaining.set(l, left - 1);
    else added.push(l);
  }
  const removed = [...remaining].flatMap(([l, n]) => Array<string>(n).fill(l));
  const total = a.length + b.length;
  const changedPercent = total === 0 ? 0 : round2(((added.length + removed.length) / total) * 100);
  return { added, removed, changedPercent };
}
