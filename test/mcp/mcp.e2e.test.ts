/**
 * End to end: the official MCP client (`Client` + `StreamableHTTPClientTransport`) against the
 * shared `wrangler dev`, as an agent's host would connect to POST /mcp with a customer's key.
 */
import { Validator } from "@cfworker/json-schema";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_SECRETS } from "../../vitest.config";
import {
  CRAWL_SITE_ORIGIN as SITE,
  FIXTURE_ORIGIN,
  sharedService,
  type Service,
} from "../helpers/e2e";
import { decodeImage, near, sniff } from "../helpers/images";

let service: Service;
let account: { accountId: string; apiKey: string; keyId: string };
let client: Client;

async function newAccount(plan = "pro"): Promise<typeof account> {
  const res = await fetch(`${service.base}/admin/accounts`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${TEST_SECRETS.ADMIN_TOKEN}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ plan }),
  });
  return ((await res.json()) as { data: typeof account }).data;
}

async function connect(apiKey: string): Promise<Client> {
  const c = new Client({ name: "edgeshot-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${service.base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  await c.connect(transport);
  return c;
}

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
  })) as CallToolResult;
}

const textOf = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");

/** A screenshot call that must succeed: the image shown, decoded, and the result. */
async function screenshot(args: Record<string, unknown>) {
  const res = await call("screenshot", { deviceScaleFactor: 1, waitUntil: "load", ...args });
  expect(res.isError, textOf(res)).toBeFalsy();
  const image = res.content.find((c) => c.type === "image");
  if (image?.type !== "image") throw new Error("no image");
  return { res, image, img: decodeImage(Buffer.from(image.data, "base64")) };
}

async function creditsUsed(apiKey: string): Promise<number> {
  const res = await fetch(`${service.base}/v1/account`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  return ((await res.json()) as { data: { usage: { used: number } } }).data.usage.used;
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "curl", version: "1" },
  },
});
const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

beforeAll(async () => {
  service = sharedService();
  account = await newAccount();
  client = await connect(account.apiKey);
});
afterAll(async () => {
  await client?.close();
});

