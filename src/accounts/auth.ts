/**
 * Who is calling: the account an authenticated request acts for. Set by the `authenticate`
 * middleware (src/http/middleware/authenticate.ts); render links build one for the link's owner.
 */
import type { AccountStub } from "./directory";
import type { Plan } from "./plans";
import type { PrepaidCredits } from "./credits";

export interface AuthContext {
  accountId: string;
  keyId: string;
  plan: Plan;
  account: AccountStub;
  /** Credits reserved with authentication (capture routes), for the pipeline to claim. */
  prepaid?: PrepaidCredits;
}
