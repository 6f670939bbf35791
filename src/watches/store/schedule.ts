/**
 * The watch schedule, run by the Account DO's alarm (docs/WATCHES.md): every due watch's run is
 * admitted through the async pipeline (a job on capture-jobs: slot, credit, guarded
 * transitions) and its next time set; then the runs' messages are queued. A run whose message
 * cannot be queued is undone (credit refunded) and recorded skipped.
 */
import { log } from "../../log";
import { abandonJobs } from "../../jobs/store/admit";
import type { AccountTx } from "../../accounts/store";
import { admitDueRuns, nextWatchDue, type RunAdmission, unqueueRun } from "./runs";
import type { WatchRunMessage } from "../queue-message";

export interface ScheduleDeps {
  accountId: string;
  /** Runs `work` in one storage transaction with a fresh AccountTx. */
  tx: <T>(work: (store: AccountTx) => T) => T;
  queue: Queue<WatchRunMessage>;
}

/** Queues an admitted run's message; on failure the job is undone and the run skipped. */
export async function queueRun(
  deps: ScheduleDeps,
  run: Extract<RunAdmission, { ok: true }>,
): Promise<boolean> {
  const { watchId } = run;
  try {
    await deps.queue.send({
      kind: "watch-run",
      accountId: deps.accountId,
      jobId: run.jobId,
      watchId,
    });
    return true;
  } catch (err) {
    log("error", "watches: could not queue a run", { watchId, error: String(err) });
    deps.tx((s) => {
      abandonJobs(s, [run.jobId], null);
      unqueueRun(s.sql, run.runId);
    });
    return false;
  }
}

/** Runs the due watches; returns when the schedule next needs the alarm (null: nothing scheduled). */
export async function runDueWatches(deps: ScheduleDeps): Promise<number | null> {
  const due = deps.tx((s) => admitDueRuns(s));
  for (const run of due) {
    if (run.ok) await queueRun(deps, run);
  }
  return deps.tx((s) => nextWatchDue(s.sql));
}
