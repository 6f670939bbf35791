/**
 * The one lifecycle of queued capture work, whatever the job is — a capture job
 * (jobs/consumer.ts) or a watch run's job (watches/run.ts) — per queue delivery:
 *
 *   start: queued → processing, guarded in the Account DO (refused = a duplicate or a racing
 *          delivery: its pending webhooks are queued and the message acked)
 *   → load the job's context (missing: the job fails with the generic reason)
 *   → guard: checks before any browser time (a refusal fails the job)
 *   → plan: spec, requested outputs, storage target — our R2 or the customer's bucket, opened
 *     before the capture (gone or unusable: the job fails with the storage reason)
 *   → the pipeline on the engine (prepaid: the credit was reserved at admission)
 *   → the retry decision: the first output failed transiently with attempts left → "retry"
 *   → finish: completed (the job's own completion) or failed; its webhooks are queued.
 *
 * The credit settles with the job's finishing transition in the Account DO.
 */
import { accountStub } from "../accounts/directory";
import type { CaptureOutcome } from "../capture/host/browser-host";
import { FAILURE, toFailure } from "../capture/failures";
import type { CaptureEngine } from "../pipeline/engine";
import { type PipelineRun, type RequestedOutput, runPrepaidCapture } from "../pipeline/pipeline";
import type { StorageTarget } from "../pipeline/storage";
import type { CaptureSpec } from "../capture/capture-spec";
import { log } from "../log";
import { TUNING } from "../tuning";
import { enqueueWebhooks } from "../webhooks/deliver";
import { jobError, type JobFailure } from "./errors";

/** What one delivery of a job asks the queue for. */
export type Verdict = "done" | "retry";

export interface RunPlan {
  spec: CaptureSpec;
  /** The first output decides the job: its failure fails (or retries) the job. */
  outputs: RequestedOutput[];
  /** Null: the storage destination is gone or unusable. */
  storage: StorageTarget | null;
}

/** One kind of job: the steps the runner does not own. Each finishing step returns the webhook deliveries to queue. */
export interface JobKind<Context> {
  /** Log prefix. */
  name: string;
  accountId: string;
  jobId: string;
  load(batchId: string | null): Promise<Context | null>;
  /** A refusal before the capture: the sanitized reason the job fails with, else null. */
  guard(context: Context): Promise<string | null>;
  plan(context: Context): Promise<RunPlan>;
  /** The first output succeeded: keep what the job keeps, finish it completed. */
  complete(context: Context, run: PipelineRun): Promise<string[]>;
  /** Finish the job failed with a sanitized reason and its whole cause (its credit refunded). */
  fail(failure: JobFailure): Promise<string[]>;
}

export async function runJob<Context>(
  env: Env,
  job: JobKind<Context>,
  attempt: number,
  engine: CaptureEngine,
): Promise<Verdict> {
  const { accountId, jobId, name } = job;
  const start = await accountStub(env, accountId).jobs().start(jobId, attempt);
  if (!start.ok) {
    log("info", `${name}: job not taken`, { jobId, status: start.status, attempt });
    await enqueueWebhooks(env, accountId, start.pendingWebhooks);
    return "done";
  }
  const fail = async (error: string, detail: string | null = null) =>
    enqueueWebhooks(env, accountId, await job.fail({ error, detail }));
  const context = await job.load(start.batchId);
  if (context === null) {
    log("error", `${name}: job context missing`, { jobId });
    await fail(FAILURE.generic);
    return "done";
  }
  const refused = await job.guard(context);
  if (refused !== null) {
    await fail(refused);
    return "done";
  }
  const { spec, outputs, storage } = await job.plan(context);
  if (storage === null) {
    await fail(FAILURE.storage);
    return "done";
  }
  const run = await runPrepaidCapture(env, accountId, {
    spec,
    outputs,
    storage,
    engine: settled(engine),
  });
  const [first] = run.outputs;
  if (!first) throw new Error(`${name}: the run returned no output`);
  if (first.ok) {
    await enqueueWebhooks(env, accountId, await job.complete(context, run));
    return "done";
  }
  const { error, transient } = first.failure;
  if (transient && attempt < TUNING.captureAttempts) {
    log("info", `${name}: transient failure, retrying`, { jobId, attempt, error: error.message });
    return "retry";
  }
  const failure = jobError(error);
  await fail(failure.error, failure.detail);
  return "done";
}

/** The engine with a thrown error turned into a failed outcome (a crashed browser host). */
function settled(engine: CaptureEngine): CaptureEngine {
  return {
    capture: (spec, accountId) =>
      engine
        .capture(spec, accountId)
        .catch((err: unknown): CaptureOutcome => ({ ok: false, failure: toFailure(err) })),
  };
}
