/**
 * Who is calling: the account an authenticated request acts for. Set by the `authenticate`
 * middleware (src/http/middleware/authenticate.ts); render links build one for the link's owner.
 */
import type { Account } from "./account";
import type { Plan } from "./plans";

export interface AuthContext {
  accountId: string;
  keyId: string;
  plan: Plan;
  account: DurableObjectStub<Account>;
}
