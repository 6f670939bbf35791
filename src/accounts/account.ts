/**
 * The `Account` Durable Object: one per account, the single source of truth for its plan,
 * API keys (hashes only), monthly credit ledger, per-minute rate limit and active-job count.
 *
 * Called by RPC on the stub. Every method is synchronous over SQLite storage, so each runs
 * atomically (no other call interleaves); those writing several rows use `transactionSync`.
 * Methods return result values rather than throwing for expected outcomes, since errors lose
 * their class when crossing RPC.
 */
import { DurableObject } from "cloudflare:workers";
import { LIMITS } from "../../schemas/limits";
import { TUNING } from "../tuning";
import { config } from "../config";
import { type NewKey, type KeyInfo, checkKey, insertKey, listKeys, revokeKey } from "./keystore";
import type { CreditUsage } from "../../schemas/responses";
import { type ReserveResult, type Settlement, type SettleResult, creditUsage } from "./ledger";
import { creditsByDay, reserve as reserveCredits, setUsed, settle } from "./ledger";
import { type RateState, hitRateLimit } from "./limiter";
import { type Plan, type PlanId, PLANS } from "./plans";
import { ACCOUNT_MIGRATIONS, migrate } from "./schema";
import { type FinishResult, type JobOutcome, type JobStore, type StartResult } from "./jobs";
import { abortJob, finishJob, startJob } from "./jobs";
import { type AdmitInput, type AdmitResult, abandonJobs, admitJobs, pruneJobs } from "./jobs-admit";
import type { BatchView, JobView } from "../../schemas/responses";
import { type ListQuery, type Page } from "./jobs-read";
import { getBatch, getJob, listBatches, listJobs } from "./jobs-read";
import {
  type AttemptRecord,
  type WebhookDelivery,
  failWebhook,
  markWebhooksQueued,
} from "./jobs-webhooks";
import { recordWebhookAttempt, webhookDelivery } from "./jobs-webhooks";
import type { DestinationView } from "../../schemas/storage";
import {
  type AddDestinationResult,
  type DestinationRecord,
  addDestination,
  deleteDestination,
} from "./destinations";
import { getDestination, listDestinations } from "./destinations";
import { nextStuckDue, sweepStuckJobs } from "./jobs-sweep";
import {
  type ClaimResult,
  type StoredResponse,
  claimKey,
  completeKey,
  releaseKey,
} from "./idempotency";
import type { WatchRunView, WatchView } from "../../schemas/watches";
import { armAlarm } from "./alarm";
import { runDueWatches, queueRun, type ScheduleDeps } from "./watch-schedule";
import {
  type NewWatch,
  type WatchChange,
  type WatchResult,
  createWatch,
  enforceWatchCaps,
  getWatch,
  listWatches,
  updateWatch,
  watchRow,
} from "./watches";
import {
  type RunAdmission,
  type RunContext,
  type RunFinish,
  type RunResult,
  admitRun,
  deleteWatch,
  finishRun,
  nextWatchDue,
  runContext,
} from "./watch-runs";
import { getRun, listRuns } from "./watch-runs-read";

export interface AccountSummary {
  accountId: string;
  name: string | null;
  plan: PlanId;
  createdAt: string;
  usage: CreditUsage;
  rateLimitPerMinute: number;
  activeJobs: number;
}

export type AuthorizeResult =
  | {
      status: "ok";
      accountId: string;
      plan: PlanId;
      rate: RateState;
      /** The credits asked for with `reserve`, when the call was admitted (not rate limited). */
      reservation?: ReserveResult;
    }
  | { status: "unknown" }
  | { status: "revoked" };

interface AccountRow extends Record<string, SqlStorageValue> {
  account_id: string;
  name: string | null;
  plan: PlanId;
  created_at: number;
  active_jobs: number;
}

/**
 * Queue messages of the capture-jobs and webhooks queues (their zod schemas: jobs/messages.ts,
 * webhooks/deliver.ts), sent at most TUNING.queueSendBatch per call.
 */
async function sendInBatches<T>(queue: Queue<T>, bodies: T[]): Promise<void> {
  for (let i = 0; i < bodies.length; i += TUNING.queueSendBatch) {
    await queue.sendBatch(bodies.slice(i, i + TUNING.queueSendBatch).map((body) => ({ body })));
  }
}

