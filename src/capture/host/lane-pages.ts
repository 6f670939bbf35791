/**
 * Lanes: the pages of one crawl, rendered one after another in a page kept open between them.
 *
 * A capture's page is a new incognito context with a renderer process of its own
 * (./blank-page.ts). For a crawl that is most of its Chromium CPU: on the crawl-peer bench's site
 * a page opened per capture cost ~1.1–1.5 s of Chromium CPU, one reused in its context ~0.8 s
 * (docs/CRAWL.md, "Pages kept for a crawl's next page"). A crawl renders many pages of one site
 * for one account with one set of options, so a page that rendered one of them cleanly serves
 * the next — in its context and renderer, as a crawler a customer runs does.
 *
 * The rules:
 * - A lane is a key our code gives (src/crawl/page-run.ts: one per crawl), never customer input,
 *   and a page serves only its own lane on its own browser: never another crawl or account.
 * - Only a page whose capture succeeded is offered back. It is kept only if the guard saw
 *   nothing wrong in its context, and frozen once it has waited TUNING.laneFreezeMs (its
 *   document's scripts and timers stop; a busy lane takes its page back sooner, and a freeze
 *   and a wake would cost four round trips and a hide and show of the page); taken again, it
 *   is checked once more and woken if frozen, and the next capture navigates it
 *   from the last page, as a tab does. (Sending it to about:blank between captures was tried:
 *   each navigation from about:blank to the site started new renderer processes, ~5 a page, and
 *   saved nothing.) Anything else closes its context, which kills its renderer.
 * - A page serves at most TUNING.lanePageUses captures and waits at most TUNING.laneIdleMs for
 *   the next (it is idle again before its capture's slot is free, so the lane's next capture
 *   finds it: ../page/page-capture.ts); a browser keeps at most TUNING.lanePagesIdle of them idle (the oldest goes first).
 *   Idle pages are on about:blank and hold no slot.
 * - What the pages of one lane share, as one browser tab does: the context's cookies, storage
 *   and HTTP cache (a capture's own page has none: from its second capture on, a kept page has
 *   one), and the tab's sessionStorage and history. The capture's own settings (viewport,
 *   user agent, interception, the hardening script) stay as the last capture left them, which is
 *   what the next one of the same crawl asks for (its page is primed with them).
 * - A lane that renders several pages at once (its `width`) has them in one context, as a
 *   crawler's tabs share one browser profile: they are opened together, before any loads
 *   anything (so the guard tells them from pop-ups: ../guard/target-watcher.ts), and the ones not
 *   yet needed wait idle, blank. One context, not one a page, because Chromium keeps a spare
 *   renderer process started for the context that navigated last and discards it when the next
 *   navigation is in another: five pages in five contexts started ~50 renderers in 50 navigations
 *   (each ~50–120 ms of CPU), in one context none (docs/CRAWL.md). What the guard refused in one
 *   of them disposes the context with all of them; a page that failed otherwise closes alone and
 *   retires its context (the others close as they come back, the context with the last); a page
 *   that served its TUNING.lanePageUses captures retires alone (./blank-page.ts).
 */
import { pageClient } from "../page/page-client";
import type { PageSettings } from "../page/page";
import { withTimeout } from "../page/navigate";
import { TUNING } from "../../tuning";
import { keepShown, type BlankPage } from "./blank-page";

interface Kept {
  lane: string;
  blank: BlankPage;
  timer: ReturnType<typeof setTimeout>;
  /** Opened with the lane's context and never used: blank, never frozen. */
  fresh: boolean;
  /** Freezes it once it has waited TUNING.laneFreezeMs; cleared when it is taken before. */
  freezeTimer: ReturnType<typeof setTimeout> | null;
  /** Its freeze, once started: settles true when it froze. */
  frozen: Promise<boolean> | null;
}

/** A page for a lane's capture; `reused` when an earlier capture of the lane ran in it. */
export interface LanePage {
  blank: BlankPage;
  reused: boolean;
}

export class LanePages {
  /** Idle pages, oldest first. */
  private readonly idle: Kept[] = [];
  /** Captures each page has served. */
  private readonly uses = new WeakMap<BlankPage, number>();
  /**
   * Each lane's newest context: pages of an older one (opened while its pages were all busy, or
   * before one of them closed) are closed as they come back, so a lane converges on one context.
   */
  private readonly current = new Map<string, string>();
  /** Lanes whose context is opening: settles (never rejects) once its other pages wait idle. */
  private readonly opening = new Map<string, Promise<void>>();

  /**
   * `open` opens a context of `count` blank pages primed with `prime` (./blank-page.ts); `close`
   * closes a page, `alone` or with its context (and recycles a browser whose context will not
   * close).
   */
  constructor(
    private readonly open: (prime: PageSettings, count: number) => Promise<BlankPage[]>,
    private readonly close: (blank: BlankPage, alone?: boolean) => Promise<void>,
  ) {}

