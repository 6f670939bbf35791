/**
 * The watches feature of the Account DO, reached over RPC as `account.watches`: watches
 * (watches.ts), their runs (runs.ts, runs-read.ts) and the schedule (schedule.ts), which is the
 * DO's one alarm — every change that moves a due time re-arms it.
 */
import { RpcTarget } from "cloudflare:workers";
import type { WatchRunView, WatchView } from "../../../schemas/watches";
import type { AccountDb } from "../../accounts/store";
import type { ListQuery, Page } from "../../jobs/store/read";
import { getRun, listRuns } from "./runs-read";
import { type RunAdmission, type RunContext, type RunFinish, type RunResult } from "./runs";
import { deleteWatch } from "./retention";
import { admitRun, finishRun, runContext } from "./runs";
import { queueRun, runDueWatches, type ScheduleDeps } from "./schedule";
import { type NewWatch, type WatchChange, type WatchResult } from "./watches";
import { createWatch, getWatch, listWatches, updateWatch, watchRow } from "./watches";

export class WatchesStore extends RpcTarget {
  constructor(private readonly db: AccountDb) {
    super();
  }

  private scheduleDeps(): ScheduleDeps {
    return {
      accountId: this.db.account().accountId,
      tx: (work) => this.db.tx(work),
      queue: this.db.env().CAPTURE_JOBS,
    };
  }

  /** The alarm's part: admits and queues the due watches' runs. */
  async runDue(): Promise<void> {
    await runDueWatches(this.scheduleDeps());
  }

  async create(input: NewWatch): Promise<WatchResult> {
    const { plan } = this.db.account();
    const result = this.db.tx((s) => createWatch(s.sql, plan, input, s.now));
    if (result.ok) await this.db.rearm();
    return result;
  }

  get(watchId: string): WatchView | null {
    return getWatch(this.db.sql, watchId);
  }

  list(query: ListQuery): Page<WatchView> {
    return listWatches(this.db.sql, query);
  }

  async update(watchId: string, change: WatchChange): Promise<WatchResult> {
    const { plan } = this.db.account();
    const result = this.db.tx((s) => updateWatch(s.sql, plan, watchId, change, s.now));
    if (result.ok) await this.db.rearm();
    return result;
  }

  /** Deletes the watch and its runs; the R2 keys of their outputs (null when unknown). */
  async delete(watchId: string): Promise<string[] | null> {
    const keys = this.db.tx((s) => deleteWatch(s.sql, watchId));
    if (keys !== null) await this.db.rearm();
    return keys;
  }

  /** POST /v1/watches/:id/run: one run now, the schedule untouched. */
  async runNow(
    watchId: string,
  ): Promise<RunAdmission | { ok: false; reason: "not_found" | "paused" }> {
    const admitted = this.db.tx((s) => {
      const watch = watchRow(s.sql, watchId);
      if (!watch) return { ok: false as const, reason: "not_found" as const };
      if (watch.status === "paused") return { ok: false as const, reason: "paused" as const };
      return admitRun(s, watch, "manual");
    });
    if (!admitted.ok) return admitted;
    const queued = await queueRun(this.scheduleDeps(), admitted);
    return queued
      ? admitted
      : {
          ok: false,
          watchId,
          runId: admitted.runId,
          reason: "Skipped: the run could not be queued.",
          cause: "queue",
        };
  }

  listRuns(watchId: string, query: ListQuery): Page<WatchRunView> | null {
    if (!watchRow(this.db.sql, watchId)) return null;
    return listRuns(this.db.sql, watchId, query);
  }

  getRun(runId: string): WatchRunView | null {
    return getRun(this.db.sql, runId);
  }

  /** The consumer's view of a watch run's job (marks the run processing). */
  runContext(jobId: string): RunContext | null {
    return this.db.tx((s) => runContext(s.sql, jobId, s.now));
  }

  /** The dead-letter path of a watch run: queued → processing → failed, each guarded. */
  async abortRun(jobId: string, error: string): Promise<RunFinish> {
    const finished = this.db.tx((s) => {
      s.sql.exec(
        "UPDATE jobs SET status = 'processing', started_at = COALESCE(started_at, ?) WHERE id = ? AND status = 'queued'",
        s.now,
        jobId,
      );
      return finishRun(s, jobId, { status: "failed", error });
    });
    if (finished.changed) await this.db.rearm();
    return finished;
  }

  /** Finishes a watch run and its job in one transaction (credit settled, baseline, retention). */
  async finishRun(jobId: string, result: RunResult): Promise<RunFinish> {
    const finished = this.db.tx((s) => finishRun(s, jobId, result));
    if (finished.changed) await this.db.rearm();
    return finished;
  }
}
