/**
 * Page preparation: viewport and emulation, cookies, hygiene, and the ONE request-interception
 * handler every request of the page goes through (URL guard, ad blocking, resource-type blocking,
 * custom headers). Also the network tracker the wait ladder reads.
 */
import type { HTTPRequest, Page } from "@cloudflare/puppeteer";
import { getDomain } from "tldts";
import { toBase64 } from "../encoding";
import { checkUrl, isBlockedRemoteAddress } from "../security/url-guard";
import { NetworkIdle, type IdleClock, type IdleThreshold, type RequestKey } from "./network-idle";
import { hardening } from "./hardening";
import type { CaptureSpec } from "./spec";

export interface RequestPolicy {
  allowlist: ReadonlySet<string>;
  /** Ad/tracker host test; applied when the spec blocks ads. */
  isAdHost: (hostname: string) => boolean;
  /**
   * Async check of every http(s) document navigation (frames and redirect hops included): DNS and
   * reputation (src/security/target-check.ts). Absent = none. Subresources are never awaited.
   */
  vetNavigation?: (url: URL, mainFrame: boolean) => Promise<"allow" | "blocked" | "unsafe">;
}

/**
 * What the page's network did: requests in flight for "network idle" (src/capture/network-idle.ts),
 * whether the main document answered, and anything that taints the capture.
 */
export class NetworkTracker {
  readonly network: NetworkIdle;
  started = 0;
  mainResponded = false;
  /** The HTTP status of the main document's latest response (the last redirect hop's target). */
  mainStatus: number | null = null;
  /** The main document's media type (`text/html`, `application/pdf`, …), lower-cased; null until it answers. */
  mainContentType: string | null = null;
  mainBlocked = false;
  /** With mainBlocked: the main navigation was refused as unsafe (UNSAFE_URL), not unreachable. */
  mainUnsafe = false;
  /** Why the page's output must not be used (e.g. a response from a blocked address), or null. */
  violation: string | null = null;

  /** Each request's key in `network`: its CDP request id where puppeteer exposes it. */
  private readonly keys = new WeakMap<object, RequestKey>();

  constructor(clock?: IdleClock) {
    this.network = new NetworkIdle(clock);
  }

  /**
   * A request started. Keyed by its CDP request id (`id`) where known: puppeteer can report one
   * request twice, as two objects with one id, and end only the second. Keyed by object, the
   * first stayed in flight for good: a page with a web font that failed (a 404 font, which
   * Chromium aborts) never reached networkidle0 and waited out its whole timeout.
   */
  onStart(request: object, resourceType: string, id: string | undefined): void {
    this.started++;
    const key = id ?? request;
    this.keys.set(request, key);
    this.network.start(key, resourceType);
  }
  /** Puppeteer reports the request finished or failed. */
  onEnd(request: object): void {
    this.network.end(this.keys.get(request) ?? request);
  }
  /** True when at most `max` requests have been in flight for the last 500 ms. */
  idle(max: IdleThreshold): boolean {
    return this.network.idle(max);
  }
}

/**
 * `blockResourceTypes` values → Chromium's resource types. "other" is what a page does not need
 * to render: beacons (ping), CSP reports, manifests, prefetches, signed exchanges and Chromium's
 * own "other" (favicons, <object>/<embed> data). Never the document, scripts, xhr/fetch,
 * websockets or event streams: blocking those changes what the page renders. Subtitle tracks
 * (texttrack) go with media.
 */
const RESOURCE_TYPE_GROUPS: Record<string, ReadonlySet<string>> = {
  font: new Set(["font"]),
  image: new Set(["image"]),
  media: new Set(["media", "texttrack"]),
  stylesheet: new Set(["stylesheet"]),
  other: new Set(["other", "manifest", "ping", "cspviolationreport", "prefetch", "signedexchange"]),
};

