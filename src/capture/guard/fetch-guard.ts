/**
 * The browser guard's request half (./browser-guard.ts): Fetch interception on the browser
 * target pauses every request of every target — prefetches, a pop-up's first navigation, targets
 * created behind our back — and applies the URL guard. Document responses are paused too, to
 * strip the headers that make the BROWSER process fetch later, outside every interception layer
 * (Speculation-Rules, Reporting/NEL).
 *
 * Every response to a host name is held until the browser has said where it connected
 * (./response-addresses.ts): one from outside the public address space (a name whose DNS points
 * at a private address, or rebinds to one after our check) is failed before any page, frame or
 * worker sees a byte of it, and taints its capture. The request itself has left by then: that
 * blind request is the residual (docs/SECURITY.md).
 *
 * An HTML document's body is read on its way (./document-marks.ts) and its declarative shadow
 * roots marked, so the page's hardening sees every root before anything in it runs — on every
 * host but an allowlisted `host:port` (local fixtures: a document answered by the guard loses
 * its address space, and with it Local Network Access to its sibling local origins).
 */
import type { CDPSession } from "@cloudflare/puppeteer";
import type { Protocol } from "devtools-protocol";
import { log } from "../../log";
import {
  addressSpaceRefusal,
  checkUrl,
  isAllowlisted,
  needsAddressCheck,
} from "../../security/url-guard";
import { markDocument, mayHoldTemplates } from "./document-marks";
import type { ResponseAddresses } from "./response-addresses";

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

/**
 * How long a held response waits for its address report. The network service sends it before
 * the response (measured: a few ms); one that never comes fails closed.
 */
const ADDRESS_REPORT_WAIT_MS = 2_000;

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
  addresses: ResponseAddresses,
): Promise<FetchGuard> {
  let blocked = 0;
  const fail = (requestId: string) =>
    session.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" });

  /** A response: refused if it came from outside the public space, else on its way. */
  async function onResponse(event: Protocol.Fetch.RequestPausedEvent): Promise<unknown> {
    const { requestId, networkId } = event;
    if (event.responseErrorReason !== undefined) {
      if (networkId !== undefined) addresses.drop(networkId);
      return session.send("Fetch.continueRequest", { requestId });
    }
    const url = new URL(event.request.url);
    if (needsAddressCheck(url, allowlist)) {
      const report =
        networkId === undefined ? null : await addresses.take(networkId, ADDRESS_REPORT_WAIT_MS);
      const refusal =
        report === null
          ? "no address reported for the response"
          : addressSpaceRefusal(report.space, url, allowlist);
      if (refusal !== null) {
        blocked++;
        if (report === null)
          log("warn", "browser guard: a held response got no address report", {
            origin: url.origin,
          });
        addresses.taint(report?.contextId, `${refusal}, ${event.request.url.slice(0, 200)}`);
        return fail(requestId);
      }
    }
    const headers = event.responseHeaders ?? [];
    const kept = headers.filter((h) => !BROWSER_FETCH_HEADERS.has(h.name.toLowerCase()));
    const stripped = kept.length !== headers.length;
    if (
      event.resourceType === "Document" &&
      !isAllowlisted(url, allowlist) &&
      mayHoldTemplates(event.responseStatusCode ?? 200, kept)
    ) {
      const verdict = await markDocument(session, event, stripped ? kept : null).catch(
        () => "failed" as const,
      );
      if (verdict !== "too-large" && verdict !== "failed") return;
      blocked++;
      return fail(requestId);
    }
    if (!stripped) return session.send("Fetch.continueResponse", { requestId });
    // Chromium takes a header override only together with the status line.
    const status = {
      responseCode: event.responseStatusCode ?? 200,
      responsePhrase: event.responseStatusText || undefined,
    };
    return (
      session
        .send("Fetch.continueResponse", { requestId, ...status, responseHeaders: kept })
        // Never let the document through with those headers: fail it instead.
        .catch(() => fail(requestId))
    );
  }

  session.on("Fetch.requestPaused", (event: Protocol.Fetch.RequestPausedEvent) => {
    const { requestId } = event;
    let reply: Promise<unknown>;
    if (event.responseStatusCode !== undefined || event.responseErrorReason !== undefined) {
      reply = onResponse(event);
    } else {
      const purpose = event.resourceType === "Document" ? "navigation" : "subresource";
      const verdict = checkUrl(event.request.url, purpose, allowlist);
      if (!verdict.ok) {
        blocked++;
        reply = fail(requestId);
      } else if (needsAddressCheck(verdict.url, allowlist)) {
        if (event.networkId !== undefined) addresses.expect(event.networkId);
        reply = session.send("Fetch.continueRequest", { requestId, interceptResponse: true });
      } else {
        reply = session.send("Fetch.continueRequest", { requestId });
      }
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
