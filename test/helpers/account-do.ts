/** Reaching into an Account Durable Object from a test: its stub, its clock, its storage. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Account } from "../../src/account-do/account";
import { PLANS, type PlanId } from "../../src/accounts/plans";

export function accountDo(accountId: string): DurableObjectStub<Account> {
  return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
}

/** Replaces the DO's clock (it stays replaced while the instance lives, i.e. for the test). */
export async function setClock(accountId: string, clock: () => number): Promise<void> {
  await runInDurableObject(accountDo(accountId), (instance: Account) => {
    instance.clock = clock;
  });
}

/** Every row of every table of the DO's SQLite storage, for assertions on what is stored. */
export async function dumpStorage(accountId: string): Promise<Record<string, unknown[]>> {
  return runInDurableObject(accountDo(accountId), (_instance: Account, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
      )
      .toArray()
      .map((r) => r.name);
    const out: Record<string, unknown[]> = {};
    for (const name of tables)
      out[name] = state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray();
    return out;
  });
}

export interface JobSlots {
  ok: boolean;
  active: number;
  limit: number;
}

/**
 * Takes `n` active-job slots if the plan's cap allows all of them, as an admission would — so a
 * test can fill an account's queue without queueing jobs. Synchronous inside the DO: atomic.
 */
export function acquireJobSlots(accountId: string, n: number): Promise<JobSlots> {
  return runInDurableObject(accountDo(accountId), (_instance: Account, state): JobSlots => {
    const { plan, active_jobs: active } = state.storage.sql
      .exec<{ plan: PlanId; active_jobs: number }>("SELECT plan, active_jobs FROM account")
      .one();
    const limit = PLANS[plan].activeJobs;
    if (active + n > limit) return { ok: false, active, limit };
    state.storage.sql.exec("UPDATE account SET active_jobs = active_jobs + ?", n);
    return { ok: true, active: active + n, limit };
  });
}

/** Gives back `n` slots (never below zero). */
export function releaseJobSlots(accountId: string, n: number): Promise<JobSlots> {
  return runInDurableObject(accountDo(accountId), (_instance: Account, state): JobSlots => {
    const { plan, active_jobs: before } = state.storage.sql
      .exec<{ plan: PlanId; active_jobs: number }>("SELECT plan, active_jobs FROM account")
      .one();
    const active = Math.max(0, before - n);
    state.storage.sql.exec("UPDATE account SET active_jobs = ?", active);
    return { ok: true, active, limit: PLANS[plan].activeJobs };
  });
}
