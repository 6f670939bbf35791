import { DurableObject } from "cloudflare:workers";

/** One per account: keys, plan, credits, rate limit, jobs. */
export class Account extends DurableObject<Env> {}
