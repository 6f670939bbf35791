// The service's client (bench/README.md, "The two systems"): an account through the admin API,
// then the requests each scenario times — POST /v1/screenshot, render links, GET /health,
// POST /v1/extract, POST /v1/json — each output checked before it counts. A route the service does not have
// yet is NotAvailable: its scenario is reported "not available", never as a failure.
import { checkPng, parseServerTiming } from "./stats.mjs";
import { fixtureUrl } from "./fixture-client.mjs";
import {
  FIELDS_SCENARIO,
  OTHER_SCENARIOS,
  REQUEST_TIMEOUT_MS,
  VIEWPORT,
  checkSamePixels,
} from "../scenarios/catalog.mjs";
import { checkComplete, completePage } from "../scenarios/complete.mjs";

/** The route does not exist (yet) in the service: the scenario is reported "not available". */
export class NotAvailable extends Error {}

/**
 * One API call of a scenario: the answer's JSON (or the start of its text when it is none), its
 * time and its size. A non-2xx answer throws, naming the call.
 */
export async function apiCall(base, apiKey, method, path, body, timeoutMs = REQUEST_TIMEOUT_MS) {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = { raw: text.slice(0, 300) };
  }
  if (!res.ok)
    throw new Error(`${method} ${path} → ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  return { json, ms, bytes: Buffer.byteLength(text) };
}

async function readJson(res) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text.slice(0, 300) };
  }
}

/** Turns a non-2xx response into NotAvailable (route missing) or a descriptive error. */
function httpError(route, status, body) {
  const code = body?.error?.code;
  if (status === 404 && (code === "NOT_FOUND" || code === undefined)) {
    return new NotAvailable(
      `${route} → 404 ${code ?? ""} (route not in the service yet)`.replace("  ", " "),
    );
  }
  const msg = body?.error?.message ?? body?.raw ?? JSON.stringify(body).slice(0, 300);
  return new Error(`${route} → ${status} ${code ?? ""}: ${msg}`);
}

export async function createAccount(base, adminToken) {
  const res = await fetch(`${base}/admin/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ plan: "enterprise" }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = await readJson(res);
  if (res.status !== 201 && res.status !== 200)
    throw httpError("POST /admin/accounts", res.status, body);
  const key = body?.data?.apiKey;
  if (!key)
    throw new Error(`POST /admin/accounts: no apiKey in ${JSON.stringify(body).slice(0, 200)}`);
  return { apiKey: key, accountId: body.data.accountId };
}

