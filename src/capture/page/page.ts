/**
 * Page preparation: viewport and emulation, cookies, hygiene, the page's request decisions
 * (./page-requests.ts: the main document, navigation vetting, ad and resource-type blocking,
 * custom headers and cookie scoping), and the network tracker the wait ladder reads.
 */
import type { CDPSession, Handler, HTTPRequest, Page, PageEvents } from "@cloudflare/puppeteer";
import type { Protocol } from "devtools-protocol";
import { isBlockedRemoteAddress } from "../../security/url-guard";
import { NetworkIdle, type IdleClock, type IdleThreshold, type RequestKey } from "./network-idle";
import { hardening } from "../guard/hardening";
import { mainFrameId, onMainFrameNavigationAsked, pageClient } from "./page-client";
import { interceptPageRequests, pausedRequests, type RequestPolicy } from "./page-requests";
import { keepReadScripts } from "./page-kit";
import type { CaptureSpec } from "../capture-spec";

/**
 * What the page's network did: requests in flight for "network idle" (src/capture/page/network-idle.ts),
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
  /**
   * Subresource requests that failed: a network error, or an HTTP status of 400 or more. Not the
   * ones the capture refused itself (ads, blocked resource types, the guard: BlockedByClient).
   * Each counts once, by its key (a 404 can be both a response and a failure, or be reported
   * twice).
   */
  private readonly failures = new Set<RequestKey>();
  /**
   * The page's own requests, each once: not the browser's favicon fetch, which every page gets
   * after load and which is no part of what it shows (the completeness report counts these).
   */
  private readonly pageRequests = new Set<RequestKey>();
  /** Requests to ad and tracker hosts refused (`blockAds`, ./page-requests.ts). */
  adsBlocked = 0;

  /** What takes this capture's listeners off the page again (`detach`). */
  private readonly listeners: Array<() => void> = [];

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
  onStart(request: object, resourceType: string, id: string | undefined, url?: string): void {
    this.started++;
    const key = id ?? request;
    this.keys.set(request, key);
    this.network.start(key, resourceType, url);
    if (!isFavicon(resourceType, url)) this.pageRequests.add(key);
  }
  /** The request failed (a network error, an HTTP error status). */
  onFailed(request: object): void {
    const key = this.keys.get(request) ?? request;
    if (this.pageRequests.has(key)) this.failures.add(key);
  }
  /** How many requests of the page's own have started so far. */
  get pageRequestCount(): number {
    return this.pageRequests.size;
  }
  /**
   * The page's own requests in flight (not the browser's favicon fetch, which can outlast a page
   * that has nothing else to load): the report's `pendingRequests`.
   */
  get pendingPageRequests(): number {
    if (this.network.pending === 0) return 0;
    let n = 0;
    for (const key of this.pageRequests) if (this.network.inFlightNow(key)) n++;
    return n;
  }
  get failed(): number {
    return this.failures.size;
  }
  /** Puppeteer reports the request finished or failed. */
  onEnd(request: object): void {
    this.network.end(this.keys.get(request) ?? request);
  }
  /** `off` takes one of the capture's listeners off the page (`detach`). */
  onDetach(off: () => void): void {
    this.listeners.push(off);
  }
  /**
   * Takes the capture's listeners off its page: a page kept for its lane's next capture
   * (../host/lane-pages.ts) reports to that capture's tracker only.
   */
  detach(): void {
    for (const off of this.listeners.splice(0)) off();
  }
  /** True when at most `max` requests have been in flight for the last 500 ms. */
  idle(max: IdleThreshold): boolean {
    return this.network.idle(max);
  }
}

