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

/**
 * True when nothing in the document can start a request or change it after `load`: no script
 * element (HTML or SVG), no event-handler attribute, no frame or plugin (whose documents may run
 * scripts), no meta refresh and no template (a declarative shadow root may hold scripts).
 */
export const scriptless = `() =>
  document.querySelector('script, iframe, frame, object, embed, template, meta[http-equiv="refresh" i]') === null &&
  document.evaluate("count(//@*[starts-with(name(), 'on')])", document, null, XPathResult.NUMBER_TYPE, null).numberValue === 0`;

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
 * Lazy content before a full-page or element capture (docs/CAPTURE.md, "Complete captures"),
 * phase one: what loads on scroll is started. `loading=lazy` images and frames (in the element,
 * for `selector`) become eager, which starts their loads without scrolling. For full pages,
 * `content-visibility: auto` sections are rendered when there are any (they would otherwise stay placeholders of
 * their intrinsic size, and the page's height would change under the screenshot), and the page
 * is scrolled one viewport at a time (two rendering updates per step, where IntersectionObservers
 * compute) when something could react to scrolling: an IntersectionObserver or a scroll/wheel
 * listener (noted by `hardening` before any page script ran). The scroll stops at `maxPx` (the
 * most a full page shows) or after `budgetMs`, whichever comes first: an infinite list ends
 * there. Then back to the top. Returns what it did.
 */
export const revealLazy = `async (o) => {
  const t0 = performance.now();
  const lazySelector = "img[loading=lazy], iframe[loading=lazy]";
  const scope = o.selector === null ? document : document.querySelector(o.selector);
  let eager = 0;
  if (scope !== null) {
    const found = [...scope.querySelectorAll(lazySelector)];
    if (scope !== document && scope.matches(lazySelector)) found.push(scope);
    for (const el of found) { el.loading = "eager"; eager++; }
  }
  if (!o.fullPage) {
    // As puppeteer's element screenshot scrolls (only when not wholly in view), and now, so the
    // element's observers fire before its images are waited for.
    if (scope !== null && scope !== document) {
      const r = scope.getBoundingClientRect();
      if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
        scope.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }
    }
    return { eager, scrolledPx: 0 };
  }
  // Only when some section is skipped (\`hardening\` notes them): its universal selector restyles
  // the whole document.
  if ((globalThis.__edgeshotSkipped || 0) > 0) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync("*, *::before, *::after { content-visibility: visible !important; }");
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
  if ((globalThis.__edgeshotScrollHooks || 0) === 0) return { eager, scrolledPx: 0 };
  // A rendering update is where IntersectionObservers compute; a short timer racing it (once
  // 50 ms) let a loaded machine scroll past a slot before its observer ran: 11 of 12 lazy images.
  const frame = () => new Promise((r) => { requestAnimationFrame(() => r()); setTimeout(r, 500); });
  const root = document.documentElement;
  const height = () => Math.min(o.maxPx, Math.max(root.scrollHeight, document.body ? document.body.scrollHeight : 0));
  let y = 0;
  while (y + innerHeight < height() && performance.now() - t0 < o.budgetMs) {
    y = Math.min(y + innerHeight, height() - innerHeight);
    scrollTo(0, y);
    await frame();
    await frame();
  }
  // The last slot's observer callbacks run a frame after the one that saw it.
  if (y > 0) {
    await frame();
    scrollTo(0, 0);
    await frame();
  }
  return { eager, scrolledPx: y };
}`;

/**
 * Phase two, before every image or PDF (docs/CAPTURE.md, "Complete captures"): web fonts
 * finished, the images of the captured region (the viewport, the full page up to \`maxPx\`, or
 * the \`selector\` element's box) loaded and decoded, each wait only when something is pending
 * and all of them within \`budgetMs\`. With \`freeze\`: finite CSS animations, transitions and
 * Web Animations jump to their end, endless ones pause on their first frame, videos pause on
 * their first frame, carets are transparent. Counts the consent walls the \`consent\` selectors
 * hid (null: none were). Returns what the report says, and whether the page has more to do: a
 * short timer pending (\`hardening\` notes them), or a document still loading.
 *
 * It costs a capture one evaluation and no wait when nothing is pending (the common case): no
 * await at all when the fonts are loaded and every image in the region is complete, and no
 * style sheet (whose universal selector would restyle the whole document) unless an animation
 * runs or an editable element has the focus.
 */
export const settlePage = `(o) => {
  const t0 = performance.now();
  const left = () => Math.max(0, o.budgetMs - (performance.now() - t0));
  const bounded = (p, floor) => Promise.race([p, new Promise((r) => setTimeout(r, Math.max(left(), floor || 0)))]);
  const fonts = document.fonts;
  // A font loads when text laid out needs it: lay the page out first, or a document fresh from
  // DOMContentLoaded has no font loading yet and is shot with its block-period text invisible.
  // (The screenshot lays it out anyway: this only does it sooner.)
  const root = document.documentElement;
  const height = Math.max(root.scrollHeight, document.body ? document.body.scrollHeight : 0, innerHeight);
  let box = null;
  if (o.selector !== null) {
    const el = document.querySelector(o.selector);
    const r = el ? el.getBoundingClientRect() : null;
    if (r) box = { top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left + scrollX, right: r.right + scrollX };
  } else if (o.fullPage) box = { top: 0, bottom: o.maxPx, left: -Infinity, right: Infinity };
  else box = { top: scrollY, bottom: scrollY + innerHeight, left: scrollX, right: scrollX + innerWidth };
  const images = [];
  if (box !== null) {
    for (const img of document.images) {
      if (!img.getAttribute("src") && !img.getAttribute("srcset") && !img.currentSrc) continue;
      const r = img.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const top = r.top + scrollY, left = r.left + scrollX;
      if (top >= box.bottom || top + r.height <= box.top || left >= box.right || left + r.width <= box.left) continue;
      images.push(img);
    }
  }
  // Images still loading are waited for and decoded; complete ones are decoded by the shot.
  const loading = images.filter((img) => !img.complete);
  const finish = () => {
    const fontsLoaded = !fonts || fonts.status === "loaded";
    const loaded = images.filter((img) => img.complete && img.naturalWidth > 0).length;
    let consentRemoved = 0;
    if (o.consent !== null) {
      const hidden = new Set();
      for (const selector of o.consent) {
        try { for (const el of document.querySelectorAll(selector)) hidden.add(el); } catch {}
      }
      consentRemoved = hidden.size;
    }
    const seeks = [];
    if (o.freeze) {
      const animations = document.getAnimations();
      const active = document.activeElement;
      const editable = active !== null && active !== document.body && (active.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName));
      if (animations.length > 0 || editable) {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync("*, *::before, *::after { caret-color: transparent !important; transition-duration: 0s !important; transition-delay: 0s !important; }");
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }
      for (const a of animations) {
        try {
          const end = a.effect ? a.effect.getComputedTiming().endTime : Infinity;
          if (Number.isFinite(end)) a.finish();
          else { a.pause(); a.currentTime = 0; }
        } catch {}
      }
      for (const v of document.getElementsByTagName("video")) {
        v.autoplay = false;
        v.pause();
        if (v.currentTime > 0) {
          seeks.push(new Promise((r) => v.addEventListener("seeked", r, { once: true })));
          v.currentTime = 0;
        }
      }
    }
    const answer = () => ({
      fontsLoaded,
      images: { loaded, total: images.length },
      consentRemoved,
      timersMs: globalThis.__edgeshotTimersDue || 0,
      loading: document.readyState !== "complete",
      scroll: { x: scrollX, y: scrollY },
      height,
    });
    return seeks.length > 0 ? bounded(Promise.all(seeks), 300).then(answer) : answer();
  };
  const fontsPending = fonts && fonts.status === "loading";
  if (!fontsPending && loading.length === 0) return finish();
  const waits = loading.map((img) => img.decode().catch(() => {}));
  if (fontsPending) waits.push(fonts.ready);
  return bounded(Promise.all(waits)).then(finish);
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
