/**
 * A crawl page's message on the capture-jobs queue: which page of which crawl, and the lease the
 * Crawl DO gave this dispatch (./frontier.ts): only its holder may render the page, once.
 */
import { z } from "zod";
import { plainId } from "../../schemas/primitives";

export const crawlPageMessage = z.strictObject({
  kind: z.literal("crawl-page"),
  accountId: plainId,
  crawlId: plainId,
  seq: z.number().int().positive(),
  lease: z.uuid(),
});
export type CrawlPageMessage = z.infer<typeof crawlPageMessage>;
