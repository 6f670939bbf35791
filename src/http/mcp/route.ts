/**
 * POST /mcp: the Model Context Protocol server (Streamable HTTP transport), so AI agents can
 * capture and read the web through Edgeshot with the customer's API key (docs/MCP.md).
 *
 * Why the official SDK (`@modelcontextprotocol/sdk`) and its `WebStandardStreamableHTTPServerTransport`:
 * the protocol's framing, version negotiation (`MCP-Protocol-Version`), notifications
 * and the transport's status codes are the spec's moving parts, and the SDK is the reference
 * implementation that follows them, maintained by the protocol's authors. Its web-standard
 * transport takes a `Request` and returns a `Response`, made for Workers — no Node shims. We use
 * the low-level `Server` (not `McpServer`) so tools/list carries our own JSON Schemas (generated
 * from the REST contract's zod schemas, schemas/mcp.ts) and arguments are validated by the same
 * zod code as the REST routes, with the same messages.
 *
 * One JSON-RPC message a POST: a batch (a JSON array) is refused with a JSON-RPC -32600 before
 * anything runs. Protocol 2025-06-18 removed batching, and the rate limit counts POSTs — a batch
 * of tool calls would run many captures for one request of the limit (the SDK accepts up to 100).
 *
 * `Origin`: the transport spec's "servers MUST validate the Origin header" (DNS rebinding, a
 * web page steering a browser at the server). A request whose Origin is not the service's own is
 * 403 before its key is read; a request without one (every MCP client that is not a web page)
 * is served.
 *
 * Stateless: every POST gets a fresh server and transport (no session id, nothing kept between
 * requests), answered as one JSON body (`enableJsonResponse`) rather than an SSE stream — a tool
 * call is one capture, with nothing to stream. GET /mcp is therefore not served (405 with
 * `Allow: POST`, as the transport spec provides for servers that offer no stream); neither is
 * DELETE (no session to end).
 *
 * Authentication and limits are the REST routes': `authenticate()` takes the key from
 * `Authorization: Bearer` and counts this request against the rate limit like any API call —
 * a POST, so the request limit, not the read limit of GETs (the bucket is chosen before the
 * message is read; tools/list and account_usage count there too) —; a tool call then runs the
 * wrapped route's own work, which charges its credits in the pipeline.
 * A missing, unknown or revoked key is a 401 with `WWW-Authenticate: Bearer` (RFC 6750), which
 * is how MCP clients recognise an authentication failure — a revoked key too (REST: 403
 * KEY_DISABLED), with the same code in the body.
 *
 * `Idempotency-Key` is the REST routes' middleware on the whole POST (docs/IDEMPOTENCY.md): the
 * same key with the same body (the JSON-RPC message, its id included) replays the kept answer,
 * uncharged; with another body it is 422 IDEMPOTENCY_KEY_REUSED. So a client that retries a
 * tools/call after a lost answer, sending the same message with the same key, is charged once.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { readRequestBody } from "@modelcontextprotocol/sdk/server/requestBody.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import pkg from "../../../package.json";
import { LIMITS } from "../../../schemas/limits";
import { ApiError, type ErrorCode as ApiErrorCode } from "../../errors";
import { publicOrigin } from "../../storage/hosted";
import { authenticate } from "../middleware/authenticate";
import { idempotent } from "../middleware/idempotency";
import type { AppEnv } from "../types";
import type { ToolContext } from "./tool-kit";
import { callTool, toolList } from "./tools";

const AUTH_FAILURES: readonly ApiErrorCode[] = [
  "MISSING_API_KEY",
  "INVALID_API_KEY",
  "KEY_DISABLED",
];

/** `authenticate()`, its refusals as 401 with the challenge MCP clients look for. */
const authenticateMcp: MiddlewareHandler<AppEnv> = async (c, next) => {
  try {
    await authenticate()(c, next);
  } catch (err) {
    if (!(err instanceof ApiError) || !AUTH_FAILURES.includes(err.code)) throw err;
    const challenge =
      err.code === "MISSING_API_KEY"
        ? 'Bearer realm="edgeshot"'
        : `Bearer realm="edgeshot", error="invalid_token", error_description="${err.message}"`;
    throw new ApiError(err.code, err.message, {
      status: 401,
      headers: { ...err.extraHeaders, "www-authenticate": challenge },
    });
  }
};

