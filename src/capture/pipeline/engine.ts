/**
 * Capture engines: what loads a spec's page once and renders the outputs it asks for. Today the
 * BrowserHost Durable Objects (a warm browser each); a geo provider becomes a second engine
 * behind the same interface. Only the pipeline (and the job consumer's test seam) calls one.
 */
import { config } from "../../config";
import type { BrowserHost, CaptureOutcome } from "../browser-host";
import type { CaptureSpec } from "../spec";

export interface CaptureEngine {
  /** Loads `spec`'s page once and renders `spec.outputs`; a failed load is an outcome. */
  capture(spec: CaptureSpec): Promise<CaptureOutcome>;
}

/** One of the BROWSER_HOSTS shards, at random. */
function browserHost(env: Env): DurableObjectStub<BrowserHost> {
  const shard = Math.floor(Math.random() * config(env).browserHosts);
  return env.BROWSER_HOST.get(env.BROWSER_HOST.idFromName(`host-${shard}`));
}

/** The BrowserHost engine: each capture on a randomly chosen shard. */
export function browserEngine(env: Env): CaptureEngine {
  return { capture: (spec) => browserHost(env).capture(spec) };
}
