/**
 * The browser-wide guard: what no single page's session can see or stop. It opens its sessions
 * on the browser target and runs two parts on them:
 *
 * 1. Fetch interception (./fetch-guard.ts): every request of every target — prefetches, a
 *    pop-up's first navigation, targets created behind our back — passes the URL guard, a
 *    response to a host name reaches no one until its address is known to be public, and
 *    documents lose the headers that make the browser process fetch on its own.
 * 2. A target watcher (./target-watcher.ts): each capture's page and everything it spawns is
 *    attached paused, hardened, and made to report its responses and speculative loads; and,
 *    failing closed, a target the guard did not harden in a capture's context is closed before
 *    it runs and taints the capture.
 *
 * Whatever the watcher sees is a violation of the capture's browser context: the capture asks
 * before it produces any output and fails instead (src/capture/page/page-capture.ts).
 */
import type { Browser, Page } from "@cloudflare/puppeteer";
import { guardFetches } from "./fetch-guard";
import { ResponseAddresses } from "./response-addresses";
import {
  watchTargets,
  type ContextWatch,
  type RealmHook,
  type TargetWatcher,
} from "./target-watcher";

export interface BrowserGuard {
  /** Requests the browser-wide Fetch guard refused. */
  blocked: number;
  /** Attach to the page (and everything it spawns); the capture awaits `ready` before navigating. */
  watch(page: Page, browserContextId: string): ContextWatch;
  /** Downloads are never written anywhere: deny them for a capture's browser context. */
  denyDownloads(browserContextId: string): Promise<void>;
}

export async function installBrowserGuard(
  browser: Browser,
  allowlist: ReadonlySet<string>,
  onRealm: RealmHook,
): Promise<BrowserGuard> {
  const [fetchSession, related, shared, discovery] = await Promise.all([
    browser.target().createCDPSession(),
    browser.target().createCDPSession(),
    browser.target().createCDPSession(),
    browser.target().createCDPSession(),
  ]);
  const connection = fetchSession.connection();
  if (!connection) throw new Error("browser guard: no CDP connection");
  // The watcher's sessions report where responses came from; the Fetch guard holds them until
  // then, and a refusal taints the capture of the context that asked.
  let watcher: TargetWatcher | undefined;
  const addresses = new ResponseAddresses((contextId, reason) => watcher?.taint(contextId, reason));
  const [fetches, targets] = await Promise.all([
    guardFetches(fetchSession, allowlist, addresses),
    watchTargets({ connection, related, shared, discovery }, allowlist, onRealm, addresses),
  ]);
  watcher = targets;

  return {
    get blocked() {
      return fetches.blocked;
    },
    watch: (page, browserContextId) => targets.watch(page, browserContextId),
    async denyDownloads(browserContextId) {
      await fetchSession.send("Browser.setDownloadBehavior", {
        behavior: "deny",
        browserContextId,
      });
    },
  };
}
