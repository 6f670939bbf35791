/** The BrowserHost pool: warm reuse, crash recovery, reconnect after eviction, idle close. */
import type { Browser, Page } from "@cloudflare/puppeteer";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { BrowserHost } from "../../src/capture/host/browser-host";
import type { CaptureSpec } from "../../src/capture/capture-spec";
import { smallSpec } from "../helpers/capture";
import { FAILURE } from "../../src/capture/failures";
import { SESSION_KEY } from "../../src/capture/host/browser-session";
import { FIXTURES, fixtureLog, runId } from "../helpers/http";
import { poll } from "../helpers/jobs";
import { decodeImage } from "../helpers/images";
import { TUNING } from "../../src/tuning";

function hostStub(name: string): DurableObjectStub<BrowserHost> {
  return env.BROWSER_HOST.get(env.BROWSER_HOST.idFromName(name));
}

async function captureOk(host: DurableObjectStub<BrowserHost>): Promise<void> {
  const outcome = await host.capture(smallSpec(), "acct-host-test");
  if (!outcome.ok) throw new Error(outcome.failure.message);
  const [shot] = outcome.result.outputs;
  if (!shot?.ok) throw new Error(shot?.failure.message ?? "no output");
  expect(decodeImage(shot.output.bytes).pixel(10, 10)).toEqual([255, 0, 0]);
}

/** A page whose response takes `ms`: a capture of it is in flight that long. */
function slowSpec(run: string, ms: number): CaptureSpec {
  return smallSpec(`${FIXTURES}/slow?ms=${ms}&run=${run}`, { timeout: 30 });
}

/** Closes the host's warm browser as a crash would (its connection drops). */
async function killBrowser(host: DurableObjectStub<BrowserHost>): Promise<void> {
  await runInDurableObject(host, async (instance: BrowserHost) => {
    await (instance as unknown as { warm: { browser: Browser } | null }).warm?.browser
      .close()
      .catch(() => {});
  });
}

/** Waits until the fixture server has seen `n` requests of `run` (the page is loading). */
const requested = (run: string, n: number) =>
  poll(
    () => fixtureLog(run),
    (log) => log.length >= n,
  );

/**
 * One fresh host for the tests whose browser is never killed, reset or closed: each finds it
 * launched exactly once (by whichever of them runs first) and leaves it so; each launch of a
 * browser costs seconds, so they share it rather than start one each.
 */
let warmHost: Promise<DurableObjectStub<BrowserHost>> | null = null;
/**
 * Contexts open in the host's browser (the default one not counted), once the spare the last
 * capture started opening is open.
 */
const openContexts = (host: DurableObjectStub<BrowserHost>) =>
  runInDurableObject(host, async (instance: BrowserHost) => {
    const warm = (
      instance as unknown as { warm: { browser: Browser; spare: { spare: unknown } } | null }
    ).warm;
    await warm?.spare.spare;
    return warm ? warm.browser.browserContexts().length - 1 : -1;
  });

/** Pages the host's browser keeps idle for their lanes, or for `lane` (src/capture/host/lane-pages.ts). */
const laneIdle = (instance: BrowserHost, lane?: string) =>
  (
    instance as unknown as { warm: { lanes: { idle: { lane: string }[] } } | null }
  ).warm?.lanes.idle.filter((k) => lane === undefined || k.lane === lane).length ?? -1;

/**
 * Until `host` keeps `n` pages idle for their lanes (or for `lane`): a page is offered back (and
 * frozen) before its capture's answer.
 */
const lanePagesKept = (host: DurableObjectStub<BrowserHost>, n: number, lane?: string) =>
  poll(
    () => runInDurableObject(host, (instance: BrowserHost) => laneIdle(instance, lane)),
    (idle) => idle === n,
  );

function sharedHost(): Promise<DurableObjectStub<BrowserHost>> {
  warmHost ??= (async () => {
    const host = hostStub(`t-warm-${runId()}`);
    await captureOk(host);
    return host;
  })();
  return warmHost;
}

