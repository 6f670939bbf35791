/**
 * The URL guard inside the browser: user HTML and fixture pages try every way a page can make
 * a request; the canary server (a loopback origin that is NOT allowlisted) must never be hit.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Capturer, SMALL_CAPTURE } from "../helpers/capture";
import { CANARY, canaryLog, FIXTURES, FIXTURES_BY_NAME, fixtureLog, runId } from "../helpers/http";
import { decodeImage } from "../helpers/images";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

const settle = (ms = 400) => new Promise((r) => setTimeout(r, ms));
const AD_ORIGIN = FIXTURES.replace("127.0.0.1", "ads.localhost");

/** Each attack gets `T` = a canary URL tagged with the test's run id. */
const ATTACKS: Record<string, (t: string, run: string) => string> = {
  img: (t) => `<img src="${t}">`,
  iframe: (t) => `<iframe src="${t}"></iframe>`,
  "css background": (t) => `<div style="width:10px;height:10px;background:url('${t}')"></div>`,
  "css @import": (t) => `<style>@import url("${t}");</style>`,
  "link prefetch": (t) =>
    `<link rel="prefetch" href="${t}"><link rel="preload" as="image" href="${t}&p">`,
  fetch: (t) => `<script>fetch(${JSON.stringify(t)}).catch(() => {});</script>`,
  xhr: (t) =>
    `<script>const x = new XMLHttpRequest(); x.open("GET", ${JSON.stringify(t)}); x.send();</script>`,
  beacon: (t) => `<script>navigator.sendBeacon(${JSON.stringify(t)}, "x");</script>`,
  eventsource: (t) => `<script>try { new EventSource(${JSON.stringify(t)}); } catch {}</script>`,
  "dedicated worker": (t) =>
    `<script>try { const src = "fetch(" + ${JSON.stringify(JSON.stringify(t))} + ").catch(()=>{}); const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(JSON.stringify(t + "&xhr"))}); x.send();";
      new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" }))); } catch {}</script>`,
  "shared worker": (t) =>
    `<script>try { const src = "fetch(" + ${JSON.stringify(JSON.stringify(t))} + ").catch(()=>{})";
      new SharedWorker(URL.createObjectURL(new Blob([src], { type: "text/javascript" }))); } catch {}</script>`,
  "worker importScripts": (t) =>
    `<script>try { new Worker(URL.createObjectURL(new Blob(["importScripts(" + ${JSON.stringify(JSON.stringify(t))} + ")"], { type: "text/javascript" }))); } catch {}</script>`,
  websocket: (t) =>
    `<script>try { new WebSocket(${JSON.stringify(t.replace("http:", "ws:"))}); } catch {}</script>`,
  "window.open": (t) => `<script>try { window.open(${JSON.stringify(t)}); } catch {}</script>`,
  "target=_blank click": (t) =>
    `<a id="a" href="${t}" target="_blank">x</a><script>document.getElementById("a").click();</script>`,
  "form target=_blank": (t) =>
    `<form id="f" action="${t}" target="_blank" method="post"></form><script>document.getElementById("f").submit();</script>`,
  "meta refresh": (t) => `<meta http-equiv="refresh" content="0;url=${t}">`,
  "location assign": (t) =>
    `<script>setTimeout(() => { location.href = ${JSON.stringify(t)}; }, 10);</script>`,
  "fresh about:blank iframe borrowing its WebSocket": (t) =>
    `<script>const f = document.createElement("iframe"); document.body.appendChild(f);
      try { new f.contentWindow.WebSocket(${JSON.stringify(t.replace("http:", "ws:"))}); } catch {}</script>`,
  "srcdoc iframe": (t) =>
    `<iframe srcdoc="<script>try { new WebSocket('${t.replace("http:", "ws:")}'); } catch {} fetch('${t}&f').catch(() => {});</script>"></iframe>`,
  "download link": (t) =>
    `<a id="d" href="${t}" download="x.bin">x</a><script>document.getElementById("d").click();</script>`,
  "cross-site iframe (OOPIF) running attacks": (t, run) =>
    `<iframe src="${AD_ORIGIN}/controls-probe.html?run=${run}&t=${encodeURIComponent(t)}"></iframe>`,
};

