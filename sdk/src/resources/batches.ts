/** Batches: many captures submitted together, read, listed, or awaited. */
import type { Batch, ListBatchesData } from "../generated/index.js";
import type { Transport, WaitOptions } from "../transport.js";

export function batchesResource(t: Transport) {
  const batches = {
    get: (batchId: string) => t.json<Batch>("GET", `/v1/batches/${encodeURIComponent(batchId)}`),
    list: (query: NonNullable<ListBatchesData["query"]> = {}) =>
      t.json<{ items: Batch[]; nextCursor: string | null }>("GET", "/v1/batches", undefined, query),
    /** Polls until every job of the batch finished. */
    wait: (batchId: string, options: WaitOptions = {}) =>
      t.poll(
        () => batches.get(batchId),
        (b) => b.status === "completed",
        options,
      ),
  };
  return batches;
}
