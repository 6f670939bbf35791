/**
 * An async capture's message on the capture-jobs queue (one kind of
 * src/queues/capture-message.ts), zod-checked on receipt: ids only, never payloads (a queue
 * message is capped at 128 KB; html/markdown may be 5 MB; the capture waits in R2:
 * ./job-document.ts).
 */
import { z } from "zod";
import { plainId } from "../../schemas/primitives";

export const captureJobMessage = z.strictObject({
  kind: z.literal("capture-job"),
  accountId: plainId,
  jobId: plainId,
});
export type CaptureJobMessage = z.infer<typeof captureJobMessage>;
