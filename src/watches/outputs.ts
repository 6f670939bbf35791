/** Watch outputs in R2 (run images, diff images, page text): written beside the run, deleted with it. */
import { storeOutput, type StoredOutput } from "../storage/hosted";

/** R2 deletes take at most 1,000 keys a call. */
const DELETE_BATCH = 1000;

export async function deleteWatchOutputs(env: Env, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETE_BATCH)
    await env.OUTPUTS.delete(keys.slice(i, i + DELETE_BATCH));
}

/**
 * How long a run's objects live in R2: retention's age limit plus one interval and a day, so the
 * baseline is still there for the next run; retention (src/watches/store/runs.ts) usually
 * deletes them earlier, the hourly sweep is the backstop.
 */
export function outputTtlSeconds(retentionDays: number, intervalMinutes: number): number {
  return retentionDays * 86_400 + intervalMinutes * 60 + 86_400;
}

export function storeWatchOutput(
  env: Env,
  input: { bytes: Uint8Array; contentType: string; ttlSeconds: number; accountId: string },
): Promise<StoredOutput> {
  return storeOutput(env, { ...input, prefix: "w" });
}
