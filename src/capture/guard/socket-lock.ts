/**
 * The socket lock: the constructors whose connections are not Fetch traffic, replaced in every
 * realm that can run customer script — frames (through ./hardening.ts) and workers (through the
 * target watcher, ./target-watcher.ts). JavaScript source strings, like ../page/page-scripts.ts.
 */
/**
 * Constructors whose connections are not Fetch traffic (no interception layer sees a WebSocket or
 * WebTransport handshake, or ICE over UDP): replaced in every frame and every worker.
 */
export const SOCKET_APIS = [
  "WebSocket",
  "WebSocketStream",
  "WebTransport",
  "RTCPeerConnection",
  "webkitRTCPeerConnection",
  "RTCDataChannel",
];

/**
 * \`Worker\` replaced so that a worker whose script is inline (\`data:\` or \`blob:\`, read
 * synchronously) starts with \`prefix\` (an expression) as its first lines: for those, hardening
 * does not depend on the debugger attaching in time (under load the watcher lost that race about
 * once in a few hundred workers). Relative URLs cannot resolve against \`data:\`/\`blob:\` either
 * way, so the script behaves the same. Workers from http(s) URLs are left to the watcher.
 */
const wrapWorker = (prefix: string) => `{
  const Native = globalThis.Worker;
  if (typeof Native === "function" && !Native.__edgeshotWrapped) {
    const prefix = ${prefix};
    // Everything the replacement calls is taken now, before any page script runs: a page that
    // later redefines String.prototype.startsWith, XMLHttpRequest, atob or Blob must not be able
    // to make an inline worker start without the lock.
    const uncurry = (f) => Function.prototype.call.bind(f);
    const toString = String, construct = Reflect.construct, defineProperty = Object.defineProperty;
    const startsWith = uncurry(String.prototype.startsWith), indexOf = uncurry(String.prototype.indexOf);
    const slice = uncurry(String.prototype.slice), test = uncurry(RegExp.prototype.test);
    const decode = decodeURIComponent, encode = encodeURIComponent, fromBase64 = globalThis.atob;
    const Xhr = globalThis.XMLHttpRequest, BlobOf = globalThis.Blob, Url = globalThis.URL;
    const xhrOpen = Xhr && uncurry(Xhr.prototype.open), xhrSend = Xhr && uncurry(Xhr.prototype.send);
    const xhrText = Xhr && uncurry(Object.getOwnPropertyDescriptor(Xhr.prototype, "responseText").get);
    const objectUrl = Url && uncurry(Url.createObjectURL);
    const BASE64 = /;base64$/i;
    const inline = (url) => {
      const u = toString(url);
      try {
        if (startsWith(u, "data:")) {
          const comma = indexOf(u, ",");
          const meta = slice(u, 5, comma);
          const body = test(BASE64, meta) ? fromBase64(slice(u, comma + 1)) : decode(slice(u, comma + 1));
          return "data:text/javascript," + encode(prefix + body);
        }
        if (startsWith(u, "blob:") && Xhr && BlobOf && objectUrl) {
          const x = new Xhr();
          xhrOpen(x, "GET", u, false);
          xhrSend(x);
          return objectUrl(Url, new BlobOf([prefix + xhrText(x)], { type: "text/javascript" }));
        }
      } catch (e) {}
      return url;
    };
    const Wrapped = function Worker(url, options) {
      return construct(Native, [inline(url), options], new.target || Native);
    };
    Wrapped.prototype = Native.prototype;
    defineProperty(Wrapped, "__edgeshotWrapped", { value: true });
    defineProperty(globalThis, "Worker", { value: Wrapped, writable: true, configurable: true });
  }
}`;

/**
 * Runs in every dedicated and shared worker before its script: first as an inline worker's
 * first lines (below), and by the target watcher (src/capture/guard/target-watcher.ts pauses each new
 * worker, evaluates this, then resumes it). The socket APIs, as in frames: defined whether or not
 * they exist yet, and locked — a worker paused at start does not have its secure-context
 * interfaces (WebTransport) yet; Chromium installs them after this runs, and a non-configurable
 * property of ours is what makes that installation a no-op (measured). Then \`Worker\`, so that
 * an inline worker this worker starts begins with this same function: at every depth, a nested
 * worker is locked by its own first lines. (Its text comes from the function itself, read before
 * any of the worker's own script has run.) A full suite run on a loaded machine once had a nested
 * worker's WebSocket reach the canary when only the first level carried the lock.
 */
export const workerHardening = `(function edgeshotWorkerHardening() {
  if (globalThis.__edgeshotHardened) return;
  Object.defineProperty(globalThis, "__edgeshotHardened", { value: true, writable: false, configurable: false });
  const refuse = (name) => function () { throw new DOMException(name + " is disabled during capture.", "SecurityError"); };
  for (const name of ${JSON.stringify(SOCKET_APIS)}) {
    Object.defineProperty(globalThis, name, { value: refuse(name), writable: false, configurable: false });
  }
  ${wrapWorker(`"(" + edgeshotWorkerHardening.toString() + ")();\\n"`)}
})();`;

/** For frames (./hardening.ts): \`Worker\` replaced so that an inline worker starts hardened. */
export const workerWrap = wrapWorker(JSON.stringify(workerHardening + "\n"));