/** A JSON-RPC error with no id: how the SDK's transport answers a POST it refuses whole. */
function jsonRpcRefusal(status: 400 | 403, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}

function ownOrigins(env: Env, requestUrl: string): string[] {
  const own = [new URL(requestUrl).origin];
  try {
    own.push(new URL(publicOrigin(env, requestUrl)).origin);
  } catch {
    // PUBLIC_BASE_URL unset or not a URL: the request's origin is the service's.
  }
  return own;
}

/**
 * The transport spec's Origin check: present and not ours (the request's origin, or the public
 * one PUBLIC_BASE_URL names) is 403. Absent is served: MCP clients outside a browser send none.
 */
const ownOriginOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header("origin");
  if (origin !== undefined && !ownOrigins(c.env, c.req.url).includes(origin)) {
    c.set("errorCode", "FORBIDDEN");
    return jsonRpcRefusal(
      403,
      ErrorCode.InvalidRequest,
      `Forbidden: Origin ${origin} is not allowed.`,
    );
  }
  await next();
};

/**
 * The POST's JSON, read from a copy of the body as the SDK's transport reads it (same cap, same
 * decoding). Undefined when it cannot be read or parsed: the transport then answers that itself
 * (413, -32700) from the untouched body.
 */
async function sentMessage(req: Request): Promise<unknown> {
  try {
    const body = await readRequestBody(req.clone(), LIMITS.bodyBytes);
    return body.tooLarge ? undefined : JSON.parse(body.text);
  } catch {
    return undefined;
  }
}

/**
 * A tools/call's `arguments` as sent. The SDK's schema drops an own `__proto__` key from them
 * (zod's record), which would turn `{"__proto__": …}` into a silently ignored field; our tool
 * schemas refuse it by name, as the REST routes do, when they see the arguments as sent.
 */
function sentArguments(message: unknown): Record<string, unknown> | undefined {
  if (!isObject(message) || message.method !== "tools/call" || !isObject(message.params)) {
    return undefined;
  }
  const args = message.params.arguments;
  return isObject(args) ? args : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const INSTRUCTIONS =
  "Edgeshot renders web pages in a real Chromium. Use read_page to read what a page says (Markdown), screenshot to see what it looks like, page_content for a non-article page's text or HTML, scrape for the elements a CSS selector matches, links for where a page leads, pdf for a printable document, render_link for an <img> URL that renders on view, map to list a site's URLs, crawl_start then crawl_status to read many pages of a site, monitor_create then monitor_changes to watch a site for changes (monitor_check checks now), account_usage for credits left. Captures cost credits; only public http(s) pages can be loaded.";

/**
 * A server for one request: the tools, run for this request's caller. `sent`: the arguments of
 * the POST's one message as sent (a POST carries one message: batches are refused).
 */
function mcpServer(ctx: ToolContext, sent: Record<string, unknown> | undefined): Server {
  const server = new Server(
    { name: "edgeshot", title: "Edgeshot", version: pkg.version },
    {
      capabilities: { tools: {} },
      instructions: INSTRUCTIONS,
      // The default (Ajv) compiles validators with `new Function`, which Workers refuse.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const result = await callTool(ctx, name, sent ?? args);
    // An unknown tool is the one protocol fault a call can make (the spec's -32602).
    if (!result) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return result;
  });
  return server;
}

export const mcpRoutes = new Hono<AppEnv>().post(
  "/mcp",
  ownOriginOnly,
  authenticateMcp,
  idempotent(),
  async (c) => {
    const message = await sentMessage(c.req.raw);
    if (Array.isArray(message)) {
      c.set("errorCode", "VALIDATION_ERROR");
      return jsonRpcRefusal(
        400,
        ErrorCode.InvalidRequest,
        "Invalid Request: JSON-RPC batches are not supported (removed in protocol 2025-06-18); send one message per POST.",
      );
    }
    const server = mcpServer(
      {
        env: c.env,
        auth: c.get("auth"),
        origin: publicOrigin(c.env, c.req.url),
        requestId: c.get("requestId"),
      },
      sentArguments(message),
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: LIMITS.bodyBytes,
    });
    await server.connect(transport);
    try {
      // The message already parsed is handed over; unparsed, the transport reads and refuses it.
      return await transport.handleRequest(
        c.req.raw,
        message === undefined ? undefined : { parsedBody: message },
      );
    } finally {
      // The JSON answer is complete once handleRequest resolves: nothing is left to send.
      await server.close();
    }
  },
);
