/** POST/GET /v1/screenshot (bytes) and POST /v1/screenshot/json (envelope with base64). */
import { Hono, type Context } from "hono";
import { captureQuerySchema, queryRecord } from "../../../schemas/capture-query";
import { captureRequestSchema, type CaptureRequest } from "../../../schemas/capture";
import { LIMITS } from "../../../schemas/limits";
import type { CaptureJsonData, HostedCaptureData } from "../../../schemas/responses";
import type { AuthContext } from "../../accounts/auth";
import { usageHeaders } from "../../accounts/credits";
import { browserEngine } from "../../pipeline/engine";
import {
  extractedField,
  imageOutput,
  runCapture,
  type RequestedOutput,
} from "../../pipeline/pipeline";
import type { StorageTarget } from "../../pipeline/storage";
import { prepareCapture, type PrepareOptions } from "../../capture/request";
import { captureData } from "../../capture/response";
import { requestedExtraction } from "../../pipeline/extraction";
import { submitAsyncCapture } from "../../jobs/submit";
import { publicOrigin, signedImageUrl } from "../../storage/hosted";
import { invalidFields, jsonBody, parseWith } from "../body";
import { charged, successBody } from "../envelope";
import { authenticate } from "../middleware/authenticate";
import { idempotent } from "../middleware/idempotency";
import type { AppEnv } from "../types";

/** async: true — queued; 202 `{jobId, status: "queued"}` with the reserved credit in meta.usage. */
async function sendAsync(c: Context<AppEnv>, req: CaptureRequest) {
  const { data, usage } = await submitAsyncCapture(c.env, c.get("auth"), req, c.req.url);
  return c.json(successBody(c.get("requestId"), data, charged(c, usage)), 202);
}

/** The billable output of every sync capture: reserved with authentication, then requested. */
const IMAGE = { kind: "image" } as const;

interface RunOptions extends PrepareOptions {
  /** With `extract: true` on the JSON route: the article from the same page load. */
  extract?: RequestedOutput & { kind: "extraction" };
  storage?: StorageTarget;
}

/** prepare → the capture pipeline: the spec's format (plus, optionally, its article) from one load. */
async function run(env: Env, auth: AuthContext, req: CaptureRequest, options: RunOptions = {}) {
  const spec = await prepareCapture(env, auth, req, options);
  const outputs: RequestedOutput[] = [{ ...IMAGE, format: spec.format }];
  if (options.extract) outputs.push(options.extract);
  const storage = options.storage ?? { kind: "none" };
  return runCapture(env, auth, { spec, outputs, storage, engine: browserEngine(env) });
}

async function sendBytes(c: Context<AppEnv>, req: CaptureRequest) {
  const captured = await run(c.env, c.get("auth"), req);
  const { result, headers } = imageOutput(captured);
  return c.body(result.bytes as Uint8Array<ArrayBuffer>, 200, {
    ...headers,
    ...usageHeaders(charged(c, captured.usage)),
  });
}

/**
 * hosted: true — the output goes to R2 and the caller gets a signed URL valid for cacheTtl.
 * Also the MCP `screenshot` and `pdf` tools' capture (src/http/mcp/), which read the page's
 * facts from `result` besides the hosted data.
 */
export async function hostedCapture(
  env: Env,
  auth: AuthContext,
  req: CaptureRequest,
  origin: string,
) {
  const ttlSeconds = req.cacheTtl ?? LIMITS.cacheTtl.default;
  const storage: StorageTarget = {
    kind: "hosted",
    ttlSeconds,
    prefix: "o",
    context: "hosted capture",
  };
  const captured = await run(env, auth, req, { handled: ["hosted"], storage });
  const { spec, result, stored } = imageOutput(captured);
  if (!stored) throw new Error("hosted capture returned without its stored output");
  const data: HostedCaptureData = {
    url: await signedImageUrl(env, origin, stored),
    expiresAt: new Date(stored.expires * 1000).toISOString(),
    contentType: result.contentType,
    format: spec.format,
    width: result.width,
    height: result.height,
    bytesSize: result.bytes.byteLength,
  };
  return { data, result, usage: captured.usage };
}

async function sendHosted(c: Context<AppEnv>, req: CaptureRequest) {
  const origin = publicOrigin(c.env, c.req.url);
  const { data, usage } = await hostedCapture(c.env, c.get("auth"), req, origin);
  return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
}

/**
 * A synchronous capture answered as JSON (base64 image plus metadata). Also the dashboard
 * playground's answer (src/http/dashboard/playground.ts), so both follow the same rules.
 */
export async function sendJson(c: Context<AppEnv>, req: CaptureRequest): Promise<Response> {
  const format = requestedExtraction(req);
  const handled = ["extract", "extractFormat"] as const;
  const extract =
    format === null ? undefined : ({ kind: "extraction", format, billable: false } as const);
  const captured = await run(c.env, c.get("auth"), req, { handled, extract });
  const { spec, result } = imageOutput(captured);
  const data: CaptureJsonData = {
    ...captureData(result, spec, captured.capturedAt, captured.loadTimeMs),
    ...(extract ? extractedField(captured.outputs[1]) : {}),
  };
  return c.json(successBody(c.get("requestId"), data, charged(c, captured.usage)));
}

/** A sync capture reserves with authentication what it bills: its image (an extraction is free). */
const ONE_OUTPUT = { reserveFor: [IMAGE] } as const;

export const screenshotRoutes = new Hono<AppEnv>()
  .post("/screenshot", authenticate(ONE_OUTPUT), idempotent(), async (c) => {
    const req = await jsonBody(c, captureRequestSchema);
    if (req.async === true) return sendAsync(c, req);
    return req.hosted === true ? sendHosted(c, req) : sendBytes(c, req);
  })
  .get("/screenshot", authenticate({ ...ONE_OUTPUT, allowQueryKey: true }), async (c) => {
    const { record, issues } = queryRecord(new URL(c.req.url));
    if (issues.length > 0) throw invalidFields(issues);
    return sendBytes(c, parseWith(captureQuerySchema, record) as CaptureRequest);
  })
  .post("/screenshot/json", authenticate(ONE_OUTPUT), idempotent(), async (c) => {
    const req = await jsonBody(c, captureRequestSchema);
    if (req.async === true) return sendAsync(c, req);
    return sendJson(c, req);
  });
