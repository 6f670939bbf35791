import { DurableObject } from "cloudflare:workers";

/** Holds one warm browser and runs captures in their own incognito contexts. */
export class BrowserHost extends DurableObject<Env> {}
