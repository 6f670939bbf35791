/**
 * Class A2 (issue 13): WebSockets (and WebSocketStream, WebTransport, wss:) from workers —
 * dedicated and shared, blob: and data: scripts, module workers, nested workers, workers in a
 * srcdoc frame. The per-frame hardening covers window contexts only, and interception does not
 * see WebSocket handshakes: the canary logs handshakes (`upgrade: websocket`), the raw canary
 * counts TLS and QUIC attempts it cannot parse.
 */
import puppeteer from "@cloudflare/puppeteer";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { workerWrap } from "../../src/capture/guard/socket-lock";
import { Capturer } from "../helpers/capture";
import { FIXTURES, runId } from "../helpers/http";
import { describeVectors } from "./run";
import { VECTORS } from "./vectors";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

describeVectors(
  "sockets from workers (class A)",
  () => cap,
  VECTORS.filter((v) => v.group === "worker-socket"),
  7,
);

describe("sockets from workers — the lock carried by inline workers themselves", () => {
  // The target watcher hardens every worker it attaches to; an inline (blob:/data:) worker also
  // starts with the lock as its first lines, at every depth, so that a nested worker is locked
  // even when the watcher is late. Checked here with no watcher at all: a plain page running only
  // the frame's Worker replacement.
  it("a blob worker's own blob worker finds WebSocket refused, with no debugger attached, and page tampering does not undo it", async () => {
    const browser = await puppeteer.launch(env.BROWSER);
    try {
      const page = await browser.newPage();
      await page.goto(`${FIXTURES}/boxes.html?run=${runId()}`, { waitUntil: "load" });
      const inner = `let r; try { new WebSocket("ws://127.0.0.1:9/"); r = "opened"; } catch (e) { r = e.name + ": " + e.message; } postMessage(r);`;
      const outer = `const i = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(inner)}], { type: "text/javascript" }))); i.onmessage = (e) => postMessage(e.data);`;
      const result = await page.evaluate(`(async () => {
        ${workerWrap}
        const w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(outer)}], { type: "text/javascript" })));
        return await new Promise((resolve) => { w.onmessage = (e) => resolve(e.data); setTimeout(() => resolve("no answer"), 5000); });
      })()`);
      expect(result).toBe("SecurityError: WebSocket is disabled during capture.");

      // The replacement took what it calls when it was installed: a page that redefines those
      // afterwards still gets locked inline workers (blob: and data:).
      const tampered = await page.evaluate(`(async () => {
        const B = Blob, objectUrl = URL.createObjectURL.bind(URL);
        String.prototype.startsWith = () => false;
        String.prototype.indexOf = () => -1;
        String.prototype.slice = () => "";
        RegExp.prototype.test = () => false;
        globalThis.XMLHttpRequest = function () { throw new Error("no"); };
        globalThis.atob = () => "";
        globalThis.Blob = function () { throw new Error("no"); };
        URL.createObjectURL = () => "about:blank";
        Reflect.construct = (C) => new C("data:text/javascript,postMessage('unwrapped')");
        const run = (url) => new Promise((resolve) => {
          const w = new Worker(url);
          w.onmessage = (e) => resolve(e.data);
          setTimeout(() => resolve("no answer"), 5000);
        });
        const blob = objectUrl(new B([${JSON.stringify(inner)}], { type: "text/javascript" }));
        const data = "data:text/javascript;base64," + btoa(${JSON.stringify(inner)});
        return [await run(blob), await run(data)];
      })()`);
      expect(tampered).toEqual([
        "SecurityError: WebSocket is disabled during capture.",
        "SecurityError: WebSocket is disabled during capture.",
      ]);
    } finally {
      await browser.close();
    }
  });
});
