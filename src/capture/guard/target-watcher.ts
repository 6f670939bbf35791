/**
 * The browser guard's target half (./browser-guard.ts).
 *
 * A target watcher: each capture's page is auto-attached with everything related to it
 * (dedicated and nested workers, out-of-process frames), and shared workers browser-wide, every
 * one paused before its first script. Workers get the socket hardening before they run (frames
 * get theirs from the page's new-document script); every attached target reports its responses,
 * so a response from a blocked address (DNS rebinding) or a URL the guard refuses is seen; the
 * page reports speculative loads (Preload domain) and has prerendering switched off.
 *
 * Fail closed: every target the browser creates is discovered; in a capture's context, one the
 * guard did not harden (a page the guard was not given — a pop-up by any API —, a service worker,
 * a worklet target outside HARDENED_TYPES) is closed before it is resumed and taints the capture.
 *
 * A context usually holds one capture's page. A crawl's lane holds several (../host/lane-pages.ts):
 * they are all opened, and all given to the watcher, before any of them loads anything, so a page
 * that appears in the context later is a pop-up whichever page opened it; and what one of them
 * does wrong taints the context, every page in it.
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import type { Protocol } from "devtools-protocol";
import { checkUrl, isBlockedRemoteAddress } from "../../security/url-guard";
import { pageClient } from "../page/page-client";
import type { ResponseAddresses } from "./response-addresses";
import { workerHardening } from "./socket-lock";

/**
 * Targets in a capture's context that the guard hardens or that cannot reach the network: frames
 * (the page's new-document script), workers (hardened while paused, below), audio worklets (a
 * "worklet" target: its global scope has no fetch, socket or worker API, and its modules are
 * fetched by the document, through the browser-wide Fetch guard), and the window's own browser
 * UI. Any other target there — a second page (a pop-up by whatever API, noopener or not), a service
 * worker, a Shared Storage or auction worklet, a prerender — ran or would run script the guard did
 * not prepare: it taints the capture and is closed.
 */
const HARDENED_TYPES = new Set([
  "iframe",
  "worker",
  "shared_worker",
  "worklet",
  "browser_ui",
  "tab",
]);

/** Targets the watcher attaches to: a capture's page and what it spawns. */
const RELATED: Protocol.Target.TargetFilter = [
  ...["page", "iframe", "worker", "shared_worker"].map((type) => ({ type })),
  { exclude: true },
];
/** Below an attached target: its children (workers of workers, frames of frames). */
const CHILDREN: Protocol.Target.TargetFilter = RELATED.filter((f) => f.type !== "page");

/** The watch on one capture's browser context. */
export interface ContextWatch {
  /** Settles once the page is attached: await it before the page navigates. */
  ready: Promise<void>;
  /** Why the context's output must not be used (first violation seen), or null. */
  violation(): string | null;
  /** Stop recording for this context (its targets are closed with it). */
  end(): void;
}

/**
 * CDP commands newer than the protocol typings we build against (Target.autoAttachRelated and
 * friends exist in every Chromium this runs on). Sent untyped, in one place.
 */
type RawSend = (method: string, params?: object) => Promise<unknown>;
const raw = (session: CDPSession): RawSend => session.send.bind(session) as unknown as RawSend;

/**
 * Told of every frame and worker attached in a watched context, while it is still paused before
 * its first script; the target is resumed once the returned promise settles (../host/cpu-share.ts).
 */
export type RealmHook = (contextId: string | undefined, session: CDPSession) => Promise<void>;

/** The browser-target sessions the watcher works through, one role each. */
export interface WatcherSessions {
  /** The sessions' connection: attached targets are reached through it. */
  connection: NonNullable<ReturnType<CDPSession["connection"]>>;
  /** Auto-attaches each watched page's related targets; closes targets. */
  related: CDPSession;
  /** Auto-attaches every shared worker (they are not "related" to the page that made them). */
  shared: CDPSession;
  /** Announced every target the browser creates, attached or not. */
  discovery: CDPSession;
}

export interface TargetWatcher {
  /**
   * Attach to the page (and everything it spawns); the capture awaits `ready` before navigating.
   * Every page of a context is watched before any of them loads (above).
   */
  watch(page: Page, browserContextId: string): ContextWatch;
  /** Record a violation of a watched context seen elsewhere (a refused held response). */
  taint(contextId: string | undefined, reason: string): void;
}

/**
 * Starts watching through `sessions`. The handlers are in place when this returns its promise;
 * the promise settles once discovery and auto-attach are on.
 */
