/**
 * The contract: schemas/openapi.json is what the app's endpoint definitions generate, covers
 * exactly the app's routes, is served with the docs, and the response check of
 * test/helpers/contract.ts catches a response that drifts from it.
 */
import { describe, expect, it } from "vitest";
import openapi from "../../schemas/openapi.json";
import { newApp } from "../../src/http/app";
import { definitionOf } from "../../src/http/endpoint";
import { buildDocument } from "../../src/http/openapi/document";
import { call } from "../helpers/http";
import type { JobView } from "../../schemas/responses";
import { batchEvent, jobEvent } from "../../src/webhooks/events";
import { checkContract, checkWebhookBody } from "../helpers/contract";

/**
 * Routes that are not API operations: the HTML reference and its scripts, the operator's admin
 * API (ADMIN_TOKEN, not a customer credential; docs/OPENAPI.md), and the MCP server (JSON-RPC,
 * its tools listed by tools/list: docs/MCP.md).
 */
const NOT_IN_CONTRACT = [/^\/docs(\/|$)/, /^\/admin\//, /^\/dashboard(\/|$)/, /^\/mcp$/];

/** Hono's `/v1/jobs/:jobId` and `/v1/images/*` in OpenAPI form. */
function openapiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z]+)/g, "{$1}").replace(/\/\*$/, "/{key}");
}

describe("OpenAPI document", () => {
  it("is what `npm run openapi` generates from the app's routes (not stale)", () => {
    expect(JSON.parse(JSON.stringify(buildDocument(newApp())))).toEqual(openapi);
  });

  it("has exactly one operation per route of the app, and every customer route a definition", () => {
    const routes = new Set<string>();
    // A route is listed once per handler (its middleware first); one of them is the endpoint's.
    const defined = new Set<string>();
    for (const route of newApp().routes) {
      if (route.method === "ALL") continue; // middleware
      if (NOT_IN_CONTRACT.some((re) => re.test(route.path))) continue;
      const key = `${route.method} ${openapiPath(route.path)}`;
      routes.add(key);
      if (definitionOf(route.handler)) defined.add(key);
    }
    const operations = new Set<string>();
    for (const [path, item] of Object.entries(openapi.paths)) {
      for (const method of Object.keys(item)) operations.add(`${method.toUpperCase()} ${path}`);
    }
    expect(
      [...operations].filter((o) => !routes.has(o)).sort(),
      "operations without a route",
    ).toEqual([]);
    expect(
      [...routes].filter((r) => !operations.has(r)).sort(),
      "routes not in the document",
    ).toEqual([]);
    expect(
      [...routes].filter((r) => !defined.has(r)).sort(),
      "routes without an endpoint definition",
    ).toEqual([]);
  });

  it("documents every operation with a summary, an example for its body, auth and errors", () => {
    for (const [path, item] of Object.entries(openapi.paths)) {
      for (const [method, op] of Object.entries(item) as Array<[string, Record<string, unknown>]>) {
        const name = `${method} ${path}`;
        expect(op.summary, name).toBeTruthy();
        expect(op.operationId, name).toBeTruthy();
        expect(op.security, name).toBeDefined();
        const body = op.requestBody as
          { content: Record<string, { example?: unknown }> } | undefined;
        if (body) expect(body.content["application/json"]?.example, name).toBeDefined();
        const statuses = Object.keys(op.responses as object);
        expect(
          statuses.some((s) => s.startsWith("2")),
          name,
        ).toBe(true);
        expect(
          statuses.some((s) => s.startsWith("5")),
          name,
        ).toBe(true);
      }
    }
    expect(Object.keys(openapi.webhooks).sort()).toEqual([
      "batch.completed",
      "crawl.completed",
      "crawl.page",
      "job.completed",
      "job.failed",
      "monitor.check.completed",
      "monitor.page.changed",
      "monitor.page.failed",
      "monitor.page.new",
      "monitor.page.removed",
      "test.ping",
      "watch.alert",
      "watch.changed",
      "watch.failed",
    ]);
    expect(Object.keys(openapi.components.securitySchemes).sort()).toEqual([
      "apiKeyHeader",
      "apiKeyQuery",
      "bearerAuth",
    ]);
  });
});

