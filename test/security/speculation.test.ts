/**
 * Class A1 (issue 13): speculation rules. A page that declares prefetch or prerender of a
 * private URL — in a target page, user HTML, Markdown's raw HTML, the `js` parameter, or the
 * `Speculation-Rules` response header — or `<link rel=prerender>` must not make the browser
 * fetch it; prerender plus a navigation to the same URL (activation) must never put the
 * private page into the output. Canary hits carry `Sec-Purpose: prefetch` / `prefetch;prerender`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { FIXTURES, runId } from "../helpers/http";
import { expectCanaryUntouched, expectNoCanaryContent, securityCtx } from "../helpers/security";
import { describeVectors, SMALL } from "./run";
import { insertRulesJs, tagger, VECTORS } from "./vectors";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

describeVectors(
  "speculation rules (class A)",
  () => cap,
  VECTORS.filter((v) => v.group === "speculation"),
  6,
);

describe.concurrent("speculation rules (class A) — other sources", () => {
  it("rules inserted by the `js` parameter", async () => {
    const run = runId();
    const u = tagger(securityCtx(run), "js parameter");
    const { res, bytes } = await cap.post({
      ...SMALL,
      url: `${FIXTURES}/small.html?run=${run}`,
      js: insertRulesJs(u),
      delay: 1500,
    });
    expect(res.status).toBe(200);
    expectNoCanaryContent(bytes);
    await expectCanaryUntouched(run, "by rules from js");
  });

  it("rules in Markdown's raw HTML", async () => {
    const run = runId();
    const u = tagger(securityCtx(run), "markdown");
    const rules = {
      prefetch: [{ source: "list", urls: [u("/paint", "k=prefetch")], eagerness: "immediate" }],
      prerender: [{ source: "list", urls: [u("/paint", "k=prerender")], eagerness: "immediate" }],
    };
    const markdown = `# Notes\n\n<script type="speculationrules">${JSON.stringify(rules)}</script>\n\n<link rel="prerender" href="${u("/paint", "k=link")}">\n\nSome text.\n`;
    const { res, bytes } = await cap.post({ ...SMALL, markdown, delay: 1500 });
    expect(res.status).toBe(200);
    expectNoCanaryContent(bytes);
    await expectCanaryUntouched(run, "by rules from markdown");
  });

  it("prerender then activation from user HTML: no canary pixels, whatever the status", async () => {
    const run = runId();
    const u = tagger(securityCtx(run), "activation (html)");
    const html = `<!doctype html><body style="margin:0;background:#fff"><script type="speculationrules">${JSON.stringify({ prerender: [{ source: "list", urls: [u()], eagerness: "immediate" }] })}</script>
      <script>setTimeout(() => { location.href = ${JSON.stringify(u())}; }, 1000);</script></body>`;
    for (const format of ["png", "jpeg"] as const) {
      const { res, bytes } = await cap.post({ ...SMALL, html, delay: 2500, format });
      expect([200, 400]).toContain(res.status);
      if (res.status === 200) expectNoCanaryContent(bytes, format);
    }
    await expectCanaryUntouched(run, "by prerender activation (html)");
  });
});
