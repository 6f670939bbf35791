/**
 * Code that runs inside the page. Written as JavaScript source strings, not TypeScript functions:
 * the bundler's name-keeping helpers (`__name`) would otherwise leak into serialized functions
 * and fail in the page.
 */
import type { Page } from "@cloudflare/puppeteer";
import { fromBase64, toBase64 } from "../encoding";

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
  const frame = () => new Promise((r) => { requestAnimationFrame(() => r()); setTimeout(r, 50); });
  const height = () => Math.min(maxPx, Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0));
  let y = 0, steps = 0;
  while (y + innerHeight < height() && steps < 200) {
    y += innerHeight;
    scrollTo(0, y);
    steps++;
    await frame();
    await frame();
  }
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

/**
 * Constructors whose connections are not Fetch traffic (no interception layer sees a WebSocket or
 * WebTransport handshake, or ICE over UDP): replaced in every frame and every worker.
 */
const SOCKET_APIS = [
  "WebSocket",
  "WebSocketStream",
  "WebTransport",
  "RTCPeerConnection",
  "webkitRTCPeerConnection",
  "RTCDataChannel",
];

/**
 * Runs in every dedicated and shared worker before its script (src/capture/browser-guard.ts
 * pauses each new worker, evaluates this, then resumes it): the socket APIs, as in frames.
 * Defined whether or not they exist yet, and locked: a worker paused at start does not have its
 * secure-context interfaces (WebTransport) yet — Chromium installs them after this runs, and a
 * non-configurable property of ours is what makes that installation a no-op (measured).
 */
const socketLock = `(() => {
  if (globalThis.__edgeshotHardened) return;
  Object.defineProperty(globalThis, "__edgeshotHardened", { value: true, writable: false, configurable: false });
  const refuse = (name) => function () { throw new DOMException(name + " is disabled during capture.", "SecurityError"); };
  for (const name of ${JSON.stringify(SOCKET_APIS)}) {
    Object.defineProperty(globalThis, name, { value: refuse(name), writable: false, configurable: false });
  }
})();`;

/**
 * Replaces \`Worker\` so that a worker whose script is inline (\`data:\` or \`blob:\`, read
 * synchronously) starts with the socket lock as its first lines: for those, hardening does not
 * depend on the debugger attaching in time (under load the watcher lost that race about once in
 * a few hundred workers). Relative URLs cannot resolve against \`data:\`/\`blob:\` either way, so
 * the script behaves the same. Workers from http(s) URLs are left to the watcher.
 */
const workerWrap = `(() => {
  const Native = globalThis.Worker;
  if (typeof Native !== "function" || Native.__edgeshotWrapped) return;
  const prefix = ${JSON.stringify(socketLock)} + "\\n";
  const inline = (url) => {
    const u = String(url);
    try {
      if (u.startsWith("data:")) {
        const comma = u.indexOf(",");
        const meta = u.slice(5, comma);
        const body = /;base64$/i.test(meta) ? atob(u.slice(comma + 1)) : decodeURIComponent(u.slice(comma + 1));
        return "data:text/javascript," + encodeURIComponent(prefix + body);
      }
      if (u.startsWith("blob:")) {
        const x = new XMLHttpRequest();
        x.open("GET", u, false);
        x.send();
        return URL.createObjectURL(new Blob([prefix + x.responseText], { type: "text/javascript" }));
      }
    } catch (e) {}
    return url;
  };
  const Wrapped = function Worker(url, options) {
    return Reflect.construct(Native, [inline(url), options], new.target || Native);
  };
  Wrapped.prototype = Native.prototype;
  Object.defineProperty(Wrapped, "__edgeshotWrapped", { value: true });
  Object.defineProperty(globalThis, "Worker", { value: Wrapped, writable: true, configurable: true });
})();`;

export const workerHardening = `(() => { ${socketLock} ${workerWrap} })()`;

