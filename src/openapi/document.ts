/**
 * The OpenAPI 3.1 document, generated from the zod schemas in `schemas/` through the route
 * groups under `./routes/`. `npm run openapi` writes it to `schemas/openapi.json` (what the
 * worker serves); a test fails when that file is stale.
 */
import { z } from "zod";
import { createDocument } from "zod-openapi";
import { IDEMPOTENCY_HEADER, idempotencyKeySchema } from "../../schemas/idempotency";
import pkg from "../../package.json";
import type { ApiRoute } from "./registry";
import { ERROR_ENVELOPE, SECURITY_SCHEMES } from "./registry";
import { accountRoutes } from "./routes/account";
import { asyncRoutes } from "./routes/async";
import { captureRoutes } from "./routes/capture";
import { contentRoutes } from "./routes/content";
import { crawlRoutes } from "./routes/crawl";
import { pageContentRoutes } from "./routes/page-content";
import { renderRoutes } from "./routes/render";
import { serviceRoutes } from "./routes/service";
import { watchRoutes } from "./routes/watches";
import { webhookRoutes } from "./routes/webhooks";
import { webhooks } from "./webhooks";

/** Every route group of the contract; a new group is added here. */
export const API_ROUTES: ApiRoute[] = [
  ...serviceRoutes,
  ...captureRoutes,
  ...asyncRoutes,
  ...renderRoutes,
  ...contentRoutes,
  ...pageContentRoutes,
  ...accountRoutes,
  ...watchRoutes,
  ...crawlRoutes,
  ...webhookRoutes,
];

const DESCRIPTION = `Screenshots, PDFs, render links, reader-mode extraction, page content (rendered HTML, text, links, scraped elements) and branded artifacts, rendered by headless Chromium at the edge.

Authenticate with \`Authorization: Bearer svc_…\` (or \`x-api-key\`). Every JSON answer is an envelope: \`{success, data, meta}\` or \`{success: false, error: {code, message, details, docs}, meta}\` (\`docs\` links the code's entry on /docs/errors). Captures cost 1 credit; polling and the account read-out are free. Webhooks are signed with HMAC-SHA256 (see Webhooks).`;

/** The POSTs that take an `Idempotency-Key` (src/http/middleware/idempotency.ts). */
const IDEMPOTENT = new Set([
  "captureScreenshot",
  "captureScreenshotJson",
  "captureBatch",
  "extract",
  "content",
  "scrape",
  "links",
  "snapshot",
  "createArtifact",
  "createRenderLink",
  "startCrawl",
  "mapSite",
]);
const idempotencyHeader = z.object({ [IDEMPOTENCY_HEADER]: idempotencyKeySchema.optional() });

export function buildDocument(): ReturnType<typeof createDocument> {
  const paths: Record<string, Record<string, ApiRoute["operation"]>> = {};
  for (const route of API_ROUTES) {
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`duplicate operation ${route.method} ${route.path}`);
    const op = route.operation;
    item[route.method] = IDEMPOTENT.has(op.operationId ?? "")
      ? { ...op, requestParams: { ...op.requestParams, header: idempotencyHeader } }
      : op;
  }
  return createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Edgeshot API",
        version: pkg.version,
        description: DESCRIPTION,
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      },
      servers: [{ url: "/", description: "This deployment" }],
      tags: [
        { name: "Capture", description: "Screenshots and PDFs of URLs, HTML or Markdown." },
        { name: "Async", description: "Queued captures, batches, polling." },
        { name: "Render links", description: "Signed URLs that render on first view." },
        { name: "Hosted outputs", description: "Signed URLs of stored results." },
        { name: "Extraction", description: "Reader-mode content." },
        {
          name: "Page content",
          description: "Rendered HTML, visible text, links and scraped elements of one page load.",
        },
        { name: "Artifacts", description: "Branded PDF/PNG and share pages." },
        { name: "Account", description: "Plan, credits, key check." },
        { name: "Storage destinations", description: "Your own S3-compatible buckets." },
        { name: "Watches", description: "Scheduled captures with change detection." },
        { name: "Crawl", description: "Whole sites rendered page by page; site maps." },
        { name: "Webhooks", description: "The delivery log, redelivery and a test send." },
        { name: "Service", description: "Index, health, this document." },
      ],
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
      paths,
      webhooks,
      components: { securitySchemes: SECURITY_SCHEMES, schemas: { ErrorEnvelope: ERROR_ENVELOPE } },
    },
    {
      // zod's `startsWith` renders as a non-standard `format`; its `pattern` already says it.
      override: ({ jsonSchema }) => {
        if (jsonSchema.format === "starts_with") delete jsonSchema.format;
      },
    },
  );
}
