/**
 * The page's primary CDP session: the one puppeteer sends the page's own commands on (viewport,
 * navigation). Commands whose effect depends on the session's other state go there too — a
 * full-page screenshot is fitted to the device metrics of the session that asks for it.
 * Puppeteer keeps it out of its public types (pinned version, like the request id in ./page.ts
 * and the frame id below); every screenshot test fails without it.
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import type { Protocol } from "devtools-protocol";

export function pageClient(page: Page): CDPSession {
  const client = (page as unknown as { _client?: () => CDPSession })._client?.();
  if (!client) throw new Error("puppeteer: the page has no primary CDP session");
  return client;
}

/**
 * The main frame's CDP frame id, read when asked (puppeteer updates it if the frame is swapped);
 * out of puppeteer's public types like the session above.
 */
export function mainFrameId(page: Page): string | undefined {
  const { _id } = page.mainFrame() as unknown as { _id?: unknown };
  return typeof _id === "string" ? _id : undefined;
}

/**
 * Calls `listener` whenever the page's script (a link, `location`, a form, a meta refresh) asks
 * the browser to load a web URL in the main frame, this tab; returns the unsubscribe. The browser
 * reports that ask before the navigation's request exists — which then waits for the
 * interception layers, so on a loaded machine its `request` event can come hundreds of ms
 * later. A `mailto:` link or a download loads nothing, and is not reported.
 */
export function onMainFrameNavigationAsked(
  page: Page,
  listener: (ask: object) => void,
): () => void {
  const client = pageClient(page);
  const onAsked = (event: Protocol.Page.FrameRequestedNavigationEvent) => {
    const web = /^https?:/i.test(event.url) && event.disposition === "currentTab";
    if (web && event.frameId === mainFrameId(page)) listener(event);
  };
  client.on("Page.frameRequestedNavigation", onAsked);
  return () => void client.off("Page.frameRequestedNavigation", onAsked);
}
