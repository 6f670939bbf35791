/** Unauthenticated service routes: the health check and the service index document. */
import { Hono } from "hono";
import pkg from "../../../package.json";
import type { Health, ServiceIndex } from "../../../schemas/responses";
import { config } from "../../config";
import type { AppEnv } from "../types";

/** Every route the service answers, for the service index document (routes not built yet are not listed). */
export const ENDPOINTS = {
  health: "GET /health",
  screenshot: "POST /v1/screenshot",
  screenshotGet: "GET /v1/screenshot",
  screenshotJson: "POST /v1/screenshot/json",
  batch: "POST /v1/screenshot/batch",
  renderLink: "POST /v1/render/link",
  render: "GET /v1/render",
  extract: "POST /v1/extract",
  artifact: "POST /v1/artifact",
  images: "GET /v1/images/{key}",
  job: "GET /v1/jobs/{jobId}",
  jobs: "GET /v1/jobs",
  batchStatus: "GET /v1/batches/{batchId}",
  batches: "GET /v1/batches",
  account: "GET /v1/account",
  usage: "GET /v1/usage",
  credentialCheck: "GET /v1/credential-check",
  storageDestinationCreate: "POST /v1/storage/destinations",
  storageDestinations: "GET /v1/storage/destinations",
  storageDestination: "GET /v1/storage/destinations/{destinationId}",
  storageDestinationDelete: "DELETE /v1/storage/destinations/{destinationId}",
  storageDestinationTest: "POST /v1/storage/destinations/{destinationId}/test",
  watchCreate: "POST /v1/watches",
  watches: "GET /v1/watches",
  watch: "GET /v1/watches/{watchId}",
  watchUpdate: "PATCH /v1/watches/{watchId}",
  watchDelete: "DELETE /v1/watches/{watchId}",
  watchRun: "POST /v1/watches/{watchId}/run",
  watchRuns: "GET /v1/watches/{watchId}/runs",
} as const;

export const metaRoutes = new Hono<AppEnv>()
  .get("/health", (c) => {
    const health: Health = {
      status: "ok",
      product: "Edgeshot",
      version: config(c.env).deploymentId,
      timestamp: new Date().toISOString(),
    };
    return c.json(health);
  })
  .get("/", (c) => {
    const index: ServiceIndex = {
      name: "Edgeshot",
      version: pkg.version,
      docs: config(c.env).docsUrl,
      health: "/health",
      endpoints: ENDPOINTS,
    };
    return c.json(index);
  });
