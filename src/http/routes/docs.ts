/**
 * GET /docs/errors: every error code, generated from src/errors.ts (./error-docs.ts).
 * GET /docs: the interactive API reference (Scalar) over GET /openapi.json. Every byte comes
 * from this worker — the page, its init script and Scalar's bundle (a static asset,
 * public/docs/scalar.js) — so it works offline and under a strict Content-Security-Policy (no
 * inline script, no CDN, no web fonts from elsewhere).
 */
import { Hono } from "hono";
import { staticAsset } from "../static-asset";
import type { AppEnv } from "../types";
import { ERROR_DOCS_HEADERS, errorDocsPage } from "./error-docs";

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Scalar injects its stylesheet as <style> elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Edgeshot API reference</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/scalar.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/** No default fonts (they come from a CDN), no telemetry, every tag open, this origin's document. */
const INIT = `Scalar.createApiReference("#app", {
  url: "/openapi.json",
  withDefaultFonts: false,
  defaultOpenAllTags: true,
  telemetry: false,
  hideClientButton: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
});
`;

const page = { "content-security-policy": CSP, "x-content-type-options": "nosniff" };
const script = {
  "content-type": "text/javascript; charset=utf-8",
  "cache-control": "public, max-age=3600",
  "x-content-type-options": "nosniff",
};

export const docsRoutes = new Hono<AppEnv>()
  .get("/docs", (c) => c.html(PAGE, 200, page))
  .get("/docs/errors", (c) => c.html(errorDocsPage(), 200, ERROR_DOCS_HEADERS))
  .get("/docs/scalar.js", (c) => staticAsset(c, script))
  .get("/docs/init.js", (c) => c.body(INIT, 200, script));
