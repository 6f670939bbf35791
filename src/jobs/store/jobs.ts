/**
 * The jobs feature of the Account DO, reached over RPC as `account.jobs`: admission, the guarded
 * transitions (transitions.ts) and the read-outs (read.ts), each one transaction.
 */
import { RpcTarget } from "cloudflare:workers";
import { LIMITS } from "../../../schemas/limits";
import type { BatchView, JobView } from "../../../schemas/responses";
import type { AccountDb } from "../../accounts/store";
import { type AdmitInput, type AdmitResult, abandonJobs, admitJobs, pruneJobs } from "./admit";
import { type ListQuery, type Page, getBatch, getJob, listBatches, listJobs } from "./read";
import { type FinishResult, type JobOutcome, type StartResult } from "./transitions";
import { abortJob, finishJob, startJob } from "./transitions";

export class JobsStore extends RpcTarget {
  constructor(private readonly db: AccountDb) {
    super();
  }

  /** Slots and credits for new jobs, all or nothing (long-finished jobs are pruned first). */
  async admit(input: AdmitInput): Promise<AdmitResult> {
    const result = this.db.tx((s) => {
      pruneJobs(s, LIMITS.jobRetentionMs);
      return admitJobs(s, input);
    });
    if (result.ok) await this.db.rearm();
    return result;
  }

  /** Undoes the admission of jobs that could not be queued; returns how many it removed. */
  abandon(jobIds: string[], batchId: string | null): number {
    return this.db.tx((s) => abandonJobs(s, jobIds, batchId));
  }

  start(jobId: string, attempt: number): StartResult {
    return this.db.tx((s) => startJob(s, jobId, attempt));
  }

  finish(jobId: string, outcome: JobOutcome): FinishResult {
    return this.db.tx((s) => finishJob(s, jobId, outcome));
  }

  /** The dead-letter path: fails the job unless it already finished. */
  abort(jobId: string, error: string): FinishResult {
    return this.db.tx((s) => abortJob(s, jobId, error));
  }

  get(jobId: string): JobView | null {
    return getJob(this.db.sql, jobId);
  }

  list(query: ListQuery): Page<JobView> {
    return listJobs(this.db.sql, query);
  }

  getBatch(batchId: string): BatchView | null {
    return getBatch(this.db.sql, batchId);
  }

  listBatches(query: ListQuery): Page<BatchView> {
    return listBatches(this.db.sql, query);
  }
}