describe("MCP over Streamable HTTP against wrangler dev", () => {
  it("initializes: server info, tools capability, instructions", () => {
    expect(client.getServerVersion()?.name).toBe("edgeshot");
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/read_page/);
  });

  it("tools/list: each input schema is valid JSON Schema and accepts a good call", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "account_usage",
        "crawl_start",
        "crawl_status",
        "links",
        "map",
        "monitor_changes",
        "monitor_check",
        "monitor_create",
        "monitor_list",
        "page_content",
        "pdf",
        "read_page",
        "record_page",
        "render_link",
        "scrape",
        "screenshot",
        "structured_data",
      ].sort(),
    );
    const good: Record<string, Record<string, unknown>> = {
      screenshot: { url: "https://example.com", fullPage: true, width: 800 },
      pdf: { url: "https://example.com", pdfFormat: "Letter" },
      read_page: { url: "https://example.com", timeout: 20 },
      render_link: { url: "https://example.com", expiresIn: 3600 },
      record_page: { url: "https://example.com", format: "gif", duration: 3, fps: 10 },
      account_usage: {},
      page_content: { url: "https://example.com", contentFormat: "text" },
      scrape: { url: "https://example.com", elements: [{ selector: "h1" }] },
      structured_data: {
        url: "https://example.com",
        fields: { rows: { selector: "tr", list: true, fields: { n: { selector: "td" } } } },
        kind: "auto",
      },
      links: { html: "<a href=/x>x</a>", internalOnly: true },
      crawl_start: { url: "https://example.com", limit: 5, scope: "path", formats: ["markdown"] },
      crawl_status: { crawlId: "00000000-0000-4000-8000-000000000000", cursor: "20" },
      map: { url: "https://example.com", sitemap: "skip", limit: 50 },
      monitor_create: {
        url: "https://example.com",
        limit: 5,
        schedule: { cron: "0 6 * * 1-5" },
        fields: [{ name: "price", selector: ".price" }],
        ignore: [".ad"],
      },
      monitor_check: { monitorId: "00000000-0000-4000-8000-000000000000" },
      monitor_changes: { monitorId: "m", checkId: "c", status: "changed", cursor: "20" },
      monitor_list: { status: "active" },
    };
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.inputSchema.additionalProperties).toBe(false);
      expect(t.description?.length ?? 0).toBeGreaterThan(100);
      expect(t.annotations?.openWorldHint).toBeTypeOf("boolean");
      expect(t.annotations?.readOnlyHint).toBeTypeOf("boolean");
      const validator = new Validator(t.inputSchema as never, "2020-12", false);
      expect(validator.validate(good[t.name]).valid, t.name).toBe(true);
      expect(validator.validate({ ...good[t.name], nope: 1 }).valid, t.name).toBe(false);
    }
    const shot = tools.find((t) => t.name === "screenshot")!;
    const props = shot.inputSchema.properties as Record<string, { maximum?: number }>;
    expect(props.width?.maximum).toBe(3840); // the REST contract's bound, not a copy
    expect(Object.keys(props)).not.toContain("async");
  });

  it("screenshot returns the page as an image with the right pixels, facts and a full-size link", async () => {
    const { res, image, img } = await screenshot({
      url: `${FIXTURE_ORIGIN}/boxes.html?run=mcp-shot`,
      width: 400,
      height: 300,
    });
    expect(image.mimeType).toBe("image/png");
    expect([img.width, img.height]).toEqual([400, 300]);
    expect(img.pixel(10, 10)).toEqual([255, 0, 0]);
    expect(textOf(res)).toContain(`URL: ${FIXTURE_ORIGIN}/boxes.html?run=mcp-shot`);
    expect(textOf(res)).toMatch(/Full size: 400×300 png/);
    const link = res.content.find((c) => c.type === "resource_link");
    if (link?.type !== "resource_link") throw new Error("no resource link");
    const full = await fetch(link.uri);
    expect(full.status).toBe(200);
    expect(sniff(new Uint8Array(await full.arrayBuffer()))).toBe("png");
  });

  it("screenshot larger than a model's eyes is scaled to a long edge of 1,568 px", async () => {
    const { res, img } = await screenshot({
      url: `${FIXTURE_ORIGIN}/boxes.html?run=mcp-big`,
      width: 1600,
      height: 1000,
    });
    expect(Math.max(img.width, img.height)).toBeLessThanOrEqual(1568);
    expect(img.width).toBe(1568);
    expect(near(img.pixel(10, 10), [255, 0, 0])).toBe(true);
    expect(textOf(res)).toMatch(/Full size: 1600×1000 png/);
    expect(textOf(res)).toMatch(/Shown scaled to 1568×98\d/);
  });

  it("pdf returns a hosted PDF link and its page count", async () => {
    const res = await call("pdf", { url: `${FIXTURE_ORIGIN}/article?words=1500&run=mcp-pdf` });
    expect(res.isError, textOf(res)).toBeFalsy();
    const link = res.content.find((c) => c.type === "resource_link");
    if (link?.type !== "resource_link") throw new Error("no resource link");
    expect(link.mimeType).toBe("application/pdf");
    const bytes = new Uint8Array(await (await fetch(link.uri)).arrayBuffer());
    const pages = (await getDocumentProxy(bytes)).numPages;
    expect(pages).toBeGreaterThan(1);
    expect(textOf(res)).toContain(`PDF: ${pages} pages`);
  });

  it("read_page returns the fixture article as Markdown with title and byline", async () => {
    const res = await call("read_page", {
      url: `${FIXTURE_ORIGIN}/article?words=400&run=mcp-read`,
    });
    expect(res.isError, textOf(res)).toBeFalsy();
    const text = textOf(res);
    expect(text).toMatch(/^# A Long Article/);
    expect(text).toContain("By Ada Lovelace");
    expect(text.length).toBeGreaterThan(1500);
  });

  it("page_content, scrape, structured_data and links answer the quick actions' data", async () => {
    const article = `${FIXTURE_ORIGIN}/article?words=300&run=mcp-content`;
    const content = await call("page_content", { url: article, contentFormat: "text" });
    expect(content.isError, textOf(content)).toBeFalsy();
    expect(textOf(content)).toContain("A Long Article");
    expect(textOf(content)).toContain("By Ada Lovelace");
    const html = `<h1>Prices</h1><ul><li class="p" data-sku="a1">3 €</li><li class="p" data-sku="b2">5 €</li></ul>
      <a href="https://example.com/next">Next page</a><a href="mailto:x@example.com">Mail</a>`;
    const scraped = await call("scrape", {
      html,
      elements: [{ selector: "li.p", attributes: ["data-sku"] }],
    });
    expect(scraped.isError, textOf(scraped)).toBeFalsy();
    const { results } = scraped.structuredContent as {
      results: Array<{ matches: Array<{ text: string; attributes: Record<string, string> }> }>;
    };
    expect(results[0]?.matches.map((m) => [m.text, m.attributes["data-sku"]])).toEqual([
      ["3 €", "a1"],
      ["5 €", "b2"],
    ]);
    const structured = await call("structured_data", {
      html,
      fields: { prices: { selector: "li.p", list: true, type: "number" } },
    });
    expect(structured.isError, textOf(structured)).toBeFalsy();
    expect(structured.structuredContent).toEqual({ fields: { prices: [3, 5] } });
    const links = await call("links", { html, includeNonHttp: true });
    expect(links.isError, textOf(links)).toBeFalsy();
    expect(textOf(links)).toContain("- https://example.com/next — Next page (external)");
    expect(textOf(links)).toContain("mailto:x@example.com");
  });

  it("scrape: a failed load is the tool error links gives, naming the field; nothing charged", async () => {
    const before = await creditsUsed(account.apiKey);
    const res = await call("scrape", {
      html: "<p>x</p>",
      waitForSelector: "#never",
      timeout: 5,
      elements: [{ selector: "p" }],
    });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe(
      "CAPTURE_FAILED: The specified element was not found.\n" +
        '- waitForSelector: No element matches "#never".',
    );
    expect(await creditsUsed(account.apiKey)).toBe(before);
  });

  it("render_link mints a signed render URL that serves the image", async () => {
    const res = await call("render_link", {
      url: `${FIXTURE_ORIGIN}/boxes.html?run=mcp-link`,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
    });
    expect(res.isError, textOf(res)).toBeFalsy();
    const url = /^(http\S+\/v1\/render\?\S+)$/m.exec(textOf(res))?.[1];
    expect(url).toBeDefined();
    const img = await fetch(url!);
    expect(img.status).toBe(200);
    expect(decodeImage(new Uint8Array(await img.arrayBuffer())).pixel(10, 10)).toEqual([255, 0, 0]);
  });

  it("account_usage answers the account summary without the webhook secret", async () => {
    const res = await call("account_usage", {});
    expect(res.isError).toBeFalsy();
    const data = res.structuredContent as { plan: string; usage: { used: number } };
    expect(data.plan).toBe("pro");
    expect(data.usage.used).toBeGreaterThan(0);
    expect(textOf(res)).not.toMatch(/whsec_|signingSecret/);
  });

  it("a bad argument is a tool error naming the field", async () => {
    const res = await call("screenshot", { url: `${FIXTURE_ORIGIN}/boxes.html`, width: 5 });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(
      /^VALIDATION_ERROR: Invalid request: width: Must be at least 320\./,
    );
    expect(textOf(res)).toMatch(/- width: /);
    const unknown = await call("read_page", { url: `${FIXTURE_ORIGIN}/article`, format: "png" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/VALIDATION_ERROR.*format/);
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("private and internal addresses are refused by the URL guard", async () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/",
      "http://localhost:8787/",
    ]) {
      for (const name of ["screenshot", "read_page", "render_link", "page_content", "links"]) {
        const res = await call(name, { url });
        expect(res.isError, `${name} ${url}`).toBe(true);
        expect(textOf(res), `${name} ${url}`).toMatch(/^INVALID_URL: /);
      }
    }
  });

  it("charges exactly what the REST route charges", async () => {
    const fresh = await newAccount();
    const c = await connect(fresh.apiKey);
    try {
      const page = `${FIXTURE_ORIGIN}/boxes.html?run=mcp-credits`;
      const shot = { url: page, width: 320, height: 240, deviceScaleFactor: 1, waitUntil: "load" };
      const article = { url: `${FIXTURE_ORIGIN}/article?words=300&run=mcp-credits` };
      const rest = (path: string, body: unknown) =>
        fetch(`${service.base}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${fresh.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const used = () => creditsUsed(fresh.apiKey);
      const spent: Record<string, number> = {};
      const measure = async (what: string, run: () => Promise<unknown>) => {
        const before = await used();
        await run();
        spent[what] = (await used()) - before;
      };
      await measure("tool screenshot", () => c.callTool({ name: "screenshot", arguments: shot }));
      await measure("rest screenshot", async () =>
        (await rest("/v1/screenshot", shot)).arrayBuffer(),
      );
      await measure("tool read_page", () => c.callTool({ name: "read_page", arguments: article }));
      await measure("rest extract", async () => (await rest("/v1/extract", article)).json());
      await measure("tool page_content", () =>
        c.callTool({ name: "page_content", arguments: article }),
      );
      await measure("rest content", async () => (await rest("/v1/content", article)).text());
      await measure("tool failing", () =>
        c.callTool({ name: "screenshot", arguments: { url: "http://10.0.0.1/" } }),
      );
      await measure("tool render_link", () => c.callTool({ name: "render_link", arguments: shot }));
      await measure("tool account_usage", () =>
        c.callTool({ name: "account_usage", arguments: {} }),
      );
      expect(spent).toEqual({
        "tool screenshot": 1,
        "rest screenshot": 1,
        "tool read_page": 1,
        "rest extract": 1,
        "tool page_content": 1,
        "rest content": 1,
        "tool failing": 0,
        "tool render_link": 0,
        "tool account_usage": 0,
      });
    } finally {
      await c.close();
    }
  });

  it("no key, an unknown key or a revoked key: 401 with WWW-Authenticate", async () => {
    const none = await fetch(`${service.base}/mcp`, {
      method: "POST",
      headers: MCP_HEADERS,
      body: initialize,
    });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer realm="edgeshot"/);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("MISSING_API_KEY");

    const revoked = await newAccount();
    const res = await fetch(`${service.base}/admin/keys/${revoked.keyId}/revoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_SECRETS.ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(200);
    for (const key of [revoked.apiKey, `svc_${"A".repeat(43)}`]) {
      const refused = await fetch(`${service.base}/mcp`, {
        method: "POST",
        headers: { ...MCP_HEADERS, authorization: `Bearer ${key}` },
        body: initialize,
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    }
    await expect(connect(revoked.apiKey)).rejects.toThrow();
  });

  it("a curl-style initialize POST gets a JSON answer; GET is 405", async () => {
    const res = await fetch(`${service.base}/mcp`, {
      method: "POST",
      headers: { ...MCP_HEADERS, authorization: `Bearer ${account.apiKey}` },
      body: initialize,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body = (await res.json()) as { result: { protocolVersion: string } };
    expect(body.result.protocolVersion).toBe("2025-06-18");
    const get = await fetch(`${service.base}/mcp`, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${account.apiKey}` },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});

describe("what POST /mcp refuses before anything runs", () => {
  /** Fixture requests tagged with `run`: what a capture of it would have fetched. */
  const fetched = async (run: string) =>
    ((await (await fetch(`${FIXTURE_ORIGIN}/__log?run=${run}`)).json()) as unknown[]).length;
  const toolCall = (id: number, name: string, args: Record<string, unknown> | string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${
      typeof args === "string" ? args : JSON.stringify(args)
    }}}`;
  const post = (apiKey: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${service.base}/mcp`, {
      method: "POST",
      headers: {
        ...MCP_HEADERS,
        authorization: `Bearer ${apiKey}`,
        "mcp-protocol-version": "2025-06-18",
        ...headers,
      },
      body,
    });
  interface RpcError {
    jsonrpc: string;
    id: null;
    error: { code: number; message: string };
  }

  it("a JSON-RPC batch of tool calls is refused whole: no capture, no credit", async () => {
    const free = await newAccount("free");
    const run = `mcp-batch-${Date.now()}`;
    const calls = Array.from({ length: 6 }, (_, i) =>
      toolCall(i + 1, "read_page", { url: `${FIXTURE_ORIGIN}/article?words=50&run=${run}&i=${i}` }),
    );
    const res = await post(free.apiKey, `[${calls.join(",")}]`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await res.json()) as RpcError;
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(body.error.message).toMatch(/batch/i);
    // A batch of one, or of an initialize, is no different: one message a POST.
    for (const one of [`[${calls[0]}]`, `[${initialize}]`]) {
      expect((await post(free.apiKey, one)).status).toBe(400);
    }
    expect(await fetched(run)).toBe(0);
    expect(await creditsUsed(free.apiKey)).toBe(0);
  });

  it("an Origin that is not ours is 403 and runs nothing; our own origin is served", async () => {
    const fresh = await newAccount();
    const run = `mcp-origin-${Date.now()}`;
    const read = toolCall(1, "read_page", { url: `${FIXTURE_ORIGIN}/article?words=50&run=${run}` });
    for (const origin of ["https://evil.example", "null", `${service.base}.evil.example`]) {
      const res = await post(fresh.apiKey, read, { origin });
      expect(res.status, origin).toBe(403);
      const body = (await res.json()) as RpcError;
      expect(body, origin).toMatchObject({ jsonrpc: "2.0", id: null });
      expect(body.error.message, origin).toMatch(/Origin/);
    }
    expect((await post(fresh.apiKey, initialize, { origin: "https://evil.example" })).status).toBe(
      403,
    );
    expect(await fetched(run)).toBe(0);
    expect(await creditsUsed(fresh.apiKey)).toBe(0);

    const own = await post(fresh.apiKey, initialize, { origin: new URL(service.base).origin });
    expect(own.status).toBe(200);
    expect(
      ((await own.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name,
    ).toBe("edgeshot");
  });

  it("__proto__ in tool arguments is refused naming the field, as REST refuses it", async () => {
    const fresh = await newAccount();
    const run = `mcp-proto-${Date.now()}`;
    const url = `${FIXTURE_ORIGIN}/article?words=50&run=${run}`;
    const cases: Array<[string, string, string]> = [
      ["read_page", `{"url":"${url}","__proto__":{"timeout":5}}`, "__proto__"],
      ["screenshot", `{"__proto__":{"fullPage":true},"url":"${url}"}`, "__proto__"],
      ["read_page", `{"url":"${url}","constructor":{"prototype":{"polluted":1}}}`, "constructor"],
      ["read_page", `{"url":"${url}","prototype":{"polluted":1}}`, "prototype"],
      [
        "scrape",
        `{"url":"${url}","elements":[{"selector":"h1","__proto__":{"all":true}}]}`,
        "elements[0].__proto__",
      ],
    ];
    for (const [name, args, field] of cases) {
      const res = await post(fresh.apiKey, toolCall(1, name, args));
      expect(res.status, field).toBe(200);
      const { result } = (await res.json()) as { result: CallToolResult };
      expect(result.isError, `${name} ${field}: ${textOf(result)}`).toBe(true);
      expect(textOf(result)).toMatch(/^VALIDATION_ERROR: Invalid request: /);
      expect(textOf(result)).toContain(`- ${field}: Unknown field.`);
    }
    expect(await fetched(run)).toBe(0);
    expect(await creditsUsed(fresh.apiKey)).toBe(0);
  });
});

describe("Idempotency-Key on POST /mcp", () => {
  it("a retried tools/call with the same key is replayed, not run or charged again", async () => {
    const fresh = await newAccount();
    const headers = {
      ...MCP_HEADERS,
      authorization: `Bearer ${fresh.apiKey}`,
      "mcp-protocol-version": "2025-06-18",
      "idempotency-key": `mcp-${Date.now()}`,
    };
    const message = (id: number) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: {
          name: "read_page",
          arguments: { url: `${FIXTURE_ORIGIN}/article?words=300&run=mcp-idem` },
        },
      });
    const post = (body: string) => fetch(`${service.base}/mcp`, { method: "POST", headers, body });
    const before = await creditsUsed(fresh.apiKey);
    const first = await post(message(7));
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    expect(firstBody).toContain("A Long Article");
    const again = await post(message(7));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect((await creditsUsed(fresh.apiKey)) - before).toBe(1);
    const other = await post(message(8));
    expect(other.status).toBe(422);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe(
      "IDEMPOTENCY_KEY_REUSED",
    );
  });
});

describe("crawl_start, crawl_status and map", () => {
  interface Status {
    crawlId: string;
    status: string;
    counts: { rendered: number; skipped: number; failed: number; queued: number };
    creditsUsed: number;
    nextCursor: string | null;
    results: Array<{ url: string; status: string; reason?: string }>;
  }
  /** A crawl of the home page alone: 1 render, every link it holds skipped for depth. */
  const homeOnly = { url: `${SITE}/`, limit: 1, maxDepth: 0, sitemap: "skip", waitUntil: "load" };

  async function status(c: Client, args: Record<string, unknown>) {
    const res = (await c.callTool({ name: "crawl_status", arguments: args })) as CallToolResult;
    expect(res.isError, textOf(res)).toBeFalsy();
    return { res, data: res.structuredContent as unknown as Status };
  }
  /** crawl_status until the crawl is no longer queued or running. */
  async function finished(c: Client, crawlId: string) {
    const deadline = Date.now() + 100_000;
    for (;;) {
      const { data } = await status(c, { crawlId });
      if (!["queued", "running"].includes(data.status)) return data;
      if (Date.now() > deadline) throw new Error(`crawl ${crawlId} still ${data.status}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  it("a crawl started and read back through the tools, every result by cursor", async () => {
    const started = await call("crawl_start", homeOnly);
    expect(started.isError, textOf(started)).toBeFalsy();
    const { crawlId } = started.structuredContent as { crawlId: string };
    expect(textOf(started)).toContain(`crawl_status and crawlId "${crawlId}"`);
    const done = await finished(client, crawlId);
    expect([done.status, done.counts.rendered, done.creditsUsed]).toEqual(["completed", 1, 1]);
    const total = done.counts.rendered + done.counts.skipped + done.counts.failed;
    expect(total).toBeGreaterThan(10); // more than one call's worth: the cursor is needed

    const seen: Status["results"] = [];
    let cursor: string | undefined;
    let texts = "";
    for (let calls = 0; calls < 10; calls++) {
      const { res, data } = await status(client, { crawlId, ...(cursor ? { cursor } : {}) });
      expect(data.results.length).toBeLessThanOrEqual(10);
      seen.push(...data.results);
      texts += textOf(res);
      if (data.nextCursor === null) break;
      expect(textOf(res)).toContain(`cursor "${data.nextCursor}"`);
      cursor = data.nextCursor;
    }
    expect(seen.length).toBe(total);
    expect(new Set(seen.map((r) => r.url)).size).toBe(total);
    expect(seen.filter((r) => r.status === "rendered").map((r) => r.url)).toEqual([`${SITE}/`]);
    expect(seen.filter((r) => r.reason === "depth").map((r) => r.url)).toContain(`${SITE}/about`);
    expect(texts).toContain(`## ${SITE}/ — rendered, depth 0`);
    expect(texts).toContain("The home page of the crawl fixture site.");
    expect(texts).toContain(`## ${SITE}/about — skipped: depth, depth 1`);
    expect(texts).toContain("That is the last result.");
  });

  it("map returns the site's URLs with where each was found", async () => {
    const res = await call("map", { url: `${SITE}/` });
    expect(res.isError, textOf(res)).toBeFalsy();
    const data = res.structuredContent as { urls: Array<{ url: string; source: string }> };
    const by = (source: string) => data.urls.filter((u) => u.source === source).map((u) => u.url);
    expect(by("sitemap")).toEqual(expect.arrayContaining([`${SITE}/orphan`, `${SITE}/orphan-gz`]));
    expect(by("links")).toEqual(expect.arrayContaining([`${SITE}/cycle/a`, `${SITE}/slow`]));
    expect(by("links")).not.toContain(`${SITE}/private/secret`);
    expect(textOf(res)).toContain(`- ${SITE}/orphan (sitemap)`);
    expect(textOf(res)).toMatch(/Credits: 1 spent/);
  });

  it("bad arguments, a private start URL and an unknown crawl are tool errors with the code", async () => {
    const bad = await call("crawl_start", { ...homeOnly, limit: 0, maxDepth: 99 });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^VALIDATION_ERROR: /);
    expect(textOf(bad)).toMatch(/- limit: /);
    expect(textOf(bad)).toMatch(/- maxDepth: /);
    const glob = await call("map", { url: `${SITE}/`, include: ["no-slash"] });
    expect(textOf(glob)).toMatch(/- include\[0\]: Must start with \/ or \*\./);
    for (const name of ["crawl_start", "map"]) {
      const res = await call(name, { url: "http://10.0.0.1/" });
      expect(res.isError, name).toBe(true);
      expect(textOf(res), name).toMatch(/^INVALID_URL: /);
    }
    const unknown = await call("crawl_status", { crawlId: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^CRAWL_NOT_FOUND: /);
    const cursor = await call("crawl_status", { crawlId: "x", cursor: "0" });
    expect(textOf(cursor)).toMatch(/- cursor: Invalid cursor\./);
  });

  it("charges exactly what POST /v1/crawl and POST /v1/map charge", async () => {
    const fresh = await newAccount();
    const c = await connect(fresh.apiKey);
    const headers = { authorization: `Bearer ${fresh.apiKey}`, "content-type": "application/json" };
    const rest = async <T>(method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return ((await res.json()) as { data: T }).data;
    };
    try {
      const spent: Record<string, number> = {};
      const measure = async (what: string, run: () => Promise<unknown>) => {
        const before = await creditsUsed(fresh.apiKey);
        await run();
        spent[what] = (await creditsUsed(fresh.apiKey)) - before;
      };
      await measure("tool crawl", async () => {
        const started = (await c.callTool({ name: "crawl_start", arguments: homeOnly })) as {
          structuredContent?: { crawlId?: string };
        };
        await finished(c, started.structuredContent?.crawlId ?? "");
      });
      await measure("rest crawl", async () => {
        const { crawlId } = await rest<{ crawlId: string }>("POST", "/v1/crawl", homeOnly);
        for (let i = 0; i < 200; i++) {
          const view = await rest<{ status: string }>("GET", `/v1/crawl/${crawlId}`);
          if (!["queued", "running"].includes(view.status)) return;
          await new Promise((r) => setTimeout(r, 500));
        }
      });
      const map = { url: `${SITE}/`, sitemap: "skip", limit: 5 };
      await measure("tool map", () => c.callTool({ name: "map", arguments: map }));
      await measure("rest map", () => rest("POST", "/v1/map", map));
      await measure("tool crawl_status", () =>
        c.callTool({ name: "crawl_status", arguments: { crawlId: "nope" } }),
      );
      expect(spent).toEqual({
        "tool crawl": 1,
        "rest crawl": 1,
        "tool map": 1,
        "rest map": 1,
        "tool crawl_status": 0,
      });
    } finally {
      await c.close();
    }
  });
});

describe("monitor_create, monitor_check, monitor_changes and monitor_list", () => {
  const run = `mcp-mon-${Date.now()}`;
  /** The monitor fixture site (test/fixtures/monitor-site.ts): /text's price is 10, then 12. */
  const SITE_MON = `${FIXTURE_ORIGIN}/mon/${run}/`;
  const PRICING = `${SITE_MON}text`;
  interface Changes {
    check: { checkId: string; status: string; creditsUsed: number; counts: object } | null;
    pages: Array<{ url: string; status: string; diffUrl?: string }>;
  }

  async function setVersion(version: number): Promise<void> {
    const res = await fetch(`${FIXTURE_ORIGIN}/__monitor`, {
      method: "POST",
      body: JSON.stringify({ run, version }),
    });
    expect(res.status).toBe(200);
  }
  async function tool(c: Client, name: string, args: Record<string, unknown>) {
    return (await c.callTool({ name, arguments: args }, undefined, {
      timeout: 120_000,
    })) as CallToolResult;
  }
  /** monitor_changes until it tells a completed check (the given one, else the latest). */
  async function completed(c: Client, args: Record<string, unknown>) {
    const deadline = Date.now() + 150_000;
    for (;;) {
      const res = await tool(c, "monitor_changes", args);
      expect(res.isError, textOf(res)).toBeFalsy();
      const data = res.structuredContent as unknown as Changes;
      if (data.check === null) expect(textOf(res)).toContain("no completed check yet");
      if (data.check?.status === "completed") return { res, data };
      if (Date.now() > deadline) throw new Error(`no completed check: ${textOf(res)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  it("a one-page monitor: its baseline, a change checked now, the words and the field told", async () => {
    const fresh = await newAccount();
    const c = await connect(fresh.apiKey);
    try {
      await setVersion(1);
      const settings = {
        url: PRICING,
        name: "Pricing",
        maxDepth: 0,
        sitemap: "skip",
        ignore: [".nav"],
        fields: [{ name: "price", selector: ".price" }],
      };
      const dry = await tool(c, "monitor_create", { ...settings, dryRun: true });
      expect(dry.isError, textOf(dry)).toBeFalsy();
      expect(textOf(dry)).toContain("Dry run: nothing created, nothing charged.");
      expect(textOf(dry)).toContain(`- ${PRICING}`);

      const created = await tool(c, "monitor_create", settings);
      expect(created.isError, textOf(created)).toBeFalsy();
      const { monitorId, feedUrl } = created.structuredContent as {
        monitorId: string;
        feedUrl: string;
      };
      expect(textOf(created)).toContain(`Monitor ${monitorId} "Pricing" of ${PRICING}: active.`);
      expect(textOf(created)).toContain("Schedule: every 1,440 minutes;");
      expect(textOf(created)).toContain("compares visual, text, fields; fields: price");
      expect(textOf(created)).toContain(`Atom feed of its changes (no key needed): ${feedUrl}`);
      expect(textOf(created)).toContain(`Call monitor_changes with monitorId "${monitorId}"`);

      // The first check runs by itself (due at creation) and sets the baseline.
      const first = await completed(c, { monitorId });
      expect(first.data.check).toMatchObject({ creditsUsed: 1, counts: { new: 1, changed: 0 } });
      expect(textOf(first.res)).toContain("This check set the baseline");
      expect(textOf(first.res)).toMatch(new RegExp(`## ${PRICING} — new\nScreenshot: http\\S+`));

      // The price changes; a check now, and a second one refused while it runs.
      await setVersion(2);
      const started = await tool(c, "monitor_check", { monitorId });
      expect(started.isError, textOf(started)).toBeFalsy();
      const { checkId } = started.structuredContent as { checkId: string };
      expect(textOf(started)).toContain(`monitorId "${monitorId}" and checkId "${checkId}"`);
      const again = await tool(c, "monitor_check", { monitorId });
      expect(again.isError).toBe(true);
      expect(textOf(again)).toMatch(/^CHECK_IN_PROGRESS: /);

      const second = await completed(c, { monitorId, checkId });
      expect(second.data.check).toMatchObject({
        checkId,
        creditsUsed: 1,
        counts: { new: 0, removed: 0, changed: 1, unchanged: 0, failed: 0 },
      });
      const told = textOf(second.res);
      expect(told).toContain(`## ${PRICING} — changed`);
      expect(told).toContain(
        ["Text: 2 words added, 1 word removed:", '- "10"', '+ "12"', '+ "today"'].join("\n"),
      );
      expect(told).toContain(["Fields:", '- price: "10" → "12"'].join("\n"));
      expect(told).toMatch(
        /Visual: [\d,]+ pixels? changed \([\d.]+%\) in \d+ regions?: \d+×\d+ at \(/,
      );
      expect(told).toContain("That is the last page.");
      const diffUrl = second.data.pages[0]?.diffUrl ?? "";
      expect(told).toContain(`Diff image (changes in red): ${diffUrl}`);
      const diff = await fetch(diffUrl);
      expect(diff.status).toBe(200);
      expect(sniff(new Uint8Array(await diff.arrayBuffer()))).toBe("png");

      // Without a checkId: the latest completed check, now the second.
      const latest = await tool(c, "monitor_changes", { monitorId });
      expect((latest.structuredContent as unknown as Changes).check?.checkId).toBe(checkId);

      const list = await tool(c, "monitor_list", {});
      expect(list.isError, textOf(list)).toBeFalsy();
      expect(textOf(list)).toContain("1 monitor, newest first:");
      expect(textOf(list)).toContain(`Monitor ${monitorId} "Pricing" of ${PRICING}: active.`);
      expect(textOf(list)).toContain(`Last: Check ${checkId} (manual, completed)`);

      // One page rendered a check, as REST charges it; the dry run and the reads charge nothing.
      expect(await creditsUsed(fresh.apiKey)).toBe(2);
    } finally {
      await c.close();
    }
  });

  it("bad settings, a fast schedule, a private URL and an unknown monitor are tool errors", async () => {
    const fresh = await newAccount();
    const c = await connect(fresh.apiKey);
    try {
      const cron = await tool(c, "monitor_create", {
        url: PRICING,
        schedule: { cron: "61 * * * *" },
        compare: ["pixels"],
      });
      expect(cron.isError).toBe(true);
      expect(textOf(cron)).toMatch(/^VALIDATION_ERROR: /);
      expect(textOf(cron)).toMatch(/- schedule\.cron: /);
      expect(textOf(cron)).toMatch(/- compare\[0\]: /);
      const fast = await tool(c, "monitor_create", {
        url: PRICING,
        schedule: { intervalMinutes: 5 },
      });
      expect(textOf(fast)).toMatch(/^MONITOR_SCHEDULE_TOO_FAST: .*\n- schedule\.intervalMinutes: /);
      const guarded = await tool(c, "monitor_create", { url: "http://10.0.0.1/" });
      expect(textOf(guarded)).toMatch(/^INVALID_URL: /);
      const unknown = "00000000-0000-4000-8000-000000000000";
      for (const name of ["monitor_changes", "monitor_check"]) {
        const res = await tool(c, name, { monitorId: unknown });
        expect(res.isError, name).toBe(true);
        expect(textOf(res), name).toMatch(/^MONITOR_NOT_FOUND: /);
      }
      const cursor = await tool(c, "monitor_changes", { monitorId: unknown, cursor: "3" });
      expect(textOf(cursor)).toContain("- cursor: cursor requires checkId.");
      expect(textOf(await tool(c, "monitor_list", {}))).toBe("No monitors in this range.");
      expect(await creditsUsed(fresh.apiKey)).toBe(0);
    } finally {
      await c.close();
    }
  });
});
