/**
 * The one Hono app, used by the worker and by the tests. Routes are grouped per resource;
 * errors of every kind leave through `onError` as the spec's envelope.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { TrieRouter } from "hono/router/trie-router";
import { log } from "../log";
import { MESSAGES } from "../user-messages";
import { BodyTooLarge, drainingBody } from "./body";
import { errorBody } from "./envelope";
import { ApiError, ERROR_STATUS } from "../errors";
import { dashboardNotFound, dashboardRoutes } from "./dashboard";
import { mcpRoutes } from "./mcp/route";
import { checkConfig } from "./middleware/check-config";
import { requestId } from "./middleware/request-id";
import { requestLog } from "./middleware/request-log";
import { accountRoutes } from "./routes/account";
import { animateRoutes } from "./routes/animate";
import { artifactRoutes } from "./routes/artifact";
import { adminRoutes } from "./routes/admin";
import { batchRoutes } from "./routes/batch";
import { docsRoutes } from "./routes/docs";
import { extractRoutes } from "./routes/extract";
import { imageRoutes } from "./routes/images";
import { jobRoutes } from "./routes/jobs";
import { metaRoutes } from "./routes/meta";
import { pageContentRoutes } from "./routes/page-content";
import { renderRoutes } from "./routes/render";
import { screenshotRoutes } from "./routes/screenshot";
import { storageRoutes } from "./routes/storage";
import { watchRoutes } from "./routes/watches";
import { crawlRoutes } from "./routes/crawl";
import { monitorRoutes } from "./routes/monitors";
import { webhookRoutes } from "./routes/webhooks";
import { requestRoutes } from "./routes/requests";
import type { AppEnv } from "./types";

export function newApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId());
  app.use(checkConfig());
  app.use(requestLog());

  // Customer endpoints (their paths carry /v1), in the order the reference lists them.
  app.route("/", metaRoutes);
  app.route("/", screenshotRoutes);
  app.route("/", batchRoutes);
  app.route("/", jobRoutes);
  app.route("/", renderRoutes);
  app.route("/", imageRoutes);
  app.route("/", extractRoutes);
  app.route("/", artifactRoutes);
  app.route("/", animateRoutes);
  app.route("/", pageContentRoutes);
  app.route("/", accountRoutes);
  app.route("/", storageRoutes);
  app.route("/", watchRoutes);
  app.route("/", crawlRoutes);
  app.route("/", monitorRoutes);
  app.route("/", webhookRoutes);
  app.route("/", requestRoutes);
  app.route("/", docsRoutes);
  app.route("/", mcpRoutes);
  app.route("/admin", adminRoutes);
  app.route("/dashboard", dashboardRoutes);

  let allowedMethods: ((path: string) => string[]) | null = null;
  app.notFound((c) => {
    allowedMethods ??= methodsByPath(app);
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0) {
      c.header("allow", allowed.join(", "));
      const message = `${c.req.method} is not allowed here; use ${allowed.join(" or ")}.`;
      return c.json(errorBody(c.get("requestId"), "METHOD_NOT_ALLOWED", message), 405);
    }
    // A person's browser under /dashboard gets a page of the dashboard, not the API's JSON.
    const { method, path } = c.req;
    if ((method === "GET" || method === "HEAD") && /^\/dashboard(\/|$)/.test(path))
      return dashboardNotFound(c);
    return c.json(errorBody(c.get("requestId"), "NOT_FOUND", "Route not found."), 404);
  });

  app.onError((err, c) => {
    const id = c.get("requestId") ?? `req_${crypto.randomUUID()}`;
    if (err instanceof ApiError) c.set("errorCode", err.code);
    if (err instanceof BodyTooLarge) {
      const envelope = JSON.stringify(errorBody(id, err.code, err.message, err.details));
      c.header("content-type", "application/json");
      return c.body(drainingBody(envelope, err.rest), 413);
    }
    if (err instanceof ApiError) {
      for (const [name, value] of Object.entries(err.extraHeaders)) c.header(name, value);
      return c.json(errorBody(id, err.code, err.message, err.details), err.status);
    }
    if (err instanceof HTTPException && err.status < 500) {
      // Hono's own exceptions (e.g. a malformed request it refused) keep their status.
      const code =
        err.status === 404
          ? "NOT_FOUND"
          : err.status === 413
            ? "PAYLOAD_TOO_LARGE"
            : "VALIDATION_ERROR";
      c.set("errorCode", code);
      return c.json(errorBody(id, code, err.message || "Bad request."), ERROR_STATUS[code]);
    }
    log("error", "unhandled error", {
      requestId: id,
      error: String(err),
      stack: err instanceof Error ? err.stack : undefined,
    });
    c.set("errorCode", "INTERNAL_ERROR");
    return c.json(errorBody(id, "INTERNAL_ERROR", MESSAGES.internalError), 500);
  });

  return app;
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The methods each registered path answers (GET implies HEAD, as Hono serves it), for 405s. */
function methodsByPath(app: Hono<AppEnv>): (path: string) => string[] {
  const router = new TrieRouter<true>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue; // middleware, not a route
    router.add(route.method, route.path, true);
    if (route.method === "GET") router.add("HEAD", route.path, true);
  }
  return (path) => METHODS.filter((method) => router.match(method, path)[0].length > 0);
}
