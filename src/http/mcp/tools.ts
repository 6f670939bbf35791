/**
 * The MCP tools (docs/MCP.md; the crawl tools in ./crawl-tools.ts, the monitor tools in
 * ./monitor-tools.ts). Each wraps one REST route's own work — the same function the route calls
 * (`hostedCapture`, `extractPage`, `readContent`, `scrapePage`, `structuredData`, `pageLinks`, `mintLinkFor`,
 * `accountView`, `startCrawl`, `crawlView`, `mapSite`, the monitors' operations), so request
 * preparation, plan gates, the URL guard, the pipeline and its credits are the route's, not a
 * copy — and only shapes the answer for a model.
 *
 * Inputs: each tool's zod schema in schemas/mcp.ts (picked from the REST contract); tools/list
 * gives `z.toJSONSchema` of it. Arguments are parsed with it (unknown fields are refused by
 * name) and then by the route's full schema, as the route would.
 *
 * Errors: a failed call is a tool result with `isError: true` whose text is the spec's error
 * code and message (and, for a validation error, each field with what is wrong with it) — what
 * the REST route would have answered in its envelope. Anything unexpected is logged and told as
 * INTERNAL_ERROR with the public message: nothing internal reaches the model.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { animateRequestSchema } from "../../../schemas/animate";
import { captureRequestSchema } from "../../../schemas/capture";
import { extractRequestSchema } from "../../../schemas/extract";
import {
  contentRequestSchema,
  linksRequestSchema,
  scrapeRequestSchema,
} from "../../../schemas/page-content";
import { MCP_TOOLS, mcpToolList, type McpToolName } from "../../../schemas/mcp";
import { accountView } from "../../accounts/summary";
import { renderLinkRequestSchema } from "../../../schemas/render-link";
import { jsonRequestSchema } from "../../../schemas/structured";
import { toBase64 } from "../../encoding";
import { ApiError } from "../../errors";
import { log } from "../../log";
import { MESSAGES } from "../../user-messages";
import { parseWith } from "../body";
import { hostedCapture } from "../../pipeline/captures";
import { extractPage } from "../../pipeline/extract-page";
import {
  pageLinks,
  readContent,
  scrapePage,
  structuredData,
} from "../../pipeline/page-content-answers";
import { mintLinkFor } from "../../render-links/mint";
import { hostedRecording } from "../../pipeline/animate";
import { CRAWL_RUN } from "./crawl-tools";
import { MONITOR_RUN } from "./monitor-tools";
import { lines, type Runners, type ToolContext, text, usageLine } from "./tool-kit";
import { modelView, VIEW } from "./views";

/** The page a content tool read: its final URL and title, and any notes. */
function pageHeader(
  data: { url: string; metadata: { title: string } },
  ...notes: (string | false)[]
): string {
  return lines(`URL: ${data.url}`, `Title: ${data.metadata.title}`, ...notes);
}

