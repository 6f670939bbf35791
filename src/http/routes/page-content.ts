/**
 * POST /v1/content, /v1/scrape, /v1/links, /v1/snapshot: what a rendered page holds — its HTML or
 * visible text, the elements a selector points at, its links, or its HTML and a screenshot —
 * from one page load through the capture pipeline (one credit, refunded on failure).
 */
import { Hono, type Context } from "hono";
import type { CaptureRequest } from "../../../schemas/capture";
import {
  contentRequestSchema,
  linksRequestSchema,
  scrapeRequestSchema,
  snapshotRequestSchema,
  type ContentRequest,
  type LinksRequest,
  type ScrapeRequest,
} from "../../../schemas/page-content";
import type { AuthContext } from "../../accounts/auth";
import type {
  LinksData,
  PageContentData,
  ScrapeData,
  SnapshotData,
} from "../../../schemas/responses";
import { usageHeaders } from "../../accounts/credits";
import { browserEngine } from "../../pipeline/engine";
import type { ContentResult } from "../../pipeline/page-content";
import {
  imageOutput,
  runCapture,
  type PageFacts,
  type PipelineRun,
  type RequestedOutput,
} from "../../pipeline/pipeline";
import { prepareCapture } from "../../capture/request";
import { pageHeaders } from "../../capture/response";
import { toBase64 } from "../../encoding";
import { ApiError } from "../../errors";
import { hostedHeaders } from "../../storage/hosted";
import { jsonBody } from "../body";
import { charged, successBody } from "../envelope";
import { authenticate } from "../middleware/authenticate";
import { idempotent } from "../middleware/idempotency";
import type { AppEnv } from "../types";

/** What each route bills, reserved with authentication: the content it sells, or the image. */
const HTML = { kind: "html", billable: true } as const;
const IMAGE = { kind: "image" } as const;

/** prepare → the pipeline with `outputs`; geo is refused: its provider returns pixels only. */
async function run(env: Env, auth: AuthContext, req: CaptureRequest, outputs: RequestedOutput[]) {
  if (req.geo !== undefined) {
    const message = "Page content is not available with geo.";
    throw new ApiError("GEO_FEATURE_UNAVAILABLE", message, {
      details: [{ path: "geo", message }],
    });
  }
  const spec = await prepareCapture(env, auth, req);
  return runCapture(env, auth, {
    spec,
    outputs,
    storage: { kind: "none" },
    engine: browserEngine(env),
  });
}

/** The content output at `index` of the run, or its failure thrown as the answer. */
function contentOutput<K extends ContentResult["kind"]>(
  run: PipelineRun,
  index: number,
  kind: K,
): Extract<ContentResult, { kind: K }> {
  const output = run.outputs[index];
  if (!output) throw new Error(`no output ${index} in this run`);
  if (!output.ok) throw output.failure.error;
  if (output.kind !== kind) throw new Error(`output ${index} is not ${kind}`);
  return output as Extract<ContentResult, { kind: K }>;
}

/** The facts of the run's page load (a run that has an output loaded its page). */
function pageOf(run: PipelineRun): PageFacts {
  if (!run.page) throw new Error("a run with an output has its page");
  return run.page;
}

/** The load's facts every page content answer carries. */
function loadData(run: PipelineRun) {
  const { finalUrl, quality, waitStrategy, page } = pageOf(run);
  const { title, targetStatus, openGraph } = page;
  return {
    url: finalUrl,
    capturedAt: run.capturedAt,
    quality,
    waitStrategy,
    loadTimeMs: run.loadTimeMs,
    metadata: { title, finalUrl, targetStatus, openGraph },
  };
}

const wantsJson = (c: Context<AppEnv>) =>
  /\bapplication\/json\b/i.test(c.req.header("accept") ?? "");

/**
 * The work of /v1/content, /v1/scrape and /v1/links for a parsed request: the run and its JSON
 * data. Also the MCP tools page_content, scrape and links (src/http/mcp/).
 */
export async function readContent(env: Env, auth: AuthContext, parsed: ContentRequest) {
  const { contentFormat = "html", stripScripts = true, ...req } = parsed;
  const output: RequestedOutput =
    contentFormat === "html"
      ? { kind: "html", stripScripts, billable: true }
      : { kind: "text", billable: true };
  const captured = await run(env, auth, req, [output]);
  const read = contentOutput(captured, 0, contentFormat);
  const content = read.kind === "html" ? { html: read.html } : { text: read.text };
  const data: PageContentData = { ...loadData(captured), ...content, truncated: read.truncated };
  return { captured, read, data };
}

