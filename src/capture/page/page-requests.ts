/**
 * The page's own request decisions, the ones only a capture can make: refusing the main document
 * (so the capture knows why it failed), DNS and reputation vetting of every document navigation,
 * ad and resource-type blocking, the customer's headers to the target's origin only and their
 * cookies kept off other origins.
 *
 * Driven through Fetch on a session of ours rather than puppeteer's request interception, which
 * pauses every request: here a request pauses only when one of those decisions can apply to it.
 * The Fetch patterns select documents, the blocked resource types, and URLs containing a listed
 * ad host or a host the customer's headers or cookies concern — a superset, decided exactly
 * below. Every request, paused here or not, also pauses once at the browser-wide guard
 * (../guard/fetch-guard.ts), which applies the URL guard to every request of every target (and holds
 * each response to a host name until its address is known); the URL check is repeated here only
 * for what this layer lets through.
 */
import type { CDPSession } from "@cloudflare/puppeteer";
import type { Protocol } from "devtools-protocol";
import { toBase64 } from "../../encoding";
import { siteOf } from "../../hosts";
import { checkUrl } from "../../security/url-guard";
import type { CaptureSpec } from "../capture-spec";

export interface RequestPolicy {
  allowlist: ReadonlySet<string>;
  /** Ad/tracker host test; applied when the spec blocks ads. */
  isAdHost: (hostname: string) => boolean;
  /** The hosts `isAdHost` lists (each with its subdomains): what page interception pauses. */
  adHosts: readonly string[];
  /**
   * Async check of every http(s) document navigation (frames and redirect hops included): DNS and
   * reputation (src/security/target-check.ts). Absent = none. Subresources are never awaited.
   */
  vetNavigation?: (url: URL, mainFrame: boolean) => Promise<"allow" | "blocked" | "unsafe">;
}

/**
 * Where the page learns that its main document was refused, and why, and how many ad requests
 * were (./page.ts's tracker).
 */
export interface RefusalCounts {
  mainBlocked: boolean;
  /** With mainBlocked: refused as unsafe (UNSAFE_URL), not unreachable. */
  mainUnsafe: boolean;
  adsBlocked: number;
}

/**
 * `blockResourceTypes` values → the resource types Chromium's Fetch interception gives requests:
 * its own set, coarser than the Network domain's (measured on Chromium 156: text tracks are
 * Media; manifests, favicons and `<object>` data Other; fetch() and EventSource XHR; a
 * `<link rel=prefetch>` Fetch, with `Sec-Purpose: prefetch`). "other" is what a page does not
 * need to render: beacons (Ping), CSP reports, prefetches and Chromium's own "other". Never the
 * document, scripts, XHR/fetch or event streams: blocking those changes what the page renders.
 */
const RESOURCE_TYPE_GROUPS: Record<string, readonly Protocol.Network.ResourceType[]> = {
  font: ["Font"],
  image: ["Image"],
  media: ["Media"],
  stylesheet: ["Stylesheet"],
  other: ["Other", "Ping", "CSPViolationReport", "Fetch"],
};

/** A request of type `Fetch` counts as one only when it is a prefetch (see above). */
function typeOf(event: Protocol.Fetch.RequestPausedEvent): Protocol.Network.ResourceType | null {
  if (event.resourceType !== "Fetch") return event.resourceType;
  const purpose = Object.entries(event.request.headers).find(([name]) =>
    /^(sec-)?purpose$/i.test(name),
  )?.[1];
  return purpose?.toLowerCase().includes("prefetch") ? "Fetch" : null;
}

type Decision =
  | { kind: "continue"; headers?: Record<string, string> }
  | { kind: "block"; main: boolean; unsafe?: boolean; ad?: true };

/**
 * The requests a capture of `spec` pauses: documents, the blocked resource types, and URLs
 * containing a listed ad host or a host the customer's headers or cookies concern.
 */
export function pausedRequests(
  spec: CaptureSpec,
  policy: RequestPolicy,
): Protocol.Fetch.RequestPattern[] {
  const target = targetOf(spec);
  const addsHeaders = Object.keys(extraHeadersOf(spec)).length > 0;
  const hosts = [
    ...(spec.blockAds ? policy.adHosts : []),
    ...(addsHeaders && target !== null ? [target.hostname] : []),
    ...spec.cookies.map((c) => c.domain),
  ];
  return [
    { urlPattern: "*", resourceType: "Document", requestStage: "Request" },
    ...[...blockedTypesOf(spec)].map((resourceType) => ({
      urlPattern: "*",
      resourceType,
      requestStage: "Request" as const,
    })),
    ...[...new Set(hosts)].map((host) => ({
      urlPattern: `*${escapePattern(host)}*`,
      requestStage: "Request" as const,
    })),
  ];
}

/** The URL the capture loads; null for inline HTML or Markdown. */
function targetOf(spec: CaptureSpec): URL | null {
  return spec.source.kind === "url" ? new URL(spec.source.url) : null;
}

/**
 * The headers the customer's requests to the target's origin get: their `headers`, and URL
 * credentials as Basic auth — for the target's origin only (puppeteer's page.authenticate would
 * answer a 401 challenge from any origin, a third-party <img> or frame included).
 */
