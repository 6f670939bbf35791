/** The worker's `queue` handler: one branch per queue, dead-letter queues on their own. */
import { handleCaptureBatch, handleCaptureDeadLetters } from "./capture-jobs";
import { handleWebhookBatch, handleWebhookDeadLetters } from "../webhooks/deliver";
import { log } from "../log";

export const QUEUES = {
  captureJobs: "capture-jobs",
  captureJobsDlq: "capture-jobs-dlq",
  webhooks: "webhooks",
  webhooksDlq: "webhooks-dlq",
} as const;

export async function handleQueue(batch: MessageBatch, env: Env): Promise<void> {
  switch (batch.queue) {
    case QUEUES.captureJobs:
      return handleCaptureBatch(batch, env);
    case QUEUES.webhooks:
      return handleWebhookBatch(batch, env);
    case QUEUES.captureJobsDlq:
      return handleCaptureDeadLetters(batch, env);
    case QUEUES.webhooksDlq:
      return handleWebhookDeadLetters(batch, env);
    default:
      log("error", "queue: no consumer for this queue", { queue: batch.queue });
      batch.ackAll();
  }
}
