/**
 * The `capture-jobs` consumer and its dead-letter queue: each message is a capture job
 * (src/jobs/consumer.ts) or, with a `watchId`, a watch run's job (src/watches/run.ts), both run
 * by the one job runner (src/jobs/runner.ts). It answers "retry" (a transient failure with
 * attempts left: retried with backoff) or "done".
 */
import { browserEngine, type CaptureEngine } from "../pipeline/engine";
import { crawlPageMessage, type CrawlPageMessage } from "../crawl/messages";
import { runCrawlPages } from "../crawl/page-run";
import { abortCaptureJob, captureJob } from "../jobs/consumer";
import { captureJobMessage } from "../jobs/messages";
import { runJob } from "../jobs/runner";
import { config } from "../config";
import { log } from "../log";
import { TUNING } from "../tuning";
import { abortWatchRun, watchRun } from "../watches/run";

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
  const page = crawlPageMessage.safeParse(message.body);
  if (page.success) {
    await handleCrawlPage(message, env, page.data, engine);
    return;
  }
  const parsed = captureJobMessage.safeParse(message.body);
  if (!parsed.success) {
    log("error", "capture-jobs: malformed message dropped", { id: message.id });
    message.ack();
    return;
  }
  const msg = parsed.data;
  try {
    const verdict =
      msg.watchId !== undefined
        ? await runJob(
            env,
            watchRun(env, { ...msg, watchId: msg.watchId }),
            message.attempts,
            engine,
          )
        : await runJob(env, captureJob(env, msg), message.attempts, engine);
    if (verdict === "retry")
      message.retry({ delaySeconds: captureRetryDelay(env, message.attempts) });
    else message.ack();
  } catch (err) {
    // Our own failure (DO, R2, queue unreachable): retry; past max_retries the DLQ fails the job.
    log("error", "capture-jobs: processing error, retrying", {
      jobId: msg.jobId,
      error: String(err),
    });
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
    await runCrawlPages(env, msg, engine);
    message.ack();
  } catch (err) {
    log("error", "capture-jobs: crawl page error, retrying", {
      crawlId: msg.crawlId,
      error: String(err),
    });
    message.retry({ delaySeconds: captureRetryDelay(env, message.attempts) });
  }
}

/** `capture-jobs-dlq`: the job (or watch run) fails with the generic reason unless finished. */
export async function handleCaptureDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  for (const message of batch.messages) {
    // A crawl page's fate is its Crawl DO's: the watchdog sends it again.
    if (crawlPageMessage.safeParse(message.body).success) {
      message.ack();
      continue;
    }
    const parsed = captureJobMessage.safeParse(message.body);
    if (!parsed.success) {
      message.ack();
      continue;
    }
    const { accountId, jobId, watchId } = parsed.data;
    try {
      if (watchId !== undefined) await abortWatchRun(env, accountId, jobId);
      else await abortCaptureJob(env, accountId, jobId);
      message.ack();
    } catch (err) {
      log("error", "capture-jobs-dlq: could not fail the job, retrying", {
        jobId,
        error: String(err),
      });
      message.retry({ delaySeconds: TUNING.deadLetterRetrySeconds });
    }
  }
}
