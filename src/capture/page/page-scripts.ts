/**
 * Code that runs inside the page. Written as JavaScript source strings, not TypeScript functions:
 * the bundler's name-keeping helpers (`__name`) would otherwise leak into serialized functions
 * and fail in the page.
 */
import type { Page } from "@cloudflare/puppeteer";
import { fromBase64, toBase64 } from "../../encoding";

/** Evaluates `(source)(...args)` in the page; args are JSON-serialised. */
export function inPage<T>(page: Page, source: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    `(${source})(${args.map((a) => JSON.stringify(a)).join(",")})`,
  ) as Promise<T>;
}

/**
 * The document serialized as puppeteer's page.content() does (doctype, comments, root), or null
 * when its UTF-8 form exceeds `limit` bytes: a huge DOM is refused in the page, not after CDP.
 */
export const serializeWithin = `(limit) => {
  let html = "";
  for (const node of document.childNodes) {
    html += node === document.documentElement
      ? node.outerHTML
      : new XMLSerializer().serializeToString(node);
    if (html.length > limit) return null;
  }
  return html.length * 3 <= limit || new TextEncoder().encode(html).byteLength <= limit
    ? html
    : null;
}`;

/** Adds a constructed stylesheet (not blocked by the page's CSP, unlike a <style> tag). */
export const injectStyles = `(css) => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}`;

/** Document height in CSS px. */
export const pageHeight = `() => Math.max(
  document.documentElement ? document.documentElement.scrollHeight : 0,
  document.body ? document.body.scrollHeight : 0
)`;

/**
 * Where the page is scrolled to and how far the document reaches, in CSS px: an element's
 * viewport box plus the scroll offsets is its place in the document, which spans
 * [0, width] × [0, height] (at least the viewport).
 */
export const pageExtent = `() => {
  const root = document.documentElement;
  const body = document.body;
  const vv = window.visualViewport;
  return {
    left: vv ? vv.pageLeft : window.scrollX,
    top: vv ? vv.pageTop : window.scrollY,
    width: Math.max(root ? root.scrollWidth : 0, body ? body.scrollWidth : 0, window.innerWidth),
    height: Math.max(root ? root.scrollHeight : 0, body ? body.scrollHeight : 0, window.innerHeight),
  };
}`;

/**
 * The page's title and Open Graph tags (first of each), each cut to `max` characters. Read
 * through the prototypes' own getters so a page redefining `document.title` cannot throw here.
 */
export const pageMetadata = `(max) => {
  const cut = (v) => (typeof v === "string" ? v.trim().slice(0, max) : "");
  const og = (name) => {
    const el = document.querySelector('meta[property="og:' + name + '"], meta[name="og:' + name + '"]');
    return el ? cut(el.getAttribute("content")) : "";
  };
  let title = "";
  try { title = cut(Object.getOwnPropertyDescriptor(Document.prototype, "title").get.call(document)); } catch {}
  return {
    title,
    openGraph: { title: og("title"), description: og("description"), image: og("image"), siteName: og("site_name") },
  };
}`;

/**
 * Scrolls down one viewport at a time (two animation frames per step, so observers fire) up to
 * \`maxPx\`, then back to the top. Returns the number of steps taken (0 = nothing to scroll).
 * Skipped when nothing on the page could react to scrolling: no IntersectionObserver created and
 * no scroll/wheel listener registered (both noted by \`hardening\` before any page script ran),
 * and no \`loading=lazy\` image or frame. Then a scroll cannot change what is captured.
 */
export const autoScroll = `async (maxPx) => {
  const lazy = (globalThis.__edgeshotScrollHooks || 0) > 0
    || document.querySelector("img[loading=lazy], iframe[loading=lazy]") !== null;
  if (!lazy) return 0;
  // A rendering update is where IntersectionObservers compute; a short timer racing it (once
  // 50 ms) let a loaded machine scroll past a slot before its observer ran: 11 of 12 lazy images.
  const frame = () => new Promise((r) => { requestAnimationFrame(() => r()); setTimeout(r, 500); });
  const height = () => Math.min(maxPx, Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0));
  let y = 0, steps = 0;
  while (y + innerHeight < height() && steps < 200) {
    y += innerHeight;
    scrollTo(0, y);
    steps++;
    await frame();
    await frame();
  }
  // The last slot's observer callbacks run a frame after the one that saw it.
  await frame();
  scrollTo(0, 0);
  await frame();
  return steps;
}`;

/**
 * Tiles a light, rotated text watermark over the whole document. Built from DOM nodes styled
 * through the CSSOM, so a strict CSP (img-src, style-src) cannot suppress it.
 */
export const tileWatermark = `(text) => {
  const doc = document.documentElement;
  const width = Math.max(doc.scrollWidth, innerWidth);
  const height = Math.max(doc.scrollHeight, document.body ? document.body.scrollHeight : 0, innerHeight);
  const layer = document.createElement("div");
  Object.assign(layer.style, { position: "absolute", left: "0", top: "0", width: width + "px", height: height + "px",
    pointerEvents: "none", zIndex: "2147483647", overflow: "hidden" });
  const stepX = 240, stepY = 160;
  for (let y = 40; y < height; y += stepY) {
    for (let x = ((y / stepY) % 2) * (stepX / 2) - 40; x < width; x += stepX) {
      const mark = document.createElement("span");
      mark.textContent = text;
      Object.assign(mark.style, { position: "absolute", left: x + "px", top: y + "px", transform: "rotate(-24deg)",
        font: "600 18px Arial, Helvetica, sans-serif", color: "rgba(128, 128, 128, 0.28)", whiteSpace: "nowrap",
        letterSpacing: "1px" });
      layer.appendChild(mark);
    }
  }
  doc.appendChild(layer);
}`;

/**
 * Downscales an encoded image with the browser's high-quality resampler, keeping format and
 * quality. One side given: aspect ratio kept. Both: exact box. Never upscales.
 */
const resizeScript = `async (b64, box, type, quality) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const source = await createImageBitmap(new Blob([bytes], { type: "image/" + type }));
  let w = source.width, h = source.height;
  if (box.width !== null && box.height !== null) { w = Math.min(box.width, w); h = Math.min(box.height, h); }
  else if (box.width !== null) { w = Math.min(box.width, w); h = Math.max(1, Math.round(source.height * w / source.width)); }
  else if (box.height !== null) { h = Math.min(box.height, h); w = Math.max(1, Math.round(source.width * h / source.height)); }
  if (w === source.width && h === source.height) return null;
  const scaled = await createImageBitmap(source, { resizeWidth: w, resizeHeight: h, resizeQuality: "high" });
  const canvas = new OffscreenCanvas(w, h);
  canvas.getContext("2d").drawImage(scaled, 0, 0);
  const blob = await canvas.convertToBlob({ type: "image/" + type, quality: quality === null ? undefined : quality / 100 });
  const out = new Uint8Array(await blob.arrayBuffer());
  let s = "";
  for (let i = 0; i < out.length; i += 0x8000) s += String.fromCharCode.apply(null, out.subarray(i, i + 0x8000));
  return btoa(s);
}`;

export async function resizeInPage(
  page: Page,
  bytes: Uint8Array,
  box: { width: number | null; height: number | null },
  type: "png" | "jpeg" | "webp",
  quality: number | null,
): Promise<Uint8Array> {
  const out = await inPage<string | null>(page, resizeScript, toBase64(bytes), box, type, quality);
  return out === null ? bytes : fromBase64(out);
}
