/**
 * A capture job on the `capture-jobs` queue (its consumer: src/queues/capture-jobs.ts).
 *
 * Per delivery: take the job (queued → processing, guarded in the Account DO; refused = a
 * duplicate or a racing delivery: ack and stop), capture, store the output in R2, finish
 * (processing → completed with a signed result URL valid for cacheTtl). A transient failure
 * (browser crash, network, timeout) is retried with backoff while attempts remain; a
 * deterministic one (element not found, invalid cookie domain) fails at once. A failed job
 * carries one of the spec's sanitized error strings; its credit is refunded.
 *
 * A message that still ends up on `capture-jobs-dlq` (the consumer itself kept failing) fails
 * its job with the generic error, if it is not finished already (`abortCaptureJob`).
 */
import { accountStub } from "../accounts/directory";
import type { JobOutcome } from "./store/transitions";
import type { CaptureOutcome } from "../capture/browser-host";
import { FAILURE, failures, failureToApiError, toFailure } from "../capture/failures";
import type { ResultMeta } from "./store/read";
import type { StorageTarget } from "../capture/pipeline/storage";
import { expandKey, extensionFor, openDestination } from "../storage/destinations";
import type { CaptureEngine } from "../capture/pipeline/engine";
import { type OutputFailure, runPrepaidCapture } from "../capture/pipeline/pipeline";
import type { CaptureSpec } from "../capture/spec";
import { deleteStored, publicOrigin, signedImageUrl } from "../storage/hosted";
import {
  type CaptureJobMessage,
  type JobDocument,
  deleteJobDocument,
  readJobDocument,
} from "./messages";
import { enqueueWebhooks } from "../webhooks/deliver";
import { log } from "../log";
import { TUNING } from "../tuning";
import { jobError } from "./errors";

export interface CaptureDeps {
  /** Runs one capture; the default is a BrowserHost. Tests replace it. */
  capture: (env: Env, spec: CaptureSpec, accountId: string) => Promise<CaptureOutcome>;
}

/**
 * Runs one capture job's delivery: "retry" for a transient failure with attempts left (the
 * queue consumer, src/queues/capture-jobs.ts, retries the message), else "done".
 */
export async function runCaptureJob(
  env: Env,
  msg: CaptureJobMessage,
  attempt: number,
  deps: CaptureDeps,
): Promise<"done" | "retry"> {
  const account = accountStub(env, msg.accountId);
  const start = await account.jobs().start(msg.jobId, attempt);
  if (!start.ok) {
    log("info", "capture-jobs: job not taken", {
      jobId: msg.jobId,
      status: start.status,
      attempt: attempt,
    });
    await enqueueWebhooks(env, msg.accountId, start.pendingWebhooks);
    return "done";
  }
  const doc = await readJobDocument(env, msg);
  if (!doc) {
    log("error", "capture-jobs: job document missing", { jobId: msg.jobId });
    await finish(env, msg, { status: "failed", error: FAILURE.generic });
    return "done";
  }

  const failure = await complete(env, msg, doc, deps, start.batchId);
  if (failure === null) {
    return "done";
  }
  if (failure.transient && attempt < TUNING.captureAttempts) {
    log("info", "capture-jobs: transient failure, retrying", {
      jobId: msg.jobId,
      attempt: attempt,
      error: failure.error.message,
    });
    return "retry";
  }
  await finish(env, msg, { status: "failed", error: jobError(failure.error) });
  return "done";
}

/**
 * Where the job's result goes: our R2 (hosted), or its storage destination — opened (endpoint
 * re-checked, secret unsealed) before the capture, so an unusable destination costs no browser
 * time. Null when the destination is gone or unusable: the job fails with the storage error.
 */
