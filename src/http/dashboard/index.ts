/**
 * The self-serve dashboard under /dashboard: signup, login, keys, usage, monitors, webhooks, the
 * request log, plans and the playground. Server-rendered pages (./layout.ts); every response
 * carries the dashboard's security headers; every state-changing request must be same-origin,
 * and those made in a session must carry its CSRF token. Decisions: docs/DASHBOARD.md.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../../errors";
import { staticAsset } from "../static-asset";
import { authRoutes } from "./auth";
import { FORM_BYTES } from "./forms";
import { keyRoutes } from "./keys";
import { monitorPageRoutes } from "./monitors";
import { pageRoutes } from "./pages";
import { playgroundRoutes } from "./playground";
import { requestPageRoutes } from "./requests";
import { webhookPageRoutes } from "./webhooks";
import { html } from "hono/html";
import type { Context } from "hono";
import { page } from "./layout";
import {
  DASHBOARD,
  type DashboardEnv,
  dashboardHeaders,
  readSession,
  requireSession,
  sameOrigin,
} from "./session";

/** The stylesheet and the scripts (public/dashboard/assets/): files, so the CSP needs no `unsafe-inline`. */
const asset = (type: string) => ({
  "content-type": `${type}; charset=utf-8`,
  "cache-control": "public, max-age=300",
});

const formLimit = bodyLimit({
  maxSize: FORM_BYTES,
  onError: () => {
    throw new ApiError("PAYLOAD_TOO_LARGE", "Form too large.");
  },
});

export const dashboardRoutes = new Hono<DashboardEnv>()
  .use(dashboardHeaders)
  .use(sameOrigin)
  .get("/assets/style.css", (c) => staticAsset(c, asset("text/css")))
  .get("/assets/playground.css", (c) => staticAsset(c, asset("text/css")))
  .get("/assets/app.js", (c) => staticAsset(c, asset("text/javascript")))
  .get("/assets/snippets.js", (c) => staticAsset(c, asset("text/javascript")))
  .get("/assets/form.js", (c) => staticAsset(c, asset("text/javascript")))
  .get("/assets/favicon.svg", (c) => staticAsset(c, asset("image/svg+xml")))
  .use("/signup", formLimit)
  .use("/login", formLimit)
  .use("/logout", formLimit)
  .use("/keys/*", formLimit)
  .use("/keys", formLimit)
  .use("/webhooks/*", formLimit)
  .route("/", authRoutes)
  .use("/usage", requireSession)
  .use("/keys", requireSession)
  .use("/keys/*", requireSession)
  .use("/webhooks", requireSession)
  .use("/webhooks/*", requireSession)
  .use("/plans", requireSession)
  .use("/requests", requireSession)
  .use("/monitors", requireSession)
  .use("/monitors/*", requireSession)
  .use("/playground", requireSession)
  .use("/mcp", requireSession)
  .use("/api/*", requireSession)
  .route("/", keyRoutes)
  .route("/", pageRoutes)
  .route("/", webhookPageRoutes)
  .route("/", requestPageRoutes)
  .route("/", monitorPageRoutes)
  .route("/", playgroundRoutes);

/**
 * A path under /dashboard that is no page: an HTML 404 in the dashboard's frame (with its
 * navigation when signed in) and its security headers — not the API's JSON envelope.
 */
export async function dashboardNotFound(c: Context): Promise<Response> {
  const session = await readSession(c);
  const body = html`<p>There is no dashboard page at <code>${c.req.path}</code>.</p>
    <p><a href="${DASHBOARD}/${session ? "usage" : "login"}">Go to the dashboard</a></p>`;
  return page(c, { title: "Page not found", body, session, status: 404 });
}
