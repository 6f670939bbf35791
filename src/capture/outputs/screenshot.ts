/**
 * One screenshot command: `Page.captureScreenshot` as puppeteer's `page.screenshot` sends it, on
 * the page's own session, without the `Page.bringToFront` puppeteer sends before it. A capture's
 * page is the only page of its browser context, alone in that context's window, so it is in front
 * already; the command was one more CDP round trip per image (30 ms over a network with a 30 ms
 * round trip, bench/RESULTS.md). Puppeteer's session is the one the viewport was set on: Chromium
 * fits a full-page capture to the device metrics of the session that asks for it.
 */
import type { Page } from "@cloudflare/puppeteer";
import { fromBase64 } from "../../encoding";
import { pageClient } from "../page/page-client";

export interface ShotOptions {
  type: "png" | "jpeg" | "webp";
  /** JPEG and WebP only. */
  quality?: number;
  /** PNG and WebP only: the page's default white background left out (transparent). */
  omitBackground?: boolean;
  /** In CSS pixels of the document; rounded as puppeteer rounds it. */
  clip?: { x: number; y: number; width: number; height: number };
  /** Render beyond the viewport (full page); without it a clip is cut to the visual viewport. */
  captureBeyondViewport: boolean;
}

export async function captureScreenshot(page: Page, options: ShotOptions): Promise<Uint8Array> {
  const client = pageClient(page);
  let clip = options.clip ? roundClip(options.clip) : undefined;
  if (clip && !options.captureBeyondViewport) {
    // The browser's own numbers for the visual viewport: nothing the page's script can change.
    const { cssVisualViewport: v } = await client.send("Page.getLayoutMetrics");
    clip = intersect(clip, {
      x: v.pageX,
      y: v.pageY,
      width: v.clientWidth,
      height: v.clientHeight,
    });
  }
  const transparent = options.omitBackground === true && options.type !== "jpeg";
  if (transparent) {
    await client.send("Emulation.setDefaultBackgroundColorOverride", {
      color: { r: 0, g: 0, b: 0, a: 0 },
    });
  }
  try {
    const { data } = await client.send("Page.captureScreenshot", {
      format: options.type,
      optimizeForSpeed: true,
      ...(options.quality !== undefined ? { quality: Math.round(options.quality) } : {}),
      ...(clip ? { clip: { ...clip, scale: 1 } } : {}),
      captureBeyondViewport: options.captureBeyondViewport,
    });
    return fromBase64(data);
  } finally {
    if (transparent)
      await client.send("Emulation.setDefaultBackgroundColorOverride").catch(() => {});
  }
}

type Rect = { x: number; y: number; width: number; height: number };

/** Whole CSS pixels, the far edges rounded where they fall (puppeteer's roundRectangle). */
function roundClip(clip: Rect): Rect {
  const x = Math.round(clip.x);
  const y = Math.round(clip.y);
  return {
    x,
    y,
    width: Math.round(clip.width + clip.x - x),
    height: Math.round(clip.height + clip.y - y),
  };
}

function intersect(clip: Rect, viewport: Rect): Rect {
  const x = Math.max(clip.x, viewport.x);
  const y = Math.max(clip.y, viewport.y);
  return {
    x,
    y,
    width: Math.max(Math.min(clip.x + clip.width, viewport.x + viewport.width) - x, 0),
    height: Math.max(Math.min(clip.y + clip.height, viewport.y + viewport.height) - y, 0),
  };
}
