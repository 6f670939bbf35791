/**
 * The OpenAPI 3.1 document, generated from the app's routes: every routed handler that came from
 * an endpoint definition (../endpoint.ts) contributes its operation. `npm run openapi` writes it
 * to `schemas/openapi.json` (what the worker serves); a test fails when that file is stale.
 */
import type { Hono } from "hono";
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject } from "zod-openapi";
import { IDEMPOTENCY_HEADER, idempotencyKeySchema } from "../../../schemas/idempotency";
import pkg from "../../../package.json";
import { definitionOf, type AnyEndpoint } from "../endpoint";
import type { AppEnv } from "../types";
import {
  API_KEY,
  API_KEY_OR_QUERY,
  ERROR_ENVELOPE,
  jsonRequest,
  NO_KEY,
  SECURITY_SCHEMES,
} from "./registry";
import { webhooks } from "./webhooks";

const DESCRIPTION = `Screenshots, PDFs, render links, reader-mode extraction, page content (rendered HTML, text, links, scraped elements) and branded artifacts, rendered by headless Chromium at the edge.

Authenticate with \`Authorization: Bearer svc_…\` (or \`x-api-key\`). Every JSON answer is an envelope: \`{success, data, meta}\` or \`{success: false, error: {code, message, details, docs}, meta}\` (\`docs\` links the code's entry on /docs/errors). Captures cost 1 credit; polling and the account read-out are free. Webhooks are signed with HMAC-SHA256 (see Webhooks).`;

const idempotencyHeader = z.object({ [IDEMPOTENCY_HEADER]: idempotencyKeySchema.optional() });

/** The operation a definition publishes: its own, plus what its auth, body and query imply. */
function operationOf(def: AnyEndpoint): ZodOpenApiOperationObject {
  const security =
    def.auth === "none"
      ? NO_KEY
      : def.auth !== "key" && def.auth.key.allowQueryKey
        ? API_KEY_OR_QUERY
        : API_KEY;
  if (def.idempotent && def.operation.requestParams?.header)
    throw new Error(`${def.path}: idempotent sets the header parameters; declare no others`);
  const params = {
    ...def.operation.requestParams,
    ...(def.query ? { query: def.query } : {}),
    ...(def.idempotent ? { header: idempotencyHeader } : {}),
  };
  return {
    ...def.operation,
    security,
    ...(Object.keys(params).length > 0 ? { requestParams: params } : {}),
    ...(def.body?.schema ? { requestBody: jsonRequest(def.body.schema, def.body.example) } : {}),
  };
}

export function buildDocument(app: Hono<AppEnv>): ReturnType<typeof createDocument> {
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {};
  for (const route of app.routes) {
    const def = definitionOf(route.handler);
    if (!def) continue;
    const item = (paths[def.path] ??= {});
    if (item[def.method]) throw new Error(`duplicate operation ${def.method} ${def.path}`);
    item[def.method] = operationOf(def);
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
