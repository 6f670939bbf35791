/**
 * The pipeline's storage step: where a successful image output goes before its credit is
 * committed, so a storage failure is refunded like any other failed output. Three kinds of
 * target: none, our R2 (hosted / render cache), or the customer's own bucket (a storage
 * destination, async jobs only: src/storage/destinations.ts).
 */
import { log } from "../log";
import { type StoredOutput, storeOutput } from "../storage/hosted";
import { type RenderEntry, writeEntry } from "../storage/render-cache";
import type { ApiError } from "../errors";
import type { Delivery } from "../../schemas/storage";
import { type OpenDestination, putOptions } from "../storage/destinations";
import { objectUrl, putObject } from "../storage/s3";
import type { CaptureResult } from "../capture/page/page-capture";
import { failures, failureToApiError } from "../capture/failures";

export type StorageTarget =
  /** Nothing stored: the caller answers with the bytes. */
  | { kind: "none" }
  /** R2 under `<prefix>/<uuid>.<ext>` for ttlSeconds, served by signed URL (hosted captures, job results). */
  | { kind: "hosted"; ttlSeconds: number; prefix: string; context: string }
  /** R2 as above plus the render link's cache entry (KV) under `cacheKey`, with the output's headers. */
  | { kind: "render-cache"; ttlSeconds: number; cacheKey: string; context: string }
  /**
   * The customer's bucket under `key` (prefix included), plus a copy in our R2 under `keep`
   * unless the destination is `deliverOnly` (then `keep` is null and nothing stays with us).
   */
  | {
      kind: "bucket";
      destination: OpenDestination;
      key: string;
      context: string;
      keep: Extract<StorageTarget, { kind: "hosted" }> | null;
    };

export type R2Target = Extract<StorageTarget, { kind: "hosted" | "render-cache" }>;

export interface Stored extends StoredOutput {
  /** The render-cache entry written (render-cache targets only). */
  entry: RenderEntry | null;
}

/** The spec's "Failed to store capture result." (500); the cause goes to the logs only. */
export function storageFailed(context: string, err: unknown): ApiError {
  log("error", `${context}: storing the output failed`, { error: String(err) });
  return failureToApiError(failures.storage());
}

/** Stores one output; a failure throws `storageFailed`'s error. */
export async function storeResult(
  env: Env,
  target: R2Target,
  input: {
    result: Pick<CaptureResult, "bytes" | "contentType">;
    accountId: string;
    headers: Record<string, string>;
  },
): Promise<Stored> {
  const { result, accountId } = input;
  const prefix = target.kind === "hosted" ? target.prefix : "render";
  try {
    const stored = await storeOutput(env, {
      bytes: result.bytes,
      contentType: result.contentType,
      ttlSeconds: target.ttlSeconds,
      accountId,
      prefix,
    });
    if (target.kind === "hosted") return { ...stored, entry: null };
    const entry: RenderEntry = {
      r2Key: stored.key,
      contentType: result.contentType,
      size: result.bytes.byteLength,
      expires: stored.expires,
      headers: input.headers,
    };
    await writeEntry(env, target.cacheKey, entry, target.ttlSeconds);
    return { ...stored, entry };
  } catch (err) {
    throw storageFailed(target.context, err);
  }
}

/** Uploads one output to the customer's bucket (retried inside); a final failure throws `storageFailed`'s error. */
export async function deliverResult(
  target: Extract<StorageTarget, { kind: "bucket" }>,
  result: Pick<CaptureResult, "bytes" | "contentType">,
): Promise<Delivery> {
  const { record, target: bucket } = target.destination;
  const put = await putObject(
    bucket,
    target.key,
    result.bytes,
    putOptions(record, result.contentType),
  );
  if (!put.ok)
    throw storageFailed(
      target.context,
      `bucket upload failed: ${put.reason} (${put.status ?? "no answer"})`,
    );
  return {
    destinationId: record.destinationId,
    bucket: record.bucket,
    key: target.key,
    url: objectUrl(bucket, target.key),
    etag: put.etag,
  };
}