describe("in-browser guard: nothing reaches a non-allowlisted origin", () => {
  for (const [name, make] of Object.entries(ATTACKS)) {
    it(name, async () => {
      const run = runId();
      const target = `${CANARY}/hit?run=${run}`;
      const html = `<!doctype html><body style="margin:0;background:#fff">${make(target, run)}</body>`;
      const { res } = await cap.post({
        html,
        width: 320,
        height: 240,
        deviceScaleFactor: 1,
        waitUntil: "load",
        blockAds: false,
        timeout: 10,
      });
      expect([200, 400, 408]).toContain(res.status);
      await settle();
      expect(await canaryLog(run)).toEqual([]);
    });
  }

  it("a redirect from an allowed page to a private address fails the capture and fetches nothing", async () => {
    const run = runId();
    const url = `${FIXTURES}/redirect?run=${run}&to=${encodeURIComponent(`${CANARY}/hit?run=${run}`)}`;
    const { res, body } = await cap.json({ url, waitUntil: "load", blockAds: false });
    expect(res.status).toBe(400);
    expect(body.error?.message).toBe("Could not reach the target URL.");
    expect(body.data).toBeUndefined();
    expect((await fixtureLog(run)).map((r) => r.path)).toEqual(["/redirect"]);
    await settle();
    expect(await canaryLog(run)).toEqual([]);
  });

  it("an HTML document is read up to 16 MiB (to mark its shadow roots); past that it fails closed", async () => {
    // Under a name: documents of an allowlisted host:port (the fixtures' IP) are not read.
    const page = (kib: number, declared = false) =>
      `${FIXTURES_BY_NAME}/big-html?kib=${kib}&run=${runId()}${declared ? "&declared" : ""}`;
    const [chunked, declared, over, overDeclared] = await Promise.all([
      cap.post({ ...SMALL_CAPTURE, url: page(1024) }),
      cap.post({ ...SMALL_CAPTURE, url: page(1024, true) }),
      cap.json({ ...SMALL_CAPTURE, url: page(16 * 1024) }),
      cap.json({ ...SMALL_CAPTURE, url: page(16 * 1024, true) }),
    ]);
    for (const within of [chunked, declared]) {
      expect(within.res.status).toBe(200);
      expect(decodeImage(within.bytes).pixel(300, 220)).toEqual([0, 0, 255]);
    }
    for (const refused of [over, overDeclared]) {
      expect(refused.res.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.error?.message).toBe("Could not reach the target URL.");
    }
  });

  it("WebRTC and WebSocket constructors are unavailable to page scripts", async () => {
    const html = `<body style="margin:0"><script>
      let open = 0;
      for (const make of [() => new RTCPeerConnection(), () => new WebSocket("wss://example.com/")]) {
        try { make(); open++; } catch {}
      }
      document.body.style.background = open === 0 ? "#00ff00" : "#ff0000";
    </script></body>`;
    const { bytes } = await cap.post({
      html,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
      waitUntil: "load",
    });
    expect(decodeImage(bytes).pixel(5, 5)).toEqual([0, 255, 0]);
  });

  it("service workers cannot register, and their script is never fetched", async () => {
    const run = runId();
    const { bytes } = await cap.post({
      url: `${FIXTURES}/sw-page.html?run=${run}`,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
      waitUntil: "load",
      blockAds: false,
      delay: 200,
    });
    expect(decodeImage(bytes).pixel(5, 5)).toEqual([0, 255, 0]);
    expect((await fixtureLog(run)).map((r) => r.path)).not.toContain("/sw-canary.js");
  });

  it("isolation: a cookie set during one customer's capture is not sent in another's", async () => {
    const other = await Capturer.create("pro");
    const runA = runId();
    const runB = runId();
    await cap.post({
      url: `${FIXTURES}/set-cookie?value=tenant-a&run=${runA}`,
      waitUntil: "load",
      blockAds: false,
      width: 320,
      height: 240,
    });
    await other.post({
      url: `${FIXTURES}/echo?run=${runB}`,
      waitUntil: "load",
      blockAds: false,
      width: 320,
      height: 240,
    });
    await cap.post({
      url: `${FIXTURES}/echo?run=${runB}`,
      waitUntil: "load",
      blockAds: false,
      width: 320,
      height: 240,
    });
    const echoes = (await fixtureLog(runB)).filter((r) => r.path === "/echo");
    expect(echoes.length).toBe(2);
    for (const request of echoes) expect(request.headers.cookie).toBeUndefined();
  });

  it("user HTML cannot load file: or metadata URLs (they never resolve to content)", async () => {
    const html = `<body style="margin:0"><iframe id="f" src="file:///etc/passwd" style="width:300px;height:200px;border:0"></iframe>
      <img id="i" src="http://169.254.169.254/latest/meta-data/" onerror="document.title='blocked'"></body>`;
    const { res } = await cap.post({
      html,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
      waitUntil: "load",
      blockAds: false,
    });
    expect(res.status).toBe(200);
  });
});