  /**
   * A page for `lane`'s next capture with `settings`: the one its last capture left idle when
   * still sound (woken), else one opened with the lane's context, else a page of a new context
   * of `width` pages (at most the contexts an account may hold on a browser), the others kept
   * idle for the lane. Pages of the lane's older contexts are retired on the way.
   */
  async page(lane: string, width: number, settings: PageSettings): Promise<LanePage> {
    // The lane's context is opening (its first captures arrive together): one of its pages.
    for (let opening = this.opening.get(lane); opening; opening = this.opening.get(lane))
      await opening;
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const kept = this.idle[i];
      if (kept?.lane !== lane) continue;
      this.idle.splice(i, 1);
      clearTimeout(kept.timer);
      if (kept.freezeTimer) clearTimeout(kept.freezeTimer);
      const current = this.isCurrent(lane, kept.blank);
      if (current && sound(kept.blank) && (await awake(kept)))
        return { blank: kept.blank, reused: !kept.fresh };
      void this.close(kept.blank, !current);
    }
    const count = Math.max(1, Math.min(width, TUNING.browserContextsPerAccount));
    const opened = this.open(settings, count);
    const settled: Promise<void> = opened
      .then(([first, ...others]) => {
        if (first) this.current.set(lane, first.contextId);
        for (const other of others) this.keep(lane, other, true);
      })
      .catch(() => {})
      .then(() => {
        if (this.opening.get(lane) === settled) this.opening.delete(lane);
      });
    this.opening.set(lane, settled);
    const [blank] = await opened;
    if (!blank) throw new Error("no lane page opened");
    return { blank, reused: false };
  }

  /**
   * Offers back the page of `lane`'s capture that just succeeded with `settings`: kept for the
   * lane's next capture when it may serve again, else closed.
   */
  async offer(lane: string, blank: BlankPage, settings: PageSettings): Promise<void> {
    const uses = (this.uses.get(blank) ?? 0) + 1;
    this.uses.set(blank, uses);
    if (!sound(blank)) return this.close(blank);
    if (uses >= TUNING.lanePageUses || !this.isCurrent(lane, blank)) return this.close(blank, true);
    // A capture's page fetches everything anew (no HTTP cache: ../page/page.ts); a page kept for
    // the crawl's next one caches as a tab does, so the site's stylesheets and scripts are
    // fetched once a page kept, not once a crawl page.
    if (uses === 1 && !(await cacheOn(blank))) return this.close(blank);
    blank.primed = settings;
    this.keep(lane, blank, false);
  }

  /** Whether `blank` is of `lane`'s newest context, and that context serves on (not retired). */
  private isCurrent(lane: string, blank: BlankPage): boolean {
    return this.current.get(lane) === blank.contextId && blank.group?.retired !== true;
  }

  /** Keeps `blank` idle for `lane` for at most TUNING.laneIdleMs, within the idle pages' cap. */
  private keep(lane: string, blank: BlankPage, fresh: boolean): void {
    const drop = () => {
      const at = this.idle.findIndex((k) => k.blank === blank);
      if (at < 0) return;
      this.idle.splice(at, 1);
      void this.close(blank, true);
      // A lane whose pages are all gone is over (its crawl paused or ended): forgotten.
      if ((blank.group?.pages.size ?? 0) === 0 && !this.idle.some((k) => k.lane === lane))
        this.current.delete(lane);
    };
    const kept: Kept = {
      lane,
      blank,
      timer: setTimeout(drop, TUNING.laneIdleMs),
      fresh,
      freezeTimer: null,
      frozen: null,
    };
    if (!fresh)
      kept.freezeTimer = setTimeout(() => {
        kept.freezeTimer = null;
        kept.frozen = lifecycle(blank, "frozen");
        void kept.frozen.then((ok) => ok || drop());
      }, TUNING.laneFreezeMs);
    this.idle.push(kept);
    while (this.idle.length > TUNING.lanePagesIdle) {
      const oldest = this.idle.shift();
      if (!oldest) break;
      clearTimeout(oldest.timer);
      if (oldest.freezeTimer) clearTimeout(oldest.freezeTimer);
      void this.close(oldest.blank, true);
    }
  }
}

/** A kept page ready to serve: woken if it was frozen; false when it would not wake. */
async function awake(kept: Kept): Promise<boolean> {
  if (kept.frozen === null) return true;
  return (await kept.frozen) && lifecycle(kept.blank, "active");
}

/** Open, and nothing the guard refused seen in its context. */
function sound(blank: BlankPage): boolean {
  return !blank.page.isClosed() && blank.watch.violation() === null;
}

/** Turns the page's HTTP cache on; false when it would not answer in time. */
async function cacheOn(blank: BlankPage): Promise<boolean> {
  try {
    await withTimeout(blank.page.setCacheEnabled(true), TUNING.contextCloseMs);
    return true;
  } catch {
    return false;
  }
}

/**
 * Freezes the page while it waits (the Page Lifecycle "frozen" state: its document's tasks,
 * timers and scripts stop, so an idle page costs no CPU) or lets it go on; false when it would
 * not answer in time. A page kept shown does not freeze: it is let be hidden first, and shown
 * again once it goes on (`keepShown`, ./blank-page.ts).
 */
async function lifecycle(blank: BlankPage, state: "frozen" | "active"): Promise<boolean> {
  const set = () => pageClient(blank.page).send("Page.setWebLifecycleState", { state });
  try {
    await withTimeout(
      state === "frozen"
        ? keepShown(blank.session, false).then(set)
        : set().then(() => keepShown(blank.session)),
      TUNING.contextCloseMs,
    );
    return true;
  } catch {
    return false;
  }
}
