/**
 * Webhook event bodies (spec: Events), built from a finished job or batch as the read-outs
 * show it. The Account DO rebuilds the body at each attempt: the same bytes every time, since
 * a finished record no longer changes.
 */
import type { BatchView, JobView } from "../../schemas/responses";
import type { MonitorEvent } from "../../schemas/monitors";
import type { WatchRunView } from "../../schemas/watches";

/** `storage {destinationId, bucket, key, url, etag}` when the result went to a storage destination. */
const storageOf = (job: JobView): { storage?: JobView["storage"] } =>
  job.storage ? { storage: job.storage } : {};

export type WebhookEvent =
  | "job.completed"
  | "job.failed"
  | "batch.completed"
  | "watch.changed"
  | "watch.alert"
  | "watch.failed"
  | "crawl.completed"
  | "crawl.page"
  | MonitorEvent;

/** What a watch run's event is built from (src/watches/store/runs.ts `runEventSubject`). */
export interface RunEventSubject {
  run: WatchRunView;
  /** The watched URL. */
  url: string;
  /** The watch's failures in a row, and whether it was paused, when this run ended. */
  consecutiveFailures: number;
  paused: boolean;
}

/**
 * `watch.changed {watchId, runId, url, changedPercent, imageUrl, previousImageUrl, diffUrl, detectedAt}`,
 * `watch.alert {watchId, runId, url, alerts, fields, imageUrl, detectedAt}` or
 * `watch.failed {watchId, runId, error, consecutiveFailures, paused}`.
 */
export function watchEvent(event: WebhookEvent, s: RunEventSubject): Record<string, unknown> {
  const { run } = s;
  if (event === "watch.alert")
    return {
      event,
      watchId: run.watchId,
      runId: run.id,
      url: s.url,
      alerts: run.alerts ?? [],
      fields: run.fields ?? {},
      imageUrl: run.imageUrl,
      detectedAt: run.completedAt,
    };
  return event === "watch.changed"
    ? {
        event,
        watchId: run.watchId,
        runId: run.id,
        url: s.url,
        changedPercent: run.changedPercent,
        imageUrl: run.imageUrl,
        previousImageUrl: run.previousImageUrl,
        diffUrl: run.diffUrl,
        ...(run.textDiff ? { textDiff: run.textDiff } : {}),
        detectedAt: run.completedAt,
      }
    : {
        event,
        watchId: run.watchId,
        runId: run.id,
        error: run.error,
        ...(run.errorDetail ? { errorDetail: run.errorDetail } : {}),
        consecutiveFailures: s.consecutiveFailures,
        paused: s.paused,
      };
}

/** `job.completed {jobId, status, resultUrl, metadata, completedAt}` or `job.failed {…, error}`. */
export function jobEvent(event: WebhookEvent, job: JobView): Record<string, unknown> {
  return event === "job.completed"
    ? {
        event,
        jobId: job.jobId,
        status: job.status,
        resultUrl: job.resultUrl,
        ...storageOf(job),
        metadata: job.metadata,
        completedAt: job.completedAt,
      }
    : {
        event,
        jobId: job.jobId,
        status: job.status,
        error: job.error,
        ...(job.errorDetail ? { errorDetail: job.errorDetail } : {}),
        completedAt: job.completedAt,
      };
}

/** `batch.completed`: the counts, the outcome and every job (no per-job events for batches). */
export function batchEvent(event: WebhookEvent, batch: BatchView): Record<string, unknown> {
  return {
    event,
    batchId: batch.batchId,
    status: batch.status,
    outcome: batch.outcome,
    totalJobs: batch.totalJobs,
    completedJobs: batch.completedJobs,
    failedJobs: batch.failedJobs,
    completedAt: batch.completedAt,
    jobs: (batch.jobs ?? []).map((j) =>
      j.status === "completed"
        ? { jobId: j.jobId, url: j.url, status: j.status, resultUrl: j.resultUrl, ...storageOf(j) }
        : {
            jobId: j.jobId,
            url: j.url,
            status: j.status,
            error: j.error,
            ...(j.errorDetail ? { errorDetail: j.errorDetail } : {}),
          },
    ),
  };
}