/**
 * APIs whose network requests the BROWSER process makes on the page's behalf, outside every
 * interception layer: FedCM (well-known and config fetches), WebAuthn related origins and other
 * credential types (CredentialsContainer), Payment Request (payment-method manifests), Protected
 * Audience (bidding scripts, trusted signals), Shared Storage worklets, Topics, related-app
 * manifests. A screenshot needs none of them: each is removed, or made to reject.
 */
const BROWSER_FETCH_GLOBALS = [
  "PaymentRequest",
  "PaymentManager",
  "IdentityCredential",
  "IdentityProvider",
  "DigitalCredential",
  "SharedStorage",
  "SharedStorageWorklet",
  "Fence",
  "HTMLFencedFrameElement",
];
const BROWSER_FETCH_NAVIGATOR = [
  "joinAdInterestGroup",
  "leaveAdInterestGroup",
  "clearOriginJoinedAdInterestGroups",
  "runAdAuction",
  "updateAdInterestGroups",
  "createAuctionNonce",
  "getInterestGroupAdAuctionData",
  "canLoadAdAuctionFencedFrame",
  "deprecatedRunAdAuctionEnforcesKAnonymity",
  "getInstalledRelatedApps",
  "login",
];

/**
 * Runs in every frame before any page script (evaluateOnNewDocument). Closes the holes request
 * interception cannot see: WebSocket/WebTransport handshakes and WebRTC are not Fetch traffic,
 * so they are disabled; speculation rules (prefetch/prerender run in the browser process, outside
 * every interception layer) are removed before Chromium acts on them; APIs that make the browser
 * fetch on the page's behalf are removed; pop-ups are refused at the source (the browser-wide
 * guard and the target watcher catch any that slip through); service workers cannot register.
 */