async function storageTarget(
  env: Env,
  msg: CaptureJobMessage,
  doc: JobDocument,
  batchId: string | null,
): Promise<StorageTarget | null> {
  const context = `capture job ${msg.jobId}`;
  const hosted = { kind: "hosted", ttlSeconds: doc.cacheTtl, prefix: "j", context } as const;
  if (!doc.storage) return hosted;
  const record = await accountStub(env, msg.accountId)
    .destinations()
    .record(doc.storage.destinationId);
  if (!record) {
    log("info", "capture-jobs: storage destination deleted", {
      jobId: msg.jobId,
      destinationId: doc.storage.destinationId,
    });
    return null;
  }
  try {
    const destination = await openDestination(env, record);
    const source = doc.spec.source;
    const key = expandKey(doc.storage.key, record.prefix, {
      jobId: msg.jobId,
      batchId,
      watchId: null,
      host: source.kind === "url" ? new URL(source.url).hostname : "",
      ext: extensionFor(doc.spec.format),
      now: new Date(),
    });
    return { kind: "bucket", destination, key, context, keep: record.deliverOnly ? null : hosted };
  } catch (err) {
    // Never the error itself: a failed unseal must not put anything of the secret in the logs.
    log("error", "capture-jobs: storage destination unusable", {
      jobId: msg.jobId,
      destinationId: record.destinationId,
      kind: err instanceof Error ? err.name : "unknown",
    });
    return null;
  }
}

/** Runs the job through the pipeline (stored in R2 or delivered) and completes it; the failure when it failed. */
async function complete(
  env: Env,
  msg: CaptureJobMessage,
  doc: JobDocument,
  deps: CaptureDeps,
  batchId: string | null,
): Promise<OutputFailure | null> {
  const storage = await storageTarget(env, msg, doc, batchId);
  if (storage === null) return { error: failureToApiError(failures.storage()), transient: false };
  const engine: CaptureEngine = {
    capture: (spec, accountId) =>
      deps
        .capture(env, spec, accountId)
        .catch((err: unknown): CaptureOutcome => ({ ok: false, failure: toFailure(err) })),
  };
  const run = await runPrepaidCapture(env, msg.accountId, {
    spec: doc.spec,
    outputs: [{ kind: "image", format: doc.spec.format }],
    storage,
    engine,
  });
  const [output] = run.outputs;
  if (!output) throw new Error("capture run returned no output");
  if (!output.ok) return output.failure;
  if (output.kind !== "image") throw new Error("capture job output was not an image");
  const { result, stored, delivered } = output;
  const meta: ResultMeta = {
    width: result.width,
    height: result.height,
    loadTimeMs: run.loadTimeMs,
    bytesSize: result.bytes.byteLength,
  };
  // A bucket delivery is named in the job; a duplicate delivery that lost the race leaves the
  // bucket object in place (the customer's data, not ours). `deliverOnly`: no copy in our R2,
  // so the job's resultUrl is the bucket object's URL.
  const withStorage = delivered ? { ...meta, storage: delivered } : meta;
  if (!stored) {
    if (!delivered) throw new Error("capture job output was not stored");
    await finish(env, msg, { status: "completed", resultUrl: delivered.url, meta: withStorage });
    return null;
  }
  const resultUrl = await signedImageUrl(env, publicOrigin(env, doc.origin), stored);
  const changed = await finish(env, msg, { status: "completed", resultUrl, meta: withStorage });
  if (!changed) await deleteStored(env, stored); // another delivery finished it first
  return null;
}

/** processing → completed | failed; then the document goes and the webhooks are queued. */
async function finish(env: Env, msg: CaptureJobMessage, outcome: JobOutcome): Promise<boolean> {
  const result = await accountStub(env, msg.accountId).jobs().finish(msg.jobId, outcome);
  if (result.changed) await deleteJobDocument(env, msg.accountId, msg.jobId);
  await enqueueWebhooks(env, msg.accountId, result.webhooks);
  return result.changed;
}

/** The dead-letter path of a capture job: it fails with the generic reason unless finished. */
export async function abortCaptureJob(env: Env, accountId: string, jobId: string): Promise<void> {
  const result = await accountStub(env, accountId).jobs().abort(jobId, FAILURE.generic);
  if (result.changed) await deleteJobDocument(env, accountId, jobId);
  await enqueueWebhooks(env, accountId, result.webhooks);
  log("error", "capture-jobs-dlq: job dead-lettered", { jobId, failed: result.changed });
}