export async function watchTargets(
  { connection, related, shared, discovery }: WatcherSessions,
  allowlist: ReadonlySet<string>,
  onRealm: RealmHook,
  addresses: ResponseAddresses,
): Promise<TargetWatcher> {
  const violations = new Map<string, string[]>();
  /** Each watched context's capture pages (each once its target id is known). */
  const capturePages = new Map<string, Set<string>>();
  /** Each watched context's watches not yet ended. */
  const watching = new Map<string, number>();
  /** Workers we attached while paused at start (so hardened before they ran) → their context. */
  const heldWorkers = new Map<string, string | undefined>();

  const flag = (contextId: string | undefined, reason: string) => {
    if (contextId !== undefined) violations.get(contextId)?.push(reason);
  };

  /** A target attached paused: prepare it, then let it run. */
  const onAttached = (event: Protocol.Target.AttachedToTargetEvent): void => {
    const { sessionId, targetInfo } = event;
    const session = connection.session(sessionId);
    if (!session) return;
    const contextId = targetInfo.browserContextId;
    const type = targetInfo.type;
    if (type === "page" && contextId !== undefined && stray(targetInfo)) {
      // A second page of the context (a pop-up): never resumed, closed at once.
      unhardened(targetInfo);
      return;
    }
    session.on("Target.attachedToTarget", onAttached);
    const setup: Array<Promise<unknown>> = [];
    if (type === "page") {
      session.on(
        "Preload.prefetchStatusUpdated",
        (e: Protocol.Preload.PrefetchStatusUpdatedEvent) => speculated(contextId, e.prefetchUrl),
      );
      session.on(
        "Preload.prerenderStatusUpdated",
        (e: Protocol.Preload.PrerenderStatusUpdatedEvent) => speculated(contextId, e.key.url),
      );
      setup.push(
        session.send("Preload.enable"),
        session.send("Page.setPrerenderingAllowed", { isAllowed: false }),
      );
    } else {
      session.on("Network.responseReceived", (e: Protocol.Network.ResponseReceivedEvent) => {
        const reason = responseViolation(e.response, allowlist);
        if (reason) flag(contextId, reason);
      });
      session.on("Network.responseReceivedExtraInfo", addresses.reporter(contextId));
      setup.push(
        raw(session)("Target.setAutoAttach", {
          autoAttach: true,
          waitForDebuggerOnStart: true,
          flatten: true,
          filter: CHILDREN,
        }),
        session.send("Network.enable"),
        onRealm(contextId, session),
      );
    }
    const isWorker = type === "worker" || type === "shared_worker";
    // A worker first seen already running ran its first lines unhardened. (The same worker can
    // be attached twice — as related to the page and as a child of a frame — and the second
    // attachment finds it running after we hardened and resumed it: that one is fine.)
    if (isWorker && event.waitingForDebugger) heldWorkers.set(targetInfo.targetId, contextId);
    else if (isWorker && !heldWorkers.has(targetInfo.targetId))
      flag(contextId, `worker ran before it was hardened (${targetInfo.url.slice(0, 200)})`);
    /**
     * "hardened" | "threw" (our script failed in the worker) | "gone" (no answer: the worker
     * ended, e.g. its script failed to load). Only a hardened worker is resumed. One that threw
     * is closed and taints its capture; one that is gone stays paused by this session, which
     * Chromium honours (a worker starts only when every session that paused it resumes it).
     */
    const hardening: Promise<"hardened" | "threw" | "gone"> = isWorker
      ? session.send("Runtime.evaluate", { expression: workerHardening }).then(
          (r) => (r.exceptionDetails === undefined ? "hardened" : "threw"),
          () => "gone",
        )
      : Promise.resolve("hardened");
    void Promise.all([hardening, Promise.allSettled(setup)]).then(async ([state]) => {
      if (state === "threw") {
        flag(contextId, `worker hardening failed (${targetInfo.url.slice(0, 200)})`);
        await raw(related)("Target.closeTarget", { targetId: targetInfo.targetId }).catch(() => {});
        return;
      }
      if (state === "hardened" && event.waitingForDebugger)
        await session.send("Runtime.runIfWaitingForDebugger").catch(() => {});
    });
  };

  /**
   * Whether a target in a watched context is one the guard did not harden: any page but the
   * capture's own, and any type outside HARDENED_TYPES. Targets of unwatched contexts (a spare
   * page being opened, the default context) are not ours to judge.
   */
  const stray = (info: Protocol.Target.TargetInfo): boolean => {
    const contextId = info.browserContextId;
    if (contextId === undefined || !violations.has(contextId)) return false;
    if (info.type === "page") {
      const own = capturePages.get(contextId);
      return own !== undefined && own.size > 0 && !own.has(info.targetId);
    }
    return !HARDENED_TYPES.has(info.type);
  };
  /** Fail closed: the capture is tainted, and the target closed before it does more. */
  const unhardened = (info: Protocol.Target.TargetInfo): void => {
    flag(info.browserContextId, `unhardened ${info.type} target (${info.url.slice(0, 200)})`);
    void raw(related)("Target.closeTarget", { targetId: info.targetId }).catch(() => {});
  };
  // Every target the browser creates is announced here, whether or not anything attaches to it.
  discovery.on("Target.targetCreated", (e: Protocol.Target.TargetCreatedEvent) => {
    if (stray(e.targetInfo)) unhardened(e.targetInfo);
  });

  /** A speculative load (prefetch/prerender) the page-level removal did not stop. */
  const speculated = (contextId: string | undefined, url: string) => {
    if (!checkUrl(url, "navigation", allowlist).ok)
      flag(contextId, `speculative load of a refused URL (${url.slice(0, 200)})`);
  };

  related.on("Target.attachedToTarget", onAttached);
  shared.on("Target.attachedToTarget", onAttached);
  await Promise.all([
    // Announced: every target but those of the types the guard lets run (fewer events per capture).
    raw(discovery)("Target.setDiscoverTargets", {
      discover: true,
      filter: [...[...HARDENED_TYPES].map((type) => ({ type, exclude: true })), {}],
    }),
    // Shared workers are not "related" to the page that creates them: attach to all of them.
    raw(shared)("Target.setAutoAttach", {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
      filter: [{ type: "shared_worker" }, { exclude: true }],
    }),
  ]);

  return {
    watch(page, browserContextId) {
      // The pages of one context share its record: a violation in any taints them all.
      const reasons = violations.get(browserContextId) ?? [];
      violations.set(browserContextId, reasons);
      const own = capturePages.get(browserContextId) ?? new Set<string>();
      capturePages.set(browserContextId, own);
      watching.set(browserContextId, (watching.get(browserContextId) ?? 0) + 1);
      // The page's own frames report on puppeteer's session, which has Network enabled.
      const [client, onExtraInfo] = [pageClient(page), addresses.reporter(browserContextId)];
      client.on("Network.responseReceivedExtraInfo", onExtraInfo);
      let pageTarget: string | null = null;
      const ready = targetIdOf(page, browserContextId).then(async (targetId) => {
        pageTarget = targetId;
        own.add(targetId);
        await raw(related)("Target.autoAttachRelated", {
          targetId,
          waitForDebuggerOnStart: true,
          filter: RELATED,
        });
      });
      let ended = false;
      return {
        ready,
        violation: () => reasons[0] ?? null,
        end: () => {
          if (ended) return;
          ended = true;
          client.off("Network.responseReceivedExtraInfo", onExtraInfo);
          if (pageTarget !== null) own.delete(pageTarget);
          const left = (watching.get(browserContextId) ?? 1) - 1;
          if (left > 0) {
            watching.set(browserContextId, left);
            return;
          }
          watching.delete(browserContextId);
          violations.delete(browserContextId);
          capturePages.delete(browserContextId);
          for (const [targetId, contextId] of heldWorkers)
            if (contextId === browserContextId) heldWorkers.delete(targetId);
        },
      };
    },
    taint: flag,
  };
}

