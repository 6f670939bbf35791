/**
 * The crawls feature of the Account DO, reached over RPC as `account.crawls()`: the account's
 * index of its crawls (GET /v1/crawls, ownership, the plan's crawls-in-flight cap) and their
 * webhook events. Each crawl's frontier and results live in its own Crawl DO (./crawl-do.ts),
 * which reports its progress here; a finished crawl's summary no longer changes, so its
 * `crawl.completed` body is stored with the delivery it causes (as is each `crawl.page`).
 */
import { RpcTarget } from "cloudflare:workers";
import type { CrawlCounts, CrawlEvent, CrawlSummary } from "../../schemas/crawl";
import type { AccountDb, AccountTx } from "../accounts/store";
import type { ListQuery, Page } from "../jobs/store/read";
import { page } from "../jobs/store/read";
import { emitWebhook } from "../webhooks/store/deliveries";

export interface NewCrawl {
  crawlId: string;
  /** A site monitor's check (src/monitors/): not capped by crawls in flight, not listed. */
  monitorId?: string;
  url: string;
  limit: number;
  webhookUrl: string | null;
  webhookEvents: CrawlEvent[];
}

export type AdmitCrawl = { ok: true } | { ok: false; inFlight: number; cap: number };

/** What the Crawl DO reports: its summary now; `pages` = pages just finished (crawl.page). */
export interface CrawlProgress {
  summary: CrawlSummary;
  pages?: { seq: number; body: Record<string, unknown> }[];
}

interface CrawlRow extends Record<string, SqlStorageValue> {
  seq: number;
  crawl_id: string;
  url: string;
  status: CrawlSummary["status"];
  stopped_by: NonNullable<CrawlSummary["stoppedBy"]> | null;
  counts: string;
  page_limit: number;
  credits_used: number;
  webhook_url: string | null;
  webhook_events: string;
  monitor_id: string | null;
  created_at: number;
  completed_at: number | null;
}

const FINAL: ReadonlySet<string> = new Set(["completed", "cancelled", "failed"]);
const EMPTY: CrawlCounts = {
  rendered: 0,
  skipped: 0,
  failed: 0,
  queued: 0,
  cached: 0,
  notModified: 0,
};

function summaryOf(row: CrawlRow): CrawlSummary {
  return {
    crawlId: row.crawl_id,
    url: row.url,
    status: row.status,
    ...(row.stopped_by ? { stoppedBy: row.stopped_by } : {}),
    // A crawl listed before reused pages were counted has no cached/notModified: 0.
    counts: { ...EMPTY, ...(JSON.parse(row.counts) as Partial<CrawlCounts>) },
    limit: row.page_limit,
    creditsUsed: row.credits_used,
    createdAt: new Date(row.created_at).toISOString(),
    ...(row.completed_at !== null ? { completedAt: new Date(row.completed_at).toISOString() } : {}),
  };
}

/**
 * What a crawl that is a site monitor's check hands on, in the same transaction (wired in
 * src/account-do/features.ts, so this feature does not import the monitors'): its progress, and
 * its rows past retention. `progress` returns the webhook deliveries it emitted.
 */
export interface CrawlHooks {
  progress(tx: AccountTx, summary: CrawlSummary): string[];
  forget(sql: SqlStorage, crawlId: string): void;
}

export class CrawlsStore extends RpcTarget {
  constructor(
    private readonly db: AccountDb,
    private readonly monitorChecks: CrawlHooks,
  ) {
    super();
  }

