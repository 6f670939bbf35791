/**
 * A capture job on the `capture-jobs` queue (its consumer: src/queues/capture-jobs.ts), run by
 * the job runner (./runner.ts: start, engine, retry decision, finish, webhooks). What is its
 * own: the CaptureSpec waits in R2 (the job document), the image — or a recording job's clip
 * (POST /v1/animate with async: true; the document's `recording`) — is stored in our R2 and/or
 * delivered to the job's storage destination, and a completed job carries a signed result URL
 * valid for cacheTtl. A failed job carries one of the spec's sanitized error strings; its
 * credit is refunded.
 *
 * A message that still ends up on `capture-jobs-dlq` (the consumer itself kept failing) fails
 * its job with the generic error, if it is not finished already (`abortCaptureJob`).
 */
import { accountStub } from "../accounts/directory";
import type { FinishResult, JobOutcome } from "./store/transitions";
import { FAILURE } from "../capture/failures";
import type { ResultMeta } from "./store/read";
import { extensionFor } from "../storage/destinations";
import type { PipelineRun, RequestedOutput } from "../pipeline/pipeline";
import { deleteStored, publicOrigin, signedImageUrl } from "../storage/hosted";
import { type JobDocument, deleteJobDocument, readJobDocument } from "./job-document";
import type { CaptureJobMessage } from "./queue-message";
import { enqueueWebhooks } from "../webhooks/deliver";
import { log } from "../log";
import type { JobKind } from "./runner";
import { jobStorageTarget } from "./storage-target";

interface Loaded {
  doc: JobDocument;
  batchId: string | null;
}

/** A capture job as the runner's job kind. */
export function captureJob(env: Env, msg: CaptureJobMessage): JobKind<Loaded> {
  const context = `capture job ${msg.jobId}`;
  const finish = async (outcome: JobOutcome): Promise<FinishResult> => {
    const result = await accountStub(env, msg.accountId).jobs().finish(msg.jobId, outcome);
    if (result.changed) await deleteJobDocument(env, msg.accountId, msg.jobId);
    return result;
  };
  return {
    name: "capture-jobs",
    accountId: msg.accountId,
    jobId: msg.jobId,
    load: async (batchId) => {
      const doc = await readJobDocument(env, msg);
      return doc ? { doc, batchId } : null;
    },
    guard: () => Promise.resolve(null), // the target was checked when the job was admitted
    plan: async ({ doc, batchId }) => {
      const source = doc.spec.source;
      const storage = await jobStorageTarget(env, {
        accountId: msg.accountId,
        choice: doc.storage ?? null,
        hosted: { kind: "hosted", ttlSeconds: doc.cacheTtl, prefix: "j", context },
        keyValues: {
          jobId: msg.jobId,
          batchId,
          watchId: null,
          host: source.kind === "url" ? new URL(source.url).hostname : "",
          ext: extensionFor(doc.recording?.plan.format ?? doc.spec.format),
        },
        keep: "unless-deliver-only",
      });
      const output: RequestedOutput = doc.recording
        ? { kind: "animation", plan: doc.recording.plan, credits: doc.recording.credits }
        : { kind: "image", format: doc.spec.format };
      return { spec: doc.spec, outputs: [output], storage };
    },
    complete: async ({ doc }, run) => (await completed(env, doc, run, finish)).webhooks,
    fail: async (failure) => (await finish({ status: "failed", ...failure })).webhooks,
  };
}

/** What a job keeps of its output, an image or a recording. */
function jobResult(run: PipelineRun) {
  const [output] = run.outputs;
  if (output?.ok && output.kind === "image") {
    const { result, stored, delivered } = output;
    const meta: ResultMeta = {
      width: result.width,
      height: result.height,
      loadTimeMs: run.loadTimeMs,
      bytesSize: result.bytes.byteLength,
      completeness: result.completeness,
    };
    return { meta, stored, delivered };
  }
  if (output?.ok && output.kind === "animation") {
    const { recording: r, stored, delivered } = output;
    const meta: ResultMeta = {
      width: r.width,
      height: r.height,
      loadTimeMs: run.loadTimeMs,
      bytesSize: r.bytes.byteLength,
      frames: r.frames,
      durationMs: r.durationMs,
    };
    return { meta, stored, delivered };
  }
  throw new Error("capture job output was neither an image nor a recording");
}

/** Completes the job with its result URL and metadata. */
async function completed(
  env: Env,
  doc: JobDocument,
  run: PipelineRun,
  finish: (outcome: JobOutcome) => Promise<FinishResult>,
): Promise<FinishResult> {
  const { meta, stored, delivered } = jobResult(run);
  // A bucket delivery is named in the job; a duplicate delivery that lost the race leaves the
  // bucket object in place (the customer's data, not ours). `deliverOnly`: no copy in our R2,
  // so the job's resultUrl is the bucket object's URL.
  const withStorage = delivered ? { ...meta, storage: delivered } : meta;
  if (!stored) {
    if (!delivered) throw new Error("capture job output was not stored");
    return finish({ status: "completed", resultUrl: delivered.url, meta: withStorage });
  }
  const resultUrl = await signedImageUrl(env, publicOrigin(env, doc.origin), stored);
  const done = await finish({ status: "completed", resultUrl, meta: withStorage });
  if (!done.changed) await deleteStored(env, stored); // another delivery finished it first
  return done;
}

/** The dead-letter path of a capture job: it fails with the generic reason unless finished. */
export async function abortCaptureJob(env: Env, accountId: string, jobId: string): Promise<void> {
  const result = await accountStub(env, accountId).jobs().abort(jobId, FAILURE.generic);
  if (result.changed) await deleteJobDocument(env, accountId, jobId);
  await enqueueWebhooks(env, accountId, result.webhooks);
  log("error", "capture-jobs-dlq: job dead-lettered", { jobId, failed: result.changed });
}
