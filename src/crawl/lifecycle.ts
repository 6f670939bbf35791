/**
 * What the Crawl DO (./crawl-do.ts) hands to the rest of the system, outside its deciding: its
 * progress told to the account (the index of crawls and the webhook deliveries), and, past
 * retention, its outputs, its row in the account's index and its own storage deleted.
 */
import type { CrawlSummary } from "../../schemas/crawl";
import { accountStub } from "../accounts/directory";
import { log } from "../log";
import { enqueueWebhooks } from "../webhooks/deliver";
import type { CrawlConfig } from "./config";

/** A finished page as its `crawl.page` event reports it: its order of finishing, its body. */
export interface PageReport {
  seq: number;
  body: Record<string, unknown>;
}

/** The account's index is brought up to date; its webhook deliveries are queued. */
export async function reportProgress(
  env: Env,
  accountId: string,
  summary: CrawlSummary,
  pages: PageReport[] = [],
): Promise<void> {
  try {
    const account = accountStub(env, accountId);
    const deliveries = await account.crawls().progress({ summary, pages });
    await enqueueWebhooks(env, accountId, deliveries);
  } catch (err) {
    log("error", "crawl: progress report failed", { error: String(err) });
  }
}

/** Past retention: the R2 objects, the account's row, then the Crawl DO's storage. */
export async function expireCrawl(
  env: Env,
  storage: DurableObjectStorage,
  config: CrawlConfig,
): Promise<void> {
  const keys = storage.sql.exec<{ key: string }>("SELECT key FROM r2_keys").toArray();
  for (let i = 0; i < keys.length; i += 1000)
    await env.OUTPUTS.delete(keys.slice(i, i + 1000).map((k) => k.key));
  await accountStub(env, config.accountId).crawls().forget(config.crawlId);
  await storage.deleteAll();
}
