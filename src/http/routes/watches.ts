/**
 * Watches (docs/WATCHES.md): scheduled captures with change detection. POST/GET /v1/watches,
 * GET/PATCH/DELETE /v1/watches/:watchId, POST /v1/watches/:watchId/run (202, the schedule
 * untouched) and GET /v1/watches/:watchId/runs. Another account's watch is indistinguishable
 * from an unknown one: 404 WATCH_NOT_FOUND.
 */
import type { Listing } from "../../../schemas/responses";
import {
  runListQuery,
  watchCreateSchema,
  watchDeletedSchema,
  watchListingSchema,
  watchListQuery,
  watchPatchSchema,
  watchRunAcceptedSchema,
  watchRunListingSchema,
  watchSchema,
  type WatchDeleted,
  type WatchRunAccepted,
  type WatchRunView,
  type WatchView,
} from "../../../schemas/watches";
import { isUuid } from "../../encoding";
import { ApiError, type ErrorCode } from "../../errors";
import { publicOrigin } from "../../storage/hosted";
import { deleteWatchOutputs } from "../../watches/outputs";
import { prepareChange, prepareWatch, watchNotFound, watchRefusal } from "../../watches/prepare";
import { endpoint, endpoints } from "../endpoint";
import { listing, paging } from "../listing";
import { successBody } from "../envelope";
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

const watchPath = idParam("watchId", "The watch id (a UUID).");
const TAGS = ["Watches"];
const BASE: ErrorCode[] = [...KEY_ERRORS, ...SERVICE_ERRORS];
/** What creating or changing a watch can be refused with (target, webhook, storage, limits). */
const WRITE_ERRORS: ErrorCode[] = [
  ...BODY_ERRORS,
  ...BASE,
  ...TARGET_ERRORS,
  "INVALID_WEBHOOK_URL",
  "PLAN_UPGRADE_REQUIRED",
  "NOT_FOUND",
  "WATCH_LIMIT_REACHED",
  "WATCH_HOST_LIMIT_REACHED",
  "WATCH_INTERVAL_TOO_FAST",
];

function watchId(raw: string | undefined): string {
  if (raw === undefined || !isUuid(raw)) throw watchNotFound();
  return raw;
}

