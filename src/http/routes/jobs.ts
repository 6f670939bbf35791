/**
 * Polling async work, all free of credit: GET /v1/jobs/:jobId, GET /v1/jobs, GET
 * /v1/batches/:batchId (summary counts plus every job) and GET /v1/batches. Listings are newest
 * first, `{items, nextCursor}`. Another account's job or batch is indistinguishable from an
 * unknown one: 404 NOT_FOUND.
 */
import { batchListQuery, jobListQuery } from "../../../schemas/jobs";
import {
  batchListingSchema,
  batchSchema,
  jobListingSchema,
  jobSchema,
  type BatchView,
  type JobView,
  type Listing,
} from "../../../schemas/responses";
import { isUuid } from "../../encoding";
import { ApiError } from "../../errors";
import { endpoint, endpoints } from "../endpoint";
import { listing, paging } from "../listing";
import { successBody } from "../envelope";
import {
  envelopeResponse,
  errorResponses,
  idParam,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
} from "../openapi/registry";

const notFound = (what: "job" | "batch") => new ApiError("NOT_FOUND", `No ${what} with this id.`);

export const jobRoutes = endpoints(
  endpoint({
    method: "get",
    path: "/v1/jobs/{jobId}",
    auth: "key",
    operation: {
      operationId: "getJob",
      summary: "Get a job",
      description: "An async capture's state; free of credit. Poll every 2-5 s.",
      tags: ["Async"],
      requestParams: { path: idParam("jobId") },
      responses: {
        "200": envelopeResponse("The job.", jobSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const jobId = c.req.param("jobId") ?? "";
      const job = isUuid(jobId) ? await c.get("auth").account.jobs().get(jobId) : null;
      if (!job) throw notFound("job");
      return c.json(successBody(c.get("requestId"), job));
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/jobs",
    auth: "key",
    query: jobListQuery,
    operation: {
      operationId: "listJobs",
      summary: "List jobs",
      description: "Newest first; follow `nextCursor` with `cursor`.",
      tags: ["Async"],
      responses: {
        "200": envelopeResponse("A page of jobs.", jobListingSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "VALIDATION_ERROR"]),
      },
    },
    handler: async (c) => {
      const q = c.req.valid("query");
      const page = await c.get("auth").account.jobs().list(paging(q));
      const data: Listing<JobView> = listing("job", page);
      return c.json(successBody(c.get("requestId"), data));
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/batches/{batchId}",
    auth: "key",
    operation: {
      operationId: "getBatch",
      summary: "Get a batch",
      description: "Summary counts plus every job; free of credit.",
      tags: ["Async"],
      requestParams: { path: idParam("batchId") },
      responses: {
        "200": envelopeResponse("The batch with its jobs.", batchSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "NOT_FOUND"]),
      },
    },
    handler: async (c) => {
      const batchId = c.req.param("batchId") ?? "";
      const batch = isUuid(batchId) ? await c.get("auth").account.jobs().getBatch(batchId) : null;
      if (!batch) throw notFound("batch");
      return c.json(successBody(c.get("requestId"), batch));
    },
  }),
  endpoint({
    method: "get",
    path: "/v1/batches",
    auth: "key",
    query: batchListQuery,
    operation: {
      operationId: "listBatches",
      summary: "List batches",
      description: "Newest first; follow `nextCursor` with `cursor`.",
      tags: ["Async"],
      responses: {
        "200": envelopeResponse("A page of batches.", batchListingSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "VALIDATION_ERROR"]),
      },
    },
    handler: async (c) => {
      const q = c.req.valid("query");
      const page = await c.get("auth").account.jobs().listBatches(paging(q));
      const data: Listing<BatchView> = listing("batch", page);
      return c.json(successBody(c.get("requestId"), data));
    },
  }),
);