describe("served contract", () => {
  it("GET /openapi.json is the committed document", async () => {
    const res = await call("/openapi.json");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(openapi);
  });

  it("GET / links the docs and the document and lists every operation (but HEAD)", async () => {
    const body = (await (await call("/")).json()) as {
      docs: string;
      openapi: string;
      endpoints: Record<string, string>;
    };
    expect(body.docs).toBe("/docs");
    expect(body.openapi).toBe("/openapi.json");
    // The definitions' index is the committed document's operations.
    const documented = Object.fromEntries(
      Object.entries(openapi.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => method !== "head")
          .map(([method, op]) => [op.operationId, `${method.toUpperCase()} ${path}`]),
      ),
    );
    expect(body.endpoints).toEqual(documented);
    expect(body.endpoints.getJob).toBe("GET /v1/jobs/{jobId}");
  });

  it("GET /docs is HTML under a strict CSP whose scripts come from this worker", async () => {
    const res = await call("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    const html = await res.text();
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1] ?? "");
    expect(scripts.every((attrs) => /src="\/docs\//.test(attrs))).toBe(true); // no inline, no CDN
    const bundle = await call("/docs/scalar.js");
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toMatch(/javascript/);
    expect((await bundle.text()).length).toBeGreaterThan(1_000_000);
  });
});

describe("response check", () => {
  const health = () =>
    ({
      status: "ok",
      product: "Edgeshot",
      version: "x",
      timestamp: new Date().toISOString(),
    }) as Record<string, unknown>;
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const check = (method: string, path: string, res: Response) =>
    checkContract(method, `https://edgeshot.test${path}`, res);

  it("passes a conforming answer", async () => {
    await expect(check("GET", "/health", json(health()))).resolves.toBeUndefined();
  });

  it("fails an answer missing a field, with an extra field, or of an undocumented status", async () => {
    const { version: _dropped, ...missing } = health();
    await expect(check("GET", "/health", json(missing))).rejects.toThrow(/version/);
    await expect(check("GET", "/health", json({ ...health(), leaked: 1 }))).rejects.toThrow(
      /does not match/,
    );
    await expect(check("GET", "/health", json(health(), 201))).rejects.toThrow(/not documented/);
  });

  it("fails an error code the operation does not list, and checks templated paths", async () => {
    const error = (code: string) => ({
      success: false,
      error: { code, message: "x", docs: `/docs/errors#${code}` },
      meta: { requestId: "req_1", timestamp: new Date().toISOString() },
    });
    await expect(
      check("GET", "/v1/jobs/abc", json(error("NOT_FOUND"), 404)),
    ).resolves.toBeUndefined();
    await expect(check("GET", "/v1/jobs/abc", json(error("WATCH_NOT_FOUND"), 404))).rejects.toThrow(
      /code/,
    );
  });
});

describe("webhook bodies", () => {
  const at = "2026-01-01T00:00:00.000Z";
  const job: JobView = {
    jobId: "4b3c2a1e-0000-4000-8000-000000000001",
    batchId: null,
    status: "completed",
    url: "https://example.com/",
    format: "png",
    resultUrl: "https://edgeshot.test/v1/images/o/x.png?expires=1&sig=s",
    error: null,
    metadata: { url: "https://example.com/", format: "png", width: 1, height: 1, loadTimeMs: 1 },
    createdAt: at,
    startedAt: at,
    completedAt: at,
  };
  const failed: JobView = { ...job, status: "failed", resultUrl: undefined, error: "x" };

  it("what src/webhooks/events.ts builds matches the document's webhooks", () => {
    checkWebhookBody(jobEvent("job.completed", job));
    checkWebhookBody(jobEvent("job.failed", failed));
    checkWebhookBody(
      batchEvent("batch.completed", {
        batchId: "4b3c2a1e-0000-4000-8000-000000000009",
        status: "completed",
        outcome: "partial",
        totalJobs: 2,
        completedJobs: 1,
        failedJobs: 1,
        createdAt: at,
        completedAt: at,
        jobs: [job, failed],
      }),
    );
  });

  it("a body that drifts fails", () => {
    expect(() => checkWebhookBody({ ...jobEvent("job.failed", failed), extra: 1 })).toThrow(
      /does not match/,
    );
  });
});
