/**
 * BrowserHost: a Durable Object that holds one warm browser (from the BROWSER binding) and runs
 * captures in their own incognito contexts. The only code that launches or connects browsers
 * (through ./browser-session.ts).
 *
 * - Steady state never launches: the browser is reused across requests; after an eviction the
 *   DO reconnects to its still-running session before launching a new one.
 * - Each capture gets a new incognito context, opened ahead: the browser keeps one blank page
 *   ready for the next capture (blank-page.ts), so a capture does not wait for a renderer to start.
 *   A crawl's page may instead run in the page its crawl's last page left (lane-pages.ts).
 * - A crash or disconnect drops the browser; the failed capture is retried once on a new one.
 * - Pages in flight are capped, and so is one account's share of them; callers beyond a cap wait
 *   in one bounded line shared per account (the least served account first), and past the wait
 *   budget are refused (503 SERVICE_BUSY with Retry-After) before anything is charged; an
 *   account's callers beyond its share of the line are refused at once (429 RATE_LIMITED), so
 *   one account's burst never turns others away (slots.ts).
 * - Every capture has a hard deadline (deadline.ts): its context is then disposed, and a browser
 *   whose context will not close is recycled.
 * - An alarm keeps an in-use browser alive and closes it after a period of no use.
 */
import type { Browser } from "@cloudflare/puppeteer";
import { DurableObject } from "cloudflare:workers";
import { config } from "../../config";
import { navigationVetter } from "../../security/target-check";
import { adHostList, adHostMatcher } from "../page/ad-block";
import {
  closeBlankPage,
  openBlankPage,
  openBlankPages,
  SparePage,
  type BlankPage,
} from "./blank-page";
import { LanePages } from "./lane-pages";
import { installBrowserGuard, type BrowserGuard } from "../guard/browser-guard";
import { dead, SESSION_KEY, startBrowser } from "./browser-session";
import { pageSettings } from "../page/page";
import { runPageCapture, type CaptureHooks, type PageCapture } from "../page/page-capture";
import { CpuRestart, CpuShare } from "./cpu-share";
import type { RequestPolicy } from "../page/page-requests";
import { CaptureError, FAILURE, failures, toFailure, type CaptureFailure } from "../failures";
import { imageSize } from "../outputs/image-info";
import { ENCODER_FILES, type EncoderAsset } from "../outputs/animation";
import { AccountBusy, hostSlots, SlotsBusy, type Slot } from "./slots";
import { withTimeout } from "../page/navigate";
import { resizeInPage } from "../page/page-scripts";
import type { CaptureSpec } from "../capture-spec";
import { captureWeight } from "../page/weight";
import { log } from "../../log";
import { TUNING } from "../../tuning";
import { hostCounters, type HostStats } from "./host-stats";

export type CaptureOutcome =
  { ok: true; result: PageCapture } | { ok: false; failure: CaptureFailure };

const { browserIdleCloseMs: IDLE_CLOSE_MS, browserAlarmEveryMs: ALARM_EVERY_MS } = TUNING;

/**
 * A connected browser with its browser-wide guard, its de-"Headless"-ed user agent and the blank
 * page it keeps open for the next capture.
 */
interface Warm {
  browser: Browser;
  guard: BrowserGuard;
  cpu: CpuShare;
  userAgent: string;
  spare: SparePage;
  /** Pages kept for the next capture of their lane (a crawl's next page). */
  lanes: LanePages;
}

/** How a capture takes its turn on a host. */
export interface CaptureTurn {
  /** Background work (crawl pages): its slot yields to interactive captures (./slots.ts). */
  background?: boolean;
  /** Its lane (one crawl): it may run in the page of the lane's last capture (./lane-pages.ts). */
  lane?: string;
  /** The lane's captures at once at most (its pages share a context: ./lane-pages.ts); 1 if absent. */
  laneWidth?: number;
}

