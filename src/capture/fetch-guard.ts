/**
 * The browser guard's request half (./browser-guard.ts): Fetch interception on the browser
 * target pauses every request of every target — prefetches, a pop-up's first navigation, targets
 * created behind our back — and applies the URL guard. Document responses are paused too, to
 * strip the headers that make the BROWSER process fetch later, outside every interception layer
 * (Speculation-Rules, Reporting/NEL).
 */
import type { CDPSession } from "@cloudflare/puppeteer";
import type { Protocol } from "devtools-protocol";
import { checkUrl } from "../security/url-guard";

/**
 * Response headers that make the browser process fetch on the document's behalf: speculation
 * rule sets (then prefetch/prerender of what they name), Reporting API and NEL report uploads.
 */
const BROWSER_FETCH_HEADERS = new Set([
  "speculation-rules",
  "reporting-endpoints",
  "report-to",
  "nel",
]);

export interface FetchGuard {
  /** Requests the guard refused. */
  readonly blocked: number;
}

/**
 * Guards every request `session` (a session on the browser target) pauses. The handler is in
 * place when this returns its promise; the promise settles once interception is enabled.
 */
export async function guardFetches(
  session: CDPSession,
  allowlist: ReadonlySet<string>,
): Promise<FetchGuard> {
  let blocked = 0;
  session.on("Fetch.requestPaused", (event: Protocol.Fetch.RequestPausedEvent) => {
    const { requestId } = event;
    let reply: Promise<unknown>;
    if (event.responseStatusCode !== undefined || event.responseErrorReason !== undefined) {
      const headers = event.responseHeaders ?? [];
      const kept = headers.filter((h) => !BROWSER_FETCH_HEADERS.has(h.name.toLowerCase()));
      if (event.responseErrorReason !== undefined) {
        reply = session.send("Fetch.continueRequest", { requestId });
      } else if (kept.length === headers.length) {
        reply = session.send("Fetch.continueResponse", { requestId });
      } else {
        // Chromium takes a header override only together with the status line.
        const status = {
          responseCode: event.responseStatusCode ?? 200,
          responsePhrase: event.responseStatusText || undefined,
        };
        reply = session
          .send("Fetch.continueResponse", { requestId, ...status, responseHeaders: kept })
          // Never let the document through with those headers: fail it instead.
          .catch(() =>
            session.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" }),
          );
      }
    } else {
      const purpose = event.resourceType === "Document" ? "navigation" : "subresource";
      const verdict = checkUrl(event.request.url, purpose, allowlist);
      if (!verdict.ok) blocked++;
      reply = verdict.ok
        ? session.send("Fetch.continueRequest", { requestId })
        : session.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" });
    }
    // A request can vanish (page closed) between pause and reply: nothing to do then.
    reply.catch(() => {});
  });
  await session.send("Fetch.enable", {
    patterns: [
      { urlPattern: "*", requestStage: "Request" },
      { urlPattern: "*", resourceType: "Document", requestStage: "Response" },
    ],
  });
  return {
    get blocked() {
      return blocked;
    },
  };
}