export async function scrapePage(env: Env, auth: AuthContext, parsed: ScrapeRequest) {
  const { elements, ...req } = parsed;
  const captured = await run(env, auth, req, [{ kind: "elements", elements, billable: true }]);
  const data: ScrapeData = {
    ...loadData(captured),
    results: contentOutput(captured, 0, "elements").results,
  };
  return { data, usage: captured.usage };
}

export async function pageLinks(env: Env, auth: AuthContext, parsed: LinksRequest) {
  const { visibleOnly = false, internalOnly = false, includeNonHttp = false, ...req } = parsed;
  const captured = await run(env, auth, req, [
    { kind: "links", visibleOnly, internalOnly, includeNonHttp, billable: true },
  ]);
  const { links, truncated } = contentOutput(captured, 0, "links");
  const data: LinksData = { ...loadData(captured), links, truncated };
  return { data, usage: captured.usage };
}

/** Each route's work after authentication: also the dashboard playground's actions. */
export const PAGE_ACTIONS = {
  content: async (c: Context<AppEnv>): Promise<Response> => {
    const parsed = await jsonBody(c, contentRequestSchema);
    const { captured, read, data } = await readContent(c.env, c.get("auth"), parsed);
    if (wantsJson(c))
      return c.json(successBody(c.get("requestId"), data, charged(c, captured.usage)));
    const body = read.kind === "html" ? read.html : read.text;
    const page = pageOf(captured);
    const contentType = `text/${read.kind === "html" ? "html" : "plain"}; charset=utf-8`;
    return c.body(body, 200, {
      ...hostedHeaders(contentType),
      // Never run as a page of ours: the page's markup (its scripts, with stripScripts: false) is data.
      "content-security-policy": "sandbox; default-src 'none'",
      "content-type": contentType,
      ...pageHeaders(page),
      "x-service-quality": page.quality,
      "x-service-wait-strategy": page.waitStrategy,
      "x-service-load-time-ms": String(captured.loadTimeMs),
      ...(read.truncated ? { "x-service-truncated": "true" } : {}),
      ...usageHeaders(charged(c, captured.usage)),
    });
  },
  scrape: async (c: Context<AppEnv>): Promise<Response> => {
    const parsed = await jsonBody(c, scrapeRequestSchema);
    const { data, usage } = await scrapePage(c.env, c.get("auth"), parsed);
    return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
  },
  links: async (c: Context<AppEnv>): Promise<Response> => {
    const parsed = await jsonBody(c, linksRequestSchema);
    const { data, usage } = await pageLinks(c.env, c.get("auth"), parsed);
    return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
  },
  snapshot: async (c: Context<AppEnv>): Promise<Response> => {
    const { stripScripts = true, ...req } = await jsonBody(c, snapshotRequestSchema);
    const captured = await run(c.env, c.get("auth"), req, [
      { ...IMAGE, format: req.format ?? "png" },
      { kind: "html", stripScripts, billable: false },
    ]);
    const { result, spec } = imageOutput(captured, 0);
    const { html, truncated } = contentOutput(captured, 1, "html");
    const load = loadData(captured);
    const data: SnapshotData = {
      ...load,
      metadata: { ...load.metadata, ...(result.watermarked ? { watermarked: true as const } : {}) },
      html,
      truncated,
      screenshot: toBase64(result.bytes),
      contentType: result.contentType,
      format: spec.format,
      width: result.width,
      height: result.height,
    };
    return c.json(successBody(c.get("requestId"), data, charged(c, captured.usage)));
  },
};
export type PageAction = keyof typeof PAGE_ACTIONS;

export const pageContentRoutes = new Hono<AppEnv>()
  .post("/content", authenticate({ reserveFor: [HTML] }), idempotent(), PAGE_ACTIONS.content)
  .post("/scrape", authenticate({ reserveFor: [HTML] }), idempotent(), PAGE_ACTIONS.scrape)
  .post("/links", authenticate({ reserveFor: [HTML] }), idempotent(), PAGE_ACTIONS.links)
  .post("/snapshot", authenticate({ reserveFor: [IMAGE] }), idempotent(), PAGE_ACTIONS.snapshot);