export class BrowserHost extends DurableObject<Env> {
  private warm: Warm | null = null;
  private starting: Promise<Warm> | null = null;
  private readonly slots = hostSlots();
  private lastUsed = Date.now();
  private stats = hostCounters();
  private requestPolicy: RequestPolicy | null = null;
  /** What the fair-CPU share counted on browsers since dropped (cpu-share.ts). */
  private cpuPast = { holds: 0, asked: 0 };

  private encoderSources = new Map<EncoderAsset, Promise<string>>();

  /**
   * An encoder's ES module (public/encoders/, scripts/lib/assets.mjs): gifenc, or mediabunny's
   * muxers for WebCodecs video. Read once per object.
   */
  private encoderSource(asset: EncoderAsset): Promise<string> {
    let source = this.encoderSources.get(asset);
    if (!source) {
      source = this.env.ASSETS.fetch(
        `https://assets.invalid/encoders/${ENCODER_FILES[asset]}`,
      ).then(async (res) => {
        if (!res.ok) throw new Error(`${asset} encoder asset: HTTP ${res.status}`);
        return res.text();
      });
      source.catch(() => this.encoderSources.delete(asset));
      this.encoderSources.set(asset, source);
    }
    return source;
  }

  /** The request policy is the same for every capture of this object: built once. */
  private policy(): RequestPolicy {
    if (this.requestPolicy) return this.requestPolicy;
    const cfg = config(this.env);
    this.requestPolicy = {
      allowlist: cfg.targetAllowlist,
      isAdHost: adHostMatcher(cfg.adBlockExtraHosts),
      adHosts: adHostList(cfg.adBlockExtraHosts),
      vetNavigation: navigationVetter(this.env),
    };
    return this.requestPolicy;
  }

