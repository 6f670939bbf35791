/**
 * What travels on the capture-jobs queue for a watch run: ids only; the consumer reads the run's
 * capture from the watch in the Account DO. Zod-checked on receipt (src/queues/capture-message.ts).
 */
import { z } from "zod";
import { plainId } from "../../schemas/primitives";

export const watchRunMessage = z.strictObject({
  kind: z.literal("watch-run"),
  accountId: plainId,
  jobId: plainId,
  watchId: plainId,
});
export type WatchRunMessage = z.infer<typeof watchRunMessage>;
