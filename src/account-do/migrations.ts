/**
 * The Account Durable Object's SQLite schema: one database for the account and the features it
 * composes (jobs, watches, webhook deliveries, storage destinations, idempotency keys), brought
 * up to date by `migrate` (src/accounts/migrate.ts). Later features append migrations; never
 * edit one that has shipped, and never rename a table: stored data keeps these names.
 */
import type { Migration } from "../accounts/migrate";

export const ACCOUNT_MIGRATIONS: readonly Migration[] = [
  [
    `CREATE TABLE account (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      account_id TEXT NOT NULL,
      name TEXT,
      plan TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      active_jobs INTEGER NOT NULL DEFAULT 0 CHECK (active_jobs >= 0)
    )`,
    `CREATE TABLE api_keys (
      key_id TEXT PRIMARY KEY,
      key_hash TEXT NOT NULL UNIQUE,
      prefix TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      revoked_at INTEGER,
      last_used_at INTEGER
    )`,
    `CREATE TABLE credit_periods (
      period TEXT PRIMARY KEY,
      used INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0)
    )`,
    `CREATE TABLE credit_reservations (
      id TEXT PRIMARY KEY,
      cost INTEGER NOT NULL CHECK (cost > 0),
      period TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    )`,
    `CREATE INDEX credit_reservations_expiry ON credit_reservations (expires_at)`,
    `CREATE TABLE rate_window (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      window_start INTEGER NOT NULL,
      count INTEGER NOT NULL
    )`,
  ],
  // v2: async jobs, batches and their webhook deliveries (src/jobs/store/). `seq` orders
  // listings newest first; `lease` is the queue delivery attempt holding a processing job.
  [
    `CREATE TABLE batches (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'completed')),
      total_jobs INTEGER NOT NULL CHECK (total_jobs > 0),
      completed_jobs INTEGER NOT NULL DEFAULT 0,
      failed_jobs INTEGER NOT NULL DEFAULT 0,
      webhook_url TEXT,
      created_at INTEGER NOT NULL,
      completed_at INTEGER,
      CHECK (completed_jobs + failed_jobs <= total_jobs)
    )`,
    `CREATE INDEX batches_by_status ON batches (status, seq)`,
    `CREATE TABLE jobs (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      batch_id TEXT REFERENCES batches (id),
      status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
      url TEXT,
      format TEXT NOT NULL,
      webhook_url TEXT,
      reservation_id TEXT NOT NULL,
      lease INTEGER NOT NULL DEFAULT 0,
      result_url TEXT,
      result_meta TEXT,
      error TEXT,
      created_at INTEGER NOT NULL,
      started_at INTEGER,
      completed_at INTEGER
    )`,
    `CREATE INDEX jobs_by_status ON jobs (status, seq)`,
    `CREATE INDEX jobs_by_batch ON jobs (batch_id, seq)`,
    `CREATE INDEX jobs_by_completion ON jobs (completed_at)`,
    `CREATE INDEX batches_by_completion ON batches (completed_at)`,
    `CREATE TABLE webhook_deliveries (
      delivery_id TEXT PRIMARY KEY,
      subject_kind TEXT NOT NULL CHECK (subject_kind IN ('job', 'batch')),
      subject_id TEXT NOT NULL,
      event TEXT NOT NULL,
      url TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'queued', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      last_status INTEGER,
      last_error TEXT,
      last_attempt_at INTEGER,
      created_at INTEGER NOT NULL,
      UNIQUE (subject_kind, subject_id)
    )`,
    `CREATE INDEX webhook_deliveries_by_age ON webhook_deliveries (created_at)`,
  ],
  // v3: storage destinations (customer S3-compatible buckets; src/storage/destination-store.ts).
  // `secret_sealed` is the secret access key sealed with AES-GCM (src/storage/secrets.ts).
  [
    `CREATE TABLE storage_destinations (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      endpoint TEXT NOT NULL,
      region TEXT NOT NULL,
      bucket TEXT NOT NULL,
      path_style INTEGER NOT NULL CHECK (path_style IN (0, 1)),
      prefix TEXT,
      acl TEXT,
      storage_class TEXT,
      access_key_id TEXT NOT NULL,
      secret_sealed TEXT NOT NULL,
      created_at INTEGER NOT NULL
    )`,
  ],
  // v4: `deliverOnly` destinations (no copy of their results kept in our R2).
  [
    `ALTER TABLE storage_destinations
       ADD COLUMN deliver_only INTEGER NOT NULL DEFAULT 0 CHECK (deliver_only IN (0, 1))`,
  ],
  // v5: the stuck-job sweep (src/jobs/store/sweep.ts): when the sweep re-enqueued a job.
  [`ALTER TABLE jobs ADD COLUMN swept_at INTEGER`],
  // v6: Idempotency-Key records (src/idempotency/store.ts): the first response per key.
  [
    `CREATE TABLE idempotency_keys (
      key TEXT PRIMARY KEY,
      fingerprint TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('running', 'done')),
      lease_until INTEGER NOT NULL,
      status INTEGER,
      headers TEXT,
      body BLOB,
      body_key TEXT,
      expires_at INTEGER NOT NULL
    )`,
    `CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at)`,
  ],
  // v7: watches and their runs (src/watches/store/); webhook deliveries
  // gain the subject kind 'run' (watch.changed / watch.failed), so that table is rebuilt.
  [
    `CREATE TABLE watches (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      name TEXT,
      url TEXT NOT NULL,
      site TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'paused')),
      paused_reason TEXT,
      interval_minutes INTEGER NOT NULL CHECK (interval_minutes > 0),
      next_run_at INTEGER,
      last_run_at INTEGER,
      last_change_at INTEGER,
      consecutive_failures INTEGER NOT NULL DEFAULT 0,
      capture TEXT NOT NULL,
      spec TEXT NOT NULL,
      change_detection TEXT NOT NULL,
      webhook_url TEXT,
      retention_runs INTEGER NOT NULL,
      retention_days INTEGER NOT NULL,
      storage TEXT,
      origin TEXT NOT NULL,
      baseline_run_id TEXT,
      created_at INTEGER NOT NULL
    )`,
    `CREATE INDEX watches_by_due ON watches (status, next_run_at)`,
    `CREATE INDEX watches_by_site ON watches (site, status)`,
    `CREATE TABLE watch_runs (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      watch_id TEXT NOT NULL,
      job_id TEXT UNIQUE,
      status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'completed', 'failed', 'skipped')),
      outcome TEXT CHECK (outcome IN ('baseline', 'unchanged', 'changed', 'error')),
      trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'manual')),
      changed_percent REAL,
      image_key TEXT,
      image_url TEXT,
      diff_key TEXT,
      diff_url TEXT,
      previous_image_url TEXT,
      text_key TEXT,
      text_diff TEXT,
      error TEXT,
      failures_after INTEGER,
      paused_after INTEGER,
      created_at INTEGER NOT NULL,
      started_at INTEGER,
      completed_at INTEGER
    )`,
    `CREATE INDEX watch_runs_by_watch ON watch_runs (watch_id, seq)`,
    `CREATE TABLE webhook_deliveries_v7 (
      delivery_id TEXT PRIMARY KEY,
      subject_kind TEXT NOT NULL CHECK (subject_kind IN ('job', 'batch', 'run')),
      subject_id TEXT NOT NULL,
      event TEXT NOT NULL,
      url TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'queued', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      last_status INTEGER,
      last_error TEXT,
      last_attempt_at INTEGER,
      created_at INTEGER NOT NULL,
      UNIQUE (subject_kind, subject_id)
    )`,
    `INSERT INTO webhook_deliveries_v7 SELECT * FROM webhook_deliveries`,
    `DROP TABLE webhook_deliveries`,
    `ALTER TABLE webhook_deliveries_v7 RENAME TO webhook_deliveries`,
    `CREATE INDEX webhook_deliveries_by_age ON webhook_deliveries (created_at)`,
  ],
  // v8: the dashboard's needs: credits committed per UTC day (src/accounts/ledger.ts) for its
  // chart, and a name per API key (given when a key is created there).
  [
    `CREATE TABLE credit_days (day TEXT PRIMARY KEY, used INTEGER NOT NULL CHECK (used >= 0))`,
    `ALTER TABLE api_keys ADD COLUMN name TEXT`,
  ],
  // v9, for the stuck-work sweep (src/jobs/store/sweep.ts): when it last re-sent a webhook
  // delivery whose queue message was lost (so once per deadline, not at every alarm), and when a
  // job was last started (`started_at` keeps the first start; a start after a sweep is a move).
  [
    `ALTER TABLE webhook_deliveries ADD COLUMN swept_at INTEGER`,
    `ALTER TABLE jobs ADD COLUMN last_started_at INTEGER`,
  ],
  // v10: reads (polling, account) are rate limited apart from captures and writes
  // (src/accounts/limiter.ts): the read bucket's window, shaped like `rate_window`.
  [
    `CREATE TABLE read_rate_window (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      window_start INTEGER NOT NULL,
      count INTEGER NOT NULL
    )`,
  ],
  // v11: crawls (src/crawl/store.ts): the account's index of its crawls (each crawl's pages live
  // in its own Crawl DO) and the stored bodies of their webhook events; webhook deliveries gain
  // the subject kind 'crawl', so that table is rebuilt (same columns, in order).
  [
    `CREATE TABLE crawls (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      crawl_id TEXT NOT NULL UNIQUE,
      url TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'cancelled', 'failed')),
      stopped_by TEXT,
      counts TEXT NOT NULL,
      page_limit INTEGER NOT NULL,
      credits_used INTEGER NOT NULL DEFAULT 0,
      webhook_url TEXT,
      webhook_events TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      completed_at INTEGER
    )`,
    `CREATE TABLE crawl_events (
      subject_id TEXT PRIMARY KEY,
      crawl_id TEXT NOT NULL,
      body TEXT NOT NULL
    )`,
    `CREATE INDEX crawl_events_by_crawl ON crawl_events (crawl_id)`,
    `CREATE TABLE webhook_deliveries_v11 (
      delivery_id TEXT PRIMARY KEY,
      subject_kind TEXT NOT NULL CHECK (subject_kind IN ('job', 'batch', 'run', 'crawl')),
      subject_id TEXT NOT NULL,
      event TEXT NOT NULL,
      url TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'queued', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      last_status INTEGER,
      last_error TEXT,
      last_attempt_at INTEGER,
      created_at INTEGER NOT NULL,
      swept_at INTEGER,
      UNIQUE (subject_kind, subject_id)
    )`,
    `INSERT INTO webhook_deliveries_v11 (delivery_id, subject_kind, subject_id, event, url, state,
       attempts, last_status, last_error, last_attempt_at, created_at, swept_at)
     SELECT delivery_id, subject_kind, subject_id, event, url, state, attempts, last_status,
       last_error, last_attempt_at, created_at, swept_at FROM webhook_deliveries`,
    `DROP TABLE webhook_deliveries`,
    `ALTER TABLE webhook_deliveries_v11 RENAME TO webhook_deliveries`,
    `CREATE INDEX webhook_deliveries_by_age ON webhook_deliveries (created_at)`,
  ],
  // v12, the operations views of issue 36: when a webhook delivery's next attempt is due (set
  // with each retried attempt, cleared when it ends or is redelivered; GET
  // /v1/webhooks/deliveries), and the request log (src/accounts/request-log.ts: the last 200
  // API requests, 7 days; GET /v1/requests and the dashboard).
  [
    `ALTER TABLE webhook_deliveries ADD COLUMN next_attempt_at INTEGER`,
    `CREATE TABLE request_log (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      at INTEGER NOT NULL,
      method TEXT NOT NULL,
      route TEXT NOT NULL,
      status INTEGER NOT NULL,
      error_code TEXT,
      credits INTEGER,
      duration_ms INTEGER NOT NULL,
      request_id TEXT NOT NULL,
      key_id TEXT NOT NULL
    )`,
  ],
  // v13, site monitors (src/monitors/store.ts): the monitors, their checks (each check is a
  // crawl: its frontier lives in its Crawl DO), the pages of a check that were not unchanged,
  // the baseline index (which pages the monitor knows, and the check that last saw each) and the
  // stored bodies of their webhook events. A crawl row says which monitor's check it is (such a
  // crawl is not listed among the account's crawls); webhook deliveries gain the subject kind
  // 'monitor', so that table is rebuilt again (same columns, in order).
  [
    `CREATE TABLE monitors (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      monitor_id TEXT NOT NULL UNIQUE,
      name TEXT,
      url TEXT NOT NULL,
      settings TEXT NOT NULL,
      origin TEXT NOT NULL,
      paused INTEGER NOT NULL DEFAULT 0,
      next_check_at INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    )`,
    `CREATE INDEX monitors_by_due ON monitors (paused, next_check_at)`,
    `CREATE TABLE monitor_checks (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      check_id TEXT NOT NULL UNIQUE,
      monitor_id TEXT NOT NULL,
      trigger TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'cancelled', 'failed')),
      stopped_by TEXT,
      counts TEXT NOT NULL,
      credits_used INTEGER NOT NULL DEFAULT 0,
      baseline INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      completed_at INTEGER
    )`,
    `CREATE INDEX monitor_checks_by_monitor ON monitor_checks (monitor_id, seq)`,
    `CREATE TABLE monitor_check_pages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      check_id TEXT NOT NULL,
      url TEXT NOT NULL,
      status TEXT NOT NULL,
      body TEXT NOT NULL,
      UNIQUE (check_id, url)
    )`,
    `CREATE TABLE monitor_pages (
      monitor_id TEXT NOT NULL,
      url TEXT NOT NULL,
      seen_check TEXT NOT NULL,
      PRIMARY KEY (monitor_id, url)
    )`,
    `CREATE TABLE monitor_events (
      subject_id TEXT PRIMARY KEY,
      monitor_id TEXT NOT NULL,
      check_id TEXT NOT NULL,
      body TEXT NOT NULL
    )`,
    `CREATE INDEX monitor_events_by_check ON monitor_events (check_id)`,
    `ALTER TABLE crawls ADD COLUMN monitor_id TEXT`,
    `CREATE TABLE webhook_deliveries_v13 (
      delivery_id TEXT PRIMARY KEY,
      subject_kind TEXT NOT NULL CHECK (subject_kind IN ('job', 'batch', 'run', 'crawl', 'monitor')),
      subject_id TEXT NOT NULL,
      event TEXT NOT NULL,
      url TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'queued', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      last_status INTEGER,
      last_error TEXT,
      last_attempt_at INTEGER,
      created_at INTEGER NOT NULL,
      swept_at INTEGER,
      next_attempt_at INTEGER,
      UNIQUE (subject_kind, subject_id)
    )`,
    `INSERT INTO webhook_deliveries_v13 (delivery_id, subject_kind, subject_id, event, url, state,
       attempts, last_status, last_error, last_attempt_at, created_at, swept_at, next_attempt_at)
     SELECT delivery_id, subject_kind, subject_id, event, url, state, attempts, last_status,
       last_error, last_attempt_at, created_at, swept_at, next_attempt_at FROM webhook_deliveries`,
    `DROP TABLE webhook_deliveries`,
    `ALTER TABLE webhook_deliveries_v13 RENAME TO webhook_deliveries`,
    `CREATE INDEX webhook_deliveries_by_age ON webhook_deliveries (created_at)`,
  ],
  // v14: a failed job's or watch run's whole cause, beside its sanitized `error`.
  [
    `ALTER TABLE jobs ADD COLUMN error_detail TEXT`,
    `ALTER TABLE watch_runs ADD COLUMN error_detail TEXT`,
  ],
  // v15: the fields a watch run read (JSON) and the alert rules that fired on it (JSON).
  [
    `ALTER TABLE watch_runs ADD COLUMN fields TEXT`,
    `ALTER TABLE watch_runs ADD COLUMN alerts TEXT`,
  ],
  // v16: how complete a watch run's capture was (JSON, schemas/responses/completeness.ts).
  [`ALTER TABLE watch_runs ADD COLUMN completeness TEXT`],
];
