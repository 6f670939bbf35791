/**
 * The page's primary CDP session: the one puppeteer sends the page's own commands on (viewport,
 * navigation). Commands whose effect depends on the session's other state go there too — a
 * full-page screenshot is fitted to the device metrics of the session that asks for it.
 * Puppeteer keeps it out of its public types (pinned version, like the request and frame ids in
 * ./page.ts); every screenshot test fails without it.
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";

export function pageClient(page: Page): CDPSession {
  const client = (page as unknown as { _client?: () => CDPSession })._client?.();
  if (!client) throw new Error("puppeteer: the page has no primary CDP session");
  return client;
}
