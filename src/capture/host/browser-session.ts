/**
 * A BrowserHost's browser session (./browser-host.ts): getting a browser — the kept session when
 * it still answers (after an eviction), else a new launch — and telling when one is gone.
 */
import puppeteer, { type Browser } from "@cloudflare/puppeteer";
import { TUNING } from "../../tuning";
import { withTimeout } from "../page/navigate";

/** Where the host keeps its browser's session id (Durable Object storage). */
export const SESSION_KEY = "browser-session";

/** The host's counters of how it got its browsers. */
export interface SessionStats {
  launches: number;
  reconnects: number;
  staleSessions: number;
}

/**
 * The kept session when it still answers (after an eviction), else a new browser. A session
 * the binding no longer lists (its browser closed, or `wrangler dev` restarted with the host's
 * storage kept) is not connected to: connecting to it fails anyway, and wrangler's local binding
 * prints an AssertionError ("sessionInfo must be set before connecting") for it. A session that
 * connects but fails to set up (it died with its browser a moment ago) is given up.
 */
export async function startBrowser<Ready>(
  binding: Env["BROWSER"],
  storage: DurableObjectStorage,
  stats: SessionStats,
  setUp: (browser: Browser) => Promise<Ready>,
): Promise<Ready> {
  const previous = await storage.get<string>(SESSION_KEY);
  const kept = previous !== undefined && (await listed(binding, previous));
  if (previous !== undefined && !kept) stats.staleSessions++;
  if (previous !== undefined && kept) {
    const browser = await puppeteer.connect(binding, previous).catch(() => null);
    if (browser) {
      // Contexts left by the previous instance (its spare, captures it never finished) have
      // no owner any more.
      for (const context of browser.browserContexts())
        if (context !== browser.defaultBrowserContext()) void context.close().catch(() => {});
      const ready = await setUp(browser).catch(() => null);
      if (ready) {
        stats.reconnects++;
        return ready;
      }
      void browser.close().catch(() => {});
    }
  }
  const browser = await puppeteer.launch(binding, { keep_alive: TUNING.browserKeepAliveMs });
  stats.launches++;
  await storage.put(SESSION_KEY, browser.sessionId());
  return setUp(browser);
}

/** Does the binding list `sessionId` as active? Unknown (the list failed) counts as yes. */
async function listed(binding: Env["BROWSER"], sessionId: string): Promise<boolean> {
  return puppeteer.sessions(binding).then(
    (sessions) => sessions.some((session) => session.sessionId === sessionId),
    () => true,
  );
}

/**
 * Did `err` come from a browser that is gone? A killed Chromium is often reported first as a
 * page error ("Navigating frame was detached", "Target closed") while the socket still looks
 * connected (measured in the soak, bench/SOAK.md): so a browser that does not answer a version
 * probe within TUNING.contextCloseMs counts as dead too.
 */
export async function dead(browser: Browser, err: unknown): Promise<boolean> {
  if (!browser.isConnected() || sessionLost(err)) return true;
  return withTimeout(browser.version(), TUNING.contextCloseMs).then(
    () => !browser.isConnected(),
    () => true,
  );
}

/**
 * The browser session is gone although the socket still looks connected (measured under load:
 * "Protocol error (Target.createBrowserContext): Session with given id not found."). Treated like
 * a crash: the browser is dropped and the capture retried once on a fresh one.
 */
function sessionLost(err: unknown): boolean {
  return err instanceof Error && /Session with given id not found/.test(err.message);
}
