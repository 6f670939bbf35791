/**
 * Page preparation: viewport and emulation, cookies, hygiene, and the ONE request-interception
 * handler every request of the page goes through (URL guard, ad blocking, resource-type blocking,
 * custom headers). Also the network tracker the wait ladder reads.
 */
import type { HTTPRequest, Page } from "@cloudflare/puppeteer";
import { getDomain } from "tldts";
import { checkUrl } from "../security/url-guard";
import { hardening } from "./page-scripts";
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

/** Counts requests in flight so "network idle" can be judged after a navigation timed out. */
export class NetworkTracker {
  inFlight = 0;
  started = 0;
  private idleSince: { 0: number | null; 2: number | null } = { 0: Date.now(), 2: Date.now() };
  mainResponded = false;
  mainBlocked = false;
  /** With mainBlocked: the main navigation was refused as unsafe (UNSAFE_URL), not unreachable. */
  mainUnsafe = false;

  onStart(): void {
    this.inFlight++;
    this.started++;
    this.update();
  }
  onEnd(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.update();
  }
  /** True when at most `max` requests have been in flight for the last `quietMs`. */
  idle(max: 0 | 2, quietMs = 500): boolean {
    const since = this.idleSince[max];
    return since !== null && Date.now() - since >= quietMs;
  }
  private update(): void {
    const now = Date.now();
    for (const max of [0, 2] as const) {
      if (this.inFlight <= max) this.idleSince[max] ??= now;
      else this.idleSince[max] = null;
    }
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

export async function preparePage(page: Page, spec: CaptureSpec, policy: RequestPolicy, defaultUserAgent: string): Promise<NetworkTracker> {
  const tracker = new NetworkTracker();
  const blockedTypes = new Set(spec.blockResourceTypes.flatMap((t) => [...(RESOURCE_TYPE_GROUPS[t] ?? [])]));
  const targetHost = spec.source.kind === "url" ? new URL(spec.source.url).hostname : null;
  const targetSite = targetHost === null ? null : (getDomain(targetHost, { allowPrivateDomains: true }) ?? targetHost);
  /** The target's own site is never "an ad host" for its page (capturing criteo.com works). */
  const firstParty = (host: string) => targetSite !== null && (getDomain(host, { allowPrivateDomains: true }) ?? host) === targetSite;
  const extraHeaders = Object.fromEntries(spec.headers);

  await Promise.all([
    page.setViewport(spec.viewport),
    page.setUserAgent(spec.userAgent ?? defaultUserAgent),
    page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: spec.darkMode ? "dark" : "light" }]),
    page.setBypassServiceWorker(true),
    page.setRequestInterception(true),
    page.evaluateOnNewDocument(hardening),
    spec.cookies.length > 0 ? page.setCookie(...spec.cookies) : Promise.resolve(),
    spec.credentials ? page.authenticate(spec.credentials) : Promise.resolve(),
  ]);
  // setContent writes into the current about:blank document, which no "new document" hook sees:
  // harden it directly (a URL navigation gets a new document, hardened by the hook). Not inside
  // the Promise.all: a mobile viewport (device presets) reloads about:blank, which would destroy
  // the context this runs in.
  if (spec.source.kind === "html") await page.evaluate(hardening);

  page.on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
  page.on("request", (request) => {
    tracker.onStart();
    void decide(request).catch(() => {});
  });
  page.on("requestfinished", () => tracker.onEnd());
  page.on("requestfailed", () => tracker.onEnd());
  page.on("response", (response) => {
    const req = response.request();
    if (req.isNavigationRequest() && req.frame() === page.mainFrame()) tracker.mainResponded = true;
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
      if (spec.blockAds && policy.isAdHost(host) && !firstParty(host)) return request.abort("blockedbyclient");
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
    // Custom headers go to the target host only, never to third parties.
    if (targetHost !== null && host === targetHost && spec.headers.length > 0) {
      return request.continue({ headers: { ...request.headers(), ...extraHeaders } });
    }
    return request.continue();
  }

  return tracker;
}
