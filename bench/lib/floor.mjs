// The floor (bench/README.md, "The two systems"): puppeteer-core driving ONE Chromium with the
// service's binary and flags (bench/lib/chromium.mjs), a fresh browser context per capture. With
// --profile, the same capture plus the service's page-level steps.
import { checkPng } from "./stats.mjs";
import { fixtureUrl } from "./fixture-client.mjs";
import { sleep, state } from "./lifecycle.mjs";
import {
  FIELDS_SCENARIO,
  FLOOR_IDLE_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  VIEWPORT,
  checkSamePixels,
} from "../scenarios/catalog.mjs";
import { checkComplete, completePage } from "../scenarios/complete.mjs";

// The page scripts come from the service's sources (TypeScript with extension-less imports).
await import("./ts-register.mjs");
const { revealLazy, hardening, pageHeight } =
  await import("../../src/capture/page/page-scripts.ts");

/**
 * Launches the floor's Chromium (`plan`: floorLaunchPlan) and returns its launch time in ms. With
 * `proxy` (--cdp-rtt, bench/lib/cdp-rtt.mjs), puppeteer-core then drops the launch's connection
 * and connects again through a proxy listener (`state.floorDirectWs` keeps the direct endpoint).
 */
export async function launchFloor(plan, proxy = null) {
  const { default: puppeteer } = await import("puppeteer-core");
  const t0 = performance.now();
  state.browser = await puppeteer.launch({
    executablePath: plan.binary,
    ignoreDefaultArgs: true,
    args: plan.args,
    pipe: false,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    defaultViewport: null,
    protocolTimeout: REQUEST_TIMEOUT_MS,
    timeout: 60_000,
  });
  const launchMs = performance.now() - t0;
  state.floorPid = state.browser.process()?.pid ?? null;
  state.sampler.postMessage({ type: "floorPid", pid: state.floorPid });
  state.floorDirectWs = state.browser.wsEndpoint();
  if (proxy) {
    const direct = new URL(state.floorDirectWs);
    const port = await proxy.listen("floor", direct.port);
    await state.browser.disconnect();
    state.browser = await puppeteer.connect({
      browserWSEndpoint: `ws://127.0.0.1:${port}${direct.pathname}`,
      defaultViewport: null,
      protocolTimeout: REQUEST_TIMEOUT_MS,
    });
  }
  return launchMs;
}

