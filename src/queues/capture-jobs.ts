/**
 * The `capture-jobs` consumer and its dead-letter queue: each message is a capture job
 * (src/jobs/consumer.ts) or, with a `watchId`, a watch run's job (src/watches/run.ts). Either
 * answers "retry" (a transient failure with attempts left: retried with backoff) or "done".
 */
import { browserEngine } from "../capture/pipeline/engine";
import { type CaptureDeps, abortCaptureJob, runCaptureJob } from "../jobs/consumer";
import { captureJobMessage } from "../jobs/messages";
import { log } from "../log";
import { TUNING } from "../tuning";
import { abortWatchRun, runWatchJob } from "../watches/run";

const DEFAULT_DEPS: CaptureDeps = {
  capture: (env, spec, accountId) => browserEngine(env).capture(spec, accountId),
};

/** Delay before retry `attempt` + 1 of a capture (attempt is 1-based). */
export function captureRetryDelay(attempt: number): number {
  return TUNING.captureRetryBaseSeconds * 3 ** Math.max(0, attempt - 1);
}

export async function handleCaptureBatch(
  batch: MessageBatch,
  env: Env,
  deps: CaptureDeps = DEFAULT_DEPS,
): Promise<void> {
  await Promise.all(batch.messages.map((message) => handleCaptureMessage(message, env, deps)));
}

async function handleCaptureMessage(message: Message, env: Env, deps: CaptureDeps): Promise<void> {
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
        ? await runWatchJob(
            env,
            { ...msg, watchId: msg.watchId },
            {
              attempt: message.attempts,
              capture: (e, spec) => deps.capture(e, spec, msg.accountId),
            },
          )
        : await runCaptureJob(env, msg, message.attempts, deps);
    if (verdict === "retry") message.retry({ delaySeconds: captureRetryDelay(message.attempts) });
    else message.ack();
  } catch (err) {
    // Our own failure (DO, R2, queue unreachable): retry; past max_retries the DLQ fails the job.
    log("error", "capture-jobs: processing error, retrying", {
      jobId: msg.jobId,
      error: String(err),
    });
    message.retry({ delaySeconds: captureRetryDelay(message.attempts) });
  }
}

/** `capture-jobs-dlq`: the job (or watch run) fails with the generic reason unless finished. */
export async function handleCaptureDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  for (const message of batch.messages) {
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
