/**
 * Which of a crawl's pages start, and how (inside its Crawl DO, ./crawl-do.ts): pending pages in
 * order, each through the politeness gate (./politeness.ts), within the crawl's page limit and
 * its pages in flight (./config.ts `crawlConcurrency`). The alarm sends each page that may start as a capture-queue message
 * (`sendAll`); a renderer that finished a page takes the next one itself (`take`).
 *
 * The gate awaits requests (robots.txt, the reputation lookup), and other calls into the Crawl DO
 * run meanwhile: the limits are read again, with no await in between, right before a lease.
 */
import { crawlConcurrency, type CrawlConfig } from "./config";
import * as F from "./frontier";
import type { PageReport } from "./lifecycle";
import { crawlPageMessage } from "./page-message";
import type { Politeness } from "./politeness";

/** What the dispatch asks of its Crawl DO. */
export interface DispatchHost {
  /** The crawl runs and has credits left. */
  running(): boolean;
  /** A page finished without a request (refused by the gate): its event. */
  report(pages: PageReport[]): Promise<void>;
}

type Leased = { seq: number; leaseId: string };

export class Dispatch {
  constructor(
    private readonly sql: SqlStorage,
    private readonly env: Env,
    private readonly polite: Politeness,
    private readonly host: DispatchHost,
  ) {}

  /** Sends what may start now; returns when a page held back by Crawl-delay may start. */
  async sendAll(config: CrawlConfig): Promise<number | null> {
    for (;;) {
      const next = await this.leaseNext(config);
      if ("waitUntil" in next) return next.waitUntil;
      await this.env.CAPTURE_JOBS.send(
        crawlPageMessage.parse({
          kind: "crawl-page",
          accountId: config.accountId,
          crawlId: config.crawlId,
          seq: next.seq,
          lease: next.leaseId,
        }),
      );
    }
  }

  /**
   * The page a renderer that finished one takes itself: a page sent whose message no delivery
   * has claimed yet (leased again, so that message renders nothing), or the next page that may
   * start, leased without a message. Local Queues deliver one batch at a time, so a page sent
   * while a batch renders waited for the whole batch: a crawl of one host rendered one page at a
   * time (docs/CRAWL.md). When the next page waits for its host's Crawl-delay, when it may
   * start; null when nothing may start until a page finishes.
   */
  async take(config: CrawlConfig): Promise<Leased | { waitUntil: number } | null> {
    const sent = F.oldestQueued(this.sql);
    if (sent) return { seq: sent.seq, leaseId: F.lease(this.sql, sent.seq, Date.now()) };
    const next = await this.leaseNext(config);
    if ("seq" in next) return next;
    return next.waitUntil === null ? null : { waitUntil: next.waitUntil };
  }

  /**
   * The next pending page that may start now, leased: those the gate refuses finish on the way
   * as skipped or failed. Otherwise, when a page held back by Crawl-delay may start (null: none
   * is; a page waiting for its host's pages in flight starts when one finishes, which runs the
   * alarm).
   */
  private async leaseNext(config: CrawlConfig): Promise<Leased | { waitUntil: number | null }> {
    let waitUntil: number | null = null;
    // Nothing may start (the crawl's pages in flight, its limit): no pending page is read. Every
    // page finished runs the alarm, which asks.
    if (!this.mayStart(config)) return { waitUntil };
    const { perHost } = crawlConcurrency(config);
    // Hosts found busy on this pass: their other pages wait unasked (a crawl of one host would
    // ask again for each of the 200 pages looked at).
    const busy = new Set<string>();
    for (const page of F.pendingPages(this.sql, 200)) {
      // A busy host's page is passed over before anything is read or parsed: with one host busy,
      // this loop read the crawl's row and three counts for each of its 200 pending pages, on
      // every take (`pages.host` is the URL's host, as stored by the frontier).
      if (busy.has(page.host)) continue;
      if (!this.mayStart(config)) return { waitUntil };
      const url = new URL(page.url);
      const gate = await this.polite.gate(url, page.url, perHost);
      if (gate.kind === "skip" || gate.kind === "fail") {
        const status = gate.kind === "skip" ? "skipped" : "failed";
        F.finish(this.sql, page.seq, null, { status, reason: gate.reason, result: {} });
        const done = F.pageRow(this.sql, page.seq);
        if (done) await this.host.report([F.pageReport(done)]);
        continue;
      }
      // Read again after the gate's awaits: no await from here to the lease.
      const held = gate.kind === "wait" ? gate : this.polite.hold(url, perHost);
      if (held) {
        if (held.until !== null) waitUntil = Math.min(waitUntil ?? Infinity, held.until);
        busy.add(url.host);
        continue;
      }
      if (!this.mayStart(config)) return { waitUntil };
      if (F.pageRow(this.sql, page.seq)?.state !== "pending") continue;
      const leaseId = F.lease(this.sql, page.seq, Date.now());
      this.polite.started(url);
      return { seq: page.seq, leaseId };
    }
    return { waitUntil };
  }

  /** The crawl runs, has credits, and has room for one more page (in flight, and its limit). */
  private mayStart(config: CrawlConfig): boolean {
    if (!this.host.running()) return false;
    const active = F.inFlight(this.sql);
    return (
      active < crawlConcurrency(config).inFlight && F.loadedPages(this.sql) + active < config.limit
    );
  }
}
