/** POST/GET /v1/screenshot (bytes) and POST /v1/screenshot/json (envelope with base64). */
import { Hono, type Context } from "hono";
import { captureQuerySchema, queryRecord } from "../../../schemas/capture-query";
import { captureRequestSchema, type CaptureRequest } from "../../../schemas/capture";
import { usageHeaders, withCredits } from "../../accounts/credits";
import { prepareCapture, type PrepareOptions } from "../../capture/request";
import { captureData, captureHeaders } from "../../capture/response";
import { capture } from "../../capture/service";
import type { CaptureSpec } from "../../capture/spec";
import { extractedField, requestedExtraction } from "../../extract/request";
import { jsonBody, parseWith } from "../body";
import { successBody } from "../envelope";
import { ApiError } from "../../errors";
import { authenticate } from "../middleware/authenticate";
import type { AppEnv } from "../types";
import { LIMITS } from "../../../schemas/limits";
import { publicOrigin, signedImageUrl, storeCapture } from "../../storage/hosted";
import { submitAsyncCapture } from "../../jobs/submit";

/** async: true — queued; 202 `{jobId, status: "queued"}` with the reserved credit in meta.usage. */
async function sendAsync(c: Context<AppEnv>, req: CaptureRequest) {
  const { data, usage } = await submitAsyncCapture(c.env, c.get("auth"), req, c.req.url);
  return c.json(successBody(c.get("requestId"), data, usage), 202);
}

interface RunOptions extends PrepareOptions {
  output?: CaptureSpec["output"];
  /** Store the output in R2 for this many seconds (hosted), inside the credited work. */
  storeFor?: number;
}

/** prepare → reserve a credit → capture (→ store) → commit, refunded if any step fails. */
async function run(c: Context<AppEnv>, req: CaptureRequest, options: RunOptions = {}) {
  const auth = c.get("auth");
  const spec = { ...(await prepareCapture(c.env, auth, req, options)), output: options.output ?? "image" };
  const started = Date.now();
  const { value, usage } = await withCredits(auth, 1, async () => {
    const result = await capture(c.env, spec);
    const loadTimeMs = Date.now() - started;
    const stored =
      options.storeFor === undefined
        ? null
        : await storeCapture(c.env, result, { ttlSeconds: options.storeFor, accountId: auth.accountId, context: "hosted capture" });
    return { result, loadTimeMs, stored };
  });
  return { spec, ...value, usage, capturedAt: new Date().toISOString() };
}

async function sendBytes(c: Context<AppEnv>, req: CaptureRequest) {
  const { spec, result, usage, capturedAt, loadTimeMs } = await run(c, req);
  const headers = { ...captureHeaders(result, spec, capturedAt, loadTimeMs), ...usageHeaders(usage) };
  return c.body(result.bytes as Uint8Array<ArrayBuffer>, 200, headers);
}

/** hosted: true — the output goes to R2 and the caller gets a signed URL valid for cacheTtl. */
async function sendHosted(c: Context<AppEnv>, req: CaptureRequest) {
  const storeFor = req.cacheTtl ?? LIMITS.cacheTtl.default;
  const { spec, result, stored, usage } = await run(c, req, { handled: ["hosted"], storeFor });
  if (!stored) throw new Error("hosted capture returned without its stored output");
  const data = {
    url: await signedImageUrl(c.env, publicOrigin(c.env, c.req.url), stored),
    expiresAt: new Date(stored.expires * 1000).toISOString(),
    contentType: result.contentType,
    format: spec.format,
    width: result.width,
    height: result.height,
    bytesSize: result.bytes.byteLength,
  };
  return c.json(successBody(c.get("requestId"), data, usage));
}

export const screenshotRoutes = new Hono<AppEnv>()
  .post("/screenshot", authenticate(), async (c) => {
    const req = await jsonBody(c, captureRequestSchema);
    if (req.async === true) return sendAsync(c, req);
    return req.hosted === true ? sendHosted(c, req) : sendBytes(c, req);
  })
  .get("/screenshot", authenticate({ allowQueryKey: true }), async (c) => {
    const { record, issues } = queryRecord(new URL(c.req.url));
    if (issues.length > 0) {
      throw new ApiError("VALIDATION_ERROR", `Invalid request: ${issues.map((i) => i.path).join(", ")}.`, { details: issues });
    }
    return sendBytes(c, parseWith(captureQuerySchema, record) as CaptureRequest);
  })
  .post("/screenshot/json", authenticate(), async (c) => {
    const req = await jsonBody(c, captureRequestSchema);
    if (req.async === true) return sendAsync(c, req);
    const extract = requestedExtraction(req);
    const handled = ["extract", "extractFormat"] as const;
    const { spec, result, usage, capturedAt, loadTimeMs } = await run(c, req, { handled, output: extract ? "image+dom" : "image" });
    const data = captureData(result, spec, capturedAt, loadTimeMs);
    const extracted = extract ? extractedField(result, spec, extract, loadTimeMs) : {};
    return c.json(successBody(c.get("requestId"), { ...data, ...extracted }, usage));
  });
