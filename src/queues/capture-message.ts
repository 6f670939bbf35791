/**
 * What travels on the capture-jobs queue: one message per unit of work, tagged by `kind` and
 * owned by its feature — an async capture's job (src/jobs/queue-message.ts), a watch run's job
 * (src/watches/queue-message.ts), a crawl page (src/crawl/page-message.ts), a monitor check's start
 * (src/monitors/queue-message.ts). The consumer switches on
 * `kind` exhaustively (./capture-jobs.ts): a new kind that nobody handles does not compile.
 *
 * Messages queued before kinds existed (`{accountId, jobId, watchId?}`, up to 2026-11-29) may
 * still be in flight or retried after a deploy: they are read as the kind their fields imply.
 */
import { z } from "zod";
import { plainId } from "../../schemas/primitives";
import { crawlPageMessage } from "../crawl/page-message";
import { monitorCheckMessage } from "../monitors/queue-message";
import { captureJobMessage } from "../jobs/queue-message";
import { watchRunMessage } from "../watches/queue-message";

const captureQueueMessage = z.discriminatedUnion("kind", [
  captureJobMessage,
  watchRunMessage,
  crawlPageMessage,
  monitorCheckMessage,
]);
export type CaptureQueueMessage = z.infer<typeof captureQueueMessage>;

const untagged = z.strictObject({
  accountId: plainId,
  jobId: plainId,
  watchId: plainId.optional(),
});

/** A job's message: a watch run's when the job belongs to one. */
export function jobMessage(
  accountId: string,
  jobId: string,
  watchId?: string,
): Extract<CaptureQueueMessage, { kind: "capture-job" | "watch-run" }> {
  return watchId === undefined
    ? { kind: "capture-job", accountId, jobId }
    : { kind: "watch-run", accountId, jobId, watchId };
}

/** The message a body carries, or null when it is none of ours. */
export function readCaptureMessage(body: unknown): CaptureQueueMessage | null {
  const tagged = captureQueueMessage.safeParse(body);
  if (tagged.success) return tagged.data;
  const old = untagged.safeParse(body);
  return old.success ? jobMessage(old.data.accountId, old.data.jobId, old.data.watchId) : null;
}
