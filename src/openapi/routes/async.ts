/** The contract of polling async work: jobs and batches, one by one and listed. */
import { z } from "zod";
import {
  batchListingSchema,
  batchSchema,
  jobListingSchema,
  jobSchema,
} from "../../../schemas/responses";
import { batchListQuery, jobListQuery } from "../../../schemas/jobs";
import {
  API_KEY,
  envelopeResponse,
  errorResponses,
  KEY_ERRORS,
  rateLimitHeaders,
  SERVICE_ERRORS,
  type ApiRoute,
} from "../registry";

const uuid = (name: string) =>
  z.object({ [name]: z.string().meta({ description: `The ${name} (a UUID).` }) });

export const asyncRoutes: ApiRoute[] = [
  {
    method: "get",
    path: "/v1/jobs/{jobId}",
    operation: {
      operationId: "getJob",
      summary: "Get a job",
      description: "An async capture's state; free of credit. Poll every 2-5 s.",
      tags: ["Async"],
      security: API_KEY,
      requestParams: { path: uuid("jobId") },
      responses: {
        "200": envelopeResponse("The job.", jobSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "NOT_FOUND"]),
      },
    },
  },
  {
    method: "get",
    path: "/v1/jobs",
    operation: {
      operationId: "listJobs",
      summary: "List jobs",
      description: "Newest first; follow `nextCursor` with `cursor`.",
      tags: ["Async"],
      security: API_KEY,
      requestParams: { query: jobListQuery },
      responses: {
        "200": envelopeResponse("A page of jobs.", jobListingSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "VALIDATION_ERROR"]),
      },
    },
  },
  {
    method: "get",
    path: "/v1/batches/{batchId}",
    operation: {
      operationId: "getBatch",
      summary: "Get a batch",
      description: "Summary counts plus every job; free of credit.",
      tags: ["Async"],
      security: API_KEY,
      requestParams: { path: uuid("batchId") },
      responses: {
        "200": envelopeResponse("The batch with its jobs.", batchSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "NOT_FOUND"]),
      },
    },
  },
  {
    method: "get",
    path: "/v1/batches",
    operation: {
      operationId: "listBatches",
      summary: "List batches",
      description: "Newest first; follow `nextCursor` with `cursor`.",
      tags: ["Async"],
      security: API_KEY,
      requestParams: { query: batchListQuery },
      responses: {
        "200": envelopeResponse("A page of batches.", batchListingSchema, rateLimitHeaders),
        ...errorResponses([...KEY_ERRORS, ...SERVICE_ERRORS, "VALIDATION_ERROR"]),
      },
    },
  },
];
