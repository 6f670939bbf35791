import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Account } from "../../src/account-do/account";
import { ACCOUNT_MIGRATIONS } from "../../src/account-do/migrations";
import { migrate } from "../../src/accounts/migrate";
import { accountDo } from "../helpers/account-do";
import { createAccount } from "../helpers/accounts";

describe("Account DO schema migrations", () => {
  it("apply each migration once, keep data, and refuse a database newer than the code", async () => {
    const { accountId } = await createAccount("pro");
    await runInDurableObject(accountDo(accountId), (_instance: Account, state) => {
      const sql = state.storage.sql;
      const version = () =>
        sql.exec<{ version: number }>("SELECT version FROM schema_version").one().version;
      expect(version()).toBe(ACCOUNT_MIGRATIONS.length);
      expect(migrate(state.storage, ACCOUNT_MIGRATIONS)).toBe(ACCOUNT_MIGRATIONS.length);

      const next = [...ACCOUNT_MIGRATIONS, ["CREATE TABLE later_feature (id TEXT PRIMARY KEY)"]];
      expect(migrate(state.storage, next)).toBe(next.length);
      expect(migrate(state.storage, next)).toBe(next.length); // no "table exists" error: ran once
      expect(version()).toBe(next.length);
      expect(sql.exec("SELECT account_id FROM account").one().account_id).toBe(accountId);

      expect(() => migrate(state.storage, ACCOUNT_MIGRATIONS)).toThrow(/newer than this code/);
      expect(sql.exec("SELECT COUNT(*) AS n FROM schema_version").one().n).toBe(1);
    });
  });
});
