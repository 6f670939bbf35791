/**
 * The page a capture runs in: a new incognito browser context with one blank page, downloads
 * denied and the browser guard watching it, closed after that one capture.
 *
 * Opening one costs ~150–250 ms on a warm browser (measured, bench/RESULTS.md): most of it is
 * Chromium starting the context's renderer process, which no capture setting influences. So each
 * browser keeps one opened ahead (`SparePage`): a capture takes the spare, and the next spare is
 * opened at once, while the capture runs. A spare has never loaded anything and is used by exactly
 * one capture, so it is as fresh as a page opened on demand; what a capture configures (viewport,
 * user agent, interception, cookies) is set on it afterwards, as on a new page.
 */
import type { Browser, BrowserContext, CDPSession, Page } from "@cloudflare/puppeteer";
import { TUNING } from "../../tuning";
import type { BrowserGuard } from "../guard/browser-guard";
import { applySettings, type PageSettings } from "../page/page";
import type { ContextWatch } from "../guard/target-watcher";
import { DeadlineError, withTimeout } from "../page/navigate";

export interface BlankPage {
  context: BrowserContext;
  contextId: string;
  page: Page;
  /**
   * A session of ours on the page for its life (page interception, the locale override),
   * attached with the spare so a capture does not wait for it.
   */
  session: CDPSession;
  watch: ContextWatch;
  /** The settings the page was primed with (../page/page.ts), or null. */
  primed: PageSettings | null;
  /** The pages it shares its context with (a crawl's lane: ./lane-pages.ts), or null. */
  group: PageGroup | null;
}

/** The pages of one context opened together (./lane-pages.ts). */
export interface PageGroup {
  /** Its pages still open. */
  pages: Set<BlankPage>;
  /**
   * The pages still open when another page's close disposed the context: their captures failed
   * for it, not by their own doing. A page that had closed already (it failed, or served) is
   * not among them, nor is the one whose close disposed it.
   */
  disposedUnder: Set<BlankPage>;
  /** A page of it failed: its pages serve no more captures (each closes as it comes back). */
  retired: boolean;
}

/**
 * `browserSession`: a session on the browser target, for freezing the window's own pages (below).
 * `prime`: settings to give the page now, before its capture is known (../page/page.ts), or null.
 */
export async function openBlankPage(
  browser: Browser,
  guard: BrowserGuard,
  browserSession: CDPSession,
  prime: PageSettings | null,
): Promise<BlankPage> {
  const [blank] = await openBlankPages(browser, guard, browserSession, prime, 1);
  if (!blank) throw new Error("no blank page opened");
  return blank;
}

/**
 * `count` blank pages in one new context (a crawl's lane: ./lane-pages.ts), as `openBlankPage`
 * opens one. All of them are open before the guard watches any, and none loads anything before
 * the guard watches them all: a page that appears in the context afterwards is a pop-up
 * (../guard/target-watcher.ts).
 */
export async function openBlankPages(
  browser: Browser,
  guard: BrowserGuard,
  browserSession: CDPSession,
  prime: PageSettings | null,
  count: number,
): Promise<BlankPage[]> {
  const context = await browser.createBrowserContext();
  const contextId = context.id;
  if (contextId === undefined) throw new Error("incognito context without an id");
  try {
    const [pages] = await Promise.all([
      Promise.all(Array.from({ length: count }, () => context.newPage())),
      guard.denyDownloads(contextId),
    ]);
    const [sessions] = await Promise.all([
      Promise.all(
        pages.map((page) =>
          page.createCDPSession().then(async (session) => {
            // Several pages are tabs of one window; a page alone is its window's front tab
            // (shown again by ./lane-pages.ts when it wakes from a freeze).
            if (count > 1) await keepShown(session);
            return session;
          }),
        ),
      ),
      freezeWindowUi(browserSession, contextId),
    ]);
    const group: PageGroup | null =
      count > 1 ? { pages: new Set(), disposedUnder: new Set(), retired: false } : null;
    const blanks = pages.map((page, i): BlankPage => {
      const session = sessions[i];
      if (!session) throw new Error("a page without its session");
      const watch = guard.watch(page, contextId);
      // Awaited by the capture (in parallel with its page setup); a spare nobody takes never is.
      watch.ready.catch(() => {});
      return { context, contextId, page, session, watch, primed: prime, group };
    });
    for (const blank of blanks) group?.pages.add(blank);
    if (prime)
      await Promise.all(
        blanks.map((blank) => applySettings(blank.page, blank.session, prime, null)),
      );
    return blanks;
  } catch (err) {
    await context.close().catch(() => {});
    throw err;
  }
}

