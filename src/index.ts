/**
 * Edgeshot worker entry: the HTTP app, the queue consumers and the scheduled sweep.
 * Durable Object classes are re-exported here so the runtime can find them.
 */
import { newApp } from "./http/app";

export { Account } from "./accounts/account";
export { BrowserHost } from "./capture/browser-host";

const app = newApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
