/** The contract of crawl and map (docs/CRAWL.md). */
import { z } from "zod";
import {
  crawlListingSchema,
  crawlListQuery,
  crawlPagesQuery,
  crawlPagesSchema,
  crawlRequestSchema,
  crawlSchema,
  crawlStartedSchema,
  crawlSummarySchema,
  mapRequestSchema,
  mapResultSchema,
} from "../../../schemas/crawl";
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
  type ErrorAt,
} from "../registry";
import { CAPTURE_ERRORS } from "./capture";

const crawlPath = z.object({
  crawlId: z.string().meta({ description: "The crawl id (a UUID)." }),
});
const BASE: ErrorCode[] = [...KEY_ERRORS, ...SERVICE_ERRORS];
const START_ERRORS: ErrorCode[] = [
  ...BODY_ERRORS,
  ...BASE,
  "INVALID_URL",
  "UNSAFE_URL",
  "INVALID_WEBHOOK_URL",
  "PLAN_UPGRADE_REQUIRED",
  "CRAWL_LIMIT_REACHED",
];
const MAP_ERRORS: ErrorAt[] = [...BODY_ERRORS, ...CAPTURE_ERRORS];

const op = (
  operationId: string,
  summary: string,
  rest: Omit<ApiRoute["operation"], "operationId" | "summary" | "tags" | "security">,
): ApiRoute["operation"] => ({
  operationId,
  summary,
  tags: ["Crawl"],
  security: API_KEY,
  ...rest,
});

export const crawlRoutes: ApiRoute[] = [
  {
    method: "post",
    path: "/v1/crawl",
    operation: op("startCrawl", "Start a crawl", {
      description:
        "Renders the pages of a site from `url`, following links (and sitemaps) within scope, depth and robots.txt, into the formats asked for. 1 credit per rendered page (+1 with `screenshot`), charged as pages complete; nothing for skipped or failed pages.",
      requestBody: jsonRequest(crawlRequestSchema, {
        url: "https://example.com/docs/",
        limit: 50,
        scope: "path",
        formats: ["markdown", "links"],
      }),
      responses: {
        "202": envelopeResponse("The crawl, queued.", crawlStartedSchema, rateLimitHeaders),
        ...errorResponses(START_ERRORS),
      },
    }),
  },
  {
    method: "get",
    path: "/v1/crawl/{crawlId}",
    operation: op("getCrawl", "Get a crawl", {
      description: "Its status and counts, and the first results; follow `nextCursor` on /pages.",
      requestParams: { path: crawlPath },
      responses: {
        "200": envelopeResponse("The crawl.", crawlSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "CRAWL_NOT_FOUND"]),
      },
    }),
  },
  {
    method: "get",
    path: "/v1/crawl/{crawlId}/pages",
    operation: op("getCrawlPages", "Get a crawl's results", {
      description: "Pages in the order they finished, up to 100 at a time.",
      requestParams: { path: crawlPath, query: crawlPagesQuery },
      responses: {
        "200": envelopeResponse("A page of results.", crawlPagesSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "VALIDATION_ERROR", "CRAWL_NOT_FOUND"]),
      },
    }),
  },
  {
    method: "delete",
    path: "/v1/crawl/{crawlId}",
    operation: op("cancelCrawl", "Cancel a crawl", {
      description:
        "Nothing new starts; pages already rendering finish. Pages not rendered are not charged.",
      requestParams: { path: crawlPath },
      responses: {
        "200": envelopeResponse("The crawl.", crawlSummarySchema, rateLimitHeaders),
        ...errorResponses([...BASE, "CRAWL_NOT_FOUND"]),
      },
    }),
  },
  {
    method: "get",
    path: "/v1/crawls",
    operation: op("listCrawls", "List crawls", {
      description: "Newest first; follow `nextCursor` with `cursor`.",
      requestParams: { query: crawlListQuery },
      responses: {
        "200": envelopeResponse("A page of crawls.", crawlListingSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "VALIDATION_ERROR"]),
      },
    }),
  },
  {
    method: "post",
    path: "/v1/map",
    operation: op("mapSite", "Map a site's URLs", {
      description:
        "A site's URLs from its sitemaps and the links of its rendered start page, within scope and robots.txt. 1 credit.",
      requestBody: jsonRequest(mapRequestSchema, { url: "https://example.com/", limit: 500 }),
      responses: {
        "200": envelopeResponse("The URLs.", mapResultSchema, rateLimitHeaders),
        ...errorResponses(MAP_ERRORS),
      },
    }),
  },
];
