/**
 * Batches (POST /v1/screenshot/batch, POST /v1/animate/batch), checked in this order, the same for
 * captures and recordings: the plan allows batches (403), the plan's batch cap (400
 * BATCH_LIMIT_EXCEEDED), the webhook URL (400 INVALID_WEBHOOK_URL), the storage destination, then
 * EVERY url through its single request's path (guard, plan gates, DNS, reputation, a recording's
 * bounds) — one bad URL rejects the whole batch, its index in `details[].path` (`urls[57]`) —
 * before anything is reserved or queued. Then one submit (./submit.ts): the jobs in `urls` order,
 * each holding its own credits (1 a capture; a recording's by its length).
 */
import type { AnimateBatchRequest } from "../../schemas/animate";
import type { BatchRequest } from "../../schemas/batch";
import { LIMITS } from "../../schemas/limits";
import type { BatchAccepted, Usage } from "../../schemas/responses";
import type { StorageOption } from "../../schemas/storage";
import type { AuthContext } from "../accounts/auth";
import { requireFeature } from "../accounts/policy";
import { prepareCapture } from "../capture-request/prepare";
import type { CaptureSpec } from "../capture/capture-spec";
import { ApiError, type ErrorDetail } from "../errors";
import { prepareRecording } from "../pipeline/animate";
import { publicOrigin } from "../storage/hosted";
import { requireStorage } from "../storage/destinations";
import { TUNING } from "../tuning";
import { requireWebhookUrl } from "../webhooks/url";
import type { RecordingJob } from "./job-document";
import { mapLimit } from "./pool";
import { submitJobs } from "./submit";

type Checked<T> = { ok: true; value: T } | { ok: false; index: number; error: ApiError };

/**
 * Every URL as its single request would check it (`prepare`); the first failing index decides the
 * answer, every failing one is in its details.
 */
async function prepareEach<T>(urls: string[], prepare: (url: string) => Promise<T>): Promise<T[]> {
  const checked = await mapLimit(
    urls,
    TUNING.submitConcurrency,
    async (url, index): Promise<Checked<T>> => {
      try {
        return { ok: true, value: await prepare(url) };
      } catch (err) {
        if (err instanceof ApiError) return { ok: false, index, error: err };
        throw err;
      }
    },
  );
  const failed = checked.filter((c): c is Extract<Checked<T>, { ok: false }> => !c.ok);
  const first = failed[0];
  if (!first) return checked.flatMap((c) => (c.ok ? [c.value] : []));
  const details: ErrorDetail[] = failed.flatMap(({ index, error }) =>
    (error.details ?? [{ path: "url", message: error.message }]).map((d) => ({
      path: d.path === "url" ? `urls[${index}]` : `urls[${index}] (${d.path})`,
      message: d.message,
    })),
  );
  // "urls[3] is not a public http(s) URL: … does not resolve (NXDOMAIN)." — what and why.
  const field = `urls[${first.index}]`;
  const said = first.error.message.replace(/^The url\b/, field);
  const message = said === first.error.message ? `${field}: ${said}` : said;
  const more = failed.length > 1 ? ` (${failed.length} URLs were refused; see details)` : "";
  throw new ApiError(first.error.code, `${message}${more}`, {
    details,
    status: first.error.status,
    headers: first.error.extraHeaders,
  });
}

/** What every batch request carries besides its per-route `defaults`. */
interface BatchOf {
  urls: string[];
  webhookUrl?: string | undefined;
  storage?: StorageOption | undefined;
  cacheTtl?: number | undefined;
}

/** The batch's jobs, prepared: their specs and, for recordings, the clip they all record. */
interface Prepared {
  specs: CaptureSpec[];
  recording: RecordingJob | null;
}

async function submitBatch(
  env: Env,
  auth: AuthContext,
  batch: BatchOf,
  requestUrl: string,
  prepare: (urls: string[]) => Promise<Prepared>,
): Promise<{ data: BatchAccepted; usage: Usage }> {
  requireFeature(auth, "batch");
  if (batch.urls.length > auth.plan.batchCap) {
    throw new ApiError(
      "BATCH_LIMIT_EXCEEDED",
      `This batch has ${batch.urls.length} URLs; the ${auth.plan.name} plan allows at most ${auth.plan.batchCap}.`,
      {
        details: [
          {
            path: "urls",
            message: `At most ${auth.plan.batchCap} URLs on the ${auth.plan.name} plan.`,
          },
        ],
      },
    );
  }
  const webhookUrl =
    batch.webhookUrl === undefined ? null : await requireWebhookUrl(env, batch.webhookUrl);
  const storage = batch.storage === undefined ? null : await requireStorage(auth, batch.storage);
  const { specs, recording } = await prepare(batch.urls);
  const submitted = await submitJobs(env, auth, {
    specs,
    batch: true,
    webhookUrl,
    cacheTtl: batch.cacheTtl ?? LIMITS.cacheTtl.default,
    origin: publicOrigin(env, requestUrl),
    storage,
    recording,
  });
  if (submitted.batchId === null) throw new Error("submitJobs returned no batch id for a batch");
  const data: BatchAccepted = {
    batchId: submitted.batchId,
    status: "queued",
    totalJobs: submitted.jobs.length,
    jobs: submitted.jobs.map((job) => ({ jobId: job.jobId, url: job.url, status: "queued" })),
  };
  return { data, usage: submitted.usage };
}

/** POST /v1/screenshot/batch: one capture a URL, 1 credit each. */
export function submitCaptureBatch(
  env: Env,
  auth: AuthContext,
  body: BatchRequest,
  requestUrl: string,
): Promise<{ data: BatchAccepted; usage: Usage }> {
  const defaults = body.defaults ?? {};
  return submitBatch(env, auth, body, requestUrl, async (urls) => ({
    specs: await prepareEach(urls, (url) => prepareCapture(env, auth, { ...defaults, url })),
    recording: null,
  }));
}

/**
 * POST /v1/animate/batch: one recording a URL. The clip's settings are shared (`defaults`), so
 * every job records the same clip for the same credits (by its length), each reserved with its job.
 */
export function submitRecordingBatch(
  env: Env,
  auth: AuthContext,
  body: AnimateBatchRequest,
  requestUrl: string,
): Promise<{ data: BatchAccepted; usage: Usage }> {
  const defaults = body.defaults ?? {};
  return submitBatch(env, auth, body, requestUrl, async (urls) => {
    const prepared = await prepareEach(urls, (url) =>
      prepareRecording(env, auth, { ...defaults, url }),
    );
    const first = prepared[0];
    if (!first) throw new Error("a batch without recordings");
    return {
      specs: prepared.map((p) => p.spec),
      recording: { plan: first.recording, credits: first.credits },
    };
  });
}