export const watchRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/watches",
    auth: "key",
    body: {
      schema: watchCreateSchema,
      example: {
        url: "https://example.com/pricing",
        name: "Pricing page",
        intervalMinutes: 60,
        changeDetection: { mode: "visual", thresholdPercent: 1 },
        webhookUrl: "https://hooks.example.com/edgeshot",
      },
    },
    operation: {
      operationId: "createWatch",
      summary: "Create a watch",
      tags: TAGS,
      description:
        "Captures the URL every intervalMinutes (at least the plan's floor) and compares each run with the last good one; watch.changed is sent when the change passes the threshold, watch.alert when a rule on the watch's fields fires. 1 credit per completed run.",
      responses: {
        "201": envelopeResponse("The watch.", watchSchema, rateLimitHeaders),
        ...errorResponses(WRITE_ERRORS),
      },
    },
    handler: async (c) => {
      const auth = c.get("auth");
      const origin = publicOrigin(c.env, c.req.url);
      const input = await prepareWatch(c.env, auth, c.req.valid("json"), origin);
      const result = await auth.account.watches().create(input);
      if (!result.ok) throw watchRefusal(result, auth.plan);
      return c.json(successBody(c.get("requestId"), result.watch), 201);
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/watches",
    auth: "key",
    query: watchListQuery,
    operation: {
      operationId: "listWatches",
      summary: "List watches",
      tags: TAGS,
      description: "Newest first; follow `nextCursor` with `cursor`.",
      responses: {
        "200": envelopeResponse("A page of watches.", watchListingSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "VALIDATION_ERROR"]),
      },
    },
    handler: async (c) => {
      const q = c.req.valid("query");
      const page = await c.get("auth").account.watches().list(paging(q));
      const data: Listing<WatchView> = listing("watch", page);
      return c.json(successBody(c.get("requestId"), data));
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/watches/{watchId}",
    auth: "key",
    operation: {
      operationId: "getWatch",
      summary: "Get a watch",
      tags: TAGS,
      requestParams: { path: watchPath },
      responses: {
        "200": envelopeResponse("The watch.", watchSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "WATCH_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const id = watchId(c.req.param("watchId"));
      const watch = await c.get("auth").account.watches().get(id);
      if (!watch) throw watchNotFound();
      return c.json(successBody(c.get("requestId"), watch));
    },
  }),
  endpoint({
    method: "patch",
    path: "/v1/watches/{watchId}",
    auth: "key",
    body: { schema: watchPatchSchema, example: { paused: true } },
    operation: {
      operationId: "updateWatch",
      summary: "Update, pause or resume a watch",
      tags: TAGS,
      description:
        "Any of paused, intervalMinutes, name, capture, changeDetection, webhookUrl, retention, storage; the same rules as on creation.",
      requestParams: { path: watchPath },
      responses: {
        "200": envelopeResponse("The watch.", watchSchema, rateLimitHeaders),
        ...errorResponses([...WRITE_ERRORS, "WATCH_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const auth = c.get("auth");
      const id = watchId(c.req.param("watchId"));
      const current = await auth.account.watches().get(id);
      if (!current) throw watchNotFound();
      const { url, capture, changeDetection } = current;
      const change = await prepareChange(
        c.env,
        auth,
        { url, capture, changeDetection },
        c.req.valid("json"),
      );
      const result = await auth.account.watches().update(id, change);
      if (!result.ok) throw watchRefusal(result, auth.plan);
      return c.json(successBody(c.get("requestId"), result.watch));
    },
  }),
  endpoint({
    method: "delete",
    path: "/v1/watches/{watchId}",
    auth: "key",
    operation: {
      operationId: "deleteWatch",
      summary: "Delete a watch",
      tags: TAGS,
      description: "Stops the schedule and deletes the runs and their stored images.",
      requestParams: { path: watchPath },
      responses: {
        "200": envelopeResponse("Deleted.", watchDeletedSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "WATCH_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const id = watchId(c.req.param("watchId"));
      const keys = await c.get("auth").account.watches().delete(id);
      if (keys === null) throw watchNotFound();
      await deleteWatchOutputs(c.env, keys);
      const data: WatchDeleted = { id, deleted: true };
      return c.json(successBody(c.get("requestId"), data));
    },
  }),
  endpoint({
    method: "post",
    path: "/v1/watches/{watchId}/run",
    auth: "key",
    operation: {
      operationId: "runWatch",
      summary: "Run a watch now",
      tags: TAGS,
      description: "One run now (1 credit when it completes); the schedule is not shifted.",
      requestParams: { path: watchPath },
      responses: {
        "202": envelopeResponse("The run, queued.", watchRunAcceptedSchema, rateLimitHeaders),
        ...errorResponses([
          ...BASE,
          "WATCH_NOT_FOUND",
          "WATCH_PAUSED",
          "USAGE_EXCEEDED",
          "QUEUE_LIMIT_REACHED",
        ]),
      },
    },
    handler: async (c) => {
      const id = watchId(c.req.param("watchId"));
      const result = await c.get("auth").account.watches().runNow(id);
      if (!result.ok) {
        if (!("cause" in result)) {
          if (result.reason === "not_found") throw watchNotFound();
          throw new ApiError("WATCH_PAUSED", "This watch is paused; resume it to run it.");
        }
        // Recorded as a skipped run; answered like an async capture refused for the same cause.
        if (result.cause === "credits") throw new ApiError("USAGE_EXCEEDED", result.reason);
        if (result.cause === "queue_limit")
          throw new ApiError("QUEUE_LIMIT_REACHED", result.reason);
        throw new ApiError("INTERNAL_ERROR", "The run could not be queued; nothing was charged.");
      }
      const data: WatchRunAccepted = { runId: result.runId, jobId: result.jobId, status: "queued" };
      return c.json(successBody(c.get("requestId"), data), 202);
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/watches/{watchId}/runs",
    auth: "key",
    query: runListQuery,
    operation: {
      operationId: "listWatchRuns",
      summary: "List a watch's runs",
      tags: TAGS,
      description: "The run history, newest first; follow `nextCursor` with `cursor`.",
      requestParams: { path: watchPath },
      responses: {
        "200": envelopeResponse("A page of runs.", watchRunListingSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "WATCH_NOT_FOUND", "VALIDATION_ERROR"]),
      },
    },
    handler: async (c) => {
      const id = watchId(c.req.param("watchId"));
      const q = c.req.valid("query");
      const page = await c.get("auth").account.watches().listRuns(id, paging(q));
      if (!page) throw watchNotFound();
      const data: Listing<WatchRunView> = listing("run", page);
      return c.json(successBody(c.get("requestId"), data));
    },
  }),
);
