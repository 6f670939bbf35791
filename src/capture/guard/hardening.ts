/**
 * The hardening every frame gets before any page script (evaluateOnNewDocument, and evaluated
 * into the about:blank document user HTML is written into): what request interception cannot
 * see. docs/SECURITY.md, "Realm inventory", lists what each part covers and its test.
 * JavaScript source strings, like ../page/page-scripts.ts.
 */
import { DSD_MARKER, MARKER, templateEndsSource } from "./dsd-markers";
import { SOCKET_APIS, workerWrap } from "./socket-lock";

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
  // Declarative roots parsed after their host (./dsd-markers.ts): the marker after every
  // declarative <template> start tag is the root's first child; as the parser inserts it, it
  // hands the root to the observer, before anything after it in the root is parsed.
  if (globalThis.customElements && !customElements.get("${DSD_MARKER}")) {
    customElements.define("${DSD_MARKER}", class extends HTMLElement {
      connectedCallback() { const root = this.getRootNode(); this.remove(); if (root instanceof ShadowRoot) watchRoot(root); }
    });
  }
  // Markup written by script (setContent writes user HTML too): marked the same way, and what a
  // write parsed at once is swept before it returns, before any microtask.
  const templateEnds = ${templateEndsSource};
  const mark = (html) => {
    const s = String(html);
    let out = "";
    let from = 0;
    for (const end of templateEnds(s)) { out += s.slice(from, end) + ${JSON.stringify(MARKER)}; from = end; }
    return out + s.slice(from);
  };
  for (const name of ["write", "writeln"]) {
    const native = Document.prototype[name];
    Object.defineProperty(Document.prototype, name, {
      value: function () { const r = native.apply(this, Array.from(arguments, mark)); sweep(this); return r; },
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
  // Note whether content-visibility: auto skips rendering anything (the event fires as each such
  // element's state is first determined, and when it changes; a capture-phase listener on the
  // document sees every one), so a full page renders those sections only when there are some.
  let skipped = 0;
  listen.call(document, "contentvisibilityautostatechange", (event) => { if (event.skipped) skipped++; }, true);
  Object.defineProperty(globalThis, "__edgeshotSkipped", { get: () => skipped, configurable: false });
  // Note the page's pending short timers (a script that builds the page a moment after load),
  // so a capture that looks blank knows the page has more to do (src/capture/page/complete.ts):
  // \`__edgeshotTimersDue\` is how many ms until the last one due within 5 s fires (0: none).
  const dueAt = new Map();
  const nativeSetTimeout = setTimeout;
  const nativeClearTimeout = clearTimeout;
  Object.defineProperty(globalThis, "setTimeout", {
    value: function setTimeout(fn, ms, ...args) {
      if (typeof fn !== "function") return nativeSetTimeout(fn, ms, ...args);
      const delay = Number(ms) || 0;
      const id = nativeSetTimeout(function () { dueAt.delete(id); return fn.apply(this, arguments); }, ms, ...args);
      if (delay <= 5000) dueAt.set(id, performance.now() + delay);
      return id;
    },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(globalThis, "clearTimeout", {
    value: function clearTimeout(id) { dueAt.delete(id); return nativeClearTimeout(id); },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(globalThis, "__edgeshotTimersDue", {
    get: () => {
      let last = 0;
      for (const at of dueAt.values()) last = Math.max(last, at);
      return Math.max(0, last - performance.now());
    },
    configurable: false,
  });
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
