/**
 * The one Hono app, used by the worker and by the tests. Routes are grouped per resource;
 * errors of every kind leave through `onError` as the spec's envelope.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { log } from "../log";
import { errorBody } from "./envelope";
import { ApiError, ERROR_STATUS } from "../errors";
import { requestId } from "./middleware/request-id";
import { accountRoutes } from "./routes/account";
import { adminRoutes } from "./routes/admin";
import { batchRoutes } from "./routes/batch";
import { extractRoutes } from "./routes/extract";
import { imageRoutes } from "./routes/images";
import { jobRoutes } from "./routes/jobs";
import { metaRoutes } from "./routes/meta";
import { renderRoutes } from "./routes/render";
import { screenshotRoutes } from "./routes/screenshot";
import type { AppEnv } from "./types";

export function newApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId());

  app.route("/", metaRoutes);
  app.route("/v1", accountRoutes);
  app.route("/v1", screenshotRoutes);
  app.route("/v1", batchRoutes);
  app.route("/v1", jobRoutes);
  app.route("/v1", imageRoutes);
  app.route("/v1", renderRoutes);
  app.route("/v1", extractRoutes);
  app.route("/admin", adminRoutes);

  app.notFound((c) => {
    return c.json(errorBody(c.get("requestId"), "NOT_FOUND", "Route not found."), 404);
  });

  app.onError((err, c) => {
    const id = c.get("requestId") ?? `req_${crypto.randomUUID()}`;
    if (err instanceof ApiError) {
      for (const [name, value] of Object.entries(err.extraHeaders)) c.header(name, value);
      return c.json(errorBody(id, err.code, err.message, err.details), err.status);
    }
    if (err instanceof HTTPException && err.status < 500) {
      // Hono's own exceptions (e.g. a malformed request it refused) keep their status.
      const code = err.status === 404 ? "NOT_FOUND" : err.status === 413 ? "PAYLOAD_TOO_LARGE" : "VALIDATION_ERROR";
      return c.json(errorBody(id, code, err.message || "Bad request."), ERROR_STATUS[code]);
    }
    log("error", "unhandled error", { requestId: id, error: String(err), stack: err instanceof Error ? err.stack : undefined });
    return c.json(errorBody(id, "INTERNAL_ERROR", "An unexpected error occurred."), 500);
  });

  return app;
}
