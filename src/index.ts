/**
 * Edgeshot worker entry: the HTTP app, the queue consumers and the scheduled sweep.
 * Durable Object classes are re-exported here so the runtime can find them.
 */
import { newApp } from "./http/app";
import { handleQueue } from "./jobs/queue";
import { sweepExpired } from "./storage/hosted";
import { log } from "./log";

export { Account } from "./accounts/account";
export { BrowserHost } from "./capture/browser-host";
export { RenderCoalescer } from "./storage/render-coalescer";

const app = newApp();

export default {
  fetch: app.fetch,
  // capture-jobs, webhooks and their dead-letter queues (src/jobs/).
  queue: (batch, env) => handleQueue(batch, env),
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      sweepExpired(env).then((deleted) => log("info", "swept expired outputs", { deleted })),
    );
  },
} satisfies ExportedHandler<Env>;