  /**
   * One capture for `accountId`'s share of the slots; a `background` one yields its turn; one of
   * a `lane` may run in the page of the lane's last capture (./lane-pages.ts).
   */
  async capture(
    spec: CaptureSpec,
    accountId: string,
    { background = false, lane, laneWidth = 1 }: CaptureTurn = {},
  ): Promise<CaptureOutcome> {
    const slot = await this.acquire(accountId, captureWeight(spec), background);
    if ("code" in slot) return { ok: false, failure: slot };
    this.lastUsed = Date.now();
    try {
      /** Once the capture was restarted for its fair-CPU debugger (./cpu-share.ts): what it had spent. */
      let spentMs: number | undefined;
      const began = Date.now();
      /** Whether it was retried for a browser that died or a lane context disposed under it. */
      let retried = false;
      for (;;) {
        /** The page this attempt ran in, once it had one. */
        let ran: BlankPage | null = null;
        const warm = await this.getBrowser();
        const browser = warm.browser;
        const hooks: Omit<CaptureHooks, "ready" | "restarted"> = {
          deadlineExceeded: () => {
            this.stats.deadlineKills++;
            log("warn", "capture passed its deadline", { timeoutMs: spec.timeoutMs });
          },
          contextStuck: () => this.recycle(browser),
          closing: (done) => this.ctx.waitUntil(done),
          measured: (weight) => this.slots.lighten(slot, weight),
        };
        try {
          // Built once: they prime the next spare and are what this capture's page is given.
          const settings = pageSettings(spec, this.policy(), warm.userAgent);
          const laned =
            lane === undefined ? null : await warm.lanes.page(lane, laneWidth, settings);
          if (laned?.reused) this.stats.lanePagesReused++;
          const blank = laned?.blank ?? (await warm.spare.take(settings));
          ran = blank;
          // Restarted, it has its debugger asked for from the start.
          const debugFirst = spentMs !== undefined;
          const share = warm.cpu.track(blank.session, blank.contextId, accountId, debugFirst);
          try {
            const result = await runPageCapture(blank, spec, this.policy(), settings, {
              ...hooks,
              ready: share.ready,
              restarted: share.restarted,
              spentMs,
              encoders: (asset) => this.encoderSource(asset),
              ...(lane === undefined
                ? {}
                : { keep: (page: BlankPage) => warm.lanes.offer(lane, page, settings) }),
            });
            this.stats.captures++;
            return { ok: true, result };
          } finally {
            share.end();
          }
        } catch (err) {
          // A realm of its could not be given its fair-CPU debugger when another account arrived
          // (./cpu-share.ts): run again in a new page, with it asked for from the start (never
          // restarted again), within what is left of its deadline.
          if (err instanceof CpuRestart && spentMs === undefined) {
            spentMs = Date.now() - began;
            this.stats.cpuRestarts++;
            continue;
          }
          if (!(err instanceof CaptureError) && !retried && (await dead(browser, err))) {
            retried = true;
            this.drop(browser);
            // One that is merely unresponsive is closed, not left running unowned.
            if (browser.isConnected())
              void withTimeout(browser.close(), TUNING.contextCloseMs).catch(() => {});
            continue; // the browser died under us: retry once on a fresh one
          }
          // Its lane's context was disposed under it because of another of its pages (one that
          // would not freeze, wake or close: ./lane-pages.ts; one restarted for its fair-CPU
          // debugger: ../page/page-capture.ts) and the guard refused nothing
          // there: not this page's doing, retried once in a new page. A capture that failed by
          // itself closed its page first: its page is not among those disposed, and its
          // failure stands (retried, its URL would be loaded twice).
          const disposedUnder = ran?.group?.disposedUnder.has(ran) === true;
          if (!retried && disposedUnder && ran?.watch.violation() === null) {
            retried = true;
            continue;
          }

          const failure = toFailure(err);
          // The target's doing (it could not be reached, it was too slow) is the caller's to fix
          // and answered as such: a warning. An error we have no name for is ours to look at.
          if (!(err instanceof CaptureError))
            log(failure.message === FAILURE.generic ? "error" : "warn", "capture failed", {
              error: String(err),
            });
          return { ok: false, failure };
        }
      }
    } catch (err) {
      log("error", "browser unavailable", { error: String(err) });
      return { ok: false, failure: toFailure(err) };
    } finally {
      this.lastUsed = Date.now();
      this.slots.release(slot);
    }
  }

  /**
   * Downscales an image rendered elsewhere (a geo provider's PNG) with the captures' own resize
   * rules (`resizeInPage`), on a blank page of its own context: no target content is loaded.
   */
  async resizeImage(
    bytes: Uint8Array,
    box: { width: number | null; height: number | null },
    accountId: string,
  ): Promise<Uint8Array> {
    // The bitmap is decoded and scaled on the page: it weighs its pixels.
    const size = imageSize(bytes);
    const slot = await this.acquire(accountId, size ? size.width * size.height : 1);
    if ("code" in slot) throw new CaptureError(slot);
    this.lastUsed = Date.now();
    try {
      const blank = await (await this.getBrowser()).spare.take();
      try {
        return await withTimeout(
          resizeInPage(blank.page, bytes, box, "png", null),
          TUNING.imageResizeTimeoutMs,
        );
      } finally {
        await closeBlankPage(blank);
      }
    } finally {
      this.lastUsed = Date.now();
      this.slots.release(slot);
    }
  }

  async getStats(): Promise<HostStats> {
    const slots = this.slots.stats();
    return {
      ...this.stats,
      connected: this.warm?.browser.isConnected() ?? false,
      inFlight: slots.inFlight,
      waiting: slots.waiting,
      weight: slots.weight,
      guardBlocked: this.warm?.guard.blocked ?? 0,
      cpuHolds: this.cpuPast.holds + (this.warm?.cpu.holds ?? 0),
      cpuHeld: this.warm?.cpu.holding ?? 0,
      cpuDebugged: this.cpuPast.asked + (this.warm?.cpu.asked ?? 0),
    };
  }

