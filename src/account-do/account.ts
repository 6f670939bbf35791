/**
 * The `Account` Durable Object: one per account, one SQLite database (migrations.ts), one alarm
 * (alarm.ts). It owns the account row, key checks and rate limit (src/accounts/) and composes
 * the features (features.ts), each reached over RPC as `account.<feature>().<method>()`:
 * keys, credits, jobs, watches, webhooks, destinations, idempotency. Every method is
 * synchronous over SQLite storage, so each runs atomically (no other call interleaves); those
 * writing several rows use `transactionSync`. Methods return result values rather than throwing
 * for expected outcomes, since errors lose their class when crossing RPC.
 */
import { DurableObject } from "cloudflare:workers";
import { authorizeKey, authorizeSession } from "../accounts/authorize";
import { type KeyStore, type NewKey, insertKey, listKeys } from "../accounts/keystore";
import { type CreditLedger, setUsed } from "../accounts/ledger";
import type { RateBucket } from "../accounts/limiter";
import { migrate } from "../accounts/migrate";
import { type AccountRow, type AccountSummary, type AuthorizeResult } from "../accounts/profile";
import { accountRow, accountSummary } from "../accounts/profile";
import { type Plan, type PlanId, PLANS } from "../accounts/plans";
import type { AccountDb, AccountTx } from "../accounts/store";
import type { CrawlsStore } from "../crawl/store";
import type { MonitorsStore } from "../monitors/store";
import type { IdempotencyKeys } from "../idempotency/store";
import type { JobsStore } from "../jobs/store/jobs";
import type { DestinationStore } from "../storage/destination-store";
import type { WatchesStore } from "../watches/store/store";
import { enforceWatchCaps } from "../watches/store/watches";
import type { WebhookDeliveries } from "../webhooks/store/deliveries";
import type { RequestLog } from "../accounts/request-log";
import { alarmDueTimes, armAlarm, runAlarm } from "./alarm";
import { type AccountFeatures, composeFeatures } from "./features";
import { ACCOUNT_MIGRATIONS } from "./migrations";

export class Account extends DurableObject<Env> {
  /** The clock every method reads; tests replace it through `runInDurableObject`. */
  clock: () => number = () => Date.now();
  private readonly sql: SqlStorage;
  private readonly db: AccountDb;
  private readonly features: AccountFeatures;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrate(ctx.storage, ACCOUNT_MIGRATIONS);
    this.db = {
      sql: this.sql,
      env: () => this.env,
      now: () => this.clock(),
      exists: () => this.row() !== undefined,
      account: () => {
        const account = this.caller();
        if (!account) throw new Error("account does not exist");
        return account;
      },
      tx: (work) => {
        const { plan } = this.db.account();
        const limits = { creditLimit: plan.monthlyCredits, activeJobLimit: plan.activeJobs };
        const tx: AccountTx = { sql: this.sql, now: this.clock(), ...limits };
        return ctx.storage.transactionSync(() => work(tx));
      },
      rearm: () => armAlarm(ctx.storage, alarmDueTimes(this.sql, this.env)),
    };
    this.features = composeFeatures(this.db);
  }

  private row(): AccountRow | undefined {
    return accountRow(this.sql);
  }

  private plan(row: AccountRow): Plan {
    return PLANS[row.plan];
  }

  /** The account a call is checked against; undefined when there is none. */
  private caller(): { accountId: string; plan: Plan } | undefined {
    const row = this.row();
    return row && { accountId: row.account_id, plan: this.plan(row) };
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
    return row ? accountSummary(this.sql, row, this.clock()) : null;
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

  /** Render links (cache miss): the owner's plan, and is the minting key active? null = no account. */
  renderOwner(keyId: string): { plan: PlanId; keyActive: boolean } | null {
    const row = this.row();
    if (!row) return null;
    const keyActive = listKeys(this.sql).some((k) => k.keyId === keyId && k.status === "active");
    return { plan: row.plan, keyActive };
  }

  /**
   * Key status and rate limit in one call: every authenticated request makes exactly this one;
   * with `reserve`, an admitted call also holds its credits (src/accounts/authorize.ts).
   */
  authorize(
    keyId: string,
    keyHash: string,
    reserve = 0,
    bucket: RateBucket = "request",
  ): AuthorizeResult {
    const account = this.caller();
    if (!account) return { status: "unknown" };
    const call = { keyId, keyHash, reserve, bucket };
    return this.ctx.storage.transactionSync(() =>
      authorizeKey(this.sql, account, call, this.clock()),
    );
  }

  /** The dashboard's playground: the rate limit counted as for a key. "unknown": no account. */
  authorizeSession(): AuthorizeResult {
    const account = this.caller();
    if (!account) return { status: "unknown" };
    return this.ctx.storage.transactionSync(() =>
      authorizeSession(this.sql, account, this.clock()),
    );
  }

  // ---- The features (see the top of this file) --------------------------------------------

  keys(): KeyStore {
    return this.features.keys;
  }

  credits(): CreditLedger {
    return this.features.credits;
  }

  jobs(): JobsStore {
    return this.features.jobs;
  }

  watches(): WatchesStore {
    return this.features.watches;
  }

  webhooks(): WebhookDeliveries {
    return this.features.webhooks;
  }

  crawls(): CrawlsStore {
    return this.features.crawls;
  }

  monitors(): MonitorsStore {
    return this.features.monitors;
  }

  destinations(): DestinationStore {
    return this.features.destinations;
  }

  idempotency(): IdempotencyKeys {
    return this.features.idempotency;
  }

  requests(): RequestLog {
    return this.features.requests;
  }

  /** The stuck-work sweep and the watch schedule (alarm.ts), then the alarm re-armed. */
  override async alarm(): Promise<void> {
    if (!this.row()) return;
    await runAlarm(this.db, this.features);
    await this.db.rearm();
  }
}