export async function preparePage(
  page: Page,
  spec: CaptureSpec,
  policy: RequestPolicy,
  defaultUserAgent: string,
): Promise<NetworkTracker> {
  const tracker = new NetworkTracker();
  const blockedTypes = new Set(
    spec.blockResourceTypes.flatMap((t) => [...(RESOURCE_TYPE_GROUPS[t] ?? [])]),
  );
  const target = spec.source.kind === "url" ? new URL(spec.source.url) : null;
  const targetHost = target?.hostname ?? null;
  const targetSite =
    targetHost === null
      ? null
      : (getDomain(targetHost, { allowPrivateDomains: true }) ?? targetHost);
  /** The target's own site is never "an ad host" for its page (capturing criteo.com works). */
  const firstParty = (host: string) =>
    targetSite !== null && (getDomain(host, { allowPrivateDomains: true }) ?? host) === targetSite;
  // URL credentials answer the target's origin only: sent with its requests as Basic auth
  // (puppeteer's page.authenticate would answer a 401 challenge from any origin, a third-party
  // <img> or frame included).
  const extraHeaders: Record<string, string> = Object.fromEntries(spec.headers);
  if (spec.credentials) extraHeaders.authorization = basicAuth(spec.credentials);
  const addsHeaders = Object.keys(extraHeaders).length > 0;
  const customerCookieDomains = spec.cookies.map((c) => c.domain);
  const sameSchemeAndPort = (url: URL) =>
    target !== null && url.protocol === target.protocol && url.port === target.port;

  const userAgent = spec.userAgent ?? defaultUserAgent;
  await Promise.all([
    page.setViewport(spec.viewport),
    spec.locale ? emulateLocale(page, spec.locale, userAgent) : page.setUserAgent(userAgent),
    page.emulateMediaFeatures([
      { name: "prefers-color-scheme", value: spec.darkMode ? "dark" : "light" },
      ...(spec.reducedMotion ? [{ name: "prefers-reduced-motion", value: "reduce" }] : []),
    ]),
    spec.mediaType ? page.emulateMediaType(spec.mediaType) : Promise.resolve(),
    spec.timezone ? page.emulateTimezone(spec.timezone) : Promise.resolve(),
    page.setBypassServiceWorker(true),
    page.setRequestInterception(true),
    page.evaluateOnNewDocument(hardening),
    spec.cookies.length > 0 ? page.setCookie(...spec.cookies) : Promise.resolve(),
  ]);
  // setContent writes into the current about:blank document, which no "new document" hook sees:
  // harden it directly (a URL navigation gets a new document, hardened by the hook). Not inside
  // the Promise.all: a mobile viewport (device presets) reloads about:blank, which would destroy
  // the context this runs in.
  if (spec.source.kind === "html") await page.evaluate(hardening);

  page.on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
  page.on("request", (request) => {
    tracker.onStart(request, request.resourceType(), requestId(request));
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      tracker.network.navigationStarted(request);
    void decide(request).catch(() => {});
  });
  page.on("requestfinished", (request) => tracker.onEnd(request));
  page.on("requestfailed", (request) => {
    tracker.onEnd(request);
    tracker.network.navigationFailed(request);
  });
  page.on("load", () => tracker.network.loaded());
  page.on("response", (response) => {
    const req = response.request();
    const main = req.isNavigationRequest() && req.frame() === page.mainFrame();
    // The address Chromium really connected to, against the guard's rules: a name that passed
    // our DNS check and then resolved to a private address (rebinding) taints the capture.
    const { ip, port } = response.remoteAddress();
    if (ip && port !== undefined && isBlockedRemoteAddress(ip, port, policy.allowlist)) {
      tracker.violation ??= `response from a blocked address (${ip}:${port}, ${response.url().slice(0, 200)})`;
      if (main) tracker.mainBlocked = true;
    }
    if (main) {
      tracker.mainResponded = true;
      tracker.mainStatus = response.status();
      const type = response.headers()["content-type"];
      tracker.mainContentType = type ? (type.split(";")[0] ?? "").trim().toLowerCase() : null;
    }
  });

  /** The one interception decision for every request the page makes. */
  async function decide(request: HTTPRequest): Promise<void> {
    const url = request.url();
    const navigation = request.isNavigationRequest();
    const verdict = checkUrl(url, navigation ? "navigation" : "subresource", policy.allowlist);
    if (!verdict.ok) {
      if (navigation && request.frame() === page.mainFrame()) tracker.mainBlocked = true;
      return request.abort("blockedbyclient");
    }
    const scheme = verdict.url.protocol;
    if (scheme !== "http:" && scheme !== "https:") return request.continue();
    const host = verdict.url.hostname;
    if (!navigation || request.frame() !== page.mainFrame()) {
      if (spec.blockAds && policy.isAdHost(host) && !firstParty(host))
        return request.abort("blockedbyclient");
      if (blockedTypes.has(request.resourceType())) return request.abort("blockedbyclient");
    }
    if (navigation && policy.vetNavigation) {
      const main = request.frame() === page.mainFrame();
      const vet = await policy.vetNavigation(verdict.url, main).catch(() => "blocked" as const);
      if (vet !== "allow") {
        if (main) {
          tracker.mainBlocked = true;
          tracker.mainUnsafe = vet === "unsafe";
        }
        return request.abort("blockedbyclient");
      }
    }
    // Custom headers go to the target's origin only (scheme, host and port), never to third
    // parties nor to another port of the same host; redirect hops are decided afresh.
    if (target !== null && verdict.url.origin === target.origin) {
      return addsHeaders
        ? request.continue({ headers: { ...request.headers(), ...extraHeaders } })
        : request.continue();
    }
    // Cookies are scoped by host, not port or scheme (Chromium 156 does not bind them to ports):
    // the customer's cookies would also reach another origin under their domain. Empty the
    // Cookie header there (the override replaces what the cookie jar would add).
    if (
      customerCookieDomains.some((d) => host === d || host.endsWith(`.${d}`)) &&
      !sameSchemeAndPort(verdict.url)
    ) {
      return request.continue({ headers: { ...request.headers(), cookie: "" } });
    }
    return request.continue();
  }

  return tracker;
}

/** An `Authorization` header value for HTTP Basic (RFC 7617: user-id ":" password, UTF-8). */
function basicAuth({ username, password }: { username: string; password: string }): string {
  return `Basic ${toBase64(new TextEncoder().encode(`${username}:${password}`))}`;
}

/**
 * Puppeteer's id of a request: CDP's Network requestId. Every request has it; puppeteer leaves it
 * out of its public types (pinned version; test/integration/network-idle.test.ts fails without it).
 */
function requestId(request: HTTPRequest): string | undefined {
  const { id } = request as unknown as { id?: unknown };
  return typeof id === "string" ? id : undefined;
}

/**
 * `locale`: Intl defaults (Emulation.setLocaleOverride), and navigator.language(s) with the
 * Accept-Language header (the user-agent override's acceptLanguage). Both live on a session of
 * ours that stays attached for the page's life; the user agent is set there too, in the same
 * override, instead of through puppeteer (two sessions' overrides would compete).
 */
async function emulateLocale(page: Page, locale: string, userAgent: string): Promise<void> {
  const session = await page.createCDPSession();
  await Promise.all([
    session.send("Network.setUserAgentOverride", { userAgent, acceptLanguage: locale }),
    session.send("Emulation.setLocaleOverride", { locale }),
  ]);
}
