/**
 * The attack catalogue: every way a page can make the browser talk to an origin the URL guard
 * does not allow. Pure string builders, shared by the tests (inside workerd) and the fixture
 * server (Node), which serves them as target pages (`/sec/page?v=<names>`) and as ONE combined
 * page of every vector that does not end the page (`/sec/combined`).
 *
 * Every request a vector makes is tagged `?run=<run>&v=<vector name>`, so the canary's log says
 * which vector got through. A vector that manages to READ canary content calls `__leak()`, which
 * paints a magenta square with the text CANARY-CONTENT (the canary's own pages are solid magenta
 * too): outputs are checked for that colour and that text.
 *
 * Classes: "A" = the vectors of issue 13 (expected to fail until its fixes land), "B" = vectors
 * that were already refused (must always pass), "R" = new realms (pop-ups by every API, shadow
 * trees, named and base targets): docs/SECURITY.md "Realm inventory" names each.
 */

export interface Ctx {
  run: string;
  /** The allowlisted fixture server, http://127.0.0.1:P */
  fixtures: string;
  /** The allowlisted "second site" on the same host, port P + 1. */
  alt: string;
  /** The recording canary (NOT allowlisted), port P + 3. */
  canary: string;
  /** A connection-counting canary (TCP and UDP, NOT allowlisted) for what is not HTTP. */
  raw: string;
}

/** The canary's magenta marker: its pages and images are this colour, and so is `__leak()`. */
export const CANARY_MAGENTA: [number, number, number] = [255, 0, 255];
/** Text every canary page carries (and `__leak()` writes). */
export const CANARY_TEXT = "CANARY-CONTENT";

export function ctxFor(fixtures: string, run: string, rawOffset = 6): Ctx {
  const port = Number(new URL(fixtures).port);
  const origin = (p: number) => `http://127.0.0.1:${p}`;
  return {
    run,
    fixtures,
    alt: origin(port + 1),
    canary: origin(port + 3),
    raw: origin(port + rawOffset),
  };
}

/** Attribute-value escaping (for `"…"`). */
export const at = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
const js = (v: unknown) => JSON.stringify(v);

export type Group =
  | "subresource"
  | "script-request"
  | "navigation"
  | "popup"
  | "frame-scheme"
  | "redirect"
  | "encoding"
  | "worker"
  | "socket"
  | "speculation"
  | "worker-socket"
  | "browser-fetch"
  | "realm";

export interface Vector {
  name: string;
  cls: "A" | "B" | "R";
  group: Group;
  /** Body markup. `u(path, extra)` is a canary URL tagged with this vector. */
  html: (u: Tagger, c: Ctx) => string;
  /** Response headers the fixture server adds when serving this vector as a target page. */
  headers?: (u: Tagger, c: Ctx) => Record<string, string>;
  /** `Link` values sent in a 103 Early Hints before the page. */
  earlyHints?: (u: Tagger, c: Ctx) => string[];
  /**
   * Ends or replaces the page, or may make the guard refuse the capture (fail closed): not part
   * of the combined page, and a 400 is an acceptable answer.
   */
  navigates?: boolean;
  /** Changes the whole page (base URL, CSP): run alone only. */
  solo?: boolean;
  /** Only meaningful as a served page (headers, secure-context APIs). */
  servedOnly?: boolean;
  /**
   * Served as a target page under a name mapped onto the fixture server (FIXTURES_BY_NAME), as
   * production serves every page: the guard marks the declarative roots in the bytes of a
   * document from any host but an allowlisted `host:port`. Not in the served combined page.
   */
  byName?: boolean;
  /** Speaks something the canary cannot log as HTTP: check the raw (TCP/UDP) canary. */
  raw?: boolean;
  /** How long the capture should give the attack (ms of `delay`). */
  delay?: number;
}

export type Tagger = (path?: string, extra?: string) => string;

export function tagger(c: Ctx, vector: string, origin = c.canary): Tagger {
  return (path = "/paint", extra = "") =>
    `${origin}${path}${path.includes("?") ? "&" : "?"}run=${c.run}&v=${encodeURIComponent(vector)}${extra ? `&${extra}` : ""}`;
}

const ws = (url: string) => url.replace(/^http/, "ws");
/** A script that reads a canary response and paints the leak marker if it got content. */
const readAndLeak = (expr: string) =>
  `Promise.resolve().then(() => ${expr}).then((t) => { if (String(t).includes("CANARY")) __leak(); }).catch(() => {});`;
/** The next sibling element before this script. */
const PREV = "document.currentScript.previousElementSibling";

/** Worker source that opens a WebSocket to `url` and reports "open" back to its creator. */
const wsWorker = (url: string, shared = false) =>
  `try { const s = new WebSocket(${js(url)}); s.onopen = () => ${shared ? "self.__port && self.__port.postMessage('open')" : "postMessage('open')"}; } catch (e) {}` +
  (shared ? ` onconnect = (e) => { self.__port = e.ports[0]; };` : "");

const blobUrl = (src: string, type = "text/javascript") =>
  `URL.createObjectURL(new Blob([${js(src)}], { type: ${js(type)} }))`;

const specRules = (rules: unknown) =>
  `<script type="speculationrules">${JSON.stringify(rules)}</script>`;

/**
 * Where a served page pauses: the fixture server sends what comes before it, waits
 * SPLIT_PAUSE_MS, then sends the rest (the marker itself is never sent), so the markup on each
 * side is parsed in a different task of the page's parser. As user HTML the marker is a comment.
 */
export const SPLIT = "<!--split-->";
export const SPLIT_PAUSE_MS = 300;

