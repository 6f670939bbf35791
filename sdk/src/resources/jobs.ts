/** Jobs: async captures, read one by one, listed, or awaited. */
import type { Job, ListJobsData } from "../generated/index.js";
import type { Transport, WaitOptions } from "../transport.js";

export function jobsResource(t: Transport) {
  const jobs = {
    get: (jobId: string) => t.json<Job>("GET", `/v1/jobs/${encodeURIComponent(jobId)}`),
    list: (query: NonNullable<ListJobsData["query"]> = {}) =>
      t.json<{ items: Job[]; nextCursor: string | null }>("GET", "/v1/jobs", undefined, query),
    /** Polls until the job completed or failed (a failed job resolves; check `status`). */
    wait: (jobId: string, options: WaitOptions = {}) =>
      t.poll(
        () => jobs.get(jobId),
        (j) => j.status === "completed" || j.status === "failed",
        options,
      ),
  };
  return jobs;
}
