/** Reaching into an Account Durable Object from a test: its stub, its clock, its storage. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Account } from "../../src/accounts/account";

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
