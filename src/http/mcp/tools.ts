/**
 * The MCP tools (docs/MCP.md). Each wraps one REST route's own work — the same function the
 * route calls (`hostedCapture`, `extractPage`, `mintLinkFor`, `accountData`), so request
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
import { z } from "zod";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { captureRequestSchema } from "../../../schemas/capture";
import { extractRequestSchema } from "../../../schemas/extract";
import {
  accountUsageToolSchema,
  pdfToolSchema,
  readPageToolSchema,
  renderLinkToolSchema,
  screenshotToolSchema,
} from "../../../schemas/mcp";
import type { Usage } from "../../../schemas/responses";
import type { AuthContext } from "../../accounts/auth";
import { toBase64 } from "../../encoding";
import { ApiError } from "../../errors";
import { log } from "../../log";
import { MESSAGES } from "../../messages";
import { parseWith } from "../body";
import { accountData } from "../routes/account";
import { extractPage } from "../routes/extract";
import { mintLinkFor } from "../routes/render";
import { hostedCapture } from "../routes/screenshot";
import { modelView, pdfPageCount, VIEW } from "./views";

/** What a tool call runs with: the authenticated caller of the POST /mcp that carries it. */
export interface ToolContext {
  env: Env;
  auth: AuthContext;
  /** The public origin hosted outputs and render links are signed for. */
  origin: string;
  requestId: string;
}

interface ToolDefinition<S extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: S;
  annotations: Tool["annotations"];
  run: (ctx: ToolContext, args: z.output<S>) => Promise<CallToolResult>;
}

/** Keeps each definition's `run` typed by its own schema. */
const tool = <S extends z.ZodType>(definition: ToolDefinition<S>) =>
  definition as unknown as ToolDefinition<z.ZodType>;

const text = (value: string) => ({ type: "text" as const, text: value });

function usageLine(usage: Usage | undefined): string {
  if (!usage) return "";
  const left = usage.remaining === null ? "unlimited" : `${usage.remaining} left this month`;
  return `Credits: ${usage.credits} spent (${left}).`;
}

const lines = (...parts: (string | false | null | undefined)[]) =>
  parts.filter((p): p is string => typeof p === "string" && p !== "").join("\n");

const READ_ONLY_WEB = { readOnlyHint: true, openWorldHint: true } as const;

export const TOOLS = [
  tool({
    name: "screenshot",
    title: "Screenshot a web page",
    description:
      "Renders a public web page (or HTML or Markdown you supply) in a real Chromium and returns what it looks like: an image sized for you to look at (long edge at most 1,568 px; a full-page capture is scaled down as a whole), the page's final URL and title, and a link to the full-size image (PNG by default) that stays valid for cacheTtl seconds. Use it to see layout, visual state or anything text does not show; to read a page's words use read_page instead. Costs one credit, like POST /v1/screenshot; private and internal addresses are refused.",
    input: screenshotToolSchema,
    annotations: { title: "Screenshot a web page", ...READ_ONLY_WEB },
    async run(ctx, args) {
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
  }),
  tool({
    name: "pdf",
    title: "Print a web page to PDF",
    description:
      "Prints a public web page (or HTML or Markdown you supply) to PDF in a real Chromium, as a browser's print would, and returns a link to the PDF (valid for cacheTtl seconds) with its page count, the final URL and title. Use it when a document is wanted — to hand to a person or another tool; to read the page yourself use read_page. Costs one credit, like POST /v1/screenshot with format pdf; private and internal addresses are refused.",
    input: pdfToolSchema,
    annotations: { title: "Print a web page to PDF", ...READ_ONLY_WEB },
    async run(ctx, args) {
      const req = parseWith(captureRequestSchema, { ...args, format: "pdf" });
      const { data, result, usage } = await hostedCapture(ctx.env, ctx.auth, req, ctx.origin);
      const pages = pdfPageCount(result.bytes);
      return {
        content: [
          text(
            lines(
              `URL: ${result.finalUrl}`,
              `Title: ${result.page.title}`,
              `PDF: ${pages} page${pages === 1 ? "" : "s"}, ${data.bytesSize} bytes, at ${data.url} until ${data.expiresAt}.`,
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
  }),
  tool({
    name: "read_page",
    title: "Read a web page",
    description:
      "Loads a public web page in a real Chromium (scripts run, so client-rendered pages work) and returns its main content in reader mode as Markdown: the title, the byline and the article text, without navigation, ads or other clutter. Use it to read, quote or summarise what a page says; it fails with EXTRACTION_FAILED on pages without a main text (a login wall, an app shell). Costs one credit, like POST /v1/extract; private and internal addresses are refused.",
    input: readPageToolSchema,
    annotations: { title: "Read a web page", ...READ_ONLY_WEB },
    async run(ctx, args) {
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
  }),
  tool({
    name: "render_link",
    title: "Make a render link",
    description:
      "Makes a signed URL that renders a screenshot of a page when opened — for an <img> in HTML, Markdown or an email you are writing — without an API key in it. Nothing is captured now and no credit is spent; the first view renders and costs one credit, later views are served from the cache for cacheTtl seconds, and the link works until expiresIn. The page is checked now: a private or internal address is refused here, not on first view.",
    input: renderLinkToolSchema,
    annotations: {
      title: "Make a render link",
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: false,
    },
    async run(ctx, args) {
      const data = await mintLinkFor(ctx.env, ctx.auth, ctx.origin, args);
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
  }),
  tool({
    name: "account_usage",
    title: "Account usage",
    description:
      "Tells the plan of the account behind this connection, the credits used and left this month, when they reset, and the rate limit per minute — what GET /v1/account answers, less the webhook signing secret. Use it before a long run of captures, or when a call failed with USAGE_EXCEEDED or RATE_LIMITED. Free.",
    input: accountUsageToolSchema,
    annotations: { title: "Account usage", readOnlyHint: true, openWorldHint: false },
    async run(ctx) {
      // The signing secret is a secret: it has no place in a model's context.
      const { webhooks: _secret, ...data } = await accountData(ctx.env, ctx.auth, ctx.origin);
      return { content: [text(JSON.stringify(data, null, 2))], structuredContent: data };
    },
  }),
];

export type ToolName = (typeof TOOLS)[number]["name"];

let listed: Tool[] | null = null;

/** tools/list: each tool's JSON Schema generated from its zod schema, once per isolate. */
export function toolList(): Tool[] {
  listed ??= TOOLS.map((t) => {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(t.input, { io: "input" });
    return {
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: schema as Tool["inputSchema"],
      annotations: t.annotations,
    };
  });
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
  const definition = TOOLS.find((t) => t.name === name);
  if (!definition) return null;
  try {
    return await definition.run(ctx, parseWith(definition.input, args ?? {}));
  } catch (err) {
    return errorResult(err, ctx, name);
  }
}