describe("BrowserHost", () => {
  it("launches once and reuses the warm browser for every later capture", async () => {
    const host = await sharedHost(); // launched by its first capture
    expect((await host.getStats()).launches).toBe(1);
    const before = (await host.getStats()).captures;
    for (let i = 0; i < 5; i++) await captureOk(host);
    await Promise.all(Array.from({ length: 6 }, () => captureOk(host)));
    const stats = await host.getStats();
    expect(stats.launches).toBe(1);
    expect(stats.captures).toBe(before + 11);
    expect(stats.inFlight).toBe(0);
    expect(stats.connected).toBe(true);
  });

  it("relaunches after the browser dies and the next capture succeeds", async () => {
    const host = hostStub(`t-crash-${runId()}`);
    await captureOk(host);
    // Kill the browser's connection as a crash would.
    await runInDurableObject(host, async (instance: BrowserHost) => {
      await (instance as unknown as { warm: { browser: Browser } | null }).warm?.browser
        .close()
        .catch(() => {});
    });
    await captureOk(host);
    expect((await host.getStats()).launches).toBe(2);
  });

  it("a capture in flight when its browser dies is retried once on a fresh browser", async () => {
    const host = hostStub(`t-inflight-${runId()}`);
    await captureOk(host);
    const run = runId();
    const pending = host.capture(slowSpec(run, 1500), "acct-host-test");
    await requested(run, 1); // the page is loading on the first browser
    await killBrowser(host);
    const outcome = await pending;
    if (!outcome.ok) throw new Error(outcome.failure.message);
    const [shot] = outcome.result.outputs;
    if (!shot?.ok) throw new Error("no output");
    expect(decodeImage(shot.output.bytes).pixel(10, 10)).toEqual([0, 170, 0]); // the slow page
    expect((await fixtureLog(run)).length).toBe(2); // loaded again on the new browser
    const stats = await host.getStats();
    expect(stats.launches).toBe(2);
    expect(stats.inFlight).toBe(0);
  });

  it("a capture whose retry's browser dies too fails with the generic message; the slot is back", async () => {
    const host = hostStub(`t-inflight2-${runId()}`);
    await captureOk(host);
    const run = runId();
    const pending = host.capture(slowSpec(run, 1500), "acct-host-test");
    await requested(run, 1);
    await killBrowser(host);
    await requested(run, 2); // the retry, on the second browser
    await killBrowser(host);
    const outcome = await pending;
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failure.message).toBe(FAILURE.generic); // nothing of the crash leaks
    expect((await fixtureLog(run)).length).toBe(2); // retried once, not more
    expect((await host.getStats()).inFlight).toBe(0);
    await captureOk(host); // and the host captures again on a third browser
    expect((await host.getStats()).launches).toBe(3);
  });

  it("a fresh instance (after a reset) reconnects to the kept session instead of launching", async () => {
    const name = `t-reset-${runId()}`;
    await captureOk(hostStub(name));
    // Reset the object as an eviction would; its browser session lives on in the binding.
    await runInDurableObject(hostStub(name), (_instance, state) => state.abort("test reset")).catch(
      () => {},
    );
    const host = hostStub(name);
    await captureOk(host);
    const stats = await host.getStats();
    expect(stats.reconnects).toBe(1);
    expect(stats.launches).toBe(0);
  });

  it("a kept session the binding no longer lists is not connected to: a fresh launch", async () => {
    const host = hostStub(`t-stale-${runId()}`);
    // As after a `wrangler dev` restart with the object's storage kept: its browser is gone.
    await runInDurableObject(host, (_instance, state) =>
      state.storage.put(SESSION_KEY, "00000000-0000-4000-8000-000000000000"),
    );
    await captureOk(host);
    const stats = await host.getStats();
    expect(stats).toMatchObject({ staleSessions: 1, reconnects: 0, launches: 1 });
  });

  it("every capture gets a context opened ahead of it, and nothing of the one before", async () => {
    const host = await sharedHost();
    const url = `${FIXTURES}/boxes.html?run=${runId()}`;
    // The page paints itself green when it starts clean, blue when a capture before left state.
    const check =
      "const left = localStorage.getItem('left') !== null || document.cookie.includes('left=');" +
      "document.body.innerHTML = ''; document.documentElement.style.background = left ? '#00f' : '#0f0';";
    const leave = `${check} localStorage.setItem('left', '1'); document.cookie = 'left=1; max-age=3600';`;
    for (const js of [leave, check, leave, check]) {
      const outcome = await host.capture(smallSpec(url, { js }), "acct-host-test");
      if (!outcome.ok) throw new Error(outcome.failure.message);
      const [shot] = outcome.result.outputs;
      if (!shot?.ok) throw new Error("no output");
      expect(decodeImage(shot.output.bytes).pixel(10, 10)).toEqual([0, 255, 0]);
      // The capture's own context is closed; the next one is already open, waiting.
      expect(
        await poll(
          () => openContexts(host),
          (n) => n === 1,
        ),
      ).toBe(1);
    }
    expect((await host.getStats()).launches).toBe(1);
  });

  it("a lane's next capture runs in the page its last one left; never another lane's, never after a failure or its last use", async () => {
    const host = await sharedHost();
    const url = `${FIXTURES}/boxes.html?run=${runId()}`;
    // Green when the tab starts clean, blue when a capture before it left its sessionStorage.
    const check =
      "const left = sessionStorage.getItem('left') !== null;" +
      "document.body.innerHTML = ''; document.documentElement.style.background = left ? '#00f' : '#0f0';";
    const leave = `${check} sessionStorage.setItem('left', '1');`;
    // The first capture's page asks for a URL every 50 ms for as long as it runs.
    const tick = runId();
    const ticking = `${leave} setInterval(() => fetch('/boxes.html?run=${tick}'), 50);`;
    const lane = `crawl:acct-host-test:${runId()}`;
    const other = `crawl:acct-host-test:${runId()}`;
    const shoot = async (js: string, turn: { lane: string }) => {
      const outcome = await host.capture(smallSpec(url, { js }), "acct-host-test", turn);
      if (!outcome.ok) return outcome.failure.code;
      const [shot] = outcome.result.outputs;
      if (!shot?.ok) throw new Error("no output");
      const [r, g, b] = decodeImage(shot.output.bytes).pixel(10, 10);
      return r === 0 && g === 255 && b === 0 ? "clean" : b === 255 ? "reused" : "other";
    };
    const reused = async () => (await host.getStats()).lanePagesReused;
    const before = await reused();
    const kept = (n: number) => lanePagesKept(host, n);
    expect(await shoot(ticking, { lane })).toBe("clean");
    await kept(1);
    // Kept, it is frozen once it has waited: its timers stop (at most one tick was on its way).
    await new Promise((resolve) => setTimeout(resolve, TUNING.laneFreezeMs + 250));
    const asked = (await fixtureLog(tick)).length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await fixtureLog(tick)).length - asked).toBeLessThanOrEqual(1);
    expect(await shoot(check, { lane })).toBe("reused");
    await kept(1);
    // Another crawl never gets it.
    expect(await shoot(check, { lane: other })).toBe("clean");
    await kept(2);
    expect(await reused()).toBe(before + 1);
    // A capture that fails closes its page: the lane starts clean again.
    expect(await shoot(`${leave} throw new Error('no');`, { lane })).toBe("CAPTURE_FAILED");
    await kept(1);
    expect(await shoot(check, { lane })).toBe("clean");
    expect(await reused()).toBe(before + 2);
    // A page retires once it has served TUNING.lanePageUses captures (two here): its second
    // capture leaves a mark, and the lane's next capture starts clean in a page of its own.
    const uses = TUNING.lanePageUses;
    (TUNING as { lanePageUses: number }).lanePageUses = 2;
    try {
      await kept(1);
      expect(await shoot(leave, { lane })).toBe("clean");
      expect(await reused()).toBe(before + 3);
      expect(await shoot(check, { lane })).toBe("clean");
      expect(await reused()).toBe(before + 3);
    } finally {
      (TUNING as { lanePageUses: number }).lanePageUses = uses;
    }
  });

  it("a page that reads articles keeps the read scripts in its isolated world, out of the page's reach", async () => {
    // Sent once a page and run by Chromium in each new document, not sent with every read.
    const host = await sharedHost();
    const lane = `crawl:acct-host-test:${runId()}`;
    const base = smallSpec(`${FIXTURES}/extract-article.html?run=${runId()}`);
    const spec: CaptureSpec = { ...base, outputs: { ...base.outputs, article: true } };
    const outcome = await host.capture(spec, "acct-host-test", { lane });
    if (!outcome.ok) throw new Error(outcome.failure.code);
    expect(outcome.result.article?.kind).toBe("article");
    await lanePagesKept(host, 1, lane);
    const seen = await runInDurableObject(host, async (instance: BrowserHost) => {
      const idle = (
        instance as unknown as {
          warm: { lanes: { idle: { lane: string; blank: { page: Page } }[] } };
        }
      ).warm.lanes.idle;
      const page = idle.find((k) => k.lane === lane)?.blank.page;
      if (!page) throw new Error("no kept page");
      const frame = page.mainFrame() as unknown as {
        isolatedRealm(): { evaluate(expression: string): Promise<unknown> };
      };
      const kept = "[typeof EdgeshotReader, typeof EdgeshotContent]";
      return [await frame.isolatedRealm().evaluate(kept), await page.evaluate(kept)];
    });
    expect(seen).toEqual([
      ["object", "function"],
      ["undefined", "undefined"],
    ]);
  });

  it("a lane's captures at once share one context; what the guard refuses in one closes them all", async () => {
    const host = await sharedHost();
    const url = `${FIXTURES}/boxes.html?run=${runId()}`;
    // Blue when the context already holds the lane's cookie, green when it is a fresh one; red
    // when the page is hidden (a background tab, or a kept page once frozen): a lane's page must
    // render as a browser's front tab does.
    const check =
      "const shared = document.cookie.includes('lane=1');" +
      "document.body.innerHTML = ''; document.documentElement.style.background =" +
      " document.visibilityState !== 'visible' ? '#f00' : shared ? '#00f' : '#0f0';";
    const lane = `crawl:acct-host-test:${runId()}`;
    const turn = { lane, laneWidth: 2 };
    const shoot = async (js: string, page = url, on = turn) => {
      const outcome = await host.capture(
        smallSpec(page, { js, timeout: 20 }),
        "acct-host-test",
        on,
      );
      if (!outcome.ok) return outcome.failure.code;
      const [shot] = outcome.result.outputs;
      if (!shot?.ok) throw new Error("no output");
      const [r, g, b] = decodeImage(shot.output.bytes).pixel(10, 10);
      return r === 0 && g === 255 && b === 0 ? "fresh" : b === 255 ? "shared" : "other";
    };
    const reused = async () => (await host.getStats()).lanePagesReused;
    const before = await reused();
    // The lane's first capture opens its context with two pages: the other waits, blank.
    expect(await shoot(`${check} document.cookie = 'lane=1; path=/';`)).toBe("fresh");
    await lanePagesKept(host, 2, lane);
    // Left waiting, the used page is frozen (hidden): woken, it must be shown again.
    await new Promise((resolve) => setTimeout(resolve, TUNING.laneFreezeMs + 250));
    // Two at once: one in the page the first left, one in the page opened beside it — the same
    // context (its cookie), not a new one.
    expect(await Promise.all([shoot(check), shoot(check)])).toEqual(["shared", "shared"]);
    expect(await reused()).toBe(before + 1);
    await lanePagesKept(host, 2, lane);
    // Two loading at once (their responses take 6 s) are in one context; a page opened in it by
    // no API the guard prepares (as a pop-up would be) is closed, and both captures fail closed.
    // A new lane's first two captures, arriving together, open one context between them.
    const [runA, runB] = [runId(), runId()];
    const other = { lane: `crawl:acct-host-test:${runId()}`, laneWidth: 2 };
    const loading = [runA, runB].map((r) =>
      shoot(check, `${FIXTURES}/slow?ms=6000&run=${r}`, other),
    );
    const seen = await runInDurableObject(host, async (instance: BrowserHost) => {
      const browser = (instance as unknown as { warm: { browser: Browser } | null }).warm?.browser;
      if (!browser) throw new Error("no warm browser");
      const session = await browser.target().createCDPSession();
      const contextOf = async (r: string) => {
        for (let i = 0; i < 100; i++) {
          const { targetInfos } = await session.send("Target.getTargets");
          const found = targetInfos.find((t) => t.type === "page" && t.url.includes(r));
          if (found?.browserContextId) return found.browserContextId;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error("a capture's page never started loading");
      };
      const contexts = [await contextOf(runA), await contextOf(runB)];
      const { targetId } = await session.send("Target.createTarget", {
        url: "about:blank",
        browserContextId: contexts[0],
      });
      let alive = true;
      for (let i = 0; i < 50 && alive; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const { targetInfos } = await session.send("Target.getTargets");
        alive = targetInfos.some((t) => t.targetId === targetId);
      }
      await session.detach();
      return { contexts, alive };
    });
    expect(seen.contexts[0]).toBe(seen.contexts[1]);
    expect(seen.alive, "the stray page is closed").toBe(false);
    expect(await Promise.all(loading)).toEqual(["CAPTURE_FAILED", "CAPTURE_FAILED"]);
    // A capture that fails in time closes its page alone and retires its lane's context: the one
    // loading beside it finishes there, loaded once, and is not kept.
    const third = { lane: `crawl:acct-host-test:${runId()}`, laneWidth: 2 };
    const slowRun = runId();
    const [loaded, failed] = await Promise.all([
      shoot(check, `${FIXTURES}/slow?ms=3000&run=${slowRun}`, third),
      requested(slowRun, 1).then(() => shoot("throw new Error('no');", url, third)),
    ]);
    expect([loaded, failed]).toEqual(["fresh", "CAPTURE_FAILED"]);
    expect(await fixtureLog(slowRun)).toHaveLength(1);
    await lanePagesKept(host, 0, third.lane);
    // Neither of the tainted lane's pages is kept; the first lane's two are, untouched by others.
    await lanePagesKept(host, 0, other.lane);
    await lanePagesKept(host, 2, lane);
    expect(await shoot(check)).toBe("shared");
  });

  it("a lane's kept page caches as a tab does: a stylesheet is fetched once, not once a capture", async () => {
    const host = await sharedHost();
    const run = runId();
    const css = `${FIXTURES}/cacheable.css?run=${run}`;
    const url = `${FIXTURES}/watched?run=${run}`;
    await fetch(`${FIXTURES}/__page`, {
      method: "POST",
      body: JSON.stringify({ run, html: `<!doctype html><link rel="stylesheet" href="${css}">x` }),
    });
    const lane = `crawl:acct-host-test:${runId()}`;
    const fetched = async () =>
      (await fixtureLog(run)).filter((r) => r.path === "/cacheable.css").length;
    const kept = (n: number) => lanePagesKept(host, n);
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const outcome = await host.capture(smallSpec(url), "acct-host-test", { lane });
      expect(outcome.ok).toBe(true);
      await kept(1);
      counts.push(await fetched());
    }
    // The first capture's own page fetches it; the page kept from then on has it cached.
    expect(counts).toEqual([1, 1, 1]);
    // Outside the lane a capture's page has no cache: fetched again.
    expect((await host.capture(smallSpec(url), "acct-host-test")).ok).toBe(true);
    expect(await fetched()).toBe(2);
  });

  it("a context's window UI (the omnibox popup's WebUI pages) is frozen as it opens", async () => {
    const host = await sharedHost();
    await captureOk(host);
    // The spare opens after the capture took the last one, and the capture's context closes after
    // its answer: wait until the spare's is the only one (its window frozen as it opened).
    await poll(
      () => openContexts(host),
      (n) => n === 1,
    );
    const states = await runInDurableObject(host, async (instance: BrowserHost) => {
      const browser = (instance as unknown as { warm: { browser: Browser } | null }).warm?.browser;
      if (!browser) throw new Error("no warm browser");
      const session = await browser.target().createCDPSession();
      const connection = session.connection();
      if (!connection) throw new Error("no connection");
      /** "runs" when a 50 ms timer fires in the page within 3 s; "frozen" when it does not. */
      const liveness = async (targetId: string) => {
        const { sessionId } = await session.send("Target.attachToTarget", {
          targetId,
          flatten: true,
        });
        const ui = connection.session(sessionId);
        const timer = ui
          ?.send("Runtime.evaluate", {
            expression: "new Promise((r) => setTimeout(() => r('runs'), 50))",
            awaitPromise: true,
          })
          .then((r) => String(r.result.value));
        const state = await Promise.race([
          timer ?? Promise.resolve("no session"),
          new Promise<string>((r) => setTimeout(() => r("frozen"), 3000)),
        ]);
        await session.send("Target.detachFromTarget", { sessionId }).catch(() => {});
        return state;
      };
      try {
        const { targetInfos } = await session.send("Target.getTargets", {
          filter: [{ type: "browser_ui" }],
        });
        const incognito = new Set(browser.browserContexts().map((c) => c.id));
        const isCapture = (t: { browserContextId?: string }) =>
          t.browserContextId !== undefined && incognito.has(t.browserContextId);
        return {
          capture: await Promise.all(
            targetInfos.filter(isCapture).map((t) => liveness(t.targetId)),
          ),
          // The default context's window is left alone: proof that the check tells them apart.
          default: await Promise.all(
            targetInfos.filter((t) => !isCapture(t)).map((t) => liveness(t.targetId)),
          ),
        };
      } finally {
        await session.detach().catch(() => {});
      }
    });
    expect(states.capture.length).toBeGreaterThan(0);
    expect(states.capture.every((s) => s === "frozen")).toBe(true);
    expect(states.default.length).toBeGreaterThan(0);
    expect(states.default.every((s) => s === "runs")).toBe(true);
  });

  it("the alarm closes a browser that has been idle too long", async () => {
    const host = hostStub(`t-idle-${runId()}`);
    await captureOk(host);
    await runInDurableObject(host, (instance: BrowserHost) => {
      (instance as unknown as { lastUsed: number }).lastUsed = 0;
    });
    expect(await runDurableObjectAlarm(host)).toBe(true);
    expect((await host.getStats()).connected).toBe(false);
    await captureOk(host); // and it comes back on demand, on a new session
    expect((await host.getStats()).launches).toBe(2);
  });
});
