/**
 * The browser-wide guard: a CDP session on the browser target with Fetch interception for every
 * target of the browser. Page-level interception (page.ts) misses what a page's own session
 * never sees — `<link rel=prefetch>`, a pop-up's first navigation, requests of targets created
 * behind our back — this catches them. It applies the URL guard only; per-capture policy (ads,
 * resource types, headers) stays on the page.
 */
import type { Browser, CDPSession } from "@cloudflare/puppeteer";
import type { Protocol } from "devtools-protocol";
import { checkUrl } from "../security/url-guard";

export interface BrowserGuard {
  session: CDPSession;
  blocked: number;
}

export async function installBrowserGuard(browser: Browser, allowlist: ReadonlySet<string>): Promise<BrowserGuard> {
  const session = await browser.target().createCDPSession();
  const guard: BrowserGuard = { session, blocked: 0 };
  session.on("Fetch.requestPaused", (event: Protocol.Fetch.RequestPausedEvent) => {
    const purpose = event.resourceType === "Document" ? "navigation" : "subresource";
    const verdict = checkUrl(event.request.url, purpose, allowlist);
    const reply = verdict.ok
      ? session.send("Fetch.continueRequest", { requestId: event.requestId })
      : session.send("Fetch.failRequest", { requestId: event.requestId, errorReason: "BlockedByClient" });
    if (!verdict.ok) guard.blocked++;
    // A request can vanish (page closed) between pause and reply: nothing to do then.
    reply.catch(() => {});
  });
  await session.send("Fetch.enable", { patterns: [{ urlPattern: "*" }] });
  return guard;
}

/** Downloads are never written anywhere: deny them for a capture's browser context. */
export async function denyDownloads(guard: BrowserGuard, browserContextId: string | undefined): Promise<void> {
  await guard.session.send("Browser.setDownloadBehavior", {
    behavior: "deny",
    ...(browserContextId ? { browserContextId } : {}),
  });
}