export function makeFloor(browser, fixtureBase, userAgent) {
  return {
    async capture(sc) {
      const { url, run } = fixtureUrl(fixtureBase, sc.path);
      const t0 = performance.now();
      const ctx = await browser.createBrowserContext();
      let buf;
      let hung = false;
      let ms;
      try {
        const page = await ctx.newPage();
        await page.setViewport(VIEWPORT);
        if (sc.wait === "default") {
          // puppeteer's networkidle2 sometimes never fires for setContent documents under load:
          // like a customer's script would, take the page as it is after a 30 s timeout (counted).
          const options = { waitUntil: "networkidle2", timeout: FLOOR_IDLE_TIMEOUT_MS };
          try {
            if (sc.html) await page.setContent(sc.html(run), options);
            else await page.goto(url, options);
          } catch (err) {
            if (err?.name !== "TimeoutError") throw err;
            hung = true;
          }
        } else {
          const res = await page.goto(url, { waitUntil: "load", timeout: REQUEST_TIMEOUT_MS });
          if (!res?.ok()) throw new Error(`floor: ${url} answered ${res?.status()}`);
        }
        buf = await page.screenshot({ type: "png", fullPage: sc.fullPage });
        ms = performance.now() - t0; // the bytes are in hand: that is the latency
      } finally {
        await ctx.close().catch(() => {}); // counted in the batch's wall time, not in latency
      }
      const size = checkPng(buf, sc.expect);
      if (sc.wait === "default") checkSamePixels(sc, buf);
      return { ms, bytes: size.bytes, height: size.height, run, hung };
    },

    /** The fields scenario by hand: goto, wait for the listing, one $$eval over its items. */
    async fields() {
      const sc = FIELDS_SCENARIO;
      const { url } = fixtureUrl(fixtureBase, sc.path);
      const t0 = performance.now();
      const ctx = await browser.createBrowserContext();
      let items;
      let ms;
      try {
        const page = await ctx.newPage();
        await page.setViewport(VIEWPORT);
        await page.goto(url, { waitUntil: "load", timeout: REQUEST_TIMEOUT_MS });
        await page.waitForSelector(sc.ready, { timeout: REQUEST_TIMEOUT_MS });
        items = await page.$$eval(sc.items, (els) =>
          els.map((el) => ({
            name: el.querySelector(".name")?.textContent ?? null,
            link: el.querySelector(".name")?.getAttribute("href") ?? null,
            price: el.querySelector(".price")?.textContent ?? null,
            date: el.querySelector("time")?.getAttribute("datetime") ?? null,
            inStock: el.querySelector(".stock") !== null,
            tags: [...el.querySelectorAll(".tags li")].map((li) => li.textContent),
          })),
        );
        ms = performance.now() - t0;
      } finally {
        await ctx.close().catch(() => {});
      }
      if (items.length !== 50) throw new Error(`floor fields: ${items.length} items, expected 50`);
      return { ms };
    },

    /**
     * The complete scenario (../scenarios/complete.mjs): request i captures page i mod 4 as a
     * customer would by hand — goto with the page's wait, screenshot — and its pixels say
     * whether it is complete.
     */
    async complete(i) {
      const sc = completePage(i);
      const { url, run } = fixtureUrl(fixtureBase, sc.path);
      const t0 = performance.now();
      const ctx = await browser.createBrowserContext();
      let buf;
      let ms;
      try {
        const page = await ctx.newPage();
        await page.setViewport(VIEWPORT);
        const res = await page.goto(url, { waitUntil: sc.wait, timeout: REQUEST_TIMEOUT_MS });
        if (!res?.ok()) throw new Error(`floor: ${url} answered ${res?.status()}`);
        buf = await page.screenshot({ type: "png", fullPage: sc.fullPage });
        ms = performance.now() - t0;
      } finally {
        await ctx.close().catch(() => {});
      }
      return { ms, run, page: sc.name, ...checkComplete(sc, buf) };
    },

    /**
     * --profile: the floor plus the page-level steps the service performs for the same request
     * (page preparation in parallel, the per-frame hardening script, request interception with a
     * continue() per request, dialog handler, auto-scroll + settle for full pages, clip
     * screenshot with optimizeForSpeed). The in-page scripts are imported from
     * src/capture/page/page-scripts.ts, so this row follows the service's code. Same browser, no Worker / DO / binding hop:
     * Edgeshot minus this row is the transport; this row minus the floor is the page steps.
     */
    async captureWithSteps(sc) {
      const { url, run } = fixtureUrl(fixtureBase, sc.path);
      const t0 = performance.now();
      const ctx = await browser.createBrowserContext();
      let buf;
      let ms;
      try {
        const page = await ctx.newPage();
        let started = 0;
        await Promise.all([
          page.setViewport(VIEWPORT),
          page.setUserAgent(userAgent),
          page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "light" }]),
          page.setBypassServiceWorker(true),
          page.setRequestInterception(true),
          page.evaluateOnNewDocument(hardening),
        ]);
        page.on("dialog", (d) => void d.dismiss().catch(() => {}));
        page.on("request", (req) => {
          started++;
          void req.continue().catch(() => {});
        });
        const res = await page.goto(url, { waitUntil: "load", timeout: REQUEST_TIMEOUT_MS });
        if (!res?.ok()) throw new Error(`floor+steps: ${url} answered ${res?.status()}`);
        if (sc.fullPage) {
          const before = started;
          const { scrolledPx } = await page.evaluate(
            `(${revealLazy})({ selector: null, fullPage: true, maxPx: 16384, budgetMs: 3000 })`,
          );
          if (scrolledPx > 0 && started > before) await sleep(800);
          const height = await page.evaluate(`(${pageHeight})()`);
          buf = await page.screenshot({
            type: "png",
            optimizeForSpeed: true,
            captureBeyondViewport: true,
            clip: { x: 0, y: 0, width: VIEWPORT.width, height: Math.min(height, 16384) },
          });
        } else {
          buf = await page.screenshot({ type: "png", optimizeForSpeed: true });
        }
        ms = performance.now() - t0;
      } finally {
        await ctx.close().catch(() => {});
      }
      const size = checkPng(buf, sc.expect);
      return { ms, bytes: size.bytes, height: size.height, run };
    },
  };
}
