/**
 * The `Crawl` Durable Object: one per crawl (named `<accountId>/<crawlId>`), holding its
 * frontier and results (./frontier.ts) and deciding what is rendered next (./dispatch.ts).
 * Pages fan out over the capture queue (./page-run.ts renders them); nothing of a crawl lives in
 * one process.
 *
 * The alarm seeds from sitemaps, sends the pages that may start, and is the watchdog: a restart
 * loses nothing (the alarm persists; lost messages and renderers are found and their pages sent
 * again). Every call that may free work sets the alarm to now; a renderer that finished a page
 * takes the next one itself (`takeNext`).
 */
import { DurableObject } from "cloudflare:workers";
import type { CrawlPage, CrawlSummary } from "../../schemas/crawl";
import { CRAWL } from "../../schemas/limits";
import { accountStub } from "../accounts/directory";
import { settleReservations } from "../accounts/credits";
import { config as appConfig } from "../config";
import { TUNING } from "../tuning";
import { committedCredits, type CrawlConfig, readConfig, retentionDays } from "./config";
import * as F from "./frontier";
import type { Claim, PageOutcome, TakeNext } from "./frontier";
import { Dispatch } from "./dispatch";
import { Politeness } from "./politeness";
import { sitemapUrls } from "./seeds";
import { linkRules, logPatternBudget, type LinkVerdict } from "./links";
import { expireCrawl, type PageReport, reportProgress } from "./lifecycle";

interface CrawlRow extends Record<string, SqlStorageValue> {
  config: string;
  status: CrawlSummary["status"];
  stopped_by: NonNullable<CrawlSummary["stoppedBy"]> | null;
  out_of_credits: number;
  sitemap_done: number;
  credits_used: number;
  /** Pages rendered over HTTP so far: every second one is free (./config.ts, `committedCredits`). */
  http_pages: number;
  created_at: number;
  completed_at: number | null;
}

const ACTIVE: ReadonlySet<string> = new Set(["queued", "running"]);