/**
 * The page's CDP target id: puppeteer keeps it on the Target (untyped in its public types); if a
 * version ever drops it, ask the browser for the context's page instead.
 */
async function targetIdOf(page: Page, browserContextId: string): Promise<string> {
  const known = (page.target() as unknown as { _targetId?: unknown })._targetId;
  if (typeof known === "string") return known;
  const session = await page.browser().target().createCDPSession();
  try {
    const { targetInfos } = await session.send("Target.getTargets");
    const pages = targetInfos.filter(
      (t) => t.type === "page" && t.browserContextId === browserContextId,
    );
    // A context of several pages (a lane's) does not say which is this one: refuse to guess.
    const [info, ...others] = pages;
    if (!info || others.length > 0)
      throw new Error("browser guard: the capture's page target cannot be told");
    return info.targetId;
  } finally {
    await session.detach().catch(() => {});
  }
}

/** Why a response must not be used: it came from a blocked address, or from a refused URL. */
function responseViolation(
  response: Protocol.Network.Response,
  allowlist: ReadonlySet<string>,
): string | null {
  const { remoteIPAddress: ip, remotePort: port } = response;
  if (ip && port !== undefined && isBlockedRemoteAddress(ip, port, allowlist))
    return `response from a blocked address (${ip}:${port})`;
  const scheme = response.url.slice(0, response.url.indexOf(":") + 1);
  if (
    (scheme === "http:" || scheme === "https:") &&
    !checkUrl(response.url, "subresource", allowlist).ok
  ) {
    return `response from a refused URL (${response.url.slice(0, 200)})`;
  }
  return null;
}
