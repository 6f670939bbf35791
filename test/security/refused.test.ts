/**
 * Class B of the attack suite: vectors that were already refused and must stay so — every
 * subresource kind, script requests, workers' Fetch traffic, sockets from the page, navigations,
 * pop-ups, frames with other schemes, redirects of every code, every spelling of 127.0.0.1 —
 * as a target page and as user HTML, through the sync route. Plus the same spellings, redirect
 * codes and schemes as the capture TARGET. The canary (not allowlisted) must never be reached.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { CANARY, FIXTURES, fixtureLog, runId } from "../helpers/http";
import { expectCanaryUntouched, securityCtx } from "../helpers/security";
import { describeVectors, SMALL } from "./run";
import { canaryAddressSpellings, VECTORS } from "./vectors";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

describeVectors(
  "refused (class B)",
  () => cap,
  VECTORS.filter((v) => v.cls === "B"),
  6,
);

describe.concurrent("refused (class B) — as the capture target", () => {
  it("every spelling of the canary's address → 400 INVALID_URL, nothing fetched", async () => {
    const run = runId();
    for (const [label, origin] of canaryAddressSpellings(securityCtx(run))) {
      const { res, body } = await cap.json({
        ...SMALL,
        url: `${origin}/paint?run=${run}&v=target-${label}`,
      });
      expect(res.status, label).toBe(400);
      expect(body.error?.code, label).toBe("INVALID_URL");
    }
    await expectCanaryUntouched(run, "by a target spelling");
  });

  for (const code of [301, 302, 303, 307, 308]) {
    it(`a ${code} redirect from the fixture to the canary → 400 "Could not reach the target URL."`, async () => {
      const run = runId();
      const url = `${FIXTURES}/redirect?code=${code}&run=${run}&to=${encodeURIComponent(`${CANARY}/paint?run=${run}&v=redirect-${code}`)}`;
      const { res, body } = await cap.json({ ...SMALL, url });
      expect(res.status).toBe(400);
      expect(body.error?.message).toBe("Could not reach the target URL.");
      expect(body.data).toBeUndefined();
      expect((await fixtureLog(run)).map((r) => r.path)).toEqual(["/redirect"]);
      await expectCanaryUntouched(run, `by a ${code} redirect`);
    });
  }

  it("a redirect to every spelling of the canary's address → refused", async () => {
    const run = runId();
    for (const [label, origin] of canaryAddressSpellings(securityCtx(run))) {
      const url = `${FIXTURES}/redirect?run=${run}&to=${encodeURIComponent(`${origin}/paint?run=${run}&v=redirect-${label}`)}`;
      const { res, body } = await cap.json({ ...SMALL, url });
      expect(res.status, label).toBe(400);
      expect(body.error?.message, label).toBe("Could not reach the target URL.");
    }
    await expectCanaryUntouched(run, "by a redirect to a spelling");
  });

  it("file:, chrome:, view-source:, data:, javascript:, blob:, about: targets → 400, nothing fetched", async () => {
    const run = runId();
    const canary = `${CANARY}/paint?run=${run}&v=scheme-target`;
    const targets = [
      "file:///etc/passwd",
      "file://localhost/etc/passwd",
      "chrome://version",
      "chrome://settings",
      "devtools://devtools/bundled/inspector.html",
      `view-source:${canary}`,
      `view-source:${FIXTURES}/small.html`,
      `data:text/html,<script>fetch(${JSON.stringify(canary)})</script>`,
      `javascript:fetch(${JSON.stringify(canary)})`,
      `blob:${FIXTURES}/00000000-0000-0000-0000-000000000000`,
      "about:blank",
      `filesystem:${FIXTURES}/temporary/x`,
      `ws://127.0.0.1:${new URL(CANARY).port}/ws?run=${run}`,
      `ftp://127.0.0.1:${new URL(CANARY).port}/?run=${run}`,
    ];
    for (const url of targets) {
      const { res, body } = await cap.json({ ...SMALL, url });
      expect(res.status, url).toBe(400);
      expect(["INVALID_URL", "VALIDATION_ERROR"], `${url}: ${body.error?.code}`).toContain(
        body.error?.code,
      );
    }
    await expectCanaryUntouched(run, "by a scheme target");
  });
});
