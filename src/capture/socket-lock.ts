/**
 * The socket lock: the constructors whose connections are not Fetch traffic, replaced in every
 * realm that can run customer script — frames (through ./hardening.ts) and workers (through the
 * target watcher, ./target-watcher.ts). JavaScript source strings, like ./page-scripts.ts.
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
  }
}`;

/**
 * Runs in every dedicated and shared worker before its script: first as an inline worker's
 * first lines (below), and by the target watcher (src/capture/target-watcher.ts pauses each new
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
