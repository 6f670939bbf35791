/**
 * Crawl and map (docs/CRAWL.md): POST /v1/crawl (202), GET /v1/crawl/:crawlId (summary and the
 * first page of results), GET /v1/crawl/:crawlId/pages and /errors, DELETE /v1/crawl/:crawlId (cancel),
 * GET /v1/crawls, POST /v1/map. The work is in src/crawl/.
 */
import {
  crawlDryRunSchema,
  crawlErrorsQuery,
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
  type CrawlSummary,
} from "../../../schemas/crawl";
import type { Listing } from "../../../schemas/responses";
import { mapSite, MAP_OUTPUT } from "../../crawl/map";
import { startCrawl } from "../../crawl/start";
import { cancelCrawl, crawlResults, crawlView, ERROR_PAGES } from "../../crawl/views";
import type { ErrorCode } from "../../errors";
import { browserEngine } from "../../pipeline/engine";
import { publicOrigin } from "../../storage/hosted";
import { endpoint, endpoints } from "../endpoint";
import { listing, paging } from "../listing";
import { CAPTURE_ERRORS } from "./capture-contract";
import { charged, successBody } from "../envelope";
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

const crawlPath = idParam("crawlId", "The crawl id (a UUID).");
const TAGS = ["Crawl"];
const BASE: ErrorCode[] = [...KEY_ERRORS, ...SERVICE_ERRORS];
const START_ERRORS: ErrorCode[] = [
  ...BODY_ERRORS,
  ...BASE,
  ...TARGET_ERRORS,
  "INVALID_WEBHOOK_URL",
  "PLAN_UPGRADE_REQUIRED",
  "CRAWL_LIMIT_REACHED",
];

export const crawlRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/crawl",
    auth: "key",
    idempotent: true,
    body: {
      schema: crawlRequestSchema,
      example: {
        url: "https://example.com/docs/",
        limit: 50,
        scope: "path",
        formats: ["markdown", "links"],
      },
    },
    operation: {
      operationId: "startCrawl",
      summary: "Start a crawl",
      tags: TAGS,
      description:
        "Renders the pages of a site from `url`, following links (and sitemaps) within scope, depth and robots.txt, into the formats asked for. 1 credit per rendered page (+1 with `screenshot`), charged as pages complete; nothing for skipped or failed pages. With `dryRun: true`: nothing started or charged, the URLs known now and the credits.",
      responses: {
        "200": envelopeResponse("The dry run.", crawlDryRunSchema, rateLimitHeaders),
        "202": envelopeResponse("The crawl, queued.", crawlStartedSchema, rateLimitHeaders),
        ...errorResponses(START_ERRORS),
      },
    },
    handler: async (c) => {
      const origin = publicOrigin(c.env, c.req.url);
      const engine = browserEngine(c.env);
      const made = await startCrawl(c.env, c.get("auth"), c.req.valid("json"), origin, engine);
      if (made.kind === "dryRun") return c.json(successBody(c.get("requestId"), made.dryRun));
      return c.json(successBody(c.get("requestId"), made.started), 202);
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/crawl/{crawlId}",
    auth: "key",
    operation: {
      operationId: "getCrawl",
      summary: "Get a crawl",
      tags: TAGS,
      description: "Its status and counts, and the first results; follow `nextCursor` on /pages.",
      requestParams: { path: crawlPath },
      responses: {
        "200": envelopeResponse("The crawl.", crawlSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "CRAWL_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const view = await crawlView(c.env, c.get("auth"), c.req.param("crawlId") ?? "");
      return c.json(successBody(c.get("requestId"), view));
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/crawl/{crawlId}/pages",
    auth: "key",
    query: crawlPagesQuery,
    operation: {
      operationId: "getCrawlPages",
      summary: "Get a crawl's results",
      tags: TAGS,
      description:
        "Pages in the order they finished, up to 100 at a time; `status` keeps rendered, skipped or failed ones.",
      requestParams: { path: crawlPath },
      responses: {
        "200": envelopeResponse("A page of results.", crawlPagesSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "VALIDATION_ERROR", "CRAWL_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const q = c.req.valid("query");
      const filter = q.status ? { statuses: [q.status] } : {};
      const id = c.req.param("crawlId") ?? "";
      const results = await crawlResults(c.env, c.get("auth"), id, q, filter);
      return c.json(successBody(c.get("requestId"), results));
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/crawl/{crawlId}/errors",
    auth: "key",
    query: crawlErrorsQuery,
    operation: {
      operationId: "getCrawlErrors",
      summary: "Get a crawl's errors",
      tags: TAGS,
      description:
        "Failed pages, and pages skipped because robots.txt or the URL guard refused them or the credits ran out, each with its reason and the page it was found on; in the order they finished, up to 100 at a time.",
      requestParams: { path: crawlPath },
      responses: {
        "200": envelopeResponse("A page of errors.", crawlPagesSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "VALIDATION_ERROR", "CRAWL_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const id = c.req.param("crawlId") ?? "";
      const results = await crawlResults(
        c.env,
        c.get("auth"),
        id,
        c.req.valid("query"),
        ERROR_PAGES,
      );
      return c.json(successBody(c.get("requestId"), results));
    },
  }),
  endpoint({
    method: "delete",
    path: "/v1/crawl/{crawlId}",
    auth: "key",
    operation: {
      operationId: "cancelCrawl",
      summary: "Cancel a crawl",
      tags: TAGS,
      description:
        "Nothing new starts; pages already rendering finish. Pages not rendered are not charged.",
      requestParams: { path: crawlPath },
      responses: {
        "200": envelopeResponse("The crawl.", crawlSummarySchema, rateLimitHeaders),
        ...errorResponses([...BASE, "CRAWL_NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const summary = await cancelCrawl(c.env, c.get("auth"), c.req.param("crawlId") ?? "");
      return c.json(successBody(c.get("requestId"), summary));
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/crawls",
    auth: "key",
    query: crawlListQuery,
    operation: {
      operationId: "listCrawls",
      summary: "List crawls",
      tags: TAGS,
      description: "Newest first; follow `nextCursor` with `cursor`.",
      responses: {
        "200": envelopeResponse("A page of crawls.", crawlListingSchema, rateLimitHeaders),
        ...errorResponses([...BASE, "VALIDATION_ERROR"]),
      },
    },
    handler: async (c) => {
      const q = c.req.valid("query");
      const page = await c.get("auth").account.crawls().list(paging(q));
      const data: Listing<CrawlSummary> = listing("crawl", page);
      return c.json(successBody(c.get("requestId"), data));
    },
  }),
  endpoint({
    method: "post",
    path: "/v1/map",
    auth: { key: { reserveFor: [MAP_OUTPUT] } },
    idempotent: true,
    body: { schema: mapRequestSchema, example: { url: "https://example.com/", limit: 500 } },
    operation: {
      operationId: "mapSite",
      summary: "Map a site's URLs",
      tags: TAGS,
      description:
        "A site's URLs from its sitemaps and the links of its rendered start page, within scope and robots.txt. 1 credit.",
      responses: {
        "200": envelopeResponse("The URLs.", mapResultSchema, rateLimitHeaders),
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS]),
      },
    },
    handler: async (c) => {
      const engine = browserEngine(c.env);
      const { data, usage } = await mapSite(c.env, c.get("auth"), c.req.valid("json"), engine);
      return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
    },
  }),
);
