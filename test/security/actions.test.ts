/**
 * `actions` (issue 19): steps that make the page navigate or fetch — a link clicked, a form
 * submitted with Enter, a hover that loads an image — go through the same guard as every other
 * request of the page: the canary (not allowlisted) is never reached and the capture is refused.
 */
import { beforeAll, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { CANARY, FIXTURES, runId } from "../helpers/http";
import { expectCanaryUntouched } from "../helpers/security";
import { SMALL } from "./run";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

it("a click on a link to the canary never reaches it (html and url sources)", async () => {
  const run = runId();
  const html = `<!doctype html><a id="go" href="${CANARY}/click?run=${run}" style="display:block;height:100px">go</a>`;
  const { res } = await cap.post({ ...SMALL, html, actions: [{ click: "#go" }] });
  expect(res.status).toBe(400);
  await expectCanaryUntouched(run, "by a clicked link");

  const urlRun = runId();
  const target = `${FIXTURES}/sec/page?run=${urlRun}`;
  const { res: urlRes } = await cap.post({
    ...SMALL,
    url: target,
    js: `document.body.insertAdjacentHTML("beforeend", '<a id="go" href="${CANARY}/click?run=${urlRun}" style="display:block;height:100px">go</a>')`,
    actions: [{ click: "#go" }],
  });
  expect(urlRes.status).toBe(400);
  await expectCanaryUntouched(urlRun, "by a clicked link on a url target");
});

it("a form submitted with Enter, a hover-loaded image and a redirect after a click stay inside the guard", async () => {
  const run = runId();
  const html = `<!doctype html>
    <form action="${CANARY}/form" method="get"><input id="q" name="run" value="${run}"></form>
    <div id="h" style="width:100px;height:100px"></div>
    <style>#h:hover { background-image: url("${CANARY}/hover.png?run=${run}") }</style>
    <a id="r" href="${FIXTURES}/redirect?to=${encodeURIComponent(`${CANARY}/redir?run=${run}`)}">r</a>`;
  for (const actions of [
    [{ hover: "#h" }, { wait: 300 }],
    [{ type: { selector: "#q", text: "" } }, { press: "Enter" }],
    [{ click: "#r" }],
  ]) {
    const { res } = await cap.post({ ...SMALL, html, actions });
    expect([200, 400]).toContain(res.status);
  }
  await expectCanaryUntouched(run, "by actions");
});
