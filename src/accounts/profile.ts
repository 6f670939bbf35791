/**
 * The `account` table of the Account DO (src/account-do/account.ts): its one row — id, name,
 * plan, active-job count — and the summary the admin API and the dashboard show.
 */
import type { CreditUsage } from "../../schemas/responses";
import { type ReserveResult, creditUsage } from "./ledger";
import type { RateState } from "./limiter";
import { type PlanId, PLANS } from "./plans";

export interface AccountSummary {
  accountId: string;
  name: string | null;
  plan: PlanId;
  createdAt: string;
  usage: CreditUsage;
  rateLimitPerMinute: number;
  readRateLimitPerMinute: number;
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

export interface AccountRow extends Record<string, SqlStorageValue> {
  account_id: string;
  name: string | null;
  plan: PlanId;
  created_at: number;
  active_jobs: number;
}

export function accountRow(sql: SqlStorage): AccountRow | undefined {
  return sql.exec<AccountRow>("SELECT * FROM account").toArray()[0];
}

export function accountSummary(sql: SqlStorage, row: AccountRow, now: number): AccountSummary {
  const plan = PLANS[row.plan];
  return {
    accountId: row.account_id,
    name: row.name,
    plan: plan.id,
    createdAt: new Date(row.created_at).toISOString(),
    usage: creditUsage(sql, plan.monthlyCredits, now),
    rateLimitPerMinute: plan.rateLimitPerMinute,
    readRateLimitPerMinute: plan.readRateLimitPerMinute,
    activeJobs: row.active_jobs,
  };
}