  override async alarm(): Promise<void> {
    const idle = Date.now() - this.lastUsed;
    const browser = this.warm?.browser ?? null;
    if (browser && this.slots.stats().inFlight === 0 && idle > IDLE_CLOSE_MS) {
      this.drop(browser);
      await browser.close().catch(() => {});
      await this.ctx.storage.delete(SESSION_KEY);
      return;
    }
    if (browser) {
      // Keep the CDP session busy enough that the binding does not reap it.
      await browser.version().catch(() => this.drop(browser));
      await this.ctx.storage.setAlarm(Date.now() + ALARM_EVERY_MS);
    }
  }

  private async getBrowser(): Promise<Warm> {
    if (this.warm?.browser.isConnected()) return this.warm;
    this.starting ??= this.start().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** The kept session, else a new browser (./browser-session.ts), set up for captures. */
  private start(): Promise<Warm> {
    return startBrowser(this.env.BROWSER, this.ctx.storage, this.stats, (browser) =>
      this.setUp(browser),
    );
  }

  /** The browser-wide guard, the user agent and the spare page: a browser ready for captures. */
  private async setUp(browser: Browser): Promise<Warm> {
    browser.on("disconnected", () => this.drop(browser));
    const cpu: CpuShare = new CpuShare(
      (held) => {
        if (this.warm?.cpu === cpu) this.slots.lend(held);
      },
      () => this.slots.newcomerWaiting(),
    );
    const [guard, userAgent, browserSession] = await Promise.all([
      installBrowserGuard(browser, config(this.env).targetAllowlist, (contextId, session) =>
        cpu.attached(contextId, session),
      ),
      browser.userAgent(),
      browser.target().createCDPSession(),
    ]);
    this.warm = {
      browser,
      guard,
      cpu,
      userAgent: userAgent.replace("HeadlessChrome", "Chrome"),
      spare: new SparePage((prime) => openBlankPage(browser, guard, browserSession, prime)),
      lanes: new LanePages(
        (prime, count) => openBlankPages(browser, guard, browserSession, prime, count),
        async (blank, alone) => {
          if (!(await closeBlankPage(blank, alone))) this.recycle(browser);
        },
      ),
    };
    await this.ctx.storage.setAlarm(Date.now() + ALARM_EVERY_MS);
    return this.warm;
  }

  /** Forgets a browser that is gone or being closed (its spare page goes with it). */
  private drop(browser: Browser | null): void {
    if (browser && this.warm?.browser === browser) {
      this.cpuPast.holds += this.warm.cpu.holds;
      this.cpuPast.asked += this.warm.cpu.asked;
      this.slots.lend(0);
      this.warm = null;
    }
  }

  /**
   * A browser with a context that would not close (a renderer that ignores even disposal):
   * dropped and closed, so the next capture launches a fresh one. Captures still running on it
   * fail as a crash and are retried once on the new browser.
   */
  private recycle(browser: Browser): void {
    this.stats.recycles++;
    log("warn", "browser recycled: a capture context would not close");
    this.drop(browser);
    void withTimeout(browser.close(), TUNING.contextCloseMs).catch(() => {});
    void this.ctx.storage.delete(SESSION_KEY);
  }

  /**
   * `accountId`'s slot of `weight`; else why not (nothing ran): none came free in time (503), or
   * the account already has its share of the line waiting (429).
   */
  private async acquire(
    accountId: string,
    weight: number,
    background = false,
  ): Promise<Slot | CaptureFailure> {
    try {
      return await this.slots.acquire(accountId, weight, background);
    } catch (err) {
      if (err instanceof SlotsBusy) {
        this.stats.busyRefusals++;
        return failures.busy();
      }
      if (err instanceof AccountBusy) {
        this.stats.accountRefusals++;
        return failures.accountBusy();
      }
      throw err;
    }
  }
}
