/**
 * Site monitors: a whole site checked on a schedule, each page compared with its baseline (new,
 * removed, changed, unchanged or failed, with its visual, text and field differences). Created
 * (or dry-run), read, listed, changed, paused, resumed, deleted, checked now; a check read,
 * awaited, and its pages paged through. Bound onto the client as `edgeshot.monitors`.
 *
 * `create` and `dryRun` are one endpoint (POST /v1/monitors) answering two shapes; they are two
 * calls so that each has one return type.
 */
import type {
  DeleteMonitorResponses,
  ListMonitorChecksData,
  ListMonitorChecksResponses,
  ListMonitorsData,
  ListMonitorsResponses,
  Monitor,
  MonitorCheckOutput,
  MonitorCheckPageOutput,
  MonitorDryRun,
  MonitorPatch,
  MonitorRequest,
} from "../generated/index.js";
import type { Transport, WaitOptions } from "../transport.js";

/** The statuses a check ends in: nothing changes after them. */
const FINAL: ReadonlySet<MonitorCheckOutput["status"]> = new Set([
  "completed",
  "cancelled",
  "failed",
]);

export interface MonitorCheckPagesOptions {
  /** Only pages of this status; default every page that is not unchanged. */
  status?: MonitorCheckPageOutput["status"];
  /** Pages per request, 1–100; default 100 (fewest requests). */
  limit?: number;
  /** Start after this `nextCursor` of an earlier answer; default the first page. */
  cursor?: string;
}

const monitorPath = (monitorId: string) => `/v1/monitors/${encodeURIComponent(monitorId)}`;
const checkPath = (monitorId: string, checkId: string) =>
  `${monitorPath(monitorId)}/checks/${encodeURIComponent(checkId)}`;

export function monitorsResource(t: Transport) {
  const monitors = {
    /** POST /v1/monitors (201): its first check starts now and sets the baseline, unless `paused`. */
    create: (request: Omit<MonitorRequest, "dryRun">) =>
      t.json<Monitor>("POST", "/v1/monitors", request),
    /**
     * POST /v1/monitors with `dryRun: true`: nothing created or charged; the URLs a check would
     * cover now, and its credits per check and per month.
     */
    dryRun: (request: Omit<MonitorRequest, "dryRun" | "paused">) =>
      t.json<MonitorDryRun>("POST", "/v1/monitors", { ...request, dryRun: true }),
    /** GET /v1/monitors/{id}: settings (defaults filled in), schedule, last check, feed URL. */
    get: (monitorId: string) => t.json<Monitor>("GET", monitorPath(monitorId)),
    /** GET /v1/monitors: the account's monitors, newest first; follow `nextCursor` with `cursor`. */
    list: (query: NonNullable<ListMonitorsData["query"]> = {}) =>
      t.json<ListMonitorsResponses[200]["data"]>("GET", "/v1/monitors", undefined, query),
    /** PATCH /v1/monitors/{id}: any setting but the site; `null` clears `name` and `webhookUrl`. */
    update: (monitorId: string, change: MonitorPatch) =>
      t.json<Monitor>("PATCH", monitorPath(monitorId), change),
    /** DELETE /v1/monitors/{id}: the monitor, its checks and their pages, and its baselines. */
    delete: (monitorId: string) =>
      t.json<DeleteMonitorResponses[200]["data"]>("DELETE", monitorPath(monitorId)),
    /** No scheduled check runs until it is resumed (`check` still does). */
    pause: (monitorId: string) => t.json<Monitor>("POST", `${monitorPath(monitorId)}/pause`),
    /** The schedule starts again, counted from now. */
    resume: (monitorId: string) => t.json<Monitor>("POST", `${monitorPath(monitorId)}/resume`),
    /**
     * POST /v1/monitors/{id}/checks (202): a check now, beside the schedule; await it with
     * `waitForCheck`. A check already queued or running is `409 CHECK_IN_PROGRESS`.
     */
    check: (monitorId: string) =>
      t.json<MonitorCheckOutput>("POST", `${monitorPath(monitorId)}/checks`),
    /** GET /v1/monitors/{id}/checks: newest first, within the plan's retention. */
    checks: (monitorId: string, query: NonNullable<ListMonitorChecksData["query"]> = {}) =>
      t.json<ListMonitorChecksResponses[200]["data"]>(
        "GET",
        `${monitorPath(monitorId)}/checks`,
        undefined,
        query,
      ),
    /** GET /v1/monitors/{id}/checks/{checkId}: status, trigger, counts, credits used. */
    getCheck: (monitorId: string, checkId: string) =>
      t.json<MonitorCheckOutput>("GET", checkPath(monitorId, checkId)),
    /**
     * The check's pages that were not unchanged (unchanged pages are counted, not listed), one at
     * a time, in the order they were checked: GET …/checks/{checkId}/pages, following
     * `nextCursor` until it is null. On a running check it ends with the last page checked.
     */
    async *pages(
      monitorId: string,
      checkId: string,
      options: MonitorCheckPagesOptions = {},
    ): AsyncGenerator<MonitorCheckPageOutput> {
      let cursor = options.cursor;
      do {
        const answer = await t.json<{ pages: MonitorCheckPageOutput[]; nextCursor: string | null }>(
          "GET",
          `${checkPath(monitorId, checkId)}/pages`,
          undefined,
          { status: options.status, limit: options.limit ?? 100, cursor },
        );
        yield* answer.pages;
        cursor = answer.nextCursor ?? undefined;
      } while (cursor !== undefined);
    },
    /** Polls `getCheck` until the check completed, was cancelled or failed (check `status`). */
    waitForCheck: (monitorId: string, checkId: string, options: WaitOptions = {}) =>
      t.poll(
        () => monitors.getCheck(monitorId, checkId),
        (c) => FINAL.has(c.status),
        options,
      ),
  };
  return monitors;
}
