/**
 * What the account's feature stores share (src/jobs/store/, src/watches/store/,
 * src/webhooks/store/, src/storage/destination-store.ts, src/idempotency/): the Account DO's one
 * SQLite database, its clock and plan, its transactions and its one alarm. The DO
 * (src/account-do/account.ts) implements it; the stores hold no state of their own.
 */
import type { Plan } from "./plans";

/** One transaction's view: the database, the time it started and the plan's limits. */
export interface AccountTx {
  sql: SqlStorage;
  now: number;
  /** Monthly credits; null = unlimited. */
  creditLimit: number | null;
  activeJobLimit: number;
}

export interface AccountDb {
  readonly sql: SqlStorage;
  /** The environment, read at each use (tests replace the instance's). */
  env(): Env;
  now(): number;
  /** Whether the account has been created. */
  exists(): boolean;
  /** The account's id and plan; throws when the account does not exist. */
  account(): { accountId: string; plan: Plan };
  /** Runs `work` in one storage transaction (atomic: no other call interleaves). */
  tx<T>(work: (tx: AccountTx) => T): T;
  /** Sets the one alarm to the earliest time any of its users needs it. */
  rearm(): Promise<void>;
}
