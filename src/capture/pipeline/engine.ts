/**
 * Capture engines: what loads a spec's page once and renders the outputs it asks for. Today the
 * BrowserHost Durable Objects (a warm browser each), and for geo-targeted specs the configured
 * geo provider (capture/geo/) behind the same interface. Only the pipeline (and the job
 * consumer's test seam) calls one; the pipeline picks the geo engine when `spec.geo` is set.
 */
import { config } from "../../config";
import type { BrowserHost, CaptureOutcome } from "../browser-host";
import { failures } from "../failures";
import { captureThroughProvider } from "../geo/capture";
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

/**
 * The geo provider engine. Configuration was checked when the request was admitted; a job run
 * after the provider was unconfigured fails as the service being unavailable (503, refunded).
 */
export function geoEngine(env: Env): CaptureEngine {
  return {
    capture: async (spec) => {
      const geo = config(env).geo;
      if (geo === null) return { ok: false, failure: failures.geoUnavailable(false) };
      return captureThroughProvider(geo, spec);
    },
  };
}
