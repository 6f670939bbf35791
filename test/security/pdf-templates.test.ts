/**
 * pdfHeader / pdfFooter (issue 19): customer HTML printed by Chromium on every page. The schema
 * refuses anything that names a URL other than data:; a template that slips a URL past it in
 * some other CSS form still reaches nothing: the canary stays untouched.
 */
import { beforeAll, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { CANARY, runId } from "../helpers/http";
import { expectCanaryUntouched } from "../helpers/security";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

it("templates naming the canary are refused, and CSS forms the schema lets through load nothing", async () => {
  const run = runId();
  const u = (p: string) => `${CANARY}/${p}?run=${run}`;
  for (const t of [
    `<img src="${u("img")}">`,
    `<link rel="stylesheet" href="${u("css")}">`,
    `<div style="background:url(${u("bg")})">x</div>`,
  ]) {
    const { res } = await cap.post({ html: "<p>doc</p>", format: "pdf", pdfHeader: t });
    expect(res.status).toBe(400);
  }
  for (const t of [
    `<div style="width:50px;height:20px;background-image:image-set('${u("set")}' 1x)">a</div>`,
    `<style>div{background-image:-webkit-image-set("${u("wset")}" 1x)}</style><div style="height:20px">b</div>`,
    `<style>@font-face{font-family:x;src:local(x)}</style><span style="font-family:x">{{page}} ${CANARY}</span>`,
  ]) {
    const { res } = await cap.post({
      html: "<p>doc</p>",
      format: "pdf",
      waitUntil: "load",
      pdfHeader: t,
      pdfFooter: t,
    });
    expect([200, 400]).toContain(res.status);
  }
  await expectCanaryUntouched(run, "by a PDF template");
});
