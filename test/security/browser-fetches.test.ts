/**
 * Class A3 (issue 13): requests the browser makes on the page's behalf, outside the page's own
 * network stack — FedCM, Payment Request manifests, Protected Audience, Attribution Reporting,
 * the Reporting API / NEL / CSP reports, preconnects (bare TCP: the raw canary), Link headers
 * and 103 Early Hints, related-app manifests, Private State Tokens, Shared Storage, fenced
 * frames, Topics, compression dictionaries, the Presentation API. Also with the user
 * activation the `js` parameter runs with (puppeteer evaluates with userGesture: true), which
 * unlocks PaymentRequest.show(), FedCM's active mode and PresentationRequest.start().
 */
import { beforeAll, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { FIXTURES, runId } from "../helpers/http";
import { expectCanaryUntouched, expectNoCanaryContent, securityCtx } from "../helpers/security";
import { describeVectors, SMALL } from "./run";
import { tagger, VECTORS } from "./vectors";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

describeVectors(
  "browser-initiated fetches (class A)",
  () => cap,
  VECTORS.filter((v) => v.group === "browser-fetch"),
  8,
);

it("browser-initiated fetches (class A) — with the `js` parameter's user activation", async () => {
  const run = runId();
  const u = tagger(securityCtx(run, 8), "js with user activation");
  const js = `
    const pay = () => new PaymentRequest([{ supportedMethods: ${JSON.stringify(u("/pay", "k=show"))} }], { total: { label: "x", amount: { currency: "USD", value: "1" } } });
    try { pay().show().catch(() => {}); } catch (e) {}
    try { navigator.credentials.get({ identity: { mode: "active", providers: [{ configURL: ${JSON.stringify(u("/fedcm.json", "k=active"))}, clientId: "x" }] } }).catch(() => {}); } catch (e) {}
    try { new PresentationRequest([${JSON.stringify(u("/present", "k=start"))}]).start().catch(() => {}); } catch (e) {}
    try { document.body.requestFullscreen().catch(() => {}); } catch (e) {}
    await new Promise((r) => setTimeout(r, 800));`;
  const { res, bytes } = await cap.post({
    ...SMALL,
    url: `${FIXTURES}/small.html?run=${run}`,
    js: `(async () => { ${js} })()`,
    delay: 500,
  });
  expect(res.status).toBe(200);
  expectNoCanaryContent(bytes);
  await expectCanaryUntouched(run, "by activated APIs");
});
