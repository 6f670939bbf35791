/**
 * The work behind the synchronous captures of POST/GET /v1/screenshot and POST
 * /v1/screenshot/json (and the MCP tools and dashboard playground that wrap them): a parsed
 * request prepared, run through the capture pipeline in one page load, and the answer's data
 * shaped from its outputs. The routes (src/http/routes/screenshot.ts) parse and respond.
 */
import type { CaptureRequest } from "../../schemas/capture";
import { LIMITS } from "../../schemas/limits";
import type { CaptureJsonData, HostedCaptureData, Usage } from "../../schemas/responses";
import type { AuthContext } from "../accounts/auth";
import { prepareCapture, type PrepareOptions } from "../capture-request/prepare";
import { captureData } from "../capture-request/response";
import { signedImageUrl } from "../storage/hosted";
import { browserEngine } from "./engine";
import { requestedExtraction } from "./extraction";
import { extractedField, imageOutput, runCapture, type RequestedOutput } from "./pipeline";
import type { StorageTarget } from "./storage";

/**
 * The billable output of every sync capture: what the routes reserve with authentication
 * (`reserveFor`), then requested here.
 */
export const IMAGE = { kind: "image" } as const;

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

/** The bytes of a capture with their metadata headers (the route adds the usage headers). */
export async function bytesCapture(env: Env, auth: AuthContext, req: CaptureRequest) {
  const captured = await run(env, auth, req);
  const { result, headers } = imageOutput(captured);
  return { bytes: result.bytes, headers, usage: captured.usage };
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

/**
 * A synchronous capture as JSON data (base64 image plus metadata, and the article with
 * `extract: true`). Also the dashboard playground's (src/http/dashboard/playground.ts), so both
 * follow the same rules.
 */
export async function jsonCapture(
  env: Env,
  auth: AuthContext,
  req: CaptureRequest,
): Promise<{ data: CaptureJsonData; usage: Usage }> {
  const format = requestedExtraction(req);
  const handled = ["extract", "extractFormat"] as const;
  // The article rides on the image's page load: the image is what is billed.
  const extract =
    format === null ? undefined : ({ kind: "extraction", format, billable: false } as const);
  const captured = await run(env, auth, req, { handled, extract });
  const { spec, result } = imageOutput(captured);
  const data: CaptureJsonData = {
    ...captureData(result, spec, captured.capturedAt, captured.loadTimeMs),
    ...(extract ? extractedField(captured.outputs[1]) : {}),
  };
  return { data, usage: captured.usage };
}
