/**
 * The `capture-jobs` consumer and its dead-letter queue, one branch per message kind
 * (./capture-message.ts): a capture job (src/jobs/consumer.ts) and a watch run's job
 * (src/watches/run.ts), both run by the one job runner (src/jobs/runner.ts), which answers
 * "retry" (a transient failure with attempts left: retried with backoff) or "done"; a crawl
 * page (src/crawl/page-run.ts; a monitor check's pages with src/monitors/page.ts); and a
 * monitor's scheduled check to start (src/monitors/check.ts).
 */
import { browserEngine, type CaptureEngine } from "../pipeline/engine";
import type { CrawlPageMessage } from "../crawl/page-message";
import { runCrawlPages } from "../crawl/page-run";
import { abortCaptureJob, captureJob } from "../jobs/consumer";
import { runJob, type JobKind } from "../jobs/runner";
import { config } from "../config";
import { log } from "../log";
import { TUNING } from "../tuning";
import { abortWatchRun, watchRun } from "../watches/run";
import { startScheduledCheck } from "../monitors/check";
import { renderMonitorPage } from "../monitors/page";
import type { MonitorCheckMessage } from "../monitors/queue-message";
import { readCaptureMessage, type CaptureQueueMessage } from "./capture-message";

/** Delay before retry `attempt` + 1 of a capture (attempt is 1-based). */
export function captureRetryDelay(env: Env, attempt: number): number {
  return config(env).captureRetryBaseSeconds * 3 ** Math.max(0, attempt - 1);
}

export async function handleCaptureBatch(
  batch: MessageBatch,
  env: Env,
  engine: CaptureEngine = browserEngine(env),
): Promise<void> {
  await Promise.all(batch.messages.map((message) => handleCaptureMessage(message, env, engine)));
}

async function handleCaptureMessage(
  message: Message,
  env: Env,
  engine: CaptureEngine,
): Promise<void> {
  const msg = readCaptureMessage(message.body);
  if (msg === null) {
    log("error", "capture-jobs: malformed message dropped", { id: message.id });
    message.ack();
    return;
  }
  switch (msg.kind) {
    case "crawl-page":
      return handleCrawlPage(message, env, msg, engine);
    case "capture-job":
      return handleJob(message, env, msg.jobId, () => captureJob(env, msg), engine);
    case "watch-run":
      return handleJob(message, env, msg.jobId, () => watchRun(env, msg), engine);
    case "monitor-check":
      return handleMonitorCheck(message, env, msg);
    default:
      return msg satisfies never;
  }
}

/** A job (a capture's or a watch run's) through the one runner: retried or done. */
async function handleJob<T>(
  message: Message,
  env: Env,
  jobId: string,
  kind: () => JobKind<T>,
  engine: CaptureEngine,
): Promise<void> {
  try {
    const verdict = await runJob(env, kind(), message.attempts, engine);
    if (verdict === "retry")
      message.retry({ delaySeconds: captureRetryDelay(env, message.attempts) });
    else message.ack();
  } catch (err) {
    // Our own failure (DO, R2, queue unreachable): retry; past max_retries the DLQ fails the job.
    log("error", "capture-jobs: processing error, retrying", { jobId, error: String(err) });
    message.retry({ delaySeconds: captureRetryDelay(env, message.attempts) });
  }
}

/**
 * A crawl page: rendered once whatever happens (its outcome is recorded by its Crawl DO); our
 * own failure before that (a DO unreachable) is retried, and the Crawl DO's watchdog sends a
 * page that never finished again.
 */
async function handleCrawlPage(
  message: Message,
  env: Env,
  msg: CrawlPageMessage,
  engine: CaptureEngine,
): Promise<void> {
  try {
    await runCrawlPages(env, msg, engine, { monitor: renderMonitorPage });
    message.ack();
  } catch (err) {
    log("error", "capture-jobs: crawl page error, retrying", {
      crawlId: msg.crawlId,
      error: String(err),
    });
    message.retry({ delaySeconds: captureRetryDelay(env, message.attempts) });
  }
}

/** A monitor's scheduled check started; our own failure (a DO unreachable) is retried. */
async function handleMonitorCheck(
  message: Message,
  env: Env,
  msg: MonitorCheckMessage,
): Promise<void> {
  try {
    await startScheduledCheck(env, msg.accountId, msg.monitorId, msg.trigger);
    message.ack();
  } catch (err) {
    log("error", "capture-jobs: monitor check error, retrying", {
      monitorId: msg.monitorId,
      error: String(err),
    });
    message.retry({ delaySeconds: captureRetryDelay(env, message.attempts) });
  }
}

/** `capture-jobs-dlq`: the job (or watch run) fails with the generic reason unless finished. */
export async function handleCaptureDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const msg = readCaptureMessage(message.body);
    try {
      if (msg !== null) await abortDeadLetter(env, msg);
      message.ack();
    } catch (err) {
      log("error", "capture-jobs-dlq: could not fail the job, retrying", {
        kind: msg?.kind,
        error: String(err),
      });
      message.retry({ delaySeconds: TUNING.deadLetterRetrySeconds });
    }
  }
}

/** What a message that ran out of attempts leaves behind, failed. */
async function abortDeadLetter(env: Env, msg: CaptureQueueMessage): Promise<void> {
  switch (msg.kind) {
    case "capture-job":
      return abortCaptureJob(env, msg.accountId, msg.jobId);
    case "watch-run":
      return abortWatchRun(env, msg.accountId, msg.jobId);
    case "crawl-page":
      return; // its fate is its Crawl DO's: the watchdog sends it again
    case "monitor-check":
      return; // the monitor's next scheduled check comes anyway
    default:
      return msg satisfies never;
  }
}