export const VECTORS: readonly Vector[] = [
  // ── B: subresources of every kind ──────────────────────────────────────────────────────────
  {
    name: "img",
    cls: "B",
    group: "subresource",
    html: (u) => `<img src="${at(u("/paint.png"))}">`,
  },
  {
    name: "img srcset",
    cls: "B",
    group: "subresource",
    html: (u) => `<img srcset="${at(u("/paint.png"))} 1x, ${at(u("/paint.png", "d=2"))} 2x">`,
  },
  {
    name: "picture source",
    cls: "B",
    group: "subresource",
    html: (u) =>
      `<picture><source srcset="${at(u("/paint.png"))}" type="image/png"><img alt=""></picture>`,
  },
  {
    name: "input type=image",
    cls: "B",
    group: "subresource",
    html: (u) => `<input type="image" src="${at(u("/paint.png"))}">`,
  },
  {
    name: "table background",
    cls: "B",
    group: "subresource",
    html: (u) => `<table background="${at(u("/paint.png"))}"><tr><td>t</td></tr></table>`,
  },
  {
    name: "iframe",
    cls: "B",
    group: "subresource",
    html: (u) => `<iframe src="${at(u())}"></iframe>`,
  },
  {
    name: "iframe navigated by script",
    cls: "B",
    group: "subresource",
    html: (u) => `<iframe></iframe><script>${PREV}.src = ${js(u())};</script>`,
  },
  {
    name: "frame (frameset)",
    cls: "B",
    group: "subresource",
    html: (u) =>
      `<iframe srcdoc="${at(`<frameset><frame src="${at(u())}"></frameset>`)}"></iframe>`,
  },
  {
    name: "object html",
    cls: "B",
    group: "subresource",
    html: (u) => `<object data="${at(u())}" type="text/html"></object>`,
  },
  {
    name: "object image",
    cls: "B",
    group: "subresource",
    html: (u) => `<object data="${at(u("/paint.png"))}" type="image/png"></object>`,
  },
  {
    name: "embed",
    cls: "B",
    group: "subresource",
    html: (u) => `<embed src="${at(u())}" type="text/html">`,
  },
  {
    name: "video src",
    cls: "B",
    group: "subresource",
    html: (u) => `<video src="${at(u("/media"))}" autoplay muted preload="auto"></video>`,
  },
  {
    name: "video poster",
    cls: "B",
    group: "subresource",
    html: (u) => `<video poster="${at(u("/paint.png"))}"></video>`,
  },
  {
    name: "video source",
    cls: "B",
    group: "subresource",
    html: (u) => `<video autoplay muted preload="auto"><source src="${at(u("/media"))}"></video>`,
  },
  {
    name: "audio",
    cls: "B",
    group: "subresource",
    html: (u) => `<audio src="${at(u("/media"))}" preload="auto" autoplay></audio>`,
  },
  {
    name: "track",
    cls: "B",
    group: "subresource",
    html: (u) =>
      `<video preload="auto" muted><track default kind="subtitles" srclang="en" src="${at(u("/vtt"))}"></video>`,
  },
  {
    name: "script",
    cls: "B",
    group: "subresource",
    html: (u) => `<script src="${at(u("/paint.js"))}"></script>`,
  },
  {
    name: "module script",
    cls: "B",
    group: "subresource",
    html: (u) => `<script type="module" src="${at(u("/paint.js"))}"></script>`,
  },
  {
    name: "dynamic import",
    cls: "B",
    group: "subresource",
    html: (u) => `<script>import(${js(u("/paint.js"))}).catch(() => {});</script>`,
  },
  {
    name: "link stylesheet",
    cls: "B",
    group: "subresource",
    html: (u) => `<link rel="stylesheet" href="${at(u("/paint.css"))}">`,
  },
  {
    name: "link icon",
    cls: "B",
    group: "subresource",
    html: (u) => `<link rel="icon" href="${at(u("/paint.png"))}">`,
  },
  {
    name: "link manifest",
    cls: "B",
    group: "subresource",
    html: (u) => `<link rel="manifest" href="${at(u("/manifest.json"))}">`,
  },
  {
    name: "link preload (every as)",
    cls: "B",
    group: "subresource",
    html: (u) =>
      ["image", "script", "style", "font", "fetch", "document", "track", "audio", "video"]
        .map(
          (as) =>
            `<link rel="preload" as="${as}" href="${at(u("/paint", `as=${as}`))}"${as === "font" || as === "fetch" ? " crossorigin" : ""}>`,
        )
        .join(""),
  },
  {
    name: "link prefetch",
    cls: "B",
    group: "subresource",
    html: (u) => `<link rel="prefetch" href="${at(u())}">`,
  },
  {
    name: "link modulepreload",
    cls: "B",
    group: "subresource",
    html: (u) => `<link rel="modulepreload" href="${at(u("/paint.js"))}">`,
  },
  {
    name: "css @import",
    cls: "B",
    group: "subresource",
    html: (u) => `<style>@import url("${u("/paint.css")}");</style>`,
  },
  {
    name: "css url()",
    cls: "B",
    group: "subresource",
    html: (u) =>
      `<div style="${at(`width:8px;height:8px;background:url("${u("/paint.png")}")`)}"></div>`,
  },
  {
    name: "css @font-face",
    cls: "B",
    group: "subresource",
    html: (u) =>
      `<style>@font-face { font-family: "canaryfont"; src: url("${u("/font")}"); } .canaryfont { font-family: "canaryfont"; }</style><span class="canaryfont">f</span>`,
  },
  {
    name: "css image-set",
    cls: "B",
    group: "subresource",
    html: (u) =>
      `<div style="${at(`width:8px;height:8px;background-image:image-set(url("${u("/paint.png")}") 1x)`)}"></div>`,
  },
  {
    name: "css cursor",
    cls: "B",
    group: "subresource",
    html: (u) =>
      `<div style="${at(`width:8px;height:8px;cursor:url("${u("/paint.png")}"), auto`)}"></div>`,
  },
  {
    name: "css other url() properties",
    cls: "B",
    group: "subresource",
    html: (u) =>
      [
        "list-style-image",
        "border-image-source",
        "mask-image",
        "-webkit-mask-image",
        "shape-outside",
        "content",
      ]
        .map(
          (p) =>
            `<div style="${at(`width:8px;height:8px;border:1px solid;${p}:url("${u("/paint.png", `p=${p}`)}")`)}"><li></li></div>`,
        )
        .join(""),
  },
  {
    name: "svg image",
    cls: "B",
    group: "subresource",
    html: (u) =>
      `<svg width="8" height="8"><image href="${at(u("/paint.png"))}" width="8" height="8"/></svg>`,
  },
  {
    name: "svg use",
    cls: "B",
    group: "subresource",
    html: (u) => `<svg width="8" height="8"><use href="${at(u("/paint.svg"))}#x"/></svg>`,
  },
  {
    name: "svg feImage",
    cls: "B",
    group: "subresource",
    html: (u) =>
      `<svg width="8" height="8"><filter id="canaryfe"><feImage href="${at(u("/paint.png"))}"/></filter><rect width="8" height="8" filter="url(#canaryfe)"/></svg>`,
  },
  {
    name: "svg in img",
    cls: "B",
    group: "subresource",
    html: (u) => `<img src="${at(u("/paint.svg"))}">`,
  },

  // ── B: requests from script ────────────────────────────────────────────────────────────────
  {
    name: "fetch",
    cls: "B",
    group: "script-request",
    html: (u) => `<script>${readAndLeak(`fetch(${js(u())}).then((r) => r.text())`)}</script>`,
  },
  {
    name: "fetch keepalive / on pagehide",
    cls: "B",
    group: "script-request",
    html: (u) =>
      `<script>fetch(${js(u("/paint", "k=1"))}, { keepalive: true, method: "POST", body: "x" }).catch(() => {});
      addEventListener("pagehide", () => { fetch(${js(u("/paint", "k=hide"))}, { keepalive: true }).catch(() => {}); navigator.sendBeacon(${js(u("/paint", "b=hide"))}); });</script>`,
  },
  {
    name: "xhr",
    cls: "B",
    group: "script-request",
    html: (u) =>
      `<script>try { const x = new XMLHttpRequest(); x.onload = () => { if (x.responseText.includes("CANARY")) __leak(); }; x.open("GET", ${js(u())}); x.send(); } catch (e) {}</script>`,
  },
  {
    name: "sendBeacon",
    cls: "B",
    group: "script-request",
    html: (u) => `<script>try { navigator.sendBeacon(${js(u())}, "x"); } catch (e) {}</script>`,
  },
  {
    name: "a ping",
    cls: "B",
    group: "script-request",
    html: (u) => `<a href="#ping" ping="${at(u())}">p</a><script>${PREV}.click();</script>`,
  },
  {
    name: "EventSource",
    cls: "B",
    group: "script-request",
    html: (u) => `<script>try { new EventSource(${js(u())}); } catch (e) {}</script>`,
  },
  {
    name: "worklets (paint, audio)",
    cls: "B",
    group: "script-request",
    html: (u) =>
      `<script>try { CSS.paintWorklet.addModule(${js(u("/paint.js", "w=paint"))}).catch(() => {}); } catch (e) {}
      try { new AudioContext().audioWorklet.addModule(${js(u("/paint.js", "w=audio"))}).catch(() => {}); } catch (e) {}</script>`,
  },
  {
    name: "service worker register",
    cls: "B",
    group: "script-request",
    html: (u) =>
      `<script>try { navigator.serviceWorker.register(${js(u("/paint.js"))}).catch(() => {}); } catch (e) {}</script>`,
  },

  // ── B: workers (Fetch traffic) ─────────────────────────────────────────────────────────────
  {
    name: "dedicated worker fetch/xhr/importScripts",
    cls: "B",
    group: "worker",
    delay: 500,
    html: (u) =>
      `<script>try { new Worker(${blobUrl(
        `fetch(${js(u("/paint", "w=fetch"))}).catch(() => {}); try { const x = new XMLHttpRequest(); x.open("GET", ${js(u("/paint", "w=xhr"))}); x.send(); } catch (e) {} try { importScripts(${js(u("/paint.js", "w=import"))}); } catch (e) {}`,
      )}); } catch (e) {}</script>`,
  },
  {
    name: "module worker import",
    cls: "B",
    group: "worker",
    delay: 500,
    html: (u) =>
      `<script>try { new Worker(${blobUrl(`import ${js(u("/paint.js"))};`)}, { type: "module" }); } catch (e) {}</script>`,
  },
  {
    name: "shared worker fetch",
    cls: "B",
    group: "worker",
    delay: 500,
    html: (u) =>
      `<script>try { new SharedWorker(${blobUrl(`fetch(${js(u())}).catch(() => {});`)}); } catch (e) {}</script>`,
  },
  {
    name: "worker from canary URL",
    cls: "B",
    group: "worker",
    html: (u) =>
      `<script>try { new Worker(${js(u("/paint.js"))}); } catch (e) {} try { new SharedWorker(${js(u("/paint.js", "s=1"))}); } catch (e) {}</script>`,
  },

  // ── B: sockets and peer connections from the page ──────────────────────────────────────────
  {
    name: "WebSocket (main frame)",
    cls: "B",
    group: "socket",
    html: (u) =>
      `<script>try { const s = new WebSocket(${js(ws(u("/ws")))}); s.onopen = () => __leak(); } catch (e) {}</script>`,
  },
  {
    name: "WebSocket borrowed from a fresh iframe",
    cls: "B",
    group: "socket",
    html: (u) =>
      `<script>try { const f = document.createElement("iframe"); document.body.appendChild(f); new f.contentWindow.WebSocket(${js(ws(u("/ws")))}); } catch (e) {}</script>`,
  },
  {
    name: "WebSocketStream (main frame)",
    cls: "B",
    group: "socket",
    html: (u) =>
      `<script>try { new WebSocketStream(${js(ws(u("/ws")))}).opened.catch(() => {}); } catch (e) {}</script>`,
  },
  {
    name: "srcdoc iframe WebSocket and fetch",
    cls: "B",
    group: "socket",
    html: (u) =>
      `<iframe srcdoc="${at(`<script>try { new WebSocket(${js(ws(u("/ws")))}); } catch (e) {} fetch(${js(u("/paint", "f=1"))}).catch(() => {});</script>`)}"></iframe>`,
  },
  {
    name: "WebTransport (main frame, UDP)",
    cls: "B",
    group: "socket",
    raw: true,
    delay: 500,
    html: (_u, c) =>
      `<script>try { new WebTransport(${js(c.raw.replace("http:", "https:") + "/wt")}).ready.catch(() => {}); } catch (e) {}</script>`,
  },
  {
    name: "WebRTC STUN/TURN on the canary address",
    cls: "B",
    group: "socket",
    raw: true,
    delay: 800,
    html: (_u, c) => {
      const hp = c.raw.replace("http://", "");
      const config = {
        iceServers: [
          {
            urls: [`stun:${hp}`, `turn:${hp}?transport=tcp`, `turn:${hp}?transport=udp`],
            username: "u",
            credential: "c",
          },
        ],
      };
      return `<script>for (const make of [() => RTCPeerConnection, () => { const f = document.createElement("iframe"); document.body.appendChild(f); return f.contentWindow.RTCPeerConnection; }]) {
        try { const pc = new (make())(${js(config)}); pc.createDataChannel("x"); pc.createOffer().then((o) => pc.setLocalDescription(o)).catch(() => {}); } catch (e) {}
      }</script>`;
    },
  },

  // ── B: navigations (end the page) ──────────────────────────────────────────────────────────
  {
    name: "form GET",
    cls: "B",
    group: "navigation",
    navigates: true,
    html: (u) =>
      `<form action="${at(u())}" method="get"><input name="a" value="b"></form><script>${PREV}.submit();</script>`,
  },
  {
    name: "form POST",
    cls: "B",
    group: "navigation",
    navigates: true,
    html: (u) =>
      `<form action="${at(u())}" method="post"><input name="a" value="b"></form><script>${PREV}.submit();</script>`,
  },
  {
    name: "meta refresh",
    cls: "B",
    group: "navigation",
    navigates: true,
    html: (u) => `<meta http-equiv="refresh" content="0;url=${at(u())}">`,
  },
  {
    name: "location.href",
    cls: "B",
    group: "navigation",
    navigates: true,
    html: (u) => `<script>setTimeout(() => { location.href = ${js(u())}; }, 10);</script>`,
  },
  {
    name: "location.assign",
    cls: "B",
    group: "navigation",
    navigates: true,
    html: (u) => `<script>setTimeout(() => { location.assign(${js(u())}); }, 10);</script>`,
  },
  {
    name: "location.replace",
    cls: "B",
    group: "navigation",
    navigates: true,
    html: (u) => `<script>setTimeout(() => { location.replace(${js(u())}); }, 10);</script>`,
  },
  {
    name: "a click (same tab)",
    cls: "B",
    group: "navigation",
    navigates: true,
    html: (u) => `<a href="${at(u())}">go</a><script>${PREV}.click();</script>`,
  },
  {
    name: "Refresh response header",
    cls: "B",
    group: "navigation",
    navigates: true,
    servedOnly: true,
    html: () => `<p>refresh</p>`,
    headers: (u) => ({ refresh: `0;url=${u()}` }),
  },
  {
    name: "base href",
    cls: "B",
    group: "subresource",
    solo: true,
    html: (_u, c) =>
      `<base href="${at(c.canary)}/"><img src="paint.png?run=${c.run}&amp;v=base%20href">`,
  },
  {
    name: "form into a named iframe",
    cls: "B",
    group: "subresource",
    html: (u) =>
      `<iframe name="canaryform"></iframe><form target="canaryform" action="${at(u())}" method="post"><input name="a" value="b"></form><script>${PREV}.submit();</script>`,
  },

  // ── B: pop-ups and downloads ───────────────────────────────────────────────────────────────
  {
    name: "window.open",
    cls: "B",
    group: "popup",
    html: (u) => `<script>try { open(${js(u())}); } catch (e) {}</script>`,
  },
  {
    name: "window.open borrowed from a fresh iframe",
    cls: "B",
    group: "popup",
    html: (u) =>
      `<script>try { const f = document.createElement("iframe"); document.body.appendChild(f); f.contentWindow.open(${js(u())}); } catch (e) {}</script>`,
  },
  {
    name: "target=_blank click",
    cls: "B",
    group: "popup",
    html: (u) => `<a href="${at(u())}" target="_blank">x</a><script>${PREV}.click();</script>`,
  },
  {
    name: "form target=_blank",
    cls: "B",
    group: "popup",
    html: (u) =>
      `<form action="${at(u())}" target="_blank" method="post"></form><script>${PREV}.submit();</script>`,
  },
  // A cross-origin `download` is a navigation in Chromium (the attribute is ignored).
  {
    name: "download link",
    cls: "B",
    group: "popup",
    navigates: true,
    html: (u) => `<a href="${at(u())}" download="x.bin">x</a><script>${PREV}.click();</script>`,
  },

  // ── B: frames with other schemes ───────────────────────────────────────────────────────────
  {
    name: "file: iframe",
    cls: "B",
    group: "frame-scheme",
    html: () => `<iframe src="file:///etc/passwd"></iframe><img src="file:///etc/hostname">`,
  },
  {
    name: "chrome: iframe",
    cls: "B",
    group: "frame-scheme",
    html: () =>
      `<iframe src="chrome://version"></iframe><iframe src="chrome://net-internals"></iframe>`,
  },
  {
    name: "view-source: iframe",
    cls: "B",
    group: "frame-scheme",
    html: (u) => `<iframe src="view-source:${at(u())}"></iframe>`,
  },
  {
    name: "data: iframe",
    cls: "B",
    group: "frame-scheme",
    html: (u) =>
      `<iframe src="${at(`data:text/html,${encodeURIComponent(`<script>fetch(${js(u("/paint", "f=data"))}).catch(() => {}); try { new WebSocket(${js(ws(u("/ws", "f=data")))}); } catch (e) {}</script><img src="${at(u("/paint.png", "f=data"))}">`)}`)}"></iframe>`,
  },
  {
    name: "javascript: iframe",
    cls: "B",
    group: "frame-scheme",
    html: (u) =>
      `<iframe src="${at(`javascript:${encodeURIComponent(`fetch(${js(u())}).catch(() => {}); '<img src="${u("/paint.png", "f=js")}">'`)}`)}"></iframe>`,
  },
  {
    name: "blob: iframe",
    cls: "B",
    group: "frame-scheme",
    html: (u) =>
      `<iframe></iframe><script>${PREV}.src = ${blobUrl(`<script>fetch(${js(u())}).catch(() => {});<\/script><img src="${u("/paint.png", "f=blob")}">`, "text/html")};</script>`,
  },

  // ── B: redirects and address spellings inside a page ───────────────────────────────────────
  {
    name: "subresource and frame redirects (301, 302, 303, 307, 308)",
    cls: "B",
    group: "redirect",
    html: (u, c) =>
      [301, 302, 303, 307, 308]
        .map((code) => {
          const via = (to: string) =>
            `${c.fixtures}/redirect?code=${code}&run=${c.run}&to=${encodeURIComponent(to)}`;
          return `<img src="${at(via(u("/paint.png", `code=${code}`)))}"><iframe src="${at(via(u("/paint", `code=${code}&f=1`)))}"></iframe><script>fetch(${js(via(u("/paint", `code=${code}&fetch=1`)))}).catch(() => {});</script>`;
        })
        .join(""),
  },
  {
    name: "address spellings of 127.0.0.1",
    cls: "B",
    group: "encoding",
    html: (_u, c) =>
      canaryAddressSpellings(c)
        .map(([label, origin]) => {
          const t = tagger(c, `address spellings of 127.0.0.1`, origin);
          return `<img src="${at(t("/paint.png", `enc=${label}`))}"><iframe src="${at(t("/paint", `enc=${label}&f=1`))}"></iframe>`;
        })
        .join(""),
  },
  {
    name: "cross-site iframe (OOPIF) running attacks",
    cls: "B",
    group: "subresource",
    html: (u, c) =>
      `<iframe src="${at(`${c.fixtures.replace("127.0.0.1", "ads.localhost")}/controls-probe.html?run=${c.run}&t=${encodeURIComponent(u())}`)}"></iframe>`,
  },

  // ── R: realms — new browsing contexts by every API, shadow trees ───────────────────────────
  {
    name: "document.open pop-up: WebSocket and fetch from its realm",
    cls: "R",
    group: "realm",
    delay: 300,
    html: (u) =>
      `<script>try { const w = document.open("about:blank", "p1", ""); if (w) { try { const s = new w.WebSocket(${js(ws(u("/ws")))}); s.onmessage = (e) => { document.title = e.data; __leak(); }; } catch (e) {} ${readAndLeak(`w.fetch(${js(u("/paint", "f=1"))}).then((r) => r.text())`)} } } catch (e) {}</script>`,
  },
  {
    name: "document.open pop-up: WebRTC STUN from its realm",
    cls: "R",
    group: "realm",
    raw: true,
    delay: 800,
    html: (_u, c) =>
      `<script>try { const w = document.open("about:blank", "p2", ""); if (w) { const pc = new w.RTCPeerConnection({ iceServers: [{ urls: ${js(`stun:${c.raw.replace("http://", "")}`)} }] }); pc.createDataChannel("x"); pc.createOffer().then((o) => pc.setLocalDescription(o)).catch(() => {}); } } catch (e) {}</script>`,
  },
  {
    name: "document.open pop-up: speculation rules written into it",
    cls: "R",
    group: "realm",
    delay: 1500,
    html: (u) =>
      `<script>try { const w = document.open("about:blank", "p3", ""); if (w) w.document.write(${js(specRules({ prefetch: [{ source: "list", urls: [u()], eagerness: "immediate" }], prerender: [{ source: "list", urls: [u("/paint", "k=prerender")], eagerness: "immediate" }] }))}); } catch (e) {}</script>`,
  },
  {
    name: "document.open pop-up from a fresh iframe's document",
    cls: "R",
    group: "realm",
    delay: 300,
    html: (u) =>
      `<script>try { const f = document.createElement("iframe"); document.body.appendChild(f); const w = f.contentDocument.open("about:blank", "p4", ""); if (w) new w.WebSocket(${js(ws(u("/ws")))}); } catch (e) {}</script>`,
  },
  {
    name: "Document.prototype.open of a fresh iframe's realm, on the page's document",
    cls: "R",
    group: "realm",
    delay: 300,
    html: (u) =>
      `<script>try { const f = document.createElement("iframe"); document.body.appendChild(f); const w = f.contentWindow.Document.prototype.open.call(document, "about:blank", "p5", ""); if (w) new w.WebSocket(${js(ws(u("/ws")))}); } catch (e) {}</script>`,
  },
  {
    name: "form.submit() target=_blank to an allowed page that attacks",
    cls: "R",
    group: "realm",
    delay: 800,
    html: (u, c) =>
      `<form action="${at(`${c.fixtures}/controls-probe.html`)}" target="_blank" method="get"><input type="hidden" name="run" value="${at(c.run)}"><input type="hidden" name="t" value="${at(u())}"></form><script>${PREV}.submit();</script>`,
  },
  {
    name: "requestSubmit with a formtarget=_blank submitter",
    cls: "R",
    group: "realm",
    delay: 800,
    html: (u, c) =>
      `<form action="${at(`${c.fixtures}/controls-probe.html`)}" method="get"><input type="hidden" name="run" value="${at(c.run)}"><input type="hidden" name="t" value="${at(u())}"><button formtarget="_blank">go</button></form><script>{ const f = ${PREV}; f.requestSubmit(f.querySelector("button")); }</script>`,
  },
  {
    name: "detached a target=_blank: click() and dispatchEvent",
    cls: "R",
    group: "realm",
    delay: 800,
    html: (u, c) =>
      `<script>for (const fire of [(a) => a.click(), (a) => a.dispatchEvent(new MouseEvent("click"))]) { const a = document.createElement("a"); a.href = ${js(`${c.fixtures}/controls-probe.html?run=${c.run}&t=${encodeURIComponent(u())}`)}; a.target = "_blank"; fire(a); }</script>`,
  },
  {
    name: "named target opened by a link, then its handle from open()",
    cls: "R",
    group: "realm",
    delay: 800,
    html: (u, c) =>
      `<a href="${at(`${c.fixtures}/controls-probe.html?run=${c.run}&t=${encodeURIComponent(u())}`)}" target="named-r">x</a><script>${PREV}.click(); try { const w = open("", "named-r"); if (w) new w.WebSocket(${js(ws(u("/ws", "k=handle")))}); } catch (e) {}</script>`,
  },
  {
    name: "area target=_blank click",
    cls: "R",
    group: "realm",
    delay: 800,
    html: (u, c) =>
      `<img usemap="#m-r" alt="" width="20" height="20"><map name="m-r"><area shape="rect" coords="0,0,20,20" href="${at(`${c.fixtures}/controls-probe.html?run=${c.run}&t=${encodeURIComponent(u())}`)}" target="_blank"></map><script>document.querySelector('map[name="m-r"] area').click();</script>`,
  },
  {
    name: "frames nested three deep running attacks",
    cls: "R",
    group: "realm",
    delay: 600,
    html: (u) => {
      const attack = `<script>try { new WebSocket(${js(ws(u("/ws", "k=deep")))}); } catch (e) {} try { open(${js(u("/paint", "k=deep-open"))}); } catch (e) {} try { document.open(${js(u("/paint", "k=deep-doc-open"))}, "d", ""); } catch (e) {} fetch(${js(u("/paint", "k=deep-fetch"))}).catch(() => {});</script>`;
      const nest = (inner: string) => `<iframe srcdoc="${at(inner)}"></iframe>`;
      return nest(nest(nest(attack)));
    },
  },
  {
    name: "base target=_blank for every link",
    cls: "R",
    group: "realm",
    solo: true,
    delay: 800,
    html: (u, c) =>
      `<base target="_blank"><a href="${at(`${c.fixtures}/controls-probe.html?run=${c.run}&t=${encodeURIComponent(u())}`)}">x</a><script>${PREV}.click();</script>`,
  },
  {
    name: "target=_blank link inside a closed shadow root",
    cls: "R",
    group: "realm",
    delay: 800,
    html: (u, c) =>
      `<span></span><script>{ const root = ${PREV}.attachShadow({ mode: "closed" }); root.innerHTML = ${js(`<a href="${at(`${c.fixtures}/controls-probe.html?run=${c.run}&t=${encodeURIComponent(u())}`)}" target="_blank">x</a>`)}; root.querySelector("a").click(); }</script>`,
  },
  {
    name: "speculation rules in an open and a closed shadow root",
    cls: "R",
    group: "realm",
    delay: 1500,
    html: (u) =>
      `<span></span><span></span><script>{ const hosts = document.currentScript.parentElement.querySelectorAll("span"); ["open", "closed"].forEach((mode, i) => { const root = hosts[i].attachShadow({ mode }); const s = document.createElement("script"); s.type = "speculationrules"; s.textContent = ${js(JSON.stringify({ prefetch: [{ source: "list", urls: [u("/paint", "k=shadow")], eagerness: "immediate" }] }))}.replace("k=shadow", "k=" + mode); root.appendChild(s); }); }</script>`,
  },
  {
    name: "speculation rules in declarative shadow DOM (open)",
    cls: "R",
    group: "realm",
    delay: 1500,
    byName: true,
    // Served, the parser may yield between the host and its template (a loaded machine): the
    // guard marks the template in the document's bytes.
    html: (u) =>
      `<div><template shadowrootmode="open">${specRules({ prefetch: [{ source: "list", urls: [u("/paint", "k=dsd")], eagerness: "immediate" }], prerender: [{ source: "list", urls: [u("/paint", "k=dsd-prerender")], eagerness: "immediate" }] })}</template></div>`,
  },
  {
    // The host ends one parser task and its declarative root begins the next: the document's
    // observer saw the host with no shadow root yet, and sees nothing of the root's children.
    name: "speculation rules in declarative shadow DOM parsed after its host",
    cls: "R",
    group: "realm",
    delay: 1500,
    byName: true,
    servedOnly: true,
    html: (u) =>
      `<div>${SPLIT}<template shadowrootmode="open">${specRules({ prefetch: [{ source: "list", urls: [u("/paint", "k=dsd-split")], eagerness: "immediate" }], prerender: [{ source: "list", urls: [u("/paint", "k=dsd-split-prerender")], eagerness: "immediate" }] })}</template></div>`,
  },
  {
    // The same, with a closed root: no page script can ever reach it; only the marker the guard
    // writes into the document's bytes hands it to the hardening.
    name: "speculation rules in closed declarative shadow DOM parsed after its host",
    cls: "R",
    group: "realm",
    delay: 1500,
    byName: true,
    servedOnly: true,
    html: (u) =>
      `<div>${SPLIT}<template shadowrootmode="closed">${specRules({ prefetch: [{ source: "list", urls: [u("/paint", "k=dsd-split-closed")], eagerness: "immediate" }] })}</template></div>`,
  },
  {
    // The same split made by the parser itself: it waits for the script before it reads the
    // template. As user HTML (written by setContent) the marker stops it.
    name: "speculation rules in declarative shadow DOM after a parser-blocking script",
    cls: "R",
    group: "realm",
    delay: 1500,
    byName: true,
    html: (u, c) =>
      `<div><script src="${at(`${c.fixtures}/slow?ms=300&run=${c.run}`)}"></script><template shadowrootmode="open">${specRules({ prefetch: [{ source: "list", urls: [u("/paint", "k=dsd-blocked")], eagerness: "immediate" }] })}</template></div>`,
  },
  {
    name: "speculation rules in declarative shadow DOM from setHTMLUnsafe",
    cls: "R",
    group: "realm",
    delay: 1500,
    html: (u) =>
      `<div></div><script>try { ${PREV}.setHTMLUnsafe(${js(`<div><template shadowrootmode="open">${specRules({ prefetch: [{ source: "list", urls: [u("/paint", "k=set-html")], eagerness: "immediate" }] })}</template></div>`)}); } catch (e) {}</script>`,
  },
  {
    name: "speculation rules written by document.write",
    cls: "R",
    group: "realm",
    delay: 1500,
    html: (u) =>
      `<script>document.write(${js(specRules({ prefetch: [{ source: "list", urls: [u("/paint", "k=write")], eagerness: "immediate" }] }))});</script>`,
  },

  // ── A1: speculation rules ──────────────────────────────────────────────────────────────────
  {
    name: "speculationrules prefetch (list)",
    cls: "A",
    group: "speculation",
    delay: 1500,
    html: (u) => specRules({ prefetch: [{ source: "list", urls: [u()], eagerness: "immediate" }] }),
  },
  {
    name: "speculationrules prerender (list)",
    cls: "A",
    group: "speculation",
    delay: 1500,
    html: (u) =>
      specRules({ prerender: [{ source: "list", urls: [u()], eagerness: "immediate" }] }),
  },
  {
    name: "speculationrules prefetch (document rules)",
    cls: "A",
    group: "speculation",
    delay: 1500,
    html: (u, c) =>
      `<a href="${at(u())}">p</a>${specRules({ prefetch: [{ source: "document", where: { href_matches: `${c.canary}/*` }, eagerness: "immediate" }] })}`,
  },
  {
    name: "speculationrules prerender (document rules)",
    cls: "A",
    group: "speculation",
    delay: 1500,
    html: (u, c) =>
      `<a href="${at(u())}">p</a>${specRules({ prerender: [{ source: "document", where: { href_matches: `${c.canary}/*` }, eagerness: "immediate" }] })}`,
  },
  {
    name: "speculationrules inserted by a page script",
    cls: "A",
    group: "speculation",
    delay: 1500,
    html: (u) => `<script>${insertRulesJs(u)}</script>`,
  },
  {
    name: "link rel=prerender",
    cls: "A",
    group: "speculation",
    delay: 1500,
    html: (u) => `<link rel="prerender" href="${at(u())}">`,
  },
  {
    name: "Speculation-Rules response header",
    cls: "A",
    group: "speculation",
    servedOnly: true,
    delay: 1500,
    html: () => `<p>rules by header</p>`,
    headers: (_u, c) => ({
      "speculation-rules": `"${c.fixtures}/sec/rules.json?run=${c.run}&v=${encodeURIComponent("Speculation-Rules response header")}"`,
    }),
  },
  {
    name: "prerender then navigation to it (activation)",
    cls: "A",
    group: "speculation",
    navigates: true,
    delay: 2500,
    html: (u) =>
      `${specRules({ prerender: [{ source: "list", urls: [u()], eagerness: "immediate" }] })}<script>setTimeout(() => { location.href = ${js(u())}; }, 1000);</script>`,
  },

  // ── A2: WebSockets (and other sockets) from workers ────────────────────────────────────────
  ...workerSocketVectors(),

  // ── A3: requests the browser makes on the page's behalf ────────────────────────────────────
  {
    name: "FedCM navigator.credentials.get",
    cls: "A",
    group: "browser-fetch",
    servedOnly: false,
    delay: 800,
    html: (u) =>
      `<script>try { navigator.credentials.get({ identity: { providers: [{ configURL: ${js(u("/fedcm.json"))}, clientId: "x", nonce: "n" }] } }).catch(() => {}); } catch (e) {}</script>`,
  },
  {
    name: "FedCM getUserInfo / disconnect",
    cls: "A",
    group: "browser-fetch",
    delay: 800,
    html: (u) =>
      `<script>try { IdentityProvider.getUserInfo({ configURL: ${js(u("/fedcm.json", "m=info"))}, clientId: "x" }).catch(() => {}); } catch (e) {}
      try { IdentityCredential.disconnect({ configURL: ${js(u("/fedcm.json", "m=disconnect"))}, clientId: "x", accountHint: "a" }).catch(() => {}); } catch (e) {}</script>`,
  },
  {
    name: "Payment Request (canMakePayment, hasEnrolledInstrument, show)",
    cls: "A",
    group: "browser-fetch",
    delay: 800,
    html: (u) =>
      `<script>try { const make = () => new PaymentRequest([{ supportedMethods: ${js(u("/pay"))} }], { total: { label: "x", amount: { currency: "USD", value: "1" } } });
        make().canMakePayment().catch(() => {}); make().hasEnrolledInstrument().catch(() => {}); make().show().catch(() => {}); } catch (e) {}</script>`,
  },
  {
    name: "Protected Audience (joinAdInterestGroup, runAdAuction)",
    cls: "A",
    group: "browser-fetch",
    delay: 800,
    html: (u, c) =>
      `<script>try { navigator.joinAdInterestGroup({ owner: ${js(c.canary)}, name: "x", biddingLogicURL: ${js(u("/bid.js"))}, trustedBiddingSignalsURL: ${js(u("/signals"))}, ads: [{ renderURL: ${js(u("/ad"))} }] }, 30).catch(() => {}); } catch (e) {}
      try { navigator.runAdAuction({ seller: ${js(c.canary)}, decisionLogicURL: ${js(u("/decide.js"))}, interestGroupBuyers: [${js(c.canary)}] }).catch(() => {}); } catch (e) {}
      try { navigator.leaveAdInterestGroup({ owner: ${js(c.canary)}, name: "x" }).catch(() => {}); } catch (e) {}</script>`,
  },
  {
    name: "attributionsrc (img, a, fetch)",
    cls: "A",
    group: "browser-fetch",
    delay: 500,
    html: (u, c) =>
      `<img src="${at(`${c.fixtures}/pixel.png?run=${c.run}`)}" attributionsrc="${at(u("/register", "k=img"))}">
      <a href="#attr" attributionsrc="${at(u("/register", "k=a"))}">a</a><script>${PREV}.click();
      try { fetch(${js(`${c.fixtures}/pixel.png?run=${c.run}&k=attr`)}, { attributionReporting: { eventSourceEligible: true, triggerEligible: false } }).catch(() => {}); } catch (e) {}</script>`,
  },
  {
    name: "Reporting API, NEL, CSP reports (response headers)",
    cls: "A",
    group: "browser-fetch",
    servedOnly: true,
    delay: 800,
    html: (_u, c) => `<img src="${at(`${c.fixtures}/pixel.png?run=${c.run}&k=csp`)}">`,
    headers: (u) => ({
      "reporting-endpoints": `default="${u("/report", "k=endpoints")}"`,
      "report-to": JSON.stringify({
        group: "nel",
        max_age: 60,
        endpoints: [{ url: u("/report", "k=report-to") }],
      }),
      nel: JSON.stringify({
        report_to: "nel",
        max_age: 60,
        success_fraction: 1,
        failure_fraction: 1,
      }),
      "content-security-policy-report-only": `img-src 'none'; report-uri ${u("/report", "k=report-uri")}; report-to default`,
      "document-policy-report-only": "oversized-images=2.0;report-to=default",
    }),
  },
  {
    name: "link preconnect / dns-prefetch (TCP)",
    cls: "A",
    group: "browser-fetch",
    raw: true,
    delay: 500,
    html: (_u, c) =>
      `<link rel="preconnect" href="${at(c.raw)}"><link rel="preconnect" href="${at(c.raw.replace("http:", "https:"))}" crossorigin><link rel="dns-prefetch" href="${at(c.raw)}">`,
  },
  {
    name: "Link response header (preload, prefetch, preconnect)",
    cls: "A",
    group: "browser-fetch",
    servedOnly: true,
    raw: true,
    delay: 800,
    html: () => `<p>link header</p>`,
    headers: (u, c) => ({
      link: [
        `<${u("/paint.png", "h=preload")}>; rel=preload; as=image`,
        `<${u("/paint", "h=prefetch")}>; rel=prefetch`,
        `<${u("/paint.js", "h=modulepreload")}>; rel=modulepreload`,
        `<${c.raw}>; rel=preconnect`,
      ].join(", "),
    }),
  },
  {
    name: "103 Early Hints (preload, preconnect)",
    cls: "A",
    group: "browser-fetch",
    servedOnly: true,
    raw: true,
    delay: 500,
    html: () => `<p>early hints</p>`,
    earlyHints: (u, c) => [
      `<${u("/paint.png", "h=early")}>; rel=preload; as=image`,
      `<${c.raw}>; rel=preconnect`,
    ],
  },
  {
    name: "getInstalledRelatedApps (manifest related_applications)",
    cls: "A",
    group: "browser-fetch",
    delay: 800,
    html: (_u, c) =>
      `<link rel="manifest" href="${at(`${c.fixtures}/sec/manifest.json?run=${c.run}&v=${encodeURIComponent("getInstalledRelatedApps (manifest related_applications)")}`)}">
      <script>setTimeout(() => { try { navigator.getInstalledRelatedApps().catch(() => {}); } catch (e) {} }, 100);</script>`,
  },
  {
    name: "Private State Tokens",
    cls: "A",
    group: "browser-fetch",
    delay: 500,
    html: (u, c) =>
      `<script>try { document.hasPrivateToken(${js(c.canary)}).catch(() => {}); } catch (e) {}
      try { document.hasRedemptionRecord(${js(c.canary)}).catch(() => {}); } catch (e) {}
      try { fetch(${js(u("/pst", "op=issue"))}, { privateToken: { version: 1, operation: "token-request" } }).catch(() => {}); } catch (e) {}
      try { fetch(${js(`${c.fixtures}/pixel.png?run=${c.run}&k=pst`)}, { privateToken: { version: 1, operation: "token-redemption", refreshPolicy: "none", issuers: [${js(c.canary)}] } }).catch(() => {}); } catch (e) {}</script>`,
  },
  {
    name: "Shared Storage worklet",
    cls: "A",
    group: "browser-fetch",
    delay: 500,
    html: (u) =>
      `<script>try { sharedStorage.worklet.addModule(${js(u("/paint.js", "ss=add"))}).catch(() => {}); } catch (e) {}
      try { sharedStorage.createWorklet(${js(u("/paint.js", "ss=create"))}).catch(() => {}); } catch (e) {}
      try { fetch(${js(u("/paint", "ss=fetch"))}, { sharedStorageWritable: true }).catch(() => {}); } catch (e) {}</script>`,
  },
  {
    name: "fencedframe / portal",
    cls: "A",
    group: "browser-fetch",
    delay: 500,
    html: (u) =>
      `<portal src="${at(u("/paint", "el=portal"))}"></portal><script>try { const f = document.createElement("fencedframe"); f.config = new FencedFrameConfig(${js(u("/paint", "el=fenced"))}); document.body.appendChild(f); } catch (e) {}</script>`,
  },
  {
    name: "Topics and compression dictionaries",
    cls: "A",
    group: "browser-fetch",
    delay: 500,
    html: (u) =>
      `<link rel="compression-dictionary" href="${at(u("/dict"))}"><iframe browsingtopics src="${at(u("/paint", "topics=frame"))}"></iframe>
      <script>try { fetch(${js(u("/paint", "topics=fetch"))}, { browsingTopics: true }).catch(() => {}); } catch (e) {}</script>`,
  },
  {
    name: "Presentation API",
    cls: "A",
    group: "browser-fetch",
    delay: 500,
    html: (u) =>
      `<script>try { const p = new PresentationRequest([${js(u("/present"))}]); p.getAvailability().catch(() => {}); p.start().catch(() => {}); } catch (e) {}</script>`,
  },
];

function workerSocketVectors(): Vector[] {
  const page = (make: string) => `<script>try { ${make} } catch (e) {}</script>`;
  const onOpen = (w: string) => `${w}.onmessage = () => __leak();`;
  const sharedOnOpen = (w: string) => `${w}.port.onmessage = () => __leak(); ${w}.port.start();`;
  const v = (name: string, html: Vector["html"], raw = false): Vector => ({
    name,
    cls: "A",
    group: "worker-socket",
    delay: 800,
    raw,
    html,
  });
  return [
    v("Worker (blob:) WebSocket", (u) =>
      page(`const w = new Worker(${blobUrl(wsWorker(ws(u("/ws"))))}); ${onOpen("w")}`),
    ),
    v("Worker (data:) WebSocket", (u) =>
      page(
        `const w = new Worker(${js(`data:text/javascript,${encodeURIComponent(wsWorker(ws(u("/ws"))))}`)}); ${onOpen("w")}`,
      ),
    ),
    v("SharedWorker (blob:) WebSocket", (u) =>
      page(
        `const w = new SharedWorker(${blobUrl(wsWorker(ws(u("/ws")), true))}); ${sharedOnOpen("w")}`,
      ),
    ),
    v("SharedWorker (data:) WebSocket", (u) =>
      page(
        `const w = new SharedWorker(${js(`data:text/javascript,${encodeURIComponent(wsWorker(ws(u("/ws")), true))}`)}); ${sharedOnOpen("w")}`,
      ),
    ),
    v("module Worker WebSocket", (u) =>
      page(
        `const w = new Worker(${blobUrl(wsWorker(ws(u("/ws"))))}, { type: "module" }); ${onOpen("w")}`,
      ),
    ),
    v("nested Worker WebSocket", (u) => {
      const inner = wsWorker(ws(u("/ws")));
      const outer = `const i = new Worker(URL.createObjectURL(new Blob([${js(inner)}], { type: "text/javascript" }))); i.onmessage = (e) => postMessage(e.data);`;
      return page(`const w = new Worker(${blobUrl(outer)}); ${onOpen("w")}`);
    }),
    v("Worker WebSocketStream", (u) =>
      page(
        `new Worker(${blobUrl(`try { new WebSocketStream(${js(ws(u("/ws", "s=stream")))}).opened.then(() => postMessage("open"), () => {}); } catch (e) {}`)});`,
      ),
    ),
    v(
      "Worker inside a srcdoc iframe WebSocket",
      (u) =>
        `<iframe srcdoc="${at(`<script>try { new Worker(URL.createObjectURL(new Blob([${js(wsWorker(ws(u("/ws"))))}], { type: "text/javascript" }))); } catch (e) {}</script>`)}"></iframe>`,
    ),
    v(
      "Worker wss: handshake (TCP/TLS)",
      (_u, c) =>
        page(
          `new Worker(${blobUrl(`try { new WebSocket(${js(c.raw.replace("http:", "wss:") + "/wss")}); } catch (e) {}`)});`,
        ),
      true,
    ),
    v(
      "Worker ws: to the raw canary (TCP)",
      (_u, c) =>
        page(
          `new Worker(${blobUrl(`try { new WebSocket(${js(c.raw.replace("http:", "ws:") + "/ws")}); } catch (e) {}`)});`,
        ),
      true,
    ),
    v(
      "Worker WebTransport (UDP)",
      (_u, c) =>
        page(
          `new Worker(${blobUrl(`try { new WebTransport(${js(c.raw.replace("http:", "https:") + "/wt")}).ready.catch(() => {}); } catch (e) {}`)});`,
        ),
      true,
    ),
  ];
}

/** Page script that inserts prefetch and prerender rules for the canary (what `js` can do too). */
export function insertRulesJs(u: Tagger): string {
  const rules = {
    prefetch: [{ source: "list", urls: [u("/paint", "k=prefetch")], eagerness: "immediate" }],
    prerender: [{ source: "list", urls: [u("/paint", "k=prerender")], eagerness: "immediate" }],
  };
  return `(() => { const s = document.createElement("script"); s.type = "speculationrules"; s.textContent = ${js(JSON.stringify(rules))}; document.head.appendChild(s); })();`;
}

/** The canary origin in every spelling of 127.0.0.1 (plus [::1] when the canary listens there). */
export function canaryAddressSpellings(c: Ctx): Array<[string, string]> {
  const port = new URL(c.canary).port;
  return [
    ["decimal", `http://2130706433:${port}`],
    ["octal", `http://0177.0.0.1:${port}`],
    ["hex", `http://0x7f000001:${port}`],
    ["hex-dotted", `http://0x7f.0x0.0x0.0x1:${port}`],
    ["short", `http://127.1:${port}`],
    ["v4mapped", `http://[::ffff:127.0.0.1]:${port}`],
    ["v6loopback", `http://[::1]:${port}`],
    ["localhost", `http://localhost:${port}`],
    ["sub.localhost", `http://canary.localhost:${port}`],
    ["trailing-dot", `http://127.0.0.1.:${port}`],
  ];
}

/** The leak marker every security page defines before any vector runs. */
const PRELUDE = `<script>window.__leak = function () {
  var d = document.createElement("div");
  d.style.cssText = "display:inline-block;width:40px;height:40px;background:#ff00ff;color:#ff00ff";
  d.textContent = "${CANARY_TEXT}";
  (document.body || document.documentElement).appendChild(d);
};</script>`;

const STYLE = `<style>html,body{margin:0;background:#fff;font:8px sans-serif;color:#000}
.vec{display:inline-block;width:24px;height:24px;overflow:hidden;vertical-align:top}
.vec iframe,.vec img,.vec object,.vec embed,.vec video,.vec svg,.vec fencedframe,.vec portal{width:20px;height:20px;border:0}</style>`;

export function vectorByName(name: string): Vector {
  const v = VECTORS.find((x) => x.name === name);
  if (!v) throw new Error(`no such vector: ${name}`);
  return v;
}

/** Vectors that can share one page: they neither end it nor change it as a whole. */
export const COMBINABLE: readonly Vector[] = VECTORS.filter(
  (v) => !v.navigates && !v.solo && !v.byName,
);

/** A whole document running `vectors` (markup only; headers are the server's business). */
export function securityPage(vectors: readonly Vector[], c: Ctx, title = "security"): string {
  const body = vectors
    .map((v) => `<div class="vec" data-v="${at(v.name)}">${v.html(tagger(c, v.name), c)}</div>`)
    .join("\n");
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${STYLE}${PRELUDE}</head><body>\n${body}\n</body></html>`;
}

/** Response headers for a page of `vectors` (merged; `link` values joined). */
export function securityHeaders(vectors: readonly Vector[], c: Ctx): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of vectors) {
    for (const [k, value] of Object.entries(v.headers?.(tagger(c, v.name), c) ?? {})) {
      out[k] = out[k] && k === "link" ? `${out[k]}, ${value}` : value;
    }
  }
  return out;
}

export function securityEarlyHints(vectors: readonly Vector[], c: Ctx): string[] {
  return vectors.flatMap((v) => v.earlyHints?.(tagger(c, v.name), c) ?? []);
}
