/**
 * BrowserHost: a Durable Object that holds one warm browser (from the BROWSER binding) and runs
 * captures in their own incognito contexts. The only code that launches or connects browsers.
 *
 * - Steady state never launches: the browser is reused across requests; after an eviction the
 *   DO reconnects to its still-running session before launching a new one.
 * - A crash or disconnect drops the browser; the failed capture is retried once on a new one.
 * - Pages in flight are capped; callers beyond the cap wait in a FIFO queue.
 * - An alarm keeps an in-use browser alive and closes it after a period of no use.
 */
import puppeteer, { type Browser } from "@cloudflare/puppeteer";
import { DurableObject } from "cloudflare:workers";
import { config } from "../config";
import { navigationVetter } from "../security/target-check";
import { adHostMatcher } from "./ad-block";
import { installBrowserGuard, type BrowserGuard } from "./browser-guard";
import { runCapture, type PageCapture } from "./capture";
import type { RequestPolicy } from "./page";
import { CaptureError, toFailure, type CaptureFailure } from "./failures";
import { withTimeout } from "./navigate";
import { resizeInPage } from "./page-scripts";
import type { CaptureSpec } from "./spec";
import { log } from "../log";
import { TUNING } from "../tuning";

export type CaptureOutcome =
  { ok: true; result: PageCapture } | { ok: false; failure: CaptureFailure };

export interface HostStats {
  launches: number;
  reconnects: number;
  connected: boolean;
  inFlight: number;
  captures: number;
  /** Requests the browser-wide guard refused (pre-fetches, pop-ups, other targets). */
  guardBlocked: number;
}

const { browserContextsInFlight: MAX_IN_FLIGHT, browserIdleCloseMs: IDLE_CLOSE_MS } = TUNING;
const { browserKeepAliveMs: KEEP_ALIVE_MS, browserAlarmEveryMs: ALARM_EVERY_MS } = TUNING;
const SESSION_KEY = "browser-session";

/** A connected browser with its browser-wide guard and its de-"Headless"-ed user agent. */
interface Warm {
  browser: Browser;
  guard: BrowserGuard;
  userAgent: string;
}

export class BrowserHost extends DurableObject<Env> {
  private warm: Warm | null = null;
  private starting: Promise<Warm> | null = null;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private lastUsed = Date.now();
  private stats = { launches: 0, reconnects: 0, captures: 0 };
  private requestPolicy: RequestPolicy | null = null;

  /** The request policy is the same for every capture of this object: built once. */
  private policy(): RequestPolicy {
    if (this.requestPolicy) return this.requestPolicy;
    const cfg = config(this.env);
    this.requestPolicy = {
      allowlist: cfg.targetAllowlist,
      isAdHost: adHostMatcher(cfg.adBlockExtraHosts),
      vetNavigation: navigationVetter(this.env),
    };
    return this.requestPolicy;
  }

  async capture(spec: CaptureSpec): Promise<CaptureOutcome> {
    await this.acquire();
    this.lastUsed = Date.now();
    try {
      for (let attempt = 0; ; attempt++) {
        const warm = await this.getBrowser();
        const browser = warm.browser;
        try {
          const result = await runCapture(browser, spec, this.policy(), warm.userAgent, warm.guard);
          this.stats.captures++;
          return { ok: true, result };
        } catch (err) {
          if (
            !(err instanceof CaptureError) &&
            attempt === 0 &&
            (!browser.isConnected() || sessionLost(err))
          ) {
            this.drop(browser);
            continue; // the browser died under us: retry once on a fresh one
          }
          if (!(err instanceof CaptureError)) {
            log("error", "capture failed", { error: String(err) });
          }
          return { ok: false, failure: toFailure(err) };
        }
      }
    } catch (err) {
      log("error", "browser unavailable", { error: String(err) });
      return { ok: false, failure: toFailure(err) };
    } finally {
      this.lastUsed = Date.now();
      this.release();
    }
  }

  /**
   * Downscales an image rendered elsewhere (a geo provider's PNG) with the captures' own resize
   * rules (`resizeInPage`), on a blank page of its own context: no target content is loaded.
   */
  async resizeImage(
    bytes: Uint8Array,
    box: { width: number | null; height: number | null },
  ): Promise<Uint8Array> {
    await this.acquire();
    this.lastUsed = Date.now();
    try {
      const { browser } = await this.getBrowser();
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        return await withTimeout(
          resizeInPage(page, bytes, box, "png", null),
          TUNING.imageResizeTimeoutMs,
        );
      } finally {
        await context.close().catch(() => {});
      }
    } finally {
      this.lastUsed = Date.now();
      this.release();
    }
  }

  async getStats(): Promise<HostStats> {
    return {
      ...this.stats,
      connected: this.warm?.browser.isConnected() ?? false,
      inFlight: this.inFlight,
      guardBlocked: this.warm?.guard.blocked ?? 0,
    };
  }

  override async alarm(): Promise<void> {
    const idle = Date.now() - this.lastUsed;
    const browser = this.warm?.browser ?? null;
    if (browser && this.inFlight === 0 && idle > IDLE_CLOSE_MS) {
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

  private async start(): Promise<Warm> {
    const previous = await this.ctx.storage.get<string>(SESSION_KEY);
    let browser: Browser | null = null;
    if (previous) {
      browser = await puppeteer.connect(this.env.BROWSER, previous).catch(() => null);
      if (browser) this.stats.reconnects++;
    }
    if (!browser) {
      browser = await puppeteer.launch(this.env.BROWSER, { keep_alive: KEEP_ALIVE_MS });
      this.stats.launches++;
      await this.ctx.storage.put(SESSION_KEY, browser.sessionId());
    }
    const launched = browser;
    launched.on("disconnected", () => this.drop(launched));
    const [guard, userAgent] = await Promise.all([
      installBrowserGuard(launched, config(this.env).targetAllowlist),
      launched.userAgent(),
    ]);
    this.warm = {
      browser: launched,
      guard,
      userAgent: userAgent.replace("HeadlessChrome", "Chrome"),
    };
    await this.ctx.storage.setAlarm(Date.now() + ALARM_EVERY_MS);
    return this.warm;
  }

  private drop(browser: Browser | null): void {
    if (browser && this.warm?.browser === browser) this.warm = null;
  }

  private acquire(): Promise<void> {
    if (this.inFlight < MAX_IN_FLIGHT) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.inFlight++;
        resolve();
      }),
    );
  }

  private release(): void {
    this.inFlight--;
    this.waiting.shift()?.();
  }
}

/**
 * The browser session is gone although the socket still looks connected (measured under load:
 * "Protocol error (Target.createBrowserContext): Session with given id not found."). Treated like
 * a crash: the browser is dropped and the capture retried once on a fresh one.
 */
function sessionLost(err: unknown): boolean {
  return err instanceof Error && /Session with given id not found/.test(err.message);
}