export class Crawl extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly polite: Politeness;
  private readonly dispatch: Dispatch;
  /** When the account's index was last told this crawl's progress (`report`). */
  private reportedAt = 0;
  /** The commit of what rendered pages owe under way (`settle`). */
  private settling: Promise<void> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS crawl (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      config TEXT NOT NULL,
      status TEXT NOT NULL,
      stopped_by TEXT,
      out_of_credits INTEGER NOT NULL DEFAULT 0,
      sitemap_done INTEGER NOT NULL DEFAULT 0,
      credits_used INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      completed_at INTEGER
    )`);
    // A crawl created before HTTP-first pages gets their count (no ADD COLUMN IF NOT EXISTS).
    const columns = this.sql.exec<{ name: string }>("PRAGMA table_info(crawl)").toArray();
    if (!columns.some((c) => c.name === "http_pages"))
      this.sql.exec("ALTER TABLE crawl ADD COLUMN http_pages INTEGER NOT NULL DEFAULT 0");
    // The credits of rendered pages this crawl took and has not committed yet (`settle`).
    this.sql.exec(`CREATE TABLE IF NOT EXISTS settlements (
      reservation_id TEXT PRIMARY KEY,
      credits INTEGER NOT NULL,
      at INTEGER NOT NULL
    )`);
    F.createFrontier(this.sql);
    this.polite = new Politeness(this.sql, env);
    this.dispatch = new Dispatch(this.sql, env, this.polite, {
      running: () => {
        const row = this.row();
        return row !== undefined && ACTIVE.has(row.status) && !row.out_of_credits;
      },
      report: (pages) => this.report(pages),
    });
  }

  private row(): CrawlRow | undefined {
    return this.sql.exec<CrawlRow>("SELECT * FROM crawl").toArray()[0];
  }

  private config(row: CrawlRow): CrawlConfig {
    return readConfig(row.config);
  }

  /** Starts the crawl (once): its start URL in the frontier unless it renders sitemaps only. */
  async start(config: CrawlConfig, now: number): Promise<void> {
    if (this.row()) return;
    this.ctx.storage.transactionSync(() => {
      this.sql.exec(
        "INSERT INTO crawl (id, config, status, created_at) VALUES (1, ?, 'queued', ?)",
        JSON.stringify(config),
        now,
      );
      if (config.sitemap !== "only") F.addUrl(this.sql, new URL(config.url), 0, null);
    });
    await this.poke();
  }

  summary(): CrawlSummary | null {
    const row = this.row();
    if (!row) return null;
    const config = this.config(row);
    return {
      crawlId: config.crawlId,
      url: config.url,
      status: row.status,
      ...(row.stopped_by ? { stoppedBy: row.stopped_by } : {}),
      counts: F.counts(this.sql),
      limit: config.limit,
      creditsUsed: row.credits_used,
      createdAt: new Date(row.created_at).toISOString(),
      ...(row.completed_at !== null
        ? { completedAt: new Date(row.completed_at).toISOString() }
        : {}),
    };
  }

  pages(
    cursor: number,
    limit: number,
    filter: F.PageFilter = {},
  ): { pages: CrawlPage[]; nextCursor: string | null } {
    return F.finishedPages(this.sql, cursor, limit, filter);
  }

  /** A queue delivery asks to render page `seq`: only the one holding its lease, only once. */
  claimPage(seq: number, leaseId: string): Claim {
    const row = this.row();
    if (!row || !ACTIVE.has(row.status)) return { kind: "skip" };
    const page = F.pageRow(this.sql, seq);
    if (!page || !F.claim(this.sql, seq, leaseId, Date.now())) return { kind: "skip" };
    return { kind: "run", url: page.url, depth: page.depth, config: row.config };
  }

  /**
   * The renderer's outcome for page `seq`, and the credits it holds (`reservationId`): for a
   * rendered page, what it costs is owed in the same transaction that takes the outcome, and
   * committed in a batch (`settle`), all before the crawl completes. Any other page's credits
   * stay the renderer's (held for its next page, or refunded). `accepted` false when its lease
   * is no longer the page's (a duplicate or a superseded delivery): nothing is recorded.
   *
   * With `take`, the renderer's next page comes back with it (`next`, as `takeNext` answers): one
   * call a page instead of two. It is taken before the alarm is set, so the alarm does not send
   * the slot this page freed as a queue message the renderer would then take back; when a page
   * was taken the alarm is left as it is (the crawl cannot finish while that page is in flight,
   * and no more may start than before this one finished: the next that could is the one taken).
   */
  async completePage(
    seq: number,
    leaseId: string,
    outcome: PageOutcome,
    reservationId: string,
    take = false,
  ): Promise<{ accepted: boolean; next: TakeNext }> {
    const refused = { accepted: false, next: null };
    const row = this.row();
    const page = F.pageRow(this.sql, seq);
    if (!row || !page) return refused;
    const config = this.config(row);
    // The URLs its links had that were skipped at once: finished too, each with its event.
    const skipped: F.PageRow[] = [];
    let credits = 0;
    const accepted = this.ctx.storage.transactionSync(() => {
      if (!F.finish(this.sql, seq, leaseId, outcome)) return false;
      for (const key of outcome.r2Keys)
        this.sql.exec("INSERT OR IGNORE INTO r2_keys (key) VALUES (?)", key);
      if (outcome.status === "rendered") {
        const http = outcome.result.rendered === "http";
        credits = Math.min(
          outcome.credits,
          committedCredits(config, http ? "http" : "browser", this.row()?.http_pages ?? 0),
        );
        if (http) this.sql.exec("UPDATE crawl SET http_pages = http_pages + 1");
        this.sql.exec(
          "INSERT OR IGNORE INTO settlements (reservation_id, credits, at) VALUES (?, ?, ?)",
          reservationId,
          credits,
          Date.now(),
        );
      }
      this.sql.exec("UPDATE crawl SET credits_used = credits_used + ?", credits);
      if (page.depth <= config.maxDepth && config.sitemap !== "only") {
        const rules = linkRules(config);
        for (const link of outcome.links) {
          const verdict = rules(link, page.depth + 1);
          const found = F.addFound(this.sql, verdict, page.depth + 1, page.url, config.limit);
          if (found) skipped.push(found);
        }
        logPatternBudget(config, rules, "links");
      }
      return true;
    });
    if (!accepted) return refused;
    // A crawl no longer running (cancelled) commits at once: no alarm will come before its end.
    await this.settle(!ACTIVE.has(this.row()?.status ?? "completed"));
    const done = F.pageRow(this.sql, seq);
    await this.report([...(done ? [done] : []), ...skipped].map(F.pageReport));
    const next = take ? await this.takeNext() : null;
    if (next === null || "waitUntil" in next) await this.poke();
    return { accepted: true, next };
  }

  /** The account's credits ran out at page `seq`: it is not rendered, and nothing new starts. */
  async outOfCredits(seq: number, leaseId: string): Promise<void> {
    const finished = this.ctx.storage.transactionSync(() => {
      const ok = F.finish(this.sql, seq, leaseId, {
        status: "skipped",
        reason: "credits",
        result: {},
      });
      this.sql.exec("UPDATE crawl SET out_of_credits = 1");
      return ok;
    });
    const done = finished ? F.pageRow(this.sql, seq) : undefined;
    if (done) await this.report([F.pageReport(done)]);
    await this.poke();
  }

  /** DELETE /v1/crawl/{id}: nothing new starts; pages in flight finish (and are charged). */
  async cancel(): Promise<CrawlSummary | null> {
    const row = this.row();
    if (!row) return null;
    if (ACTIVE.has(row.status)) {
      this.sql.exec(
        "UPDATE crawl SET status = 'cancelled', stopped_by = 'cancelled', completed_at = ?",
        Date.now(),
      );
      await this.finished();
    }
    return this.summary();
  }

  /** Runs the alarm now (or keeps an earlier one). */
  private async poke(): Promise<void> {
    const at = await this.ctx.storage.getAlarm();
    const now = Date.now();
    if (at === null || at > now) await this.ctx.storage.setAlarm(now);
  }

  override async alarm(): Promise<void> {
    // What rendered pages owe, committed whatever the crawl's state (a throw: the alarm is retried).
    await this.settle(true);
    const row = this.row();
    if (!row) return;
    if (!ACTIVE.has(row.status)) {
      await this.expire(row);
      return;
    }
    const config = this.config(row);
    if (row.status === "queued") this.sql.exec("UPDATE crawl SET status = 'running'");
    if (!row.sitemap_done) {
      if (config.sitemap !== "skip") {
        const start = new URL(config.url);
        const robots = await this.polite.robots(start);
        const max = Math.min(config.limit * 10 + 100, 50_000);
        const seeds = await sitemapUrls(this.env, start, robots, max);
        const rules = linkRules(config);
        const since = config.modifiedSince;
        const skipped = this.ctx.storage.transactionSync(() =>
          seeds.urls.flatMap((url) => {
            // A sitemap <lastmod> before modifiedSince: not changed since, never requested.
            const lastmod = seeds.lastmod?.[url];
            const verdict = unchangedSince(rules({ url, nofollow: false }, 1), lastmod, since);
            return F.addFound(this.sql, verdict, 1, null, config.limit) ?? [];
          }),
        );
        logPatternBudget(config, rules, "sitemap");
        if (skipped.length > 0) await this.report(skipped.map(F.pageReport));
      }
      this.sql.exec("UPDATE crawl SET sitemap_done = 1");
    }
    const { crawlStall } = appConfig(this.env);
    F.requeueStalled(this.sql, Date.now(), crawlStall);
    const waitUntil = await this.dispatch.sendAll(config);
    if (await this.maybeFinish(config)) return;
    // The watchdog looks at least twice per queued window (every 30 s by default).
    const watchdog = Math.min(TUNING.crawlWatchdogMs, crawlStall.queuedMs / 2);
    const next = Math.min(Date.now() + watchdog, waitUntil ?? Infinity);
    await this.ctx.storage.setAlarm(next);
  }

  /**
   * A renderer that finished a page takes the next one itself (./page-run.ts, ./dispatch.ts):
   * claimed for it. When the next page waits for its host's Crawl-delay, when it may start; null
   * when nothing may start until a page finishes.
   */
  async takeNext(): Promise<TakeNext> {
    const row = this.row();
    if (!row || !ACTIVE.has(row.status) || row.out_of_credits) return null;
    const next = await this.dispatch.take(this.config(row));
    if (!next || "waitUntil" in next) return next;
    const claim = this.claimPage(next.seq, next.leaseId);
    return claim.kind === "run" ? { ...claim, seq: next.seq, lease: next.leaseId } : null;
  }

  /** Completes the crawl when nothing is in flight and nothing more may start. */
  private async maybeFinish(config: CrawlConfig): Promise<boolean> {
    if (F.inFlight(this.sql) > 0) return false;
    // Its pages' credits committed before it reads as completed (nothing in flight owes more).
    await this.settle(true);
    if (F.inFlight(this.sql) > 0) return false;
    const row = this.row();
    if (!row) return false;
    const pending = F.pendingPages(this.sql, 1).length > 0;
    const { rendered } = F.counts(this.sql);
    if (pending && F.loadedPages(this.sql) < config.limit && !row.out_of_credits) return false;
    const stoppedBy = row.out_of_credits ? "credits" : pending ? "limit" : null;
    this.sql.exec(
      "UPDATE crawl SET status = ?, stopped_by = ?, completed_at = ?",
      rendered === 0 && F.startFailed(this.sql, config.sitemap) ? "failed" : "completed",
      stoppedBy,
      Date.now(),
    );
    await this.finished();
    return true;
  }

  /** A final state: the account is told (crawl.completed), the retention clock starts. */
  private async finished(): Promise<void> {
    await this.settle(true);
    await this.report();
    const row = this.row();
    const days = row ? retentionDays(this.config(row)) : CRAWL.retentionDays;
    await this.ctx.storage.setAlarm(Date.now() + days * 86_400_000);
  }

  /**
   * Commits the credits rendered pages owe (`completePage`) in one Account DO call: when
   * `TUNING.crawlSettlePages` wait, or the oldest has waited `TUNING.crawlProgressMs`, or
   * `all`. One at a time: while one is under way a due batch waits for the next page, and `all`
   * for it to end, then commits what is left (settling a reservation twice would change nothing,
   * but is a call for nothing).
   */
  private async settle(all: boolean): Promise<void> {
    if (this.settling) {
      if (!all) return;
      await this.settling.catch(() => {});
    }
    const run = this.commitOwed(all);
    this.settling = run;
    try {
      await run;
    } finally {
      if (this.settling === run) this.settling = null;
    }
  }

  private async commitOwed(all: boolean): Promise<void> {
    const owed = this.sql
      .exec<{ reservation_id: string; credits: number; at: number }>(
        "SELECT reservation_id, credits, at FROM settlements ORDER BY at",
      )
      .toArray();
    const oldest = owed[0];
    if (oldest === undefined) return;
    const due =
      all ||
      owed.length >= TUNING.crawlSettlePages ||
      Date.now() - oldest.at >= TUNING.crawlProgressMs;
    if (!due) return;
    const row = this.row();
    if (!row) return;
    await settleReservations(
      accountStub(this.env, this.config(row).accountId),
      owed.map((o) => ({ reservationId: o.reservation_id, commit: o.credits })),
    );
    for (const o of owed)
      this.sql.exec("DELETE FROM settlements WHERE reservation_id = ?", o.reservation_id);
  }

  /** Past retention: the R2 objects, the account's row, then this object's storage. */
  private async expire(row: CrawlRow): Promise<void> {
    const days = retentionDays(this.config(row));
    const expiresAt = (row.completed_at ?? row.created_at) + days * 86_400_000;
    if (Date.now() < expiresAt) await this.ctx.storage.setAlarm(expiresAt);
    else await expireCrawl(this.env, this.ctx.storage, this.config(row));
  }

  /**
   * The account's index is brought up to date; its webhook deliveries are queued. A running crawl
   * with no `crawl.page` events tells it at most every `TUNING.crawlProgressMs` (its final state
   * at once): a call to the Account DO a page was most of a page's time read over HTTP.
   */
  private async report(pages: PageReport[] = []): Promise<void> {
    const summary = this.summary();
    const row = this.row();
    if (!summary || !row) return;
    const config = this.config(row);
    const quiet = config.pageEvents === false && !config.monitor;
    if (quiet && ACTIVE.has(summary.status)) {
      const now = Date.now();
      if (now - this.reportedAt < TUNING.crawlProgressMs) return;
      this.reportedAt = now;
    }
    await reportProgress(this.env, config.accountId, summary, quiet ? [] : pages);
  }
}

/** A sitemap URL the crawl would load, skipped as `not_modified` when its lastmod is before `since`. */
function unchangedSince(
  verdict: LinkVerdict,
  lastmod: number | undefined,
  since: number | undefined,
): LinkVerdict {
  if (verdict === null || verdict.skip !== null) return verdict;
  if (lastmod === undefined || since === undefined || lastmod >= since) return verdict;
  return { ...verdict, skip: "not_modified" };
}