export const hardening = `(() => {
  if (globalThis.__edgeshotHardened) return;
  Object.defineProperty(globalThis, "__edgeshotHardened", { value: true, writable: false, configurable: false });
  const refuse = (name) => function () { throw new DOMException(name + " is disabled during capture.", "SecurityError"); };
  for (const name of ${JSON.stringify(SOCKET_APIS)}) {
    if (name in globalThis) Object.defineProperty(globalThis, name, { value: refuse(name), writable: true, configurable: true });
  }
  // Shared workers live outside the page: Chromium lets the first debugger session that resumes
  // one start it, so the watcher's hardening can lose that race (measured: a data: SharedWorker
  // opened a WebSocket about one run in five). Pages cannot create them during a capture.
  if ("SharedWorker" in globalThis) Object.defineProperty(globalThis, "SharedWorker", { value: refuse("SharedWorker"), writable: true, configurable: true });
  ${workerWrap}
  for (const name of ${JSON.stringify(BROWSER_FETCH_GLOBALS)}) {
    if (name in globalThis) Object.defineProperty(globalThis, name, { value: undefined, writable: true, configurable: true });
  }
  for (const name of ${JSON.stringify(BROWSER_FETCH_NAVIGATOR)}) {
    if (globalThis.Navigator && name in Navigator.prototype) Object.defineProperty(Navigator.prototype, name, { value: undefined, writable: true, configurable: true });
  }
  for (const [proto, name] of [[globalThis.Window && Window.prototype, "sharedStorage"], [globalThis.Document && Document.prototype, "browsingTopics"]]) {
    if (proto && name in proto) Object.defineProperty(proto, name, { value: undefined, writable: true, configurable: true });
  }
  if (globalThis.CredentialsContainer) {
    const reject = () => Promise.reject(new DOMException("Credentials are disabled during capture.", "NotAllowedError"));
    for (const name of ["get", "create", "store", "preventSilentAccess"]) {
      Object.defineProperty(CredentialsContainer.prototype, name, { value: reject, writable: true, configurable: true });
    }
  }
  // Speculation rules: Chromium reads a <script type=speculationrules> when it is prepared and
  // acts on it in a microtask queued then. A MutationObserver's callback is queued when the
  // node (or its text, or its type) changes, which is always earlier, so removing the element
  // here removes its rule set before any prefetch or prerender starts. The header form
  // (Speculation-Rules) is stripped by the browser-wide guard.
  const speculative = (node) => node && node.nodeType === 1 && node.localName === "script"
    && String(node.getAttribute("type") || "").trim().toLowerCase() === "speculationrules";
  // Shadow roots are trees of their own: an observer of the document sees neither their
  // insertions nor their scripts. Every root we can reach is swept and observed: imperative ones
  // (open or closed) as attachShadow creates them, declarative open ones as their host arrives.
  const roots = new WeakSet();
  let observer = null;
  const watchRoot = (root) => {
    if (!root || roots.has(root)) return;
    roots.add(root);
    observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ["type"] });
    // A closed root hides its nodes from the window's listeners (below): guard its links here.
    root.addEventListener("click", onClick, true);
    root.addEventListener("submit", onSubmit, true);
    sweep(root);
  };
  const sweep = (node) => {
    if (!node) return;
    if (speculative(node)) { node.remove(); return; }
    if (node.shadowRoot) watchRoot(node.shadowRoot);
    if (!node.querySelectorAll) return;
    for (const el of Array.from(node.querySelectorAll("*"))) {
      if (speculative(el)) el.remove();
      else if (el.shadowRoot) watchRoot(el.shadowRoot);
    }
  };
  observer = new MutationObserver((records) => {
    for (const r of records) {
      // A script given its type or its text after insertion is prepared again: check the target.
      if (r.target.localName === "script") sweep(r.target);
      for (const n of r.addedNodes) sweep(n);
    }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["type"] });
  sweep(document);
  const attach = Element.prototype.attachShadow;
  Object.defineProperty(Element.prototype, "attachShadow", {
    value: function attachShadow(init) {
      const root = attach.call(this, init);
      watchRoot(root);
      return root;
    },
    writable: true,
    configurable: true,
  });
  // Markup parsed by script with declarative shadow roots: swept as soon as it exists.
  for (const [proto, name] of [[globalThis.Element && Element.prototype, "setHTMLUnsafe"], [globalThis.ShadowRoot && ShadowRoot.prototype, "setHTMLUnsafe"]]) {
    const native = proto && proto[name];
    if (typeof native !== "function") continue;
    Object.defineProperty(proto, name, {
      value: function (html) { const r = native.apply(this, arguments); sweep(this); return r; },
      writable: true,
      configurable: true,
    });
  }
  if (globalThis.Document && typeof Document.parseHTMLUnsafe === "function") {
    const parse = Document.parseHTMLUnsafe;
    Object.defineProperty(Document, "parseHTMLUnsafe", {
      value: function (html) { const d = parse.apply(this, arguments); sweep(d); return d; },
      writable: true,
      configurable: true,
    });
  }
  // Ordinary (writable, configurable) descriptors, like the originals: a page's own top-level
  // \`let open\` must keep working, and deleting the stand-ins brings nothing native back.
  Object.defineProperty(globalThis, "open", { value: () => null, writable: true, configurable: true });
  // Document Picture-in-Picture opens a same-origin window whose realm the opener scripts
  // synchronously, exactly like a pop-up. Headless Chromium 156 does not expose it (measured);
  // a browser that does gets it removed.
  for (const name of ["documentPictureInPicture", "DocumentPictureInPicture"]) {
    if (name in globalThis) Object.defineProperty(globalThis, name, { value: undefined, writable: true, configurable: true });
  }
  // document.open(url, name, features) IS window.open (the three-argument form): the same stub.
  // With fewer arguments it keeps its meaning (setContent and document.write rely on it).
  // Opening the window's own document erases the window's event listeners (HTML's document open
  // steps; setContent does it): the link and form guards below are added again.
  const docOpen = Document.prototype.open;
  Object.defineProperty(Document.prototype, "open", {
    value: function open() {
      if (arguments.length >= 3) return null;
      const opened = docOpen.apply(this, arguments);
      if (this === document) listenForTargets();
      return opened;
    },
    writable: true,
    configurable: true,
  });
  if (globalThis.navigator && navigator.serviceWorker) {
    const reject = () => Promise.reject(new DOMException("Service workers are disabled during capture.", "SecurityError"));
    Object.defineProperty(Object.getPrototypeOf(navigator.serviceWorker), "register", { value: reject, writable: true, configurable: true });
  }
  // Note what could react to scrolling, so a full-page capture scrolls only when it matters.
  let hooks = 0;
  Object.defineProperty(globalThis, "__edgeshotScrollHooks", { get: () => hooks, configurable: false });
  if (typeof IntersectionObserver === "function") {
    const Native = IntersectionObserver;
    const Observed = function (callback, options) {
      hooks++;
      return Reflect.construct(Native, [callback, options], new.target || Native);
    };
    Observed.prototype = Native.prototype;
    Object.defineProperty(globalThis, "IntersectionObserver", { value: Observed, writable: true, configurable: true });
  }
  const listen = EventTarget.prototype.addEventListener;
  Object.defineProperty(EventTarget.prototype, "addEventListener", {
    value: function (type, listener, options) {
      if (type === "scroll" || type === "wheel") hooks++;
      return listen.call(this, type, listener, options);
    },
    writable: true,
    configurable: true,
  });
  for (const proto of [globalThis, Window.prototype, Document.prototype, HTMLElement.prototype]) {
    const handler = Object.getOwnPropertyDescriptor(proto, "onscroll");
    if (!handler || !handler.set) continue;
    Object.defineProperty(proto, "onscroll", {
      ...handler,
      set(value) { if (value) hooks++; handler.set.call(this, value); },
    });
  }
  // Links and forms aimed at another browsing context (a target, a submitter's formtarget, or
  // the document's <base target>) do nothing: none of them is needed for a capture.
  const external = (target) => target && !["", "_self", "_top", "_parent"].includes(String(target).trim().toLowerCase());
  const baseTarget = (node) => {
    const doc = node && node.ownerDocument;
    const base = doc && doc.querySelector("base[target]");
    return base ? base.getAttribute("target") : "";
  };
  const targetOf = (el, submitter) => {
    if (submitter && submitter.hasAttribute && submitter.hasAttribute("formtarget")) return submitter.getAttribute("formtarget");
    return el.hasAttribute("target") ? el.getAttribute("target") : baseTarget(el);
  };
  const linkOf = (event) => {
    for (const node of event.composedPath ? event.composedPath() : [event.target]) {
      if (node && (node.localName === "a" || node.localName === "area") && node.hasAttribute("href")) return node;
    }
    return null;
  };
  function onClick(event) {
    const link = linkOf(event);
    if (link && external(targetOf(link))) event.preventDefault();
  }
  function onSubmit(event) {
    if (event.target && event.target.localName === "form" && external(targetOf(event.target, event.submitter))) event.preventDefault();
  }
  function listenForTargets() {
    addEventListener("click", onClick, true);
    addEventListener("submit", onSubmit, true);
  }
  listenForTargets();
  // form.submit() fires no submit event, and a click on a link outside the document never
  // reaches this window: both are checked where they start.
  const submit = HTMLFormElement.prototype.submit;
  Object.defineProperty(HTMLFormElement.prototype, "submit", {
    value: function () { if (!external(targetOf(this))) return submit.call(this); },
    writable: true,
    configurable: true,
  });
  const detachedLink = (node) => {
    if (!node || node.isConnected || !node.closest) return false;
    const link = node.closest("a[href], area[href]");
    return link !== null && external(targetOf(link));
  };
  const click = HTMLElement.prototype.click;
  Object.defineProperty(HTMLElement.prototype, "click", {
    value: function () { if (!detachedLink(this)) return click.call(this); },
    writable: true,
    configurable: true,
  });
  const dispatch = EventTarget.prototype.dispatchEvent;
  Object.defineProperty(EventTarget.prototype, "dispatchEvent", {
    value: function (event) {
      if (event && (event.type === "click" || event.type === "DOMActivate") && detachedLink(this)) return false;
      return dispatch.call(this, event);
    },
    writable: true,
    configurable: true,
  });
})()`;
