/**
 * Edgeshot worker entry: the HTTP app, the queue consumers and the scheduled sweep. Each checks
 * the configuration first (src/config.ts).
 * Durable Object classes are re-exported here so the runtime can find them.
 */
import { config } from "./config";
import { newApp } from "./http/app";
import { handleQueue } from "./queues/queue";
import { sweepExpired } from "./storage/hosted";
import { log } from "./log";

export { Account } from "./account-do/account";
export { BrowserHost } from "./capture/host/browser-host";
export { RenderCoalescer } from "./render-links/coalescer";
export { KeyDirectory } from "./accounts/key-directory";
export { DashboardUser } from "./accounts/users";
export { LoginThrottle } from "./accounts/throttle";
export { Crawl } from "./crawl/crawl-do";

const app = newApp();

export default {
  fetch: app.fetch,
  // capture-jobs, webhooks and their dead-letter queues (src/jobs/). A bad configuration
  // throws before any message is touched, so the whole batch is retried.
  queue: (batch, env) => {
    config(env);
    return handleQueue(batch, env);
  },
  async scheduled(_controller, env, ctx) {
    config(env);
    ctx.waitUntil(
      sweepExpired(env).then((deleted) => log("info", "swept expired outputs", { deleted })),
    );
  },
} satisfies ExportedHandler<Env>;
