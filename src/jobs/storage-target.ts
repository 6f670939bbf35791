/**
 * Where a queued job's image goes: our R2 (hosted), or the job's storage destination — opened
 * (endpoint re-checked, secret unsealed) before the capture, so an unusable destination costs
 * no browser time. The pipeline's storage step uploads to it (pipeline/storage.ts);
 * nothing else writes to a customer's bucket.
 */
import { accountStub } from "../accounts/directory";
import type { StorageTarget } from "../pipeline/storage";
import {
  expandKey,
  type KeyValues,
  openDestination,
  type StorageChoice,
} from "../storage/destinations";
import { log } from "../log";

type Hosted = Extract<StorageTarget, { kind: "hosted" }>;

export interface TargetInput {
  accountId: string;
  /** The job's destination and key template; null: hosted only. */
  choice: StorageChoice | null;
  hosted: Hosted;
  /** The key's placeholders, but the time (taken when the target is opened). */
  keyValues: Omit<KeyValues, "now">;
  /**
   * "always": our R2 keeps a copy even for a `deliverOnly` destination (a watch compares its
   * next run with it); "unless-deliver-only": the destination decides.
   */
  keep: "always" | "unless-deliver-only";
}

/** The target, or null when the destination is gone or unusable (the job fails with the storage reason). */
export async function jobStorageTarget(
  env: Env,
  input: TargetInput,
): Promise<StorageTarget | null> {
  const { choice, hosted } = input;
  if (choice === null) return hosted;
  const record = await accountStub(env, input.accountId)
    .destinations()
    .record(choice.destinationId);
  if (!record) {
    log("info", `${hosted.context}: storage destination deleted`, {
      destinationId: choice.destinationId,
    });
    return null;
  }
  try {
    const destination = await openDestination(env, record);
    const key = expandKey(choice.key, record.prefix, { ...input.keyValues, now: new Date() });
    const keep = input.keep === "always" || !record.deliverOnly ? hosted : null;
    return { kind: "bucket", destination, key, context: hosted.context, keep };
  } catch (err) {
    // Never the error itself: a failed unseal must not put anything of the secret in the logs.
    log("error", `${hosted.context}: storage destination unusable`, {
      destinationId: record.destinationId,
      kind: err instanceof Error ? err.name : "unknown",
    });
    return null;
  }
}
