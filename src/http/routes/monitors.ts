/**
 * Site monitors (docs/MONITORS.md): POST /v1/monitors (or its dry run), GET /v1/monitors, GET,
 * PATCH and DELETE /v1/monitors/{id}, pause and resume, POST …/checks (check now), GET …/checks,
 * a check and its pages, and the signed Atom feed. The work is in src/monitors/operations.ts.
 */
import {
  checkListingSchema,
  checkListQuery,
  checkPagesQuery,
  checkPagesSchema,
  checkSchema,
  monitorCreateSchema,
  monitorDeletedSchema,
  monitorDryRunSchema,
  monitorListingSchema,
  monitorListQuery,
  monitorPatchSchema,
  monitorSchema,
} from "../../../schemas/monitors";
import { MONITOR } from "../../../schemas/limits";
import type { ErrorCode } from "../../errors";
import {
  checkNow,
  checkPages,
  createMonitor,
  deleteMonitor,
  getCheck,
  getMonitor,
  listChecks,
  listMonitors,
  monitorFeed,
  patchMonitor,
  setPaused,
} from "../../monitors/operations";
import { browserEngine } from "../../pipeline/engine";
import { publicOrigin } from "../../storage/hosted";
import { endpoint, endpoints } from "../endpoint";
import { successBody } from "../envelope";
import { listing, paging } from "../listing";
import {
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  idParam,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
  TARGET_ERRORS,
} from "../openapi/registry";
import { z } from "zod";

const TAGS = ["Monitors"];
const monitorPath = idParam("monitorId", "The monitor id (a UUID).");
const checkPath = z.object({
  ...monitorPath.shape,
  ...idParam("checkId", "The check id (a UUID).").shape,
});
const BASE: ErrorCode[] = [...KEY_ERRORS, ...SERVICE_ERRORS];
const SETTINGS_ERRORS: ErrorCode[] = [
  ...BODY_ERRORS,
  ...BASE,
  ...TARGET_ERRORS,
  "INVALID_WEBHOOK_URL",
  "PLAN_UPGRADE_REQUIRED",
  "MONITOR_SCHEDULE_TOO_FAST",
];
const param = (value: string | undefined) => value ?? "";

