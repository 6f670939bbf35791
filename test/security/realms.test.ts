/**
 * Class R: every way a page gets a new realm or browsing context (docs/SECURITY.md, "Realm
 * inventory"), each vector through the canary as a target page and as user HTML. Plus what a
 * vector page cannot express: URL credentials answering another origin's 401, customer cookies
 * on a pop-up's navigation, rebinding read through a pop-up, and the fail-closed rule for a
 * browsing context nobody listed (a page created in the capture's context behind its back).
 */
import type { Browser } from "@cloudflare/puppeteer";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { BrowserHost } from "../../src/capture/host/browser-host";
import { Capturer, smallSpec } from "../helpers/capture";
import { CANARY, FIXTURES, FIXTURES_ALT, fixtureLog, runId } from "../helpers/http";
import { expectCanaryUntouched, expectNoCanaryContent, securityCtx } from "../helpers/security";
import { describeVectors, SMALL } from "./run";
import { tagger, VECTORS } from "./vectors";

const RAW = 8;
let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

describeVectors(
  "realms (class R)",
  () => cap,
  VECTORS.filter((v) => v.cls === "R"),
  RAW,
);

describe.concurrent("realms (class R) — secrets and rebinding across browsing contexts", () => {
  it("URL credentials answer the target's 401 only, never another origin's", async () => {
    const run = runId();
    const sub = `${FIXTURES_ALT}/basic-auth?run=${run}&k=third-party`;
    const target = new URL(`${FIXTURES}/basic-auth?run=${run}&sub=${encodeURIComponent(sub)}`);
    target.username = "user";
    target.password = "pa%20ss";
    const { res } = await cap.post({ ...SMALL, url: target.href, delay: 300 });
    expect(res.status).toBe(200);
    const expected = `Basic ${btoa("user:pa ss")}`;
    const own = await fixtureLog(run);
    expect(own.map((r) => r.headers.authorization)).toEqual([expected]);
    const third = await fixtureLog(run, FIXTURES_ALT);
    expect(third.length).toBeGreaterThan(0); // the image and the frame were asked for…
    expect(third.map((r) => r.headers.authorization ?? null)).toEqual(third.map(() => null)); // …with no credentials
  });

  it("pop-ups from actions clicks never open: a target=_blank link, open() and document.open()", async () => {
    const run = runId();
    const u = tagger(securityCtx(run, RAW), "actions pop-up");
    const probe = `${FIXTURES}/controls-probe.html?run=${run}&t=${encodeURIComponent(u())}`;
    const html = `<!doctype html><body style="margin:0"><a id="a" href="${probe}&k=a" target="_blank" style="display:block;height:40px">a</a>
      <button id="b" style="height:40px">b</button><button id="c" style="height:40px">c</button>
      <script>document.getElementById("b").onclick = () => window.open(${JSON.stringify(`${probe}&k=b`)}, "_blank");
      document.getElementById("c").onclick = () => window.document.open(${JSON.stringify(`${probe}&k=c`)}, "c", "");</script></body>`;
    const { res, bytes } = await cap.post({
      ...SMALL,
      html,
      actions: [{ click: "#a" }, { click: "#b" }, { click: "#c" }],
      delay: 800,
    });
    expect(res.status, new TextDecoder().decode(bytes.slice(0, 300))).toBe(200);
    expect(await fixtureLog(run), "the allowed page never loaded in a pop-up").toEqual([]);
    await expectCanaryUntouched(run, "by pop-ups from actions clicks");
  });

  it("customer cookies reach no other origin through a pop-up's navigation", async () => {
    const run = runId();
    const other = `${FIXTURES_ALT}/small.html?run=${run}&k=popup`;
    const html = `<!doctype html><body><script>try { document.open(${JSON.stringify(other)}, "n", ""); } catch (e) {}
      try { open(${JSON.stringify(other + "&w=1")}, "m"); } catch (e) {}</script></body>`;
    await fetch(`${FIXTURES}/__page`, { method: "POST", body: JSON.stringify({ run, html }) });
    const page = `${FIXTURES}/watched?run=${run}`;
    const { res } = await cap.post({
      ...SMALL,
      url: page,
      cookies: [{ name: "sid", value: `secret-${run}` }],
      delay: 500,
    });
    expect([200, 400]).toContain(res.status);
    const own = await fixtureLog(run);
    expect(own[0]?.headers.cookie).toBe(`sid=secret-${run}`);
    const leaked = (await fixtureLog(run, FIXTURES_ALT)).filter((r) =>
      (r.headers.cookie ?? "").includes("secret"),
    );
    expect(leaked).toEqual([]);
  });

  it("a rebinding name fetched through a pop-up's realm is never read or rendered", async () => {
    const run = runId();
    const port = new URL(CANARY).port;
    const u = tagger(
      securityCtx(run, RAW),
      "rebind via pop-up",
      `http://public.rebind.example.com:${port}`,
    );
    const html = `<!doctype html><body style="margin:0;background:#fff"><script>window.__leak = () => { document.body.style.background = "#ff00ff"; document.body.textContent = "CANARY-CONTENT"; };
      try { const w = document.open("about:blank", "r", ""); if (w) w.fetch(${JSON.stringify(u())}).then((r) => r.text()).then((t) => { if (t.includes("CANARY")) __leak(); }).catch(() => {}); } catch (e) {}</script></body>`;
    const { res, bytes } = await cap.post({ ...SMALL, html, delay: 600 });
    expect([200, 400]).toContain(res.status);
    if (res.status === 200) expectNoCanaryContent(bytes, "rebinding via pop-up");
    await expectCanaryUntouched(run, "by a pop-up's rebinding fetch");
  });
});

describe("realms (class R) — fail closed", () => {
  it("a page opened in the capture's context by no listed API taints the capture (400) and is closed", async () => {
    const run = runId();
    const host = env.BROWSER_HOST.get(env.BROWSER_HOST.idFromName(`t-stray-${run}`));
    // Warm the host, then start a capture that stays in flight on a slow page.
    const warm = await host.capture(smallSpec(), "acct-stray");
    expect(warm.ok).toBe(true);
    const slow = smallSpec(`${FIXTURES}/slow?ms=6000&run=${run}`, { timeout: 20 });
    const outcome = host.capture(slow, "acct-stray");
    const opened = await runInDurableObject(host, async (instance: BrowserHost) => {
      const browser = (instance as unknown as { warm: { browser: Browser } | null }).warm?.browser;
      if (!browser) throw new Error("no warm browser");
      const session = await browser.target().createCDPSession();
      // The capture's page, once it is loading the slow target (the response takes 6 s).
      let context: string | undefined;
      for (let i = 0; i < 100 && context === undefined; i++) {
        const { targetInfos } = await session.send("Target.getTargets");
        context = targetInfos.find(
          (t) => t.type === "page" && t.url.includes(run),
        )?.browserContextId;
        if (context === undefined) await new Promise((r) => setTimeout(r, 50));
      }
      if (context === undefined) throw new Error("the capture's page never started loading");
      const { targetId } = await session.send("Target.createTarget", {
        url: "about:blank",
        browserContextId: context,
      });
      let alive = true;
      for (let i = 0; i < 50 && alive; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const { targetInfos } = await session.send("Target.getTargets");
        alive = targetInfos.some((t) => t.targetId === targetId);
      }
      await session.detach();
      return { alive };
    });
    expect(opened.alive, "the stray page is closed").toBe(false);
    const result = await outcome;
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.failure.message).toBe("Could not reach the target URL.");
  });
});
