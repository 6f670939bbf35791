/** Runs a CaptureSpec on one of the BrowserHost Durable Objects and unwraps the outcome. */
import { config } from "../config";
import type { CaptureResult } from "./capture";
import { failureToApiError } from "./failures";
import type { CaptureSpec } from "./spec";

export function browserHost(env: Env, index?: number): DurableObjectStub<import("./browser-host").BrowserHost> {
  const shards = config(env).browserHosts;
  const shard = index ?? Math.floor(Math.random() * shards);
  return env.BROWSER_HOST.get(env.BROWSER_HOST.idFromName(`host-${shard % shards}`));
}

/** Captures or throws the sanitized ApiError of the failure. */
export async function capture(env: Env, spec: CaptureSpec): Promise<CaptureResult> {
  const outcome = await browserHost(env).capture(spec);
  if (!outcome.ok) throw failureToApiError(outcome.failure);
  return outcome.result;
}
