/**
 * The work behind POST /v1/content, /v1/scrape, /v1/links, /v1/json and /v1/snapshot (and the MCP tools
 * and dashboard actions that wrap them): a parsed request through the pipeline, one page load,
 * and the answer shaped from its outputs — the JSON `data` each route returns, or the headers of
 * a raw content answer. The routes (src/http/routes/page-content.ts) parse; src/http/answers.ts
 * responds.
 */
import type { CaptureRequest } from "../../schemas/capture";
import type {
  ContentRequest,
  LinksRequest,
  ScrapeRequest,
  SnapshotRequest,
} from "../../schemas/page-content";
import type { JsonRequest } from "../../schemas/structured";
import type { PageLoader, RenderMode } from "../../schemas/crawl-enums";
import type {
  LinksData,
  PageContentData,
  ScrapeData,
  SnapshotData,
  StructuredData,
  Usage,
} from "../../schemas/responses";
import type { AuthContext } from "../accounts/auth";
import { usageHeaders } from "../accounts/credits";
import { prepareCapture } from "../capture-request/prepare";
import { pageHeaders } from "../capture-request/response";
import { toBase64 } from "../encoding";
import { ApiError } from "../errors";
import { typeFields } from "../extract/fields";
import { readMarkup } from "../extract/markup";
import { hostedHeaders } from "../storage/hosted";
import { browserEngine } from "./engine";
import { httpEngine } from "./http-engine";
import type { ContentResult } from "./page-content";
import {
  imageOutput,
  runCapture,
  type PageFacts,
  type PipelineRun,
  type RequestedOutput,
} from "./pipeline";

/** What each route bills, reserved with authentication: the content it sells, or the image. */
export const HTML = { kind: "html", billable: true } as const;
export const IMAGE = { kind: "image" } as const;

/**
 * prepare → the pipeline with `outputs`; geo is refused: its provider returns pixels only.
 * `render` (auto, never) reads the page through the HTTP engine (./http-engine.ts).
 */
async function run(
  env: Env,
  auth: AuthContext,
  req: CaptureRequest,
  outputs: RequestedOutput[],
  render: RenderMode = "always",
) {
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
    engine: render === "always" ? browserEngine(env) : httpEngine(env, render),
  });
}

/** `rendered` in an answer when the request set `render`: which engine read the page. */
function renderedBy(render: RenderMode, run: PipelineRun): { rendered?: PageLoader } {
  return render === "always" ? {} : { rendered: pageOf(run).rendered ?? "browser" };
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

/**
 * The facts of the run's page load. A run without them failed its load, and then every output
 * failed with that failure: thrown as the answer, whatever the route reads first.
 */
function pageOf(run: PipelineRun): PageFacts {
  if (run.page) return run.page;
  const failed = run.outputs.find((o) => !o.ok);
  if (failed && !failed.ok) throw failed.failure.error;
  throw new Error("a run with an output has its page");
}

/** The load's facts every page content answer carries. */
function loadData(run: PipelineRun) {
  const { finalUrl, quality, completeness, waitStrategy, page } = pageOf(run);
  const { title, targetStatus, openGraph } = page;
  return {
    url: finalUrl,
    capturedAt: run.capturedAt,
    quality,
    waitStrategy,
    loadTimeMs: run.loadTimeMs,
    completeness,
    metadata: { title, finalUrl, targetStatus, openGraph },
  };
}

/** /v1/content (and the MCP tool page_content): the run, its content output and the JSON data. */
export async function readContent(env: Env, auth: AuthContext, parsed: ContentRequest) {
  const { contentFormat = "html", stripScripts = true, render = "always", ...req } = parsed;
  const output: RequestedOutput =
    contentFormat === "html"
      ? { kind: "html", stripScripts, billable: true }
      : { kind: "text", billable: true };
  const captured = await run(env, auth, req, [output], render);
  const read = contentOutput(captured, 0, contentFormat);
  const content = read.kind === "html" ? { html: read.html } : { text: read.text };
  const data: PageContentData = {
    ...loadData(captured),
    ...renderedBy(render, captured),
    ...content,
    truncated: read.truncated,
  };
  return { captured, read, data };
}

/** The headers of /v1/content's raw answer (no `Accept: application/json`): the body is `read`'s. */
export function rawContentHeaders(
  captured: PipelineRun & { usage: Usage },
  read: Extract<ContentResult, { kind: "html" | "text" }>,
): Record<string, string> {
  const page = pageOf(captured);
  const contentType = `text/${read.kind === "html" ? "html" : "plain"}; charset=utf-8`;
  return {
    ...hostedHeaders(contentType),
    // Never run as a page of ours: the page's markup (its scripts, with stripScripts: false) is data.
    "content-security-policy": "sandbox; default-src 'none'",
    "content-type": contentType,
    ...pageHeaders(page),
    "x-service-quality": page.quality,
    "x-service-wait-strategy": page.waitStrategy,
    "x-service-load-time-ms": String(captured.loadTimeMs),
    ...(page.completeness ? { "x-service-completeness": JSON.stringify(page.completeness) } : {}),
    ...(read.truncated ? { "x-service-truncated": "true" } : {}),
    ...usageHeaders(captured.usage),
  };
}

/** /v1/scrape (and the MCP tool scrape). */
export async function scrapePage(env: Env, auth: AuthContext, parsed: ScrapeRequest) {
  const { elements, ...req } = parsed;
  const captured = await run(env, auth, req, [{ kind: "elements", elements, billable: true }]);
  const data: ScrapeData = {
    ...loadData(captured),
    results: contentOutput(captured, 0, "elements").results,
  };
  return { data, usage: captured.usage };
}

/** /v1/links (and the MCP tool links). */
export async function pageLinks(env: Env, auth: AuthContext, parsed: LinksRequest) {
  const {
    visibleOnly = false,
    internalOnly = false,
    includeNonHttp = false,
    render = "always",
    ...req
  } = parsed;
  const captured = await run(
    env,
    auth,
    req,
    [{ kind: "links", visibleOnly, internalOnly, includeNonHttp, billable: true }],
    render,
  );
  const { links, truncated } = contentOutput(captured, 0, "links");
  const data: LinksData = {
    ...loadData(captured),
    ...renderedBy(render, captured),
    links,
    truncated,
  };
  return { data, usage: captured.usage };
}

/**
 * /v1/json (and the MCP tool structured_data): fields by selector and/or the page's own markup,
 * read as strings in the page and typed and normalised here (src/extract/fields.ts, markup.ts).
 */
export async function structuredData(env: Env, auth: AuthContext, parsed: JsonRequest) {
  const { fields, kind, ...req } = parsed;
  const captured = await run(env, auth, req, [
    { kind: "structured", fields: fields ?? null, markup: kind !== undefined, billable: true },
  ]);
  const read = contentOutput(captured, 0, "structured");
  const data: StructuredData = { ...loadData(captured) };
  if (fields && read.fields) {
    data.fields = typeFields(fields, read.fields.values, read.fields.base);
    data.truncated = read.fields.truncated;
  }
  if (kind && read.markup) data.markup = readMarkup(read.markup, kind);
  return { data, usage: captured.usage };
}

/** /v1/snapshot: the page's HTML and a base64 screenshot from one load (the image is billed). */
export async function snapshotPage(env: Env, auth: AuthContext, parsed: SnapshotRequest) {
  const { stripScripts = true, ...req } = parsed;
  const captured = await run(env, auth, req, [
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
  return { data, usage: captured.usage };
}