export function makeService(base, apiKey, fixtureBase) {
  const auth = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  let link = null;
  return {
    async capture(sc) {
      const { url, run } = fixtureUrl(fixtureBase, sc.path);
      const body = {
        ...(sc.html ? { html: sc.html(run) } : { url }),
        ...VIEWPORT,
        format: "png",
        // Default settings send no waitUntil: the service's default (networkidle2) applies.
        ...(sc.wait === "default" ? {} : { waitUntil: "load" }),
        fullPage: sc.fullPage,
        blockAds: false,
      };
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/screenshot`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      const ms = performance.now() - t0;
      if (!res.ok) {
        let parsed;
        try {
          parsed = JSON.parse(bytes.toString("utf8"));
        } catch {
          parsed = { raw: bytes.toString("utf8").slice(0, 300) };
        }
        throw httpError("POST /v1/screenshot", res.status, parsed);
      }
      const type = res.headers.get("content-type") ?? "";
      if (!type.startsWith("image/png"))
        throw new Error(`POST /v1/screenshot: content-type ${type}, expected image/png`);
      const quality = res.headers.get("x-service-quality");
      if (quality && quality !== "full")
        throw new Error(`POST /v1/screenshot: x-service-quality ${quality} (not a full capture)`);
      const size = checkPng(bytes, sc.expect);
      if (sc.wait === "default") checkSamePixels(sc, bytes);
      const serverMs = Number(res.headers.get("x-service-load-time-ms"));
      return {
        ms,
        run,
        bytes: size.bytes,
        height: size.height,
        serverMs:
          Number.isFinite(serverMs) && res.headers.has("x-service-load-time-ms") ? serverMs : null,
        timing: parseServerTiming(res.headers.get("server-timing")),
        autoScrolled: res.headers.get("x-service-auto-scrolled") === "true",
      };
    },

    /**
     * The complete scenario (../scenarios/complete.mjs): page i mod 4 through POST /v1/screenshot
     * with the floor's wait and `fullPage`, its pixels checked as the floor's are.
     */
    async complete(i) {
      const sc = completePage(i);
      const { url, run } = fixtureUrl(fixtureBase, sc.path);
      const body = {
        url,
        ...VIEWPORT,
        format: "png",
        waitUntil: sc.wait,
        fullPage: sc.fullPage,
        blockAds: false,
      };
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/screenshot`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      const ms = performance.now() - t0;
      if (!res.ok) throw httpError("POST /v1/screenshot", res.status, JSON.parse(String(bytes)));
      const serverMs = Number(res.headers.get("x-service-load-time-ms"));
      return {
        ms,
        run,
        page: sc.name,
        serverMs: Number.isFinite(serverMs) ? serverMs : null,
        ...checkComplete(sc, bytes),
      };
    },

    /** Mints one render link and serves it once (the miss), so later GETs are cache hits. */
    async prepareRenderLink() {
      const { url } = fixtureUrl(fixtureBase, "/small.html");
      const body = { url, ...VIEWPORT, format: "png", waitUntil: "load", blockAds: false };
      const res = await fetch(`${base}/v1/render/link`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const json = await readJson(res);
      if (!res.ok) throw httpError("POST /v1/render/link", res.status, json);
      const raw = json?.data?.url;
      if (typeof raw !== "string")
        throw new Error(
          `POST /v1/render/link: no data.url in ${JSON.stringify(json).slice(0, 200)}`,
        );
      const u = new URL(raw, base);
      // Only loopback traffic: the link must point at this wrangler dev, whatever origin it names.
      const local = new URL(base);
      if (!["127.0.0.1", "localhost", "[::1]"].includes(u.hostname)) {
        u.protocol = local.protocol;
        u.host = local.host;
        this.renderLinkRewritten = raw;
      } else {
        u.host = local.host;
      }
      link = u.toString();
      const first = await fetch(link, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const firstBody = Buffer.from(await first.arrayBuffer());
      if (!first.ok) {
        let parsed;
        try {
          parsed = JSON.parse(firstBody.toString("utf8"));
        } catch {
          parsed = {};
        }
        throw httpError("GET /v1/render", first.status, parsed);
      }
      checkPng(firstBody, { width: 1280, height: 800 });
      return { firstCache: first.headers.get("x-service-cache") };
    },

    async renderHit() {
      const t0 = performance.now();
      const res = await fetch(link, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const bytes = Buffer.from(await res.arrayBuffer());
      const ms = performance.now() - t0;
      if (!res.ok)
        throw new Error(`GET /v1/render → ${res.status}: ${bytes.toString("utf8").slice(0, 200)}`);
      const cache = res.headers.get("x-service-cache");
      if (cache !== "hit")
        throw new Error(`GET /v1/render: x-service-cache ${cache}, expected hit`);
      const size = checkPng(bytes, { width: 1280, height: 800 });
      return { ms, bytes: size.bytes };
    },

    async health() {
      const t0 = performance.now();
      const res = await fetch(`${base}/health`, {
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const json = await readJson(res);
      const ms = performance.now() - t0;
      if (!res.ok || json?.status !== "ok")
        throw new Error(`GET /health → ${res.status} ${JSON.stringify(json).slice(0, 120)}`);
      return { ms };
    },

    async fields() {
      const { url } = fixtureUrl(fixtureBase, FIELDS_SCENARIO.path);
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/json`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({
          url,
          waitUntil: "load",
          waitForSelector: FIELDS_SCENARIO.ready,
          fields: FIELDS_SCENARIO.fields,
        }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const json = await readJson(res);
      const ms = performance.now() - t0;
      if (!res.ok) throw httpError("POST /v1/json", res.status, json);
      const items = json?.data?.fields?.items;
      if (!Array.isArray(items) || items.length !== 50 || typeof items[0]?.price !== "number")
        throw new Error(
          `POST /v1/json: ${JSON.stringify(items).slice(0, 200)}, expected 50 typed items`,
        );
      return { ms };
    },

    async extract() {
      const { url } = fixtureUrl(fixtureBase, OTHER_SCENARIOS.extract.path);
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/extract`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ url, extractFormat: "markdown", waitUntil: "load" }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const json = await readJson(res);
      const ms = performance.now() - t0;
      if (!res.ok) throw httpError("POST /v1/extract", res.status, json);
      const content = json?.data?.content;
      const words = typeof content === "string" ? countWords(content) : 0;
      if (words < 1500)
        throw new Error(`POST /v1/extract: ${words} words of content, expected ≈2,000`);
      const serverMs = Number(json?.data?.loadTimeMs);
      return { ms, words, serverMs: Number.isFinite(serverMs) ? serverMs : null };
    },
  };
}

const countWords = (s) => s.split(/\s+/).filter((w) => /\w/.test(w)).length;
