/** Watches: scheduled captures with change detection (watch.changed / watch.alert / watch.failed webhooks). */
import type {
  CreateWatchData,
  CreateWatchResponses,
  DeleteWatchResponses,
  ListWatchesData,
  ListWatchesResponses,
  ListWatchRunsData,
  ListWatchRunsResponses,
  RunWatchResponses,
  UpdateWatchData,
} from "../generated/index.js";
import type { Transport } from "../transport.js";

const watchPath = (watchId: string) => `/v1/watches/${encodeURIComponent(watchId)}`;

export function watchesResource(t: Transport) {
  return {
    create: (request: CreateWatchData["body"]) =>
      t.json<CreateWatchResponses[201]["data"]>("POST", "/v1/watches", request),
    list: (query: NonNullable<ListWatchesData["query"]> = {}) =>
      t.json<ListWatchesResponses[200]["data"]>("GET", "/v1/watches", undefined, query),
    get: (watchId: string) => t.json<CreateWatchResponses[201]["data"]>("GET", watchPath(watchId)),
    update: (watchId: string, change: UpdateWatchData["body"]) =>
      t.json<CreateWatchResponses[201]["data"]>("PATCH", watchPath(watchId), change),
    delete: (watchId: string) =>
      t.json<DeleteWatchResponses[200]["data"]>("DELETE", watchPath(watchId)),
    /** One run now; the schedule is not shifted. */
    run: (watchId: string) =>
      t.json<RunWatchResponses[202]["data"]>("POST", `${watchPath(watchId)}/run`),
    runs: (watchId: string, query: NonNullable<ListWatchRunsData["query"]> = {}) =>
      t.json<ListWatchRunsResponses[200]["data"]>(
        "GET",
        `${watchPath(watchId)}/runs`,
        undefined,
        query,
      ),
  };
}