  /** Records a new crawl unless the plan's crawls in flight are all taken. */
  admit(input: NewCrawl): AdmitCrawl {
    const { plan } = this.db.account();
    return this.db.tx(({ sql, now }): AdmitCrawl => {
      const inFlight = sql
        .exec<{ n: number }>(
          "SELECT COUNT(*) AS n FROM crawls WHERE status IN ('queued', 'running') AND monitor_id IS NULL",
        )
        .one().n;
      if (input.monitorId === undefined && inFlight >= plan.crawlsInFlight)
        return { ok: false, inFlight, cap: plan.crawlsInFlight };
      sql.exec(
        `INSERT INTO crawls (crawl_id, monitor_id, url, status, counts, page_limit, webhook_url, webhook_events, created_at)
         VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
        input.crawlId,
        input.monitorId ?? null,
        input.url,
        JSON.stringify(EMPTY),
        input.limit,
        input.webhookUrl,
        JSON.stringify(input.webhookEvents),
        now,
      );
      return { ok: true };
    });
  }

  get(crawlId: string): CrawlSummary | null {
    const row = this.db.sql
      .exec<CrawlRow>("SELECT * FROM crawls WHERE crawl_id = ? AND monitor_id IS NULL", crawlId)
      .toArray()[0];
    return row ? summaryOf(row) : null;
  }

  list(query: ListQuery): Page<CrawlSummary> {
    const args: SqlStorageValue[] = [];
    const where: string[] = ["monitor_id IS NULL"];
    if (query.status !== null) {
      where.push("status = ?");
      args.push(query.status);
    }
    if (query.before !== null) {
      where.push("seq < ?");
      args.push(query.before);
    }
    const clause = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
    const rows = this.db.sql
      .exec<CrawlRow>(
        `SELECT * FROM crawls ${clause} ORDER BY seq DESC LIMIT ?`,
        ...args,
        query.limit + 1,
      )
      .toArray();
    return page(rows, query.limit, summaryOf);
  }

  /**
   * The Crawl DO's report: its summary (a final one only once) and each of `pages`' events. Returns the webhook deliveries to queue.
   */
  progress(report: CrawlProgress): string[] {
    const { summary } = report;
    return this.db.tx((tx) => {
      const { sql, now } = tx;
      const row = sql
        .exec<CrawlRow>("SELECT * FROM crawls WHERE crawl_id = ?", summary.crawlId)
        .toArray()[0];
      if (!row || FINAL.has(row.status)) return [];
      const completedAt = summary.completedAt ? Date.parse(summary.completedAt) : null;
      sql.exec(
        `UPDATE crawls SET status = ?, stopped_by = ?, counts = ?, credits_used = ?, completed_at = ?
         WHERE crawl_id = ?`,
        summary.status,
        summary.stoppedBy ?? null,
        JSON.stringify(summary.counts),
        summary.creditsUsed,
        completedAt,
        summary.crawlId,
      );
      if (row.monitor_id !== null) return this.monitorChecks.progress(tx, summary);
      const events = JSON.parse(row.webhook_events) as CrawlEvent[];
      if (row.webhook_url === null) return [];
      const emitted: (string | null)[] = [];
      const emit = (subjectId: string, event: CrawlEvent, body: Record<string, unknown>) => {
        if (!events.includes(event) || row.webhook_url === null) return;
        sql.exec(
          "INSERT OR IGNORE INTO crawl_events (subject_id, crawl_id, body) VALUES (?, ?, ?)",
          subjectId,
          summary.crawlId,
          JSON.stringify({ event, ...body }),
        );
        emitted.push(
          emitWebhook(sql, { kind: "crawl", id: subjectId, event, url: row.webhook_url, now }),
        );
      };
      for (const page of report.pages ?? [])
        emit(`${summary.crawlId}:${page.seq}`, "crawl.page", {
          crawlId: summary.crawlId,
          page: page.body,
        });
      if (FINAL.has(summary.status)) emit(summary.crawlId, "crawl.completed", { ...summary });
      return emitted.filter((id): id is string => id !== null);
    });
  }

  /** Past its retention: the crawl's row and events go (its Crawl DO deletes the rest). */
  forget(crawlId: string): void {
    this.db.tx(({ sql }) => {
      this.monitorChecks.forget(sql, crawlId);
      sql.exec("DELETE FROM crawl_events WHERE crawl_id = ?", crawlId);
      sql.exec("DELETE FROM crawls WHERE crawl_id = ?", crawlId);
    });
  }
}

/** A crawl event's stored body (the Account DO's webhook deliveries send it), or null. */
export function crawlEventBody(sql: SqlStorage, subjectId: string): Record<string, unknown> | null {
  const row = sql
    .exec<{ body: string }>("SELECT body FROM crawl_events WHERE subject_id = ?", subjectId)
    .toArray()[0];
  return row ? (JSON.parse(row.body) as Record<string, unknown>) : null;
}
