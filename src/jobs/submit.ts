/**
 * Submitting async work (async captures, recordings and batches), in this order (docs/ARCHITECTURE.md):
 * admit in the Account DO (active-job slots, one credit reservation per job — a recording's by
 * its length — rows `queued`) →
 * the CaptureSpecs to R2 → one `capture-job` message per job on `capture-jobs` → 202.
 * If storing or queueing fails, the admission is undone (jobs deleted, credits refunded, slots
 * released) before the error is answered, so nothing the caller never saw keeps holding them.
 */
import type { AnimateRequest } from "../../schemas/animate";
import type { CaptureRequest } from "../../schemas/capture";
import type { AuthContext } from "../accounts/auth";
import { releasePrepaid } from "../accounts/credits";
import type { AdmitResult } from "./store/admit";
import { prepareCapture } from "../capture-request/prepare";
import { prepareRecording } from "../pipeline/animate";
import type { CaptureSpec } from "../capture/capture-spec";
import type { JobAccepted, Usage } from "../../schemas/responses";
import { ApiError } from "../errors";
import { MESSAGES } from "../user-messages";
import { LIMITS } from "../../schemas/limits";
import { publicOrigin } from "../storage/hosted";
import { requireStorage, type StorageChoice } from "../storage/destinations";
import { type RecordingJob, writeJobDocument } from "./job-document";
import type { CaptureJobMessage } from "./queue-message";
import { mapLimit } from "./pool";
import { requireWebhookUrl } from "../webhooks/url";
import { log } from "../log";
import { TUNING } from "../tuning";

export interface SubmitInput {
  specs: CaptureSpec[];
  /** True for batches (./batch.ts): the jobs form a batch, which holds the webhook. */
  batch: boolean;
  webhookUrl: string | null;
  cacheTtl: number;
  origin: string;
  /** Deliver every job's result to this storage destination (checked by `requireStorage`). */
  storage?: StorageChoice | null;
  /** Every job records this clip instead of taking an image (POST /v1/animate with async: true, /v1/animate/batch). */
  recording?: RecordingJob | null;
}

export interface Admitted {
  batchId: string | null;
  jobs: Array<{ jobId: string; url: string | null }>;
  usage: Usage;
  messages: CaptureJobMessage[];
}

function refusal(
  result: Extract<AdmitResult, { ok: false }>,
  n: number,
  credits: number,
): ApiError {
  if (result.reason === "queue_limit") {
    return new ApiError(
      "QUEUE_LIMIT_REACHED",
      `Too many active async jobs: ${result.active} of ${result.limit} are queued or processing ` +
        `and this request adds ${n}. Wait for some to finish.`,
    );
  }
  const { usage } = result;
  return new ApiError("USAGE_EXCEEDED", MESSAGES.creditsExhausted(credits, usage));
}

/** Admits the jobs and stores their documents; nothing is queued yet (see `enqueueJobs`). */
export async function createJobs(
  env: Env,
  auth: AuthContext,
  input: SubmitInput,
): Promise<Admitted> {
  const recording = input.recording ?? null;
  const jobs = input.specs.map((spec) => ({
    id: crypto.randomUUID(),
    url: spec.source.kind === "url" ? spec.source.url : null,
    format: recording ? recording.plan.format : spec.format,
    credits: recording ? recording.credits : 1,
  }));
  const credits = jobs.reduce((sum, job) => sum + job.credits, 0);
  const batchId = input.batch ? crypto.randomUUID() : null;
  const webhookUrl = input.webhookUrl;
  const admitted = await auth.account.jobs().admit({
    jobs,
    batchId,
    webhookUrl,
    reservationTtlMs: TUNING.jobReservationTtlMs,
    // Jobs hold their own credits: the credit reserved with authentication goes back first.
    release: releasePrepaid(auth),
  });
  if (!admitted.ok) throw refusal(admitted, jobs.length, credits);

  const ids = jobs.map((j) => j.id);
  try {
    await mapLimit(jobs, TUNING.submitConcurrency, (job, i) =>
      writeJobDocument(
        env,
        {
          v: 1,
          accountId: auth.accountId,
          jobId: job.id,
          spec: input.specs[i] as CaptureSpec,
          cacheTtl: input.cacheTtl,
          origin: input.origin,
          ...(input.storage ? { storage: input.storage } : {}),
          ...(recording ? { recording } : {}),
        },
        TUNING.jobDocumentTtlSeconds,
      ),
    );
  } catch (err) {
    throw await undo(auth, ids, batchId, "store job documents", err);
  }
  return {
    batchId,
    jobs: jobs.map((j) => ({ jobId: j.id, url: j.url })),
    usage: { credits, remaining: admitted.remaining },
    messages: ids.map((jobId) => ({ kind: "capture-job", accountId: auth.accountId, jobId })),
  };
}