/** The browser's own favicon fetch (type Other, /favicon.ico), not one of the page's requests. */
function isFavicon(resourceType: string, url: string | undefined): boolean {
  return (
    resourceType === "other" && url !== undefined && /^[^?#]*\/favicon\.ico(?:[?#]|$)/i.test(url)
  );
}

/**
 * The settings a page can be given before its capture is known, and a capture shares with the
 * one before it on the same browser as a rule: what the spare page is primed with
 * (../host/blank-page.ts), and what a capture on a primed page sends only where it differs.
 */
export interface PageSettings {
  viewport: CaptureSpec["viewport"];
  userAgent: string;
  media: Array<{ name: string; value: string }>;
  mediaType: CaptureSpec["mediaType"];
  /** What the page's own interception pauses (./page-requests.ts). */
  paused: Protocol.Fetch.RequestPattern[];
  /** The page's article or content is read: the read scripts are kept in its documents (./page-kit.ts). */
  reads: boolean;
}

export function pageSettings(
  spec: CaptureSpec,
  policy: RequestPolicy,
  defaultUserAgent: string,
): PageSettings {
  return {
    viewport: spec.viewport,
    userAgent: spec.userAgent ?? defaultUserAgent,
    media: [
      { name: "prefers-color-scheme", value: spec.darkMode ? "dark" : "light" },
      ...(spec.reducedMotion ? [{ name: "prefers-reduced-motion", value: "reduce" }] : []),
    ],
    mediaType: spec.mediaType,
    paused: pausedRequests(spec, policy),
    reads: spec.outputs.article || spec.outputs.content !== null,
  };
}

/**
 * Applies `settings` to `page` (and `session`, ours on it), each only where it differs from what
 * the page was primed with (`primed`; null = nothing, all of them). A spare primed with the
 * settings of the capture before it (which most captures share) navigates without a CDP round
 * trip first.
 */
export async function applySettings(
  page: Page,
  session: CDPSession,
  settings: PageSettings,
  primed: PageSettings | null,
): Promise<void> {
  const differs = <K extends keyof PageSettings>(key: K) =>
    primed === null || JSON.stringify(primed[key]) !== JSON.stringify(settings[key]);
  await Promise.all([
    differs("viewport") ? page.setViewport(settings.viewport) : null,
    differs("userAgent") ? page.setUserAgent(settings.userAgent) : null,
    // One command for both: each Emulation.setEmulatedMedia replaces the media type and every
    // media feature (measured on Chromium 156), so puppeteer's two separate calls undid each
    // other, whichever landed last.
    differs("media") || differs("mediaType")
      ? pageClient(page).send("Emulation.setEmulatedMedia", {
          media: settings.mediaType ?? "",
          features: settings.media,
        })
      : null,
    differs("paused") ? session.send("Fetch.enable", { patterns: settings.paused }) : null,
    differs("reads") ? keepReadScripts(pageClient(page), settings.reads) : null,
    ...(primed === null
      ? [
          page.setBypassServiceWorker(true),
          // As under puppeteer's request interception, which this page used before: no HTTP
          // cache (the context is the capture's own either way), so every capture fetches what
          // it shows.
          page.setCacheEnabled(false),
          page.evaluateOnNewDocument(hardening),
        ]
      : []),
  ]);
}

/**
 * Prepares `page` for `spec`; `session` is ours on the page, kept for its life; `settings` are
 * `pageSettings(spec, …)`, built once by the caller. A primed page (`primed`, ../host/blank-page.ts)
 * has the hygiene every capture gets (no service workers, no HTTP cache, the hardening script)
 * and the settings it was primed with; the rest is sent here.
 */
export async function preparePage(
  page: Page,
  session: CDPSession,
  spec: CaptureSpec,
  policy: RequestPolicy,
  settings: PageSettings,
  primed: PageSettings | null,
): Promise<NetworkTracker> {
  const tracker = new NetworkTracker();
  // The handler is in place before the settings enable the pauses it decides.
  tracker.onDetach(interceptPageRequests(session, () => mainFrameId(page), spec, policy, tracker));
  await Promise.all([
    applySettings(page, session, settings, primed),
    spec.locale ? emulateLocale(session, spec.locale, settings.userAgent) : null,
    spec.timezone ? page.emulateTimezone(spec.timezone) : null,
    spec.cookies.length > 0 ? page.setCookie(...spec.cookies) : null,
  ]);
  // setContent writes into the current about:blank document, which no "new document" hook sees:
  // harden it directly (a URL navigation gets a new document, hardened by the hook). Not inside
  // the Promise.all: a mobile viewport (device presets) reloads about:blank, which would destroy
  // the context this runs in.
  if (spec.source.kind === "html") await page.evaluate(hardening);

  const on = <E extends keyof PageEvents>(event: E, handler: Handler<PageEvents[E]>) => {
    page.on(event, handler);
    tracker.onDetach(() => void page.off(event, handler));
  };
  on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
  on("request", (request) => {
    tracker.onStart(request, request.resourceType(), requestId(request), request.url());
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      tracker.network.navigationStarted(request);
  });
  on("requestfinished", (request) => tracker.onEnd(request));
  on("requestfailed", (request) => {
    tracker.onEnd(request);
    if (!/BLOCKED_BY_CLIENT/.test(request.failure()?.errorText ?? "")) tracker.onFailed(request);
    tracker.network.navigationFailed(request);
  });
  tracker.onDetach(onMainFrameNavigationAsked(page, (ask) => tracker.network.navigationAsked(ask)));
  on("load", () => tracker.network.loaded());
  on("response", (response) => {
    const req = response.request();
    const main = req.isNavigationRequest() && req.frame() === page.mainFrame();
    // The address Chromium really connected to, against the guard's rules: a name that passed
    // our DNS check and then resolved to a private address (rebinding) taints the capture.
    const { ip, port } = response.remoteAddress();
    if (ip && port !== undefined && isBlockedRemoteAddress(ip, port, policy.allowlist)) {
      tracker.violation ??= `response from a blocked address (${ip}:${port}, ${response.url().slice(0, 200)})`;
      if (main) tracker.mainBlocked = true;
    }
    if (!main && response.status() >= 400) tracker.onFailed(req);
    if (main) {
      tracker.mainResponded = true;
      tracker.mainStatus = response.status();
      const type = response.headers()["content-type"];
      tracker.mainContentType = type ? (type.split(";")[0] ?? "").trim().toLowerCase() : null;
    }
  });

  return tracker;
}

/**
 * Puppeteer's id of a request: CDP's Network requestId. Every request has it; puppeteer leaves it
 * out of its public types (pinned version; test/capture/network-idle.test.ts fails without it).
 */
function requestId(request: HTTPRequest): string | undefined {
  const { id } = request as unknown as { id?: unknown };
  return typeof id === "string" ? id : undefined;
}

/**
 * `locale`: Intl defaults (Emulation.setLocaleOverride), and navigator.language(s) with the
 * Accept-Language header (the user-agent override's acceptLanguage). Both live on our session,
 * attached for the page's life. The override carries the same user agent as puppeteer's session
 * (./page.ts's settings): Chromium applies every session's override, and only this one names a
 * language (test/capture/capture-options.test.ts, "timezone and locale").
 */
async function emulateLocale(
  session: CDPSession,
  locale: string,
  userAgent: string,
): Promise<void> {
  await Promise.all([
    session.send("Network.setUserAgentOverride", { userAgent, acceptLanguage: locale }),
    session.send("Emulation.setLocaleOverride", { locale }),
  ]);
}
