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
import { type NewKey, type KeyInfo, checkKey, insertKey, listKeys, revokeKey } from "./keystore";
import type { CreditUsage } from "../../schemas/responses";
import { type ReserveResult, type Settlement, type SettleResult, creditUsage } from "./ledger";
import { creditsByDay, reserve, setUsed, settle } from "./ledger";
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
  | { status: "ok"; accountId: string; plan: PlanId; rate: RateState }
  | { status: "unknown" }
  | { status: "revoked" };

interface AccountRow extends Record<string, SqlStorageValue> {
  account_id: string;
  name: string | null;
  plan: PlanId;
  created_at: number;
  active_jobs: number;
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
      if (change.plan !== undefined) this.sql.exec("UPDATE account SET plan = ?", change.plan);
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

  /** Key status and rate limit in one call: every authenticated request makes exactly this one. */
  authorize(keyId: string, keyHash: string): AuthorizeResult {
    const row = this.row();
    if (!row) return { status: "unknown" };
    const now = this.clock();
    return this.ctx.storage.transactionSync((): AuthorizeResult => {
      const status = checkKey(this.sql, keyId, keyHash, now);
      if (status !== "active") return { status: status === "revoked" ? "revoked" : "unknown" };
      const plan = this.plan(row);
      const rate = hitRateLimit(this.sql, plan.rateLimitPerMinute, now, TUNING.rateWindowMs);
      return { status: "ok", accountId: row.account_id, plan: plan.id, rate };
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
      reserve(this.sql, this.plan(row).monthlyCredits, cost, ttlMs, this.clock()),
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

  admitJobs(input: AdmitInput): AdmitResult {
    return this.tx((s) => {
      pruneJobs(s, LIMITS.jobRetentionMs);
      return admitJobs(s, input);
    });
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
}