function extraHeadersOf(spec: CaptureSpec): Record<string, string> {
  const headers: Record<string, string> = Object.fromEntries(spec.headers);
  if (spec.credentials) headers.authorization = basicAuth(spec.credentials);
  return headers;
}

function blockedTypesOf(spec: CaptureSpec): Set<Protocol.Network.ResourceType> {
  return new Set(spec.blockResourceTypes.flatMap((t) => [...(RESOURCE_TYPE_GROUPS[t] ?? [])]));
}

/**
 * Decides the page's paused requests, on `session` (a session of ours on the page target, kept
 * for the page's life): what `pausedRequests(spec)` selects, once `Fetch.enable` is sent with it
 * (./page.ts's settings; a primed page has it already). `mainFrameId` reads the page's main frame
 * id when a request pauses. Returns what takes the handler off again (a page kept for its lane's
 * next capture, ../host/lane-pages.ts, gets that capture's handler instead).
 */
export function interceptPageRequests(
  session: CDPSession,
  mainFrameId: () => string | undefined,
  spec: CaptureSpec,
  policy: RequestPolicy,
  tracker: RefusalCounts,
): () => void {
  const blockedTypes = blockedTypesOf(spec);
  const target = targetOf(spec);
  const targetSite = target === null ? null : siteOf(target.hostname);
  /** The target's own site is never "an ad host" for its page (capturing criteo.com works). */
  const firstParty = (host: string) => targetSite !== null && siteOf(host) === targetSite;
  const extraHeaders = extraHeadersOf(spec);
  const addsHeaders = Object.keys(extraHeaders).length > 0;
  const cookieDomains = spec.cookies.map((c) => c.domain);
  const sameSchemeAndPort = (url: URL) =>
    target !== null && url.protocol === target.protocol && url.port === target.port;

  /** The one decision for a paused request. */
  async function decide(event: Protocol.Fetch.RequestPausedEvent): Promise<Decision> {
    const navigation = event.resourceType === "Document";
    const main = navigation && event.frameId === mainFrameId();
    const verdict = checkUrl(
      event.request.url,
      navigation ? "navigation" : "subresource",
      policy.allowlist,
    );
    if (!verdict.ok) return { kind: "block", main };
    const scheme = verdict.url.protocol;
    if (scheme !== "http:" && scheme !== "https:") return { kind: "continue" };
    const host = verdict.url.hostname;
    if (!main) {
      if (spec.blockAds && policy.isAdHost(host) && !firstParty(host))
        return { kind: "block", main, ad: true };
      const type = typeOf(event);
      if (type !== null && blockedTypes.has(type)) return { kind: "block", main };
    }
    if (navigation && policy.vetNavigation) {
      const vet = await policy.vetNavigation(verdict.url, main).catch(() => "blocked" as const);
      if (vet !== "allow") return { kind: "block", main, unsafe: vet === "unsafe" };
    }
    // Custom headers go to the target's origin only (scheme, host and port), never to third
    // parties nor to another port of the same host; redirect hops are decided afresh.
    if (target !== null && verdict.url.origin === target.origin) {
      return addsHeaders ? { kind: "continue", headers: extraHeaders } : { kind: "continue" };
    }
    // Cookies are scoped by host, not port or scheme (Chromium 156 does not bind them to ports):
    // the customer's cookies would also reach another origin under their domain. Empty the
    // Cookie header there (the override replaces what the cookie jar would add).
    if (
      cookieDomains.some((d) => host === d || host.endsWith(`.${d}`)) &&
      !sameSchemeAndPort(verdict.url)
    ) {
      return { kind: "continue", headers: { cookie: "" } };
    }
    return { kind: "continue" };
  }

  const onPaused = (event: Protocol.Fetch.RequestPausedEvent) => {
    const { requestId } = event;
    void decide(event)
      .catch((): Decision => ({ kind: "block", main: false }))
      .then((decision) => {
        if (decision.kind === "block") {
          if (decision.ad) tracker.adsBlocked++;
          if (decision.main) {
            tracker.mainBlocked = true;
            if (decision.unsafe !== undefined) tracker.mainUnsafe = decision.unsafe;
          }
          return session.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" });
        }
        if (!decision.headers) return session.send("Fetch.continueRequest", { requestId });
        // The override replaces the request's headers: the page's own, by lower-cased name (as
        // Chromium sends them), with ours on top.
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(event.request.headers))
          headers[name.toLowerCase()] = value;
        Object.assign(headers, decision.headers);
        return session.send("Fetch.continueRequest", {
          requestId,
          headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
        });
      })
      // A request can vanish (page closed, navigation replaced) between pause and reply.
      .catch(() => {});
  };
  session.on("Fetch.requestPaused", onPaused);
  return () => void session.off("Fetch.requestPaused", onPaused);
}

/** `text` as a literal in a Fetch URL pattern (`*` and `?` are wildcards, `\` escapes). */
function escapePattern(text: string): string {
  return text.replace(/[\\*?]/g, (c) => `\\${c}`);
}

/** An `Authorization` header value for HTTP Basic (RFC 7617: user-id ":" password, UTF-8). */
function basicAuth({ username, password }: { username: string; password: string }): string {
  return `Basic ${toBase64(new TextEncoder().encode(`${username}:${password}`))}`;
}
