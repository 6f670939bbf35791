/** Helpers for integration tests: call the worker through its own fetch handler. */
import { env, exports } from "cloudflare:workers";
import { checkContract } from "./contract";

export const BASE = "https://edgeshot.test";
/** The fixture server's origin (set per run in vitest.config.ts). */
export const FIXTURES = (env as unknown as { FIXTURE_ORIGIN: string }).FIXTURE_ORIGIN;
/**
 * The fixture server under a host name, as production reaches every page: the DoH fake calls
 * `public.rebind.example.com` public and the test browser maps `*.rebind.example.com` to
 * 127.0.0.1 (scripts/setup-browser.mjs), whose fixture port is allowlisted.
 */
export const FIXTURES_BY_NAME = FIXTURES.replace("127.0.0.1", "public.rebind.example.com");
/** A second allowlisted loopback origin (same server port + 1 when a test starts one). */
export const FIXTURES_ALT = FIXTURES.replace(/:(\d+)$/, (_, p: string) => `:${Number(p) + 1}`);

/** The worker's answer, checked against the OpenAPI document (./contract.ts). */
export async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const request = new Request(`${BASE}${path}`, init);
  const { method, url } = request;
  const response = await exports.default.fetch(request);
  await checkContract(method, url, response);
  return response;
}

export function postJson(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return call(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data?: T;
  error?: {
    code: string;
    message: string;
    details?: Array<{ path: string; message: string }>;
    docs: string;
  };
  meta: {
    requestId: string;
    timestamp: string;
    usage?: { credits: number; remaining: number | null };
  };
}

export async function envelope<T = Record<string, unknown>>(res: Response): Promise<Envelope<T>> {
  return (await res.json()) as Envelope<T>;
}

/** A unique token to tag fixture URLs with, so a test reads back only its own requests. */
export function runId(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  body: string;
  /** When the fixture server received it (ms since the epoch). */
  at: number;
}

export async function fixtureLog(run: string, origin = FIXTURES): Promise<LoggedRequest[]> {
  const res = await fetch(`${origin}/__log?run=${run}`);
  return (await res.json()) as LoggedRequest[];
}

/** The canary: a recording server the URL guard does NOT allow. Any hit is a guard bypass. */
export const CANARY = FIXTURES.replace(/:(\d+)$/, (_, p: string) => `:${Number(p) + 3}`);

export function canaryLog(run: string): Promise<LoggedRequest[]> {
  return fixtureLog(run, CANARY);
}

/** One MCP `tools/call` through POST /mcp (stateless: no initialize needed), as `auth`. */
export function mcpToolCall(
  auth: Record<string, string>,
  name: string,
  args: Record<string, unknown>,
): Promise<Response> {
  return call("/mcp", {
    method: "POST",
    headers: {
      ...auth,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: args },
    }),
  });
}