export async function enqueueJobs(env: Env, messages: CaptureJobMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += TUNING.queueSendBatch) {
    await env.CAPTURE_JOBS.sendBatch(
      messages.slice(i, i + TUNING.queueSendBatch).map((body) => ({ body })),
    );
  }
}

/** Admit, store, queue; undone when queueing fails. */
export async function submitJobs(
  env: Env,
  auth: AuthContext,
  input: SubmitInput,
): Promise<Admitted> {
  const admitted = await createJobs(env, auth, input);
  try {
    await enqueueJobs(env, admitted.messages);
  } catch (err) {
    throw await undo(
      auth,
      admitted.messages.map((m) => m.jobId),
      admitted.batchId,
      "queue jobs",
      err,
    );
  }
  return admitted;
}

async function undo(
  auth: AuthContext,
  ids: string[],
  batchId: string | null,
  step: string,
  err: unknown,
): Promise<ApiError> {
  log("error", `async submit: could not ${step}`, {
    accountId: auth.accountId,
    error: String(err),
  });
  await auth.account
    .jobs()
    .abandon(ids, batchId)
    .catch((undoError: unknown) => {
      // Credits lapse with their reservations; slots stay taken until an operator fixes them.
      log("error", "async submit: undo failed", {
        accountId: auth.accountId,
        error: String(undoError),
      });
    });
  return new ApiError("INTERNAL_ERROR", "The capture could not be queued; nothing was charged.");
}

/** POST /v1/screenshot(/json) with async: true → `{jobId, status}` and the reserved credit. */
export async function submitAsyncCapture(
  env: Env,
  auth: AuthContext,
  req: CaptureRequest,
  requestUrl: string,
): Promise<{ data: JobAccepted; usage: Usage }> {
  const webhookUrl =
    req.webhookUrl === undefined ? null : await requireWebhookUrl(env, req.webhookUrl);
  const storage = req.storage === undefined ? null : await requireStorage(auth, req.storage);
  // Async results are always stored (hosted, or in the storage destination), so `hosted` is accepted (and redundant) here.
  const spec = await prepareCapture(env, auth, req, {
    handled: ["async", "webhookUrl", "hosted", "storage"],
  });
  const cacheTtl = req.cacheTtl ?? LIMITS.cacheTtl.default;
  const submitted = await submitJobs(env, auth, {
    specs: [spec],
    batch: false,
    webhookUrl,
    cacheTtl,
    origin: publicOrigin(env, requestUrl),
    storage,
  });
  const job = submitted.jobs[0];
  if (!job) throw new Error("submitJobs returned no job");
  return { data: { jobId: job.jobId, status: "queued" }, usage: submitted.usage };
}

/**
 * POST /v1/animate with async: true → `{jobId, status}` and the credits reserved by the clip's
 * length. Checked as the sync recording is (`prepareRecording`: plan gates, the URL guard, the
 * plan's bounds) before anything is admitted; the job's result is hosted (cacheTtl) or delivered.
 */
export async function submitAsyncRecording(
  env: Env,
  auth: AuthContext,
  req: AnimateRequest,
  requestUrl: string,
): Promise<{ data: JobAccepted; usage: Usage }> {
  const webhookUrl =
    req.webhookUrl === undefined ? null : await requireWebhookUrl(env, req.webhookUrl);
  const storage = req.storage === undefined ? null : await requireStorage(auth, req.storage);
  const { spec, recording, credits } = await prepareRecording(env, auth, req);
  const submitted = await submitJobs(env, auth, {
    specs: [spec],
    batch: false,
    webhookUrl,
    cacheTtl: req.cacheTtl ?? LIMITS.cacheTtl.default,
    origin: publicOrigin(env, requestUrl),
    storage,
    recording: { plan: recording, credits },
  });
  const job = submitted.jobs[0];
  if (!job) throw new Error("submitJobs returned no job");
  return { data: { jobId: job.jobId, status: "queued" }, usage: submitted.usage };
}
