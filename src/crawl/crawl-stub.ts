/** Reaching a crawl's own Durable Object. */
/** The Crawl DO of a crawl: named by account and crawl, so another account's id finds nothing. */
export function crawlStub(env: Env, accountId: string, crawlId: string) {
  return env.CRAWL.get(env.CRAWL.idFromName(`${accountId}/${crawlId}`));
}