export class Account extends DurableObject<Env> {
  /** The clock every method reads; tests replace it through `runInDurableObject`. */
  clock: () => number = () => Date.now();
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrate(ctx.storage, ACCOUNT_MIGRATIONS);
  }

  private row(): AccountRow | undefined {
    return this.sql.exec<AccountRow>("SELECT * FROM account").toArray()[0];
  }

  private plan(row: AccountRow): Plan {
    return PLANS[row.plan];
  }

  /** Creates the account with its first key; null when it already exists. */
  create(input: {
    accountId: string;
    plan: PlanId;
    name: string | null;
    key: NewKey;
  }): AccountSummary | null {
    if (this.row()) return null;
    const now = this.clock();
    this.ctx.storage.transactionSync(() => {
      this.sql.exec(
        "INSERT INTO account (id, account_id, name, plan, created_at) VALUES (1, ?, ?, ?, ?)",
        input.accountId,
        input.name,
        input.plan,
        now,
      );
      insertKey(this.sql, input.key, now);
    });
    return this.summary();
  }

  summary(): AccountSummary | null {
    const row = this.row();
    if (!row) return null;
    const plan = this.plan(row);
    return {
      accountId: row.account_id,
      name: row.name,
      plan: plan.id,
      createdAt: new Date(row.created_at).toISOString(),
      usage: creditUsage(this.sql, plan.monthlyCredits, this.clock()),
      rateLimitPerMinute: plan.rateLimitPerMinute,
      activeJobs: row.active_jobs,
    };
  }

  /** Changes the plan and/or this month's used credits; null when there is no account. */
  update(change: { plan?: PlanId; creditsUsed?: number }): AccountSummary | null {
    if (!this.row()) return null;
    this.ctx.storage.transactionSync(() => {
      if (change.plan !== undefined) {
        this.sql.exec("UPDATE account SET plan = ?", change.plan);
        // A downgrade that leaves the account over its watch caps pauses the newest watches.
        enforceWatchCaps(this.sql, PLANS[change.plan]);
      }
      if (change.creditsUsed !== undefined) setUsed(this.sql, change.creditsUsed, this.clock());
    });
    return this.summary();
  }

  addKey(key: NewKey): KeyInfo | null {
    return this.row() ? insertKey(this.sql, key, this.clock()) : null;
  }

  revokeKey(keyId: string): KeyInfo | null {
    return this.row() ? revokeKey(this.sql, keyId, this.clock()) : null;
  }

  listKeys(): KeyInfo[] {
    return listKeys(this.sql);
  }

  /** Render links (cache miss): the owner's plan, and is the minting key active? null = no account. */
  renderOwner(keyId: string): { plan: PlanId; keyActive: boolean } | null {
    const row = this.row();
    if (!row) return null;
    const keyActive = listKeys(this.sql).some((k) => k.keyId === keyId && k.status === "active");
    return { plan: row.plan, keyActive };
  }

  /**
   * Key status and rate limit in one call: every authenticated request makes exactly this one.
   * With `reserve` (capture routes), an admitted call also holds that many credits in the same
   * transaction, so a capture needs no second round trip before its work (src/accounts/credits.ts).
   */
  authorize(keyId: string, keyHash: string, reserve = 0): AuthorizeResult {
    const row = this.row();
    if (!row) return { status: "unknown" };
    const now = this.clock();
    return this.ctx.storage.transactionSync((): AuthorizeResult => {
      const status = checkKey(this.sql, keyId, keyHash, now);
      if (status !== "active") return { status: status === "revoked" ? "revoked" : "unknown" };
      const plan = this.plan(row);
      const rate = hitRateLimit(this.sql, plan.rateLimitPerMinute, now, TUNING.rateWindowMs);
      const result = { status: "ok", accountId: row.account_id, plan: plan.id, rate } as const;
      if (rate.limited || reserve <= 0) return result;
      const ttlMs = TUNING.creditReservationTtlMs;
      return {
        ...result,
        reservation: reserveCredits(this.sql, plan.monthlyCredits, reserve, ttlMs, now),
      };
    });
  }

  /**
   * The dashboard's playground: the rate limit counted as for a key (the session stands in
   * for it; src/http/dashboard/). "unknown" when there is no account.
   */
  authorizeSession(): AuthorizeResult {
    const row = this.row();
    if (!row) return { status: "unknown" };
    const plan = this.plan(row);
    return this.ctx.storage.transactionSync((): AuthorizeResult => {
      const rate = hitRateLimit(
        this.sql,
        plan.rateLimitPerMinute,
        this.clock(),
        TUNING.rateWindowMs,
      );
      return { status: "ok", accountId: row.account_id, plan: plan.id, rate };
    });
  }

  /** Credits committed per UTC day since `fromDay` (the dashboard's usage chart). */
  creditsByDay(fromDay: string): { day: string; used: number }[] {
    return creditsByDay(this.sql, fromDay);
  }

  /** Holds `cost` credits until settled (or until `ttlMs` passes). */
  reserveCredits(cost: number, ttlMs: number = TUNING.creditReservationTtlMs): ReserveResult {
    const row = this.row();
    if (!row) throw new Error("account does not exist");
    return this.ctx.storage.transactionSync(() =>
      reserveCredits(this.sql, this.plan(row).monthlyCredits, cost, ttlMs, this.clock()),
    );
  }

  /** Commits (`commit` true), refunds (false) or partly commits (a count) a reservation. */
  settleCredits(reservationId: string, commit: Settlement): SettleResult {
    const row = this.row();
    if (!row) throw new Error("account does not exist");
    return this.ctx.storage.transactionSync(() =>
      settle(this.sql, this.plan(row).monthlyCredits, reservationId, commit, this.clock()),
    );
  }

  // Async jobs, batches and their webhooks: thin wrappers over src/accounts/jobs*.ts, each
  // one transaction (guarded transitions: see jobs.ts).

  private jobStore(): JobStore {
    const row = this.row();
    if (!row) throw new Error("account does not exist");
    const plan = this.plan(row);
    return {
      sql: this.sql,
      now: this.clock(),
      creditLimit: plan.monthlyCredits,
      activeJobLimit: plan.activeJobs,
    };
  }

  private tx<T>(work: (store: JobStore) => T): T {
    const store = this.jobStore();
    return this.ctx.storage.transactionSync(() => work(store));
  }

  async admitJobs(input: AdmitInput): Promise<AdmitResult> {
    const result = this.tx((s) => {
      pruneJobs(s, LIMITS.jobRetentionMs);
      return admitJobs(s, input);
    });
    if (result.ok) await this.rearm();
    return result;
  }

  /**
   * The DO's one alarm (alarm.ts) serves two users: the stuck-job sweep (jobs-sweep.ts: re-enqueue
   * once, then fail and refund) and the watch schedule (watch-schedule.ts). It runs both, queues
   * what they emitted, and re-arms for the earliest time either needs next.
   */
  override async alarm(): Promise<void> {
    const row = this.row();
    if (!row) return;
    const accountId = row.account_id;
    const swept = this.tx((s) => sweepStuckJobs(s, config(this.env).jobStuckAfterMs));
    await sendInBatches(
      this.env.CAPTURE_JOBS,
      swept.requeue.map((job) => ({ accountId, ...job })),
    );
    if (swept.webhooks.length > 0) {
      await sendInBatches(
        this.env.WEBHOOKS,
        swept.webhooks.map((deliveryId) => ({ accountId, deliveryId })),
      );
      this.tx((s) => markWebhooksQueued(s.sql, swept.webhooks));
    }
    await runDueWatches(this.scheduleDeps());
    await this.rearm();
  }

  /** Sets the one alarm to the earliest time any of its users needs it (none: no alarm). */
  private async rearm(): Promise<void> {
    await armAlarm(this.ctx.storage, [
      nextWatchDue(this.sql),
      nextStuckDue(this.sql, config(this.env).jobStuckAfterMs),
    ]);
  }

  abandonJobs(jobIds: string[], batchId: string | null): number {
    return this.tx((s) => abandonJobs(s, jobIds, batchId));
  }

  startJob(jobId: string, attempt: number): StartResult {
    return this.tx((s) => startJob(s, jobId, attempt));
  }

  finishJob(jobId: string, outcome: JobOutcome): FinishResult {
    return this.tx((s) => finishJob(s, jobId, outcome));
  }

  abortJob(jobId: string, error: string): FinishResult {
    return this.tx((s) => abortJob(s, jobId, error));
  }

  getJob(jobId: string): JobView | null {
    return getJob(this.sql, jobId);
  }

  listJobs(query: ListQuery): Page<JobView> {
    return listJobs(this.sql, query);
  }

  getBatch(batchId: string): BatchView | null {
    return getBatch(this.sql, batchId);
  }

  listBatches(query: ListQuery): Page<BatchView> {
    return listBatches(this.sql, query);
  }

  webhookDelivery(deliveryId: string): WebhookDelivery | null {
    return webhookDelivery(this.sql, deliveryId);
  }

  markWebhooksQueued(deliveryIds: string[]): void {
    this.tx((s) => markWebhooksQueued(s.sql, deliveryIds));
  }

  recordWebhookAttempt(deliveryId: string, attempt: AttemptRecord): boolean {
    return this.tx((s) => recordWebhookAttempt(s.sql, deliveryId, attempt, s.now));
  }

  failWebhook(deliveryId: string, error: string): boolean {
    return this.tx((s) => failWebhook(s.sql, deliveryId, error, s.now));
  }

  // Storage destinations (src/accounts/destinations.ts): the secret arrives and leaves sealed.

  addDestination(d: Omit<DestinationRecord, "createdAt">): AddDestinationResult {
    return this.tx((s) => addDestination(s.sql, d, LIMITS.destinationsPerAccount, s.now));
  }

  /** The stored record, secret sealed: for the uploader (and the `test` call) only. */
  destinationRecord(destinationId: string): DestinationRecord | null {
    return getDestination(this.sql, destinationId);
  }

  listDestinations(): DestinationView[] {
    return listDestinations(this.sql);
  }

  deleteDestination(destinationId: string): boolean {
    return this.tx((s) => deleteDestination(s.sql, destinationId));
  }

  // ---- Idempotency-Key (src/accounts/idempotency.ts) ----------------------------------------

  claimIdempotencyKey(key: string, fingerprint: string): ClaimResult {
    return claimKey(this.sql, key, fingerprint, this.clock());
  }

  completeIdempotencyKey(key: string, response: StoredResponse): void {
    completeKey(this.sql, key, response);
  }

  releaseIdempotencyKey(key: string): void {
    releaseKey(this.sql, key);
  }

  // Watches (src/accounts/watches.ts, watch-runs.ts, watch-schedule.ts): the schedule is the
  // DO's alarm, armed at the earliest due time of its users (alarm.ts).

  private scheduleDeps(): ScheduleDeps {
    const row = this.row();
    if (!row) throw new Error("account does not exist");
    return {
      accountId: row.account_id,
      tx: (work) => this.tx(work),
      queue: this.env.CAPTURE_JOBS,
    };
  }

  async createWatch(input: NewWatch): Promise<WatchResult> {
    const result = this.tx((s) => {
      const plan = this.plan(this.row() as AccountRow);
      return createWatch(s.sql, plan, input, s.now);
    });
    if (result.ok) await this.rearm();
    return result;
  }

  getWatch(watchId: string): WatchView | null {
    return getWatch(this.sql, watchId);
  }

  listWatches(query: ListQuery): Page<WatchView> {
    return listWatches(this.sql, query);
  }

  async updateWatch(watchId: string, change: WatchChange): Promise<WatchResult> {
    const result = this.tx((s) => {
      const plan = this.plan(this.row() as AccountRow);
      return updateWatch(s.sql, plan, watchId, change, s.now);
    });
    if (result.ok) await this.rearm();
    return result;
  }

  /** Deletes the watch and its runs; the R2 keys of their outputs (null when unknown). */
  async deleteWatch(watchId: string): Promise<string[] | null> {
    const keys = this.tx((s) => deleteWatch(s.sql, watchId));
    if (keys !== null) await this.rearm();
    return keys;
  }

  /** POST /v1/watches/:id/run: one run now, the schedule untouched. */
  async runWatchNow(
    watchId: string,
  ): Promise<RunAdmission | { ok: false; reason: "not_found" | "paused" }> {
    const admitted = this.tx((s) => {
      const watch = watchRow(s.sql, watchId);
      if (!watch) return { ok: false as const, reason: "not_found" as const };
      if (watch.status === "paused") return { ok: false as const, reason: "paused" as const };
      return admitRun(s, watch, "manual");
    });
    if (!admitted.ok) return admitted;
    const queued = await queueRun(this.scheduleDeps(), admitted);
    return queued
      ? admitted
      : {
          ok: false,
          watchId,
          runId: admitted.runId,
          reason: "Skipped: the run could not be queued.",
          cause: "queue",
        };
  }

  listWatchRuns(watchId: string, query: ListQuery): Page<WatchRunView> | null {
    if (!watchRow(this.sql, watchId)) return null;
    return listRuns(this.sql, watchId, query);
  }

  getWatchRun(runId: string): WatchRunView | null {
    return getRun(this.sql, runId);
  }

  /** The consumer's view of a watch run's job (marks the run processing). */
  watchRunContext(jobId: string): RunContext | null {
    return this.tx((s) => runContext(s.sql, jobId, s.now));
  }

  /** The dead-letter path of a watch run: queued → processing → failed, each guarded. */
  async abortWatchRun(jobId: string, error: string): Promise<RunFinish> {
    const finished = this.tx((s) => {
      s.sql.exec(
        "UPDATE jobs SET status = 'processing', started_at = COALESCE(started_at, ?) WHERE id = ? AND status = 'queued'",
        s.now,
        jobId,
      );
      return finishRun(s, jobId, { status: "failed", error });
    });
    if (finished.changed) await this.rearm();
    return finished;
  }

  /** Finishes a watch run and its job in one transaction (credit settled, baseline, retention). */
  async finishWatchRun(jobId: string, result: RunResult): Promise<RunFinish> {
    const finished = this.tx((s) => finishRun(s, jobId, result));
    if (finished.changed) await this.rearm();
    return finished;
  }
}
