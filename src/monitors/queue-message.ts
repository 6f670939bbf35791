/**
 * A monitor check's start, on the capture-jobs queue: the Account DO's alarm found the monitor
 * due (./store.ts `due`) and the consumer starts its check (./check.ts) — the URL guard's DNS
 * and reputation checks and the Crawl DO are the Worker's to call, not the alarm's.
 */
import { z } from "zod";
import { plainId } from "../../schemas/primitives";

export const monitorCheckMessage = z.strictObject({
  kind: z.literal("monitor-check"),
  accountId: plainId,
  monitorId: plainId,
  trigger: z.enum(["created", "schedule"]),
});
export type MonitorCheckMessage = z.infer<typeof monitorCheckMessage>;