/**
 * Keeps the page shown, as a browser's front tab, whatever its tab (`on`), or lets it be hidden
 * again (before it is frozen): focus emulation on `session` (ours for the page's life) makes
 * Chromium count the page as shown and focused. A lane's pages are tabs of one window, all but
 * the last opened background tabs; and a kept page is frozen while it waits, which hides it for
 * good (Chromium 156: `Page.setWebLifecycleState` "frozen" hides the page, "active" does not
 * show it again). A hidden page runs no animation frames, its intersection observers (lazy
 * loaders, `loading="lazy"`) wait, and a page that waits for `visibilityState` "visible" does
 * nothing: measured, three of a lane's four tabs and every page it reused were hidden. A page
 * kept shown cannot be frozen (the freeze is answered and does nothing): ./lane-pages.ts turns
 * this off before freezing and on again when it wakes the page. A window a page was tried too:
 * visible as well, at ~20 ms more Chromium CPU a navigation (its window's UI).
 */
export async function keepShown(session: CDPSession, on = true): Promise<void> {
  await session.send("Emulation.setFocusEmulationEnabled", { enabled: on });
}

/**
 * Chromium's new headless mode gives every browser context a window, and the window its omnibox
 * popup: two WebUI pages (`browser_ui` targets, chrome://omnibox-popup.top-chrome/) in a renderer
 * of their own, which no capture needs and which are far from idle. Measured on Chromium 156 (a
 * blank context, CPU over its first 8 s): ~1.2 s with them running, ~0.1 s with them frozen.
 * That is most of what a short capture costs the renderers, and throughput on a busy browser is
 * CPU per capture. Frozen, not closed: Chromium preloads a closed one again at once. Freezing
 * (the Page Lifecycle "frozen" state) stops their tasks and leaves the capture's own page, in
 * its own renderer, untouched; a page that cannot be frozen is left as it is.
 */
async function freezeWindowUi(browserSession: CDPSession, contextId: string): Promise<void> {
  const connection = browserSession.connection();
  const { targetInfos } = await browserSession.send("Target.getTargets", {
    filter: [{ type: "browser_ui" }],
  });
  await Promise.all(
    targetInfos
      .filter((t) => t.browserContextId === contextId)
      .map(async ({ targetId }) => {
        const { sessionId } = await browserSession.send("Target.attachToTarget", {
          targetId,
          flatten: true,
        });
        await connection
          ?.session(sessionId)
          ?.send("Page.setWebLifecycleState", { state: "frozen" })
          .catch(() => {});
        await browserSession.send("Target.detachFromTarget", { sessionId });
      })
      .map((frozen) => frozen.catch(() => {})),
  );
}

/**
 * Ends the guard's watch and disposes the context, which kills its renderer, even one spinning in
 * `while (true) {}`. False when it would not close within TUNING.contextCloseMs (the browser
 * holding it must then be recycled).
 *
 * A page that shares its context is disposed with every page in it (their captures fail: the
 * host retries those once) unless it closes `alone`, which it does while others are open and
 * the guard saw nothing wrong in the context; the context goes with its last page. Its renderer
 * goes with it unless a sibling's frame of the same site shares it: then that renderer (spinning,
 * if the page overran its deadline) lives until the context goes. Callers close a page alone when
 * it served cleanly, or failed (its context then retires: ./lane-pages.ts), so the context goes
 * once the captures already running in it end — each under its own deadline. Disposing the
 * context instead would fail those captures, and a retry would load their pages twice.
 */
export async function closeBlankPage(blank: BlankPage, alone = false): Promise<boolean> {
  const { group } = blank;
  group?.pages.delete(blank);
  if (group && alone && group.pages.size > 0 && blank.watch.violation() === null) {
    // Watched until it is gone: it still runs in a context its siblings use.
    const closed = await closing(blank.page.close());
    blank.watch.end();
    if (closed) return true;
  }
  blank.watch.end();
  if (group) {
    for (const other of group.pages) group.disposedUnder.add(other);
    group.pages.clear();
  }
  return closing(blank.context.close());
}

/** Whether a page or context closed within TUNING.contextCloseMs (an error: the browser is gone). */
function closing(close: Promise<void>): Promise<boolean> {
  return withTimeout(close, TUNING.contextCloseMs).then(
    () => true,
    (err: unknown) => !(err instanceof DeadlineError),
  );
}

/**
 * One blank page kept open ahead of the next capture on a browser. It lives and dies with its
 * browser: a browser that is dropped is closed (or already gone), and its spare with it.
 */
export class SparePage {
  private spare: Promise<BlankPage> | null = null;
  /** What the next spare is primed with: the settings of the last capture that gave them. */
  private settings: PageSettings | null = null;

  constructor(private readonly open: (prime: PageSettings | null) => Promise<BlankPage>) {}

  /**
   * A blank page for one capture: the spare (waiting for it if it is still opening) when it is
   * sound, else a new one. Either way the next spare starts opening now, primed with `settings`
   * (the capture's own, which the next one most likely shares).
   */
  async take(settings?: PageSettings): Promise<BlankPage> {
    if (settings) this.settings = settings;
    const spare = this.spare;
    this.spare = this.open(this.settings);
    this.spare.catch(() => {}); // a failed spare is replaced by the next take
    const blank = spare ? await spare.catch(() => null) : null;
    if (blank && !blank.page.isClosed()) return blank;
    if (blank) void closeBlankPage(blank);
    return this.open(this.settings);
  }
}
