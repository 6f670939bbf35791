import puppeteer from "@cloudflare/puppeteer";
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newApp } from "../../src/http/app";
import { endpointIndex } from "../../src/http/routes/meta";
import { decodeImage } from "../helpers/images";
import { call, envelope, FIXTURES, fixtureLog, runId } from "../helpers/http";

describe("service routes", () => {
  it("GET /health reports status, product, deployment version and time", async () => {
    const res = await call("/health");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, string>;
    expect(body.status).toBe("ok");
    expect(body.product).toBe("Edgeshot");
    expect(typeof body.version).toBe("string");
    expect(Date.parse(body.timestamp ?? "")).not.toBeNaN();
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("GET / lists every route of the spec with the package version", async () => {
    const res = await call("/");
    const body = (await res.json()) as {
      name: string;
      version: string;
      health: string;
      docs: string;
      endpoints: Record<string, string>;
    };
    expect(body.name).toBe("Edgeshot");
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.health).toBe("/health");
    const routes = Object.values(body.endpoints);
    for (const route of [
      "GET /v1/jobs",
      "GET /v1/batches",
      "GET /v1/credential-check",
      "POST /v1/screenshot",
      "GET /v1/render",
    ]) {
      expect(routes).toContain(route);
    }
    expect(body.endpoints).toEqual(endpointIndex());
  });

  it("GET / lists only routes that exist: none of them answers 404", async () => {
    for (const route of Object.values(endpointIndex())) {
      const [method, path] = route.split(" ") as [string, string];
      const res = await call(path.replace(/\{[^}]+\}/g, "00000000-0000-0000-0000-000000000000"), {
        method,
      });
      expect(res.status, route).not.toBe(405);
      const body = (await res.json()) as { error?: { code: string } };
      expect(body.error?.code, route).not.toBe("NOT_FOUND");
    }
  });

  it("health and index versions differ (deployment id vs package version)", async () => {
    const health = (await (await call("/health")).json()) as { version: string };
    const index = (await (await call("/")).json()) as { version: string };
    expect(health.version).not.toBe(index.version);
  });
});

describe("error envelope", () => {
  it("unknown route → 404 NOT_FOUND envelope with request id", async () => {
    const res = await call("/v1/nope");
    expect(res.status).toBe(404);
    const body = await envelope(res);
    expect(body.success).toBe(false);
    expect(body.error?.code).toBe("NOT_FOUND");
    expect(body.error?.docs).toBe("/docs/errors#NOT_FOUND");
    expect(body.meta.requestId).toBe(res.headers.get("x-request-id"));
    expect(Date.parse(body.meta.timestamp)).not.toBeNaN();
  });

  it("a known path with a wrong method → 405 METHOD_NOT_ALLOWED envelope with Allow", async () => {
    for (const [method, path, allow] of [
      ["DELETE", "/v1/screenshot", "GET, HEAD, POST"],
      ["GET", "/v1/screenshot/json", "POST"],
      ["PUT", "/health", "GET, HEAD"],
      ["POST", "/v1/jobs/123", "GET, HEAD"],
    ] as const) {
      const res = await call(path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("allow")).toBe(allow);
      const body = await envelope(res);
      expect(body.error?.code).toBe("METHOD_NOT_ALLOWED");
      expect(body.error?.docs).toBe("/docs/errors#METHOD_NOT_ALLOWED");
      expect(body.meta.requestId).toBe(res.headers.get("x-request-id"));
    }
  });

  it("keeps a sane caller-supplied x-request-id and replaces a hostile one", async () => {
    const ok = await call("/nope", { headers: { "x-request-id": "client-req-12345" } });
    expect(ok.headers.get("x-request-id")).toBe("client-req-12345");
    const bad = await call("/nope", { headers: { "x-request-id": "<script>" } });
    expect(bad.headers.get("x-request-id")).toMatch(/^req_/);
  });
});

describe("configuration", () => {
  it("is checked at the entry: a bad var is a 503 CONFIGURATION_ERROR even on a route that never reads it", async () => {
    const app = newApp();
    const broken = { ...env, BROWSER_HOSTS: "zero" } as unknown as Env;
    const res = await app.fetch(
      new Request("https://edgeshot.test/v1/nope"),
      broken,
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
    const body = await envelope(res);
    expect(body.error?.code).toBe("CONFIGURATION_ERROR");
    expect(body.error?.docs).toBe("/docs/errors#CONFIGURATION_ERROR");
    expect(body.meta.requestId).toBe(res.headers.get("x-request-id"));
  });
});

describe("local browser binding inside workerd", () => {
  it("renders a fixture page to a real PNG through env.BROWSER", async () => {
    const run = runId();
    const browser = await puppeteer.launch(env.BROWSER);
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 400, height: 300, deviceScaleFactor: 1 });
      await page.goto(`${FIXTURES}/boxes.html?run=${run}`, { waitUntil: "load" });
      const bytes = (await page.screenshot({ type: "png" })) as Uint8Array;
      const png = decodeImage(bytes);
      expect([png.width, png.height]).toEqual([400, 300]);
      // boxes.html paints the top-left 100×100 pure red and a green box at x=200.
      expect(png.pixel(10, 10)).toEqual([255, 0, 0]);
      expect(png.pixel(210, 10)).toEqual([0, 255, 0]);
      expect(png.pixel(150, 150)).toEqual([255, 255, 255]);
    } finally {
      await browser.close();
    }
    const log = await fixtureLog(run);
    expect(log.some((r) => r.path === "/boxes.html")).toBe(true);
  });
});