export const monitorRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/monitors",
    auth: "key",
    idempotent: true,
    body: {
      schema: monitorCreateSchema,
      example: {
        url: "https://example.com/",
        limit: 50,
        schedule: { intervalMinutes: 1440 },
        ignore: [".ad-slot"],
        fields: [{ name: "price", selector: ".price" }],
        webhookUrl: "https://hooks.example.com/edgeshot",
        webhookEvents: ["monitor.check.completed", "monitor.page.changed"],
      },
    },
    operation: {
      operationId: "createMonitor",
      summary: "Create a site monitor",
      tags: TAGS,
      description:
        "A site checked on a schedule: each check renders its pages (as a crawl) and compares each with the last check's — new, removed, changed (visual, text, fields), unchanged or failed. The first check runs now and sets the baseline. 1 credit per page rendered. With `dryRun: true`: nothing created or charged, the URLs a check would cover and its credits.",
      responses: {
        "201": envelopeResponse("The monitor.", monitorSchema, rateLimitHeaders),
        "200": envelopeResponse("The dry run.", monitorDryRunSchema, rateLimitHeaders),
        ...errorResponses([...SETTINGS_ERRORS, "MONITOR_LIMIT_REACHED"]),
      },
    },
    handler: async (c) => {
      const origin = publicOrigin(c.env, c.req.url);
      const engine = browserEngine(c.env);
      const made = await createMonitor(c.env, c.get("auth"), c.req.valid("json"), origin, engine);
      if (made.kind === "dryRun") return c.json(successBody(c.get("requestId"), made.dryRun));
      return c.json(successBody(c.get("requestId"), made.monitor), 201);
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/monitors",
    auth: "key",
    query: monitorListQuery,
    operation: {
      operationId: "listMonitors",
      summary: "List monitors",
      tags: TAGS,
      description: "Newest first; `status` active or paused; follow `nextCursor` with `cursor`.",
      responses: {
        "200": envelopeResponse("A page of monitors.", monitorListingSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "VALIDATION_ERROR"]),
      },
    },
    handler: async (c) => {
      const page = await listMonitors(c.env, c.get("auth"), paging(c.req.valid("query")));
      return c.json(successBody(c.get("requestId"), listing("monitor", page)));
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/monitors/{monitorId}",
    auth: "key",
    operation: {
      operationId: "getMonitor",
      summary: "Get a monitor",
      tags: TAGS,
      description: "Its settings (defaults filled in), schedule, last check and feed URL.",
      requestParams: { path: monitorPath },
      responses: {
        "200": envelopeResponse("The monitor.", monitorSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "MONITOR_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const view = await getMonitor(c.env, c.get("auth"), param(c.req.param("monitorId")));
      return c.json(successBody(c.get("requestId"), view));
    },
  }),
  endpoint({
    method: "patch",
    path: "/v1/monitors/{monitorId}",
    auth: "key",
    body: {
      schema: monitorPatchSchema,
      example: { schedule: { cron: "0 6 * * 1-5" }, ignore: [".clock"] },
    },
    operation: {
      operationId: "updateMonitor",
      summary: "Change a monitor",
      tags: TAGS,
      description:
        "Any setting but the site (url, scope, sitemap); `null` clears `name` and `webhookUrl`. A new schedule counts from now.",
      requestParams: { path: monitorPath },
      responses: {
        "200": envelopeResponse("The monitor.", monitorSchema, rateLimitHeaders),
        ...errorResponses([...SETTINGS_ERRORS, "MONITOR_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const id = param(c.req.param("monitorId"));
      const view = await patchMonitor(c.env, c.get("auth"), id, c.req.valid("json"));
      return c.json(successBody(c.get("requestId"), view));
    },
  }),
  endpoint({
    method: "delete",
    path: "/v1/monitors/{monitorId}",
    auth: "key",
    operation: {
      operationId: "deleteMonitor",
      summary: "Delete a monitor",
      tags: TAGS,
      description: "Stops its schedule; deletes its checks, their pages and its baselines.",
      requestParams: { path: monitorPath },
      responses: {
        "200": envelopeResponse("Deleted.", monitorDeletedSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "MONITOR_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const id = param(c.req.param("monitorId"));
      await deleteMonitor(c.env, c.get("auth"), id);
      return c.json(successBody(c.get("requestId"), { monitorId: id, deleted: true as const }));
    },
  }),
  ...(["pause", "resume"] as const).map((action) =>
    endpoint({
      method: "post",
      path: `/v1/monitors/{monitorId}/${action}`,
      auth: "key",
      operation: {
        operationId: `${action}Monitor`,
        summary: action === "pause" ? "Pause a monitor" : "Resume a monitor",
        tags: TAGS,
        description:
          action === "pause"
            ? "No scheduled check runs until it is resumed (check now still works)."
            : "The schedule starts again from now.",
        requestParams: { path: monitorPath },
        responses: {
          "200": envelopeResponse("The monitor.", monitorSchema, rateLimitHeaders),
          ...errorResponses([...BASE, "MONITOR_NOT_FOUND"]),
        },
      },
      handler: async (c) => {
        const id = param(c.req.param("monitorId"));
        const view = await setPaused(c.env, c.get("auth"), id, action === "pause");
        return c.json(successBody(c.get("requestId"), view));
      },
    }),
  ),
  endpoint({
    method: "post",
    path: "/v1/monitors/{monitorId}/checks",
    auth: "key",
    operation: {
      operationId: "checkMonitor",
      summary: "Check a monitor now",
      tags: TAGS,
      description: "Starts a check beside the schedule. 1 credit per page rendered.",
      requestParams: { path: monitorPath },
      responses: {
        "202": envelopeResponse("The check, queued.", checkSchema, rateLimitHeaders),
        ...errorResponses([...BASE, ...TARGET_ERRORS, "MONITOR_NOT_FOUND", "CHECK_IN_PROGRESS"]),
      },
    },
    handler: async (c) => {
      const check = await checkNow(c.env, c.get("auth"), param(c.req.param("monitorId")));
      return c.json(successBody(c.get("requestId"), check), 202);
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/monitors/{monitorId}/checks",
    auth: "key",
    query: checkListQuery,
    operation: {
      operationId: "listMonitorChecks",
      summary: "List a monitor's checks",
      tags: TAGS,
      description: "Newest first, within the plan's retention; follow `nextCursor` with `cursor`.",
      requestParams: { path: monitorPath },
      responses: {
        "200": envelopeResponse("A page of checks.", checkListingSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "VALIDATION_ERROR", "MONITOR_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const id = param(c.req.param("monitorId"));
      const page = await listChecks(c.get("auth"), id, paging(c.req.valid("query")));
      return c.json(successBody(c.get("requestId"), listing("check", page)));
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/monitors/{monitorId}/checks/{checkId}",
    auth: "key",
    operation: {
      operationId: "getMonitorCheck",
      summary: "Get a check",
      tags: TAGS,
      description: "Its status and counts: new, removed, changed, unchanged, failed.",
      requestParams: { path: checkPath },
      responses: {
        "200": envelopeResponse("The check.", checkSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "MONITOR_NOT_FOUND", "CHECK_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const check = await getCheck(
        c.get("auth"),
        param(c.req.param("monitorId")),
        param(c.req.param("checkId")),
      );
      return c.json(successBody(c.get("requestId"), check));
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/monitors/{monitorId}/checks/{checkId}/pages",
    auth: "key",
    query: checkPagesQuery,
    operation: {
      operationId: "getMonitorCheckPages",
      summary: "Get a check's pages",
      tags: TAGS,
      description:
        "The pages that were new, removed, changed or failed (unchanged pages are counted, not listed), with before/after/diff image URLs (signed), the text diff and the changed fields.",
      requestParams: { path: checkPath },
      responses: {
        "200": envelopeResponse("A page of the check's pages.", checkPagesSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "VALIDATION_ERROR", "MONITOR_NOT_FOUND", "CHECK_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const q = c.req.valid("query");
      const data = await checkPages(
        c.get("auth"),
        param(c.req.param("monitorId")),
        param(c.req.param("checkId")),
        {
          status: q.status ?? null,
          cursor: q.cursor ?? 0,
          limit: q.limit ?? MONITOR.pagesPerList.default,
        },
      );
      return c.json(successBody(c.get("requestId"), data));
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/monitors/{monitorId}/feed",
    auth: "none",
    operation: {
      operationId: "getMonitorFeed",
      summary: "A monitor's Atom feed",
      tags: TAGS,
      description:
        "The newest changes (new, removed, changed and failed pages) as Atom, for feed readers. Signed (`account`, `sig`: the monitor's `feedUrl`); no key.",
      requestParams: { path: monitorPath },
      responses: {
        "200": {
          description: "The feed.",
          content: { "application/atom+xml": { schema: { type: "string" } } },
        },
        ...errorResponses([...SERVICE_ERRORS, "FORBIDDEN", "MONITOR_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const id = param(c.req.param("monitorId"));
      const xml = await monitorFeed(c.env, id, new URL(c.req.url).searchParams);
      return c.body(xml, 200, {
        "content-type": "application/atom+xml; charset=utf-8",
        "cache-control": "private, max-age=60",
      });
    },
  }),
);
