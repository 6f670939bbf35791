/**
 * The Account DO has ONE alarm, serving three users: the stuck-work sweep (src/jobs/store/sweep.ts:
 * re-enqueue once, then fail and refund), the watch schedule (src/watches/store/schedule.ts) and
 * the monitor schedule (src/monitors/store.ts `due`).
 * Each says when it next needs to run, and the alarm is set to the earliest of those times
 * (deleted when none).
 */
import { config } from "../config";
import type { AccountDb } from "../accounts/store";
import { TUNING } from "../tuning";
import { nextStuckDue, sweepStuckJobs } from "../jobs/store/sweep";
import { finishRun, nextWatchDue } from "../watches/store/runs";
import { jobMessage } from "../queues/capture-message";
import { nextMonitorDue } from "../monitors/store";
import type { AccountFeatures } from "./features";

export async function armAlarm(
  storage: DurableObjectStorage,
  dueTimes: ReadonlyArray<number | null>,
): Promise<void> {
  const due = dueTimes.filter((t): t is number => t !== null);
  if (due.length === 0) {
    await storage.deleteAlarm();
    return;
  }
  const earliest = Math.min(...due);
  const current = await storage.getAlarm();
  if (current !== earliest) await storage.setAlarm(earliest);
}

/** When the alarm's users next need it: the earliest due watch, the next job that may stick. */
export function alarmDueTimes(sql: SqlStorage, env: Env): Array<number | null> {
  return [nextWatchDue(sql), nextStuckDue(sql, config(env).jobStuckAfterMs), nextMonitorDue(sql)];
}

/**
 * Queue messages of the capture-jobs and webhooks queues (their zod schemas: queues/capture-message.ts,
 * webhooks/deliver.ts), sent at most TUNING.queueSendBatch per call.
 */
async function sendInBatches<T>(queue: Queue<T>, bodies: T[]): Promise<void> {
  for (let i = 0; i < bodies.length; i += TUNING.queueSendBatch) {
    await queue.sendBatch(bodies.slice(i, i + TUNING.queueSendBatch).map((body) => ({ body })));
  }
}

/** Runs both users and queues what they emitted; the caller re-arms. */
export async function runAlarm(db: AccountDb, features: AccountFeatures): Promise<void> {
  const { accountId } = db.account();
  // A stuck watch run's job fails with its run (finishRun; no run: exactly finishJob).
  const swept = db.tx((s) =>
    sweepStuckJobs(s, config(db.env()).jobStuckAfterMs, (tx, jobId, error) =>
      finishRun(tx, jobId, { status: "failed", error }),
    ),
  );
  await sendInBatches(
    db.env().CAPTURE_JOBS,
    swept.requeue.map(({ jobId, watchId }) => jobMessage(accountId, jobId, watchId)),
  );
  if (swept.webhooks.length > 0) {
    await sendInBatches(
      db.env().WEBHOOKS,
      swept.webhooks.map((deliveryId) => ({ accountId, deliveryId })),
    );
    features.webhooks.markQueued(swept.webhooks);
  }
  await features.watches.runDue();
  // Due monitors: their next time is set now; their checks start from the queue.
  await sendInBatches(db.env().CAPTURE_JOBS, features.monitors.due(accountId));
}