/** What each tool of the catalogue (schemas/mcp.ts `MCP_TOOLS`) runs. */
const RUN: Runners = {
  async screenshot(ctx, args) {
    const req = parseWith(captureRequestSchema, args);
    const { data, result, usage } = await hostedCapture(ctx.env, ctx.auth, req, ctx.origin);
    const view = await modelView(ctx.env, result, ctx.auth.accountId);
    const shown = view
      ? view.width === data.width && view.height === data.height
        ? "Shown at full size."
        : `Shown scaled to ${view.width}×${view.height}.`
      : `Too large to show inline even scaled (over ${VIEW.maxBytes} bytes): open the link.`;
    return {
      content: [
        ...(view
          ? [{ type: "image" as const, data: toBase64(view.bytes), mimeType: view.mimeType }]
          : []),
        text(
          lines(
            `URL: ${result.finalUrl}`,
            `Title: ${result.page.title}`,
            `Full size: ${data.width}×${data.height} ${data.format}, ${data.bytesSize} bytes, at ${data.url} until ${data.expiresAt}.`,
            shown,
            result.truncated && "The page was taller than the capture limit: cut at the limit.",
            result.watermarked && "Free plan: the image carries a watermark.",
            usageLine(usage),
          ),
        ),
        {
          type: "resource_link",
          uri: data.url,
          name: `screenshot.${data.format}`,
          title: `Full-size screenshot of ${result.finalUrl}`,
          mimeType: data.contentType,
          size: data.bytesSize,
        },
      ],
    };
  },
  async pdf(ctx, args) {
    const req = parseWith(captureRequestSchema, { ...args, format: "pdf" });
    const { data, result, usage } = await hostedCapture(ctx.env, ctx.auth, req, ctx.origin);
    // The engine's count (the one the REST answer reports); absent only if it found none.
    const pages = result.pages;
    return {
      content: [
        text(
          lines(
            `URL: ${result.finalUrl}`,
            `Title: ${result.page.title}`,
            `PDF: ${pages === undefined ? "" : `${pages} page${pages === 1 ? "" : "s"}, `}${data.bytesSize} bytes, at ${data.url} until ${data.expiresAt}.`,
            result.watermarked && "Free plan: the PDF carries a watermark.",
            usageLine(usage),
          ),
        ),
        {
          type: "resource_link",
          uri: data.url,
          name: "page.pdf",
          title: `PDF of ${result.finalUrl} (${pages} pages)`,
          mimeType: data.contentType,
          size: data.bytesSize,
        },
      ],
    };
  },
  async read_page(ctx, args) {
    const req = parseWith(extractRequestSchema, { ...args, extractFormat: "markdown" });
    const { data, usage } = await extractPage(ctx.env, ctx.auth, req);
    const header = lines(
      data.title && `# ${data.title}`,
      data.byline && `By ${data.byline}`,
      `Source: ${data.url}`,
    );
    return {
      content: [text(`${header}\n\n${data.content}`), text(usageLine(usage))],
    };
  },
  async page_content(ctx, args) {
    const req = parseWith(contentRequestSchema, args);
    const { captured, data } = await readContent(ctx.env, ctx.auth, req);
    return {
      content: [
        text(pageHeader(data, data.truncated && "Cut at the size limit: the rest is left out.")),
        text(data.html ?? data.text ?? ""),
        text(usageLine(captured.usage)),
      ],
    };
  },

  async scrape(ctx, args) {
    const { data, usage } = await scrapePage(
      ctx.env,
      ctx.auth,
      parseWith(scrapeRequestSchema, args),
    );
    return {
      content: [
        text(pageHeader(data)),
        text(JSON.stringify(data.results, null, 2)),
        text(usageLine(usage)),
      ],
      structuredContent: { results: data.results },
    };
  },

  async record_page(ctx, args) {
    const req = parseWith(animateRequestSchema, { ...args, hosted: true });
    const { data, usage } = await hostedRecording(ctx.env, ctx.auth, req, ctx.origin);
    const seconds = (data.durationMs / 1000).toFixed(1);
    return {
      content: [
        text(
          lines(
            `URL: ${data.finalUrl}`,
            `Clip: ${data.width}×${data.height} ${data.format}, ${data.frames} frames over ${seconds} s, ${data.bytesSize} bytes, at ${data.url} until ${data.expiresAt}.`,
            usageLine(usage),
          ),
        ),
        {
          type: "resource_link",
          uri: data.url,
          name: `recording.${data.format}`,
          title: `Recording of ${data.finalUrl}`,
          mimeType: data.contentType,
          size: data.bytesSize,
        },
      ],
    };
  },

  async structured_data(ctx, args) {
    const req = parseWith(jsonRequestSchema, args);
    const { data, usage } = await structuredData(ctx.env, ctx.auth, req);
    const found = { fields: data.fields, markup: data.markup };
    return {
      content: [
        text(
          pageHeader(
            data,
            data.truncated === true && "The read budget ran out: some values are left out.",
          ),
        ),
        text(JSON.stringify(found, null, 2)),
        text(usageLine(usage)),
      ],
      structuredContent: found,
    };
  },

  async links(ctx, args) {
    const { data, usage } = await pageLinks(ctx.env, ctx.auth, parseWith(linksRequestSchema, args));
    const list = data.links.map(
      (l) => `- ${l.url}${l.text ? ` — ${l.text}` : ""}${l.internal ? "" : " (external)"}`,
    );
    return {
      content: [
        text(
          pageHeader(
            data,
            `${data.links.length} links.`,
            data.truncated && "More links than the limit: the rest are left out.",
          ),
        ),
        text(list.join("\n")),
        text(usageLine(usage)),
      ],
    };
  },

  async render_link(ctx, args) {
    const req = parseWith(renderLinkRequestSchema, args);
    // The link keeps the arguments as sent, as the route keeps its body's fields.
    const data = await mintLinkFor(ctx.env, ctx.auth, ctx.origin, req, args);
    return {
      content: [
        text(
          lines(
            `Render link (${data.format}, cached ${data.cacheTtl} s, valid until ${data.expiresAt}):`,
            data.url,
            `HTML: <img src="${data.url.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}" alt="">`,
          ),
        ),
      ],
    };
  },
  ...CRAWL_RUN,
  ...MONITOR_RUN,
  async account_usage(ctx) {
    // No webhook signing secret (the REST route adds it): no secret in a model's context.
    const data = await accountView(ctx.auth, ctx.origin);
    return { content: [text(JSON.stringify(data, null, 2))], structuredContent: data };
  },
};

let listed: Tool[] | null = null;

/** tools/list: the catalogue with its JSON Schemas, generated once per isolate. */
export function toolList(): Tool[] {
  listed ??= mcpToolList();
  return listed;
}

/** A failure as the tool's result: the spec's code and message, the fields for a bad request. */
function errorResult(err: unknown, ctx: ToolContext, name: string): CallToolResult {
  if (err instanceof ApiError) {
    const fields = (err.details ?? []).map((d) => `- ${d.path}: ${d.message}`);
    return {
      isError: true,
      content: [text(lines(`${err.code}: ${err.message}`, ...fields))],
    };
  }
  log("error", "mcp tool failed", {
    requestId: ctx.requestId,
    tool: name,
    error: String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return { isError: true, content: [text(`INTERNAL_ERROR: ${MESSAGES.internalError}`)] };
}

/** tools/call for a known tool: arguments parsed, run, every failure a tool result. */
export async function callTool(
  ctx: ToolContext,
  name: string,
  args: Record<string, unknown> | undefined,
): Promise<CallToolResult | null> {
  if (!Object.hasOwn(MCP_TOOLS, name)) return null;
  const tool = name as McpToolName;
  try {
    const input = parseWith(MCP_TOOLS[tool].input, args ?? {});
    return await (RUN[tool] as (ctx: ToolContext, args: unknown) => Promise<CallToolResult>)(
      ctx,
      input,
    );
  } catch (err) {
    return errorResult(err, ctx, name);
  }
}
