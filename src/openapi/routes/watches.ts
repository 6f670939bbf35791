/** The contract of watches: scheduled captures with change detection (docs/WATCHES.md). */
import { z } from "zod";
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
} from "../../../schemas/watches";
import type { ErrorCode } from "../../errors";
import {
  API_KEY,
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  jsonRequest,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
  type ApiRoute,
  TARGET_ERRORS,
} from "../registry";

const watchPath = z.object({
  watchId: z.string().meta({ description: "The watch id (a UUID)." }),
});
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

const op = (
  operationId: string,
  summary: string,
  rest: Omit<ApiRoute["operation"], "operationId" | "summary" | "tags" | "security">,
): ApiRoute["operation"] => ({
  operationId,
  summary,
  tags: ["Watches"],
  security: API_KEY,
  ...rest,
});

export const watchRoutes: ApiRoute[] = [
  {
    method: "post",
    path: "/v1/watches",
    operation: op("createWatch", "Create a watch", {
      description:
        "Captures the URL every intervalMinutes (at least the plan's floor) and compares each run with the last good one; watch.changed is sent when the change passes the threshold. 1 credit per completed run.",
      requestBody: jsonRequest(watchCreateSchema, {
        url: "https://example.com/pricing",
        name: "Pricing page",
        intervalMinutes: 60,
        changeDetection: { mode: "visual", thresholdPercent: 1 },
        webhookUrl: "https://hooks.example.com/edgeshot",
      }),
      responses: {
        "201": envelopeResponse("The watch.", watchSchema, rateLimitHeaders),
        ...errorResponses(WRITE_ERRORS),
      },
    }),
  },
  {
    method: "get",
    path: "/v1/watches",
    operation: op("listWatches", "List watches", {
      description: "Newest first; follow `nextCursor` with `cursor`.",
      requestParams: { query: watchListQuery },
      responses: {
        "200": envelopeResponse("A page of watches.", watchListingSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "VALIDATION_ERROR"]),
      },
    }),
  },
  {
    method: "get",
    path: "/v1/watches/{watchId}",
    operation: op("getWatch", "Get a watch", {
      requestParams: { path: watchPath },
      responses: {
        "200": envelopeResponse("The watch.", watchSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "WATCH_NOT_FOUND"]),
      },
    }),
  },
  {
    method: "patch",
    path: "/v1/watches/{watchId}",
    operation: op("updateWatch", "Update, pause or resume a watch", {
      description:
        "Any of paused, intervalMinutes, name, capture, changeDetection, webhookUrl, retention, storage; the same rules as on creation.",
      requestParams: { path: watchPath },
      requestBody: jsonRequest(watchPatchSchema, { paused: true }),
      responses: {
        "200": envelopeResponse("The watch.", watchSchema, rateLimitHeaders),
        ...errorResponses([...WRITE_ERRORS, "WATCH_NOT_FOUND"]),
      },
    }),
  },
  {
    method: "delete",
    path: "/v1/watches/{watchId}",
    operation: op("deleteWatch", "Delete a watch", {
      description: "Stops the schedule and deletes the runs and their stored images.",
      requestParams: { path: watchPath },
      responses: {
        "200": envelopeResponse("Deleted.", watchDeletedSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "WATCH_NOT_FOUND"]),
      },
    }),
  },
  {
    method: "post",
    path: "/v1/watches/{watchId}/run",
    operation: op("runWatch", "Run a watch now", {
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
    }),
  },
  {
    method: "get",
    path: "/v1/watches/{watchId}/runs",
    operation: op("listWatchRuns", "List a watch's runs", {
      description: "The run history, newest first; follow `nextCursor` with `cursor`.",
      requestParams: { path: watchPath, query: runListQuery },
      responses: {
        "200": envelopeResponse("A page of runs.", watchRunListingSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "WATCH_NOT_FOUND", "VALIDATION_ERROR"]),
      },
    }),
  },
];
