/**
 * A crawl's frontier and results, in its Crawl DO's SQLite (./crawl-do.ts): one row per
 * normalised URL (so each is rendered at most once), its state, and once finished its result.
 *
 *   pending → queued (a message on the capture queue, with a lease) → rendering (claimed by one
 *   delivery) → rendered | skipped | failed
 *
 * A renderer that finished a page may take a queued page itself: it is leased again, so its
 * message, when delivered, finds the lease gone and renders nothing.
 *
 * A URL refused before any request (robots, scope, patterns, depth, the URL guard) goes straight
 * to skipped. Finished rows get `done_seq` in the order they finished: the results' order and
 * the cursor of GET /v1/crawl/{id}/pages. Politeness is per host: at most
 * `maxConcurrency` pages in flight (default 2) and the robots.txt Crawl-delay between starts.
 */
import type { CrawlCounts, CrawlPage, PageReason, PageStatus } from "../../schemas/crawl";
import { log } from "../log";
import { TUNING } from "../tuning";
import type { Discovered, LinkVerdict } from "./links";

export const FRONTIER_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS pages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    url TEXT NOT NULL UNIQUE,
    host TEXT NOT NULL,
    depth INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'queued', 'rendering', 'rendered', 'skipped', 'failed')),
    reason TEXT,
    lease TEXT,
    leased_at INTEGER,
    done_seq INTEGER UNIQUE,
    result TEXT,
    found_on TEXT
  )`,
  `CREATE INDEX IF NOT EXISTS pages_by_state ON pages (state, depth, seq)`,
  `CREATE INDEX IF NOT EXISTS pages_done ON pages (state, done_seq)`,
  `CREATE TABLE IF NOT EXISTS origins (
    origin TEXT PRIMARY KEY,
    robots_status INTEGER,
    robots_body TEXT,
    next_at INTEGER NOT NULL DEFAULT 0
  )`,
  `CREATE TABLE IF NOT EXISTS r2_keys (key TEXT PRIMARY KEY)`,
];

/** The tally row of a pages row (`row`: NEW or OLD in a trigger), as a WHERE clause. */
const tallyRowOf = (row: "NEW" | "OLD") =>
  `state = ${row}.state AND reason = COALESCE(${row}.reason, '') AND has_result = (${row}.result IS NOT NULL)`;

/** Trigger statements: `row` counted in its tally row (made first if missing). */
const tallyAdd = (row: "NEW" | "OLD") =>
  `INSERT INTO tally SELECT ${row}.state, COALESCE(${row}.reason, ''), ${row}.result IS NOT NULL, 0
     WHERE NOT EXISTS (SELECT 1 FROM tally WHERE ${tallyRowOf(row)});
   UPDATE tally SET n = n + 1 WHERE ${tallyRowOf(row)};`;

/** A trigger statement: `row` no longer counted in its tally row. */
const tallySubtract = (row: "NEW" | "OLD") =>
  `UPDATE tally SET n = n - 1 WHERE ${tallyRowOf(row)};`;

/**
 * The pages by state, reason and whether they hold a result, kept by triggers on `pages` (no
 * conflict clause in them: an outer statement's, as addUrl's upsert, would override it): the
 * counts a crawl reads on every page (its summary, its limits, the skipped rows' cap) in time
 * independent of its size. Counting the pages themselves read every row per page finished: a
 * crawl of n pages did n²/2 row reads.
 */
const TALLY_SCHEMA = [
  `CREATE TABLE tally (
    state TEXT NOT NULL,
    reason TEXT NOT NULL,
    has_result INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (state, reason, has_result)
  )`,
  `INSERT INTO tally (state, reason, has_result, n)
     SELECT state, COALESCE(reason, ''), result IS NOT NULL, COUNT(*) FROM pages
     GROUP BY state, COALESCE(reason, ''), result IS NOT NULL`,
  `CREATE TRIGGER pages_tally_insert AFTER INSERT ON pages BEGIN ${tallyAdd("NEW")} END`,
  `CREATE TRIGGER pages_tally_delete AFTER DELETE ON pages BEGIN ${tallySubtract("OLD")} END`,
  `CREATE TRIGGER pages_tally_update AFTER UPDATE OF state, reason, result ON pages BEGIN
     ${tallySubtract("OLD")} ${tallyAdd("NEW")}
   END`,
];

/**
 * The frontier's tables, made or brought up to date: a Crawl DO created before `found_on` gets
 * the column (SQLite has no ADD COLUMN IF NOT EXISTS), one created before the tally gets it,
 * counted once from its pages.
 */
export function createFrontier(sql: SqlStorage): void {
  for (const statement of FRONTIER_SCHEMA) sql.exec(statement);
  const columns = sql.exec<{ name: string }>("PRAGMA table_info(pages)").toArray();
  if (!columns.some((c) => c.name === "found_on"))
    sql.exec("ALTER TABLE pages ADD COLUMN found_on TEXT");
  const tally = sql
    .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'tally'")
    .toArray();
  if (tally.length === 0) for (const statement of TALLY_SCHEMA) sql.exec(statement);
}

/** Pages counted by the tally: those in `states`, and (when given) with one of `reasons`. */
function tallied(
  sql: SqlStorage,
  states: readonly PageRow["state"][],
  where = "",
  ...args: SqlStorageValue[]
): number {
  return (
    sql
      .exec<{ n: number | null }>(
        `SELECT SUM(n) AS n FROM tally WHERE state IN (${states.map(() => "?").join(", ")})${where}`,
        ...states,
        ...args,
      )
      .one().n ?? 0
  );
}

export interface PageRow extends Record<string, SqlStorageValue> {
  seq: number;
  url: string;
  host: string;
  depth: number;
  state: "pending" | "queued" | "rendering" | PageStatus;
  reason: PageReason | null;
  lease: string | null;
  leased_at: number | null;
  done_seq: number | null;
  result: string | null;
  /** The page whose links had this URL first; null for the start URL and sitemap URLs. */
  found_on: string | null;
}

/** What a finished page holds beyond its URL and depth (the view's optional fields). */
export type PageResult = Omit<CrawlPage, "url" | "depth" | "status" | "reason" | "foundOn">;

/** `config` is the crawl's config as stored (JSON: tuples do not survive RPC's types). */
export type Claim = { kind: "run"; url: string; depth: number; config: string } | { kind: "skip" };
/** A page a renderer took after its own (Crawl.takeNext): claimed, with its lease. */
export type Taken = Extract<Claim, { kind: "run" }> & { seq: number; lease: string };
/** A renderer's next page (taken), when its host's Crawl-delay lets one start, or none yet. */
export type TakeNext = Taken | { waitUntil: number } | null;

export interface PageOutcome {
  status: "rendered" | "skipped" | "failed";
  reason: PageReason | null;
  result: PageResult;
  /** Links found on the page (absolute, normalised by the frontier). */
  links: Discovered[];
  /** R2 objects this page's result refers to (deleted with the crawl). */
  r2Keys: string[];
  credits: number;
}

/**
 * A URL found (start, sitemap, link on `foundOn`): pending, or skipped at once with its reason.
 * Deduped, and its depth is the shortest path found: pages finish in any order, so a URL may be
 * met first through a longer path (skipped as too deep, or waiting deeper in the queue) and later
 * through a shorter one. Found again shallower, a pending page moves up and one skipped for depth
 * goes back to pending; a page already sent or finished keeps its depth. `foundOn` stays the
 * first page it was found on. Returns the row of a URL skipped at once (it has finished: its
 * `crawl.page` event is due), else null.
 */
export function addUrl(
  sql: SqlStorage,
  url: URL,
  depth: number,
  skip: PageReason | null,
  foundOn: string | null = null,
): PageRow | null {
  if (skip === null) {
    sql.exec(
      `INSERT INTO pages (url, host, depth, state, found_on) VALUES (?, ?, ?, 'pending', ?)
       ON CONFLICT (url) DO UPDATE SET depth = excluded.depth, state = 'pending', reason = NULL,
         done_seq = NULL
       WHERE excluded.depth < pages.depth
         AND (pages.state = 'pending' OR (pages.state = 'skipped' AND pages.reason = 'depth'))`,
      url.href,
      url.host,
      depth,
      foundOn,
    );
    return null;
  }
  const inserted = sql
    .exec(
      `INSERT INTO pages (url, host, depth, state, reason, found_on) VALUES (?, ?, ?, 'skipped', ?, ?)
       ON CONFLICT (url) DO NOTHING RETURNING seq`,
      url.href,
      url.host,
      depth,
      skip,
      foundOn,
    )
    .toArray()[0] as { seq: number } | undefined;
  if (!inserted) return null;
  markDone(sql, inserted.seq);
  return pageRow(sql, inserted.seq) ?? null;
}

function markDone(sql: SqlStorage, seq: number): void {
  sql.exec(
    "UPDATE pages SET done_seq = (SELECT COALESCE(MAX(done_seq), 0) + 1 FROM pages) WHERE seq = ?",
    seq,
  );
}

export function pageRow(sql: SqlStorage, seq: number): PageRow | undefined {
  return sql.exec<PageRow>("SELECT * FROM pages WHERE seq = ?", seq).toArray()[0];
}

/** Pending pages in the order they are rendered: shallowest first, then as found. */
export function pendingPages(sql: SqlStorage, max: number): PageRow[] {
  return sql
    .exec<PageRow>("SELECT * FROM pages WHERE state = 'pending' ORDER BY depth, seq LIMIT ?", max)
    .toArray();
}

export function inFlight(sql: SqlStorage, host?: string): number {
  if (host === undefined) return tallied(sql, ["queued", "rendering"]);
  return sql
    .exec<{ n: number }>(
      "SELECT COUNT(*) AS n FROM pages WHERE state IN ('queued', 'rendering') AND host = ?",
      host,
    )
    .one().n;
}

/** Pages found and waiting to be sent. */
export function pendingCount(sql: SqlStorage): number {
  return tallied(sql, ["pending"]);
}

export function counts(sql: SqlStorage): CrawlCounts {
  const out: CrawlCounts = {
    rendered: 0,
    skipped: 0,
    failed: 0,
    queued: 0,
    cached: 0,
    notModified: 0,
  };
  for (const row of sql
    .exec<{ state: PageRow["state"]; reason: PageReason | ""; n: number }>(
      "SELECT state, reason, SUM(n) AS n FROM tally GROUP BY state, reason",
    )
    .toArray()) {
    if (row.state === "rendered" || row.state === "skipped" || row.state === "failed")
      out[row.state] += row.n;
    else out.queued += row.n;
    if (row.reason === "cached") out.cached += row.n;
    if (row.reason === "not_modified") out.notModified += row.n;
  }
  return out;
}

/**
 * The pages `limit` counts: rendered, and reused (`cached`, or `not_modified` after a request)
 * — a crawl of pages that have not changed is bounded as one that renders them. A URL skipped
 * at once (a sitemap `<lastmod>` before `modifiedSince`) has no result and is not counted.
 */
export function loadedPages(sql: SqlStorage): number {
  return (
    tallied(sql, ["rendered"]) +
    tallied(sql, ["skipped"], " AND reason IN ('cached', 'not_modified') AND has_result = 1")
  );
}

/** pending/queued → queued with a new lease (a lost message is sent again with a new one). */
export function lease(sql: SqlStorage, seq: number, now: number): string {
  const id = crypto.randomUUID();
  sql.exec(
    "UPDATE pages SET state = 'queued', lease = ?, leased_at = ? WHERE seq = ?",
    id,
    now,
    seq,
  );
  return id;
}

/** The page sent longest ago whose message no delivery has claimed yet. */
export function oldestQueued(sql: SqlStorage): PageRow | undefined {
  return sql
    .exec<PageRow>("SELECT * FROM pages WHERE state = 'queued' ORDER BY leased_at, seq LIMIT 1")
    .toArray()[0];
}

/** queued → rendering for the delivery holding the page's lease; false for any other. */
export function claim(sql: SqlStorage, seq: number, leaseId: string, now: number): boolean {
  return (
    sql
      .exec(
        `UPDATE pages SET state = 'rendering', leased_at = ?
         WHERE seq = ? AND lease = ? AND state = 'queued' RETURNING seq`,
        now,
        seq,
        leaseId,
      )
      .toArray().length > 0
  );
}

/** rendering → its outcome, for the delivery holding the lease; false for any other. */
export function finish(
  sql: SqlStorage,
  seq: number,
  leaseId: string | null,
  outcome: { status: PageStatus; reason: PageReason | null; result: PageResult },
): boolean {
  const from =
    leaseId === null ? "state IN ('pending', 'queued')" : "state = 'rendering' AND lease = ?";
  const changed = sql
    .exec(
      `UPDATE pages SET state = ?, reason = ?, result = ?, lease = NULL
       WHERE seq = ? AND ${from} RETURNING seq`,
      outcome.status,
      outcome.reason,
      JSON.stringify(outcome.result),
      seq,
      ...(leaseId === null ? [] : [leaseId]),
    )
    .toArray();
  if (changed.length === 0) return false;
  markDone(sql, seq);
  return true;
}

/** Pages whose message or whose renderer was lost: queued or rendering since before `before`. */
function stalled(sql: SqlStorage, state: "queued" | "rendering", before: number): PageRow[] {
  return sql
    .exec<PageRow>(
      "SELECT * FROM pages WHERE state = ? AND leased_at < ? ORDER BY seq LIMIT 100",
      state,
      before,
    )
    .toArray();
}

export function pageView(row: PageRow): CrawlPage {
  const result = row.result ? (JSON.parse(row.result) as PageResult) : {};
  return {
    url: row.url,
    depth: row.depth,
    status: row.state as PageStatus,
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.found_on ? { foundOn: row.found_on } : {}),
    ...result,
  };
}

/**
 * What GET /v1/crawl/{id}/pages and /errors filter by: the pages' statuses, and (for /errors)
 * the reasons a skipped page counts as an error.
 */
export interface PageFilter {
  statuses?: readonly PageStatus[];
  skippedFor?: readonly PageReason[];
}

/** Finished pages after `cursor` (a done_seq), in the order they finished, as `filter` keeps. */
export function finishedPages(
  sql: SqlStorage,
  cursor: number,
  limit: number,
  filter: PageFilter = {},
): { pages: CrawlPage[]; nextCursor: string | null } {
  const kept: string[] = [];
  const args: SqlStorageValue[] = [];
  if (filter.statuses) {
    kept.push(`state IN (${filter.statuses.map(() => "?").join(", ")})`);
    args.push(...filter.statuses);
  }
  if (filter.skippedFor) {
    kept.push(`(state = 'skipped' AND reason IN (${filter.skippedFor.map(() => "?").join(", ")}))`);
    args.push(...filter.skippedFor);
  }
  const where = kept.length > 0 ? ` AND (${kept.join(" OR ")})` : "";
  const rows = sql
    .exec<PageRow>(
      `SELECT * FROM pages WHERE done_seq > ?${where} ORDER BY done_seq LIMIT ?`,
      cursor,
      ...args,
      limit + 1,
    )
    .toArray();
  const pages = rows.slice(0, limit);
  const last = pages[pages.length - 1];
  return {
    pages: pages.map(pageView),
    nextCursor: rows.length > limit && last?.done_seq ? String(last.done_seq) : null,
  };
}

/**
 * A URL found on the page `foundOn` or in a sitemap (./links.ts judged it); skipped ones up to a
 * cap. The row of a URL skipped at once, else null.
 */
export function addFound(
  sql: SqlStorage,
  verdict: LinkVerdict,
  depth: number,
  foundOn: string | null,
  limit: number,
): PageRow | null {
  if (verdict === null) return null;
  if (verdict.skip !== null && skippedRows(sql) >= TUNING.crawlSkippedRows) return null;
  if (verdict.skip === null && pendingCount(sql) >= pendingCap(limit)) {
    // The frontier is full: a URL already known may still move up; a new one is left out.
    sql.exec(
      `UPDATE pages SET depth = ?, state = 'pending', reason = NULL, done_seq = NULL
       WHERE url = ? AND depth > ? AND (state = 'pending' OR (state = 'skipped' AND reason = 'depth'))`,
      depth,
      verdict.url.href,
      depth,
    );
    return null;
  }
  return addUrl(sql, verdict.url, depth, verdict.skip, foundOn);
}

/**
 * The most URLs a crawl of `limit` pages keeps waiting: what it may still load with room for
 * those that fail or are refused. Links found beyond it are not kept (a site's links grow with
 * its pages, and each waiting URL is a row of the Crawl DO until the crawl expires).
 */
export function pendingCap(limit: number): number {
  return Math.max(TUNING.crawlPendingPerPage * limit, TUNING.crawlPendingMin);
}

function skippedRows(sql: SqlStorage): number {
  return tallied(sql, ["skipped"]);
}

/**
 * The watchdog: a page whose message was lost (a restart drops local queues) or whose renderer
 * died goes back to pending, dispatched again under a new lease (the old one can no longer
 * finish it). `after`: how long a page may stay queued or rendering (config `crawlStall`).
 */
export function requeueStalled(
  sql: SqlStorage,
  now: number,
  after: { queuedMs: number; renderingMs: number },
): void {
  const lost = [
    ...stalled(sql, "queued", now - after.queuedMs),
    ...stalled(sql, "rendering", now - after.renderingMs),
  ];
  for (const page of lost) {
    log("warn", "crawl: page stalled, sending again", { state: page.state });
    sql.exec("UPDATE pages SET state = 'pending', lease = NULL WHERE seq = ?", page.seq);
  }
}

/** The start page (the first URL, unless only sitemaps are rendered) failed or was refused. */
export function startFailed(sql: SqlStorage, sitemap: string): boolean {
  if (sitemap === "only") return false;
  const start = pageRow(sql, 1);
  if (!start) return false;
  return start.state === "failed" || ["blocked", "robots", "not_html"].includes(start.reason ?? "");
}

/** `crawl.page`'s report of a finished row: what it became, never its content. */
export function pageReport(row: PageRow): { seq: number; body: Record<string, unknown> } {
  const { url, depth, status, reason, statusCode, foundOn, rendered, cachedAt, completeness } =
    pageView(row);
  return {
    seq: row.done_seq ?? row.seq,
    body: {
      url,
      depth,
      status,
      ...(reason ? { reason } : {}),
      ...(statusCode ? { statusCode } : {}),
      ...(foundOn ? { foundOn } : {}),
      ...(rendered ? { rendered } : {}),
      ...(cachedAt ? { cachedAt } : {}),
      ...(completeness ? { completeness } : {}),
    },
  };
}
