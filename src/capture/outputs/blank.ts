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
