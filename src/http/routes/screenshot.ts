/** POST/GET /v1/screenshot (bytes) and POST /v1/screenshot/json (envelope with base64). */
import { Hono, type Context } from "hono";
import { captureQuerySchema, queryRecord } from "../../../schemas/capture-query";
import { captureRequestSchema, type CaptureRequest } from "../../../schemas/capture";
import { authenticate } from "../../accounts/auth";
import { usageHeaders, withCredits } from "../../accounts/credits";
import { prepareCapture, type PrepareOptions } from "../../capture/request";
import { captureData, captureHeaders } from "../../capture/response";
import { capture } from "../../capture/service";
import type { CaptureSpec } from "../../capture/spec";
import { extractedField, requestedExtraction } from "../../extract/request";
import { jsonBody, parseWith } from "../body";
import { successBody } from "../envelope";
import { ApiError } from "../errors";
import type { AppEnv } from "../types";
import { FAILURE } from "../../capture/failures";
import { LIMITS } from "../../limits";
import { publicOrigin, signedImageUrl, storeOutput } from "../../storage/hosted";
import { submitAsyncCapture } from "../../jobs/submit";

/** async: true — queued; 202 `{jobId, status: "queued"}` with the reserved credit in meta.usage. */
async function sendAsync(c: Context<AppEnv>, req: CaptureRequest) {
  const { data, usage } = await submitAsyncCapture(c.env, c.get("auth"), req, c.req.url);
  return c.json(successBody(c.get("requestId"), data, usage), 202);
}

async function run(c: Context<AppEnv>, req: CaptureRequest, options: PrepareOptions = {}, output: CaptureSpec["output"] = "image") {
  const auth = c.get("auth");
  const spec = { ...(await prepareCapture(c.env, auth, req, options)), output };
  const started = Date.now();
  const { value: result, usage } = await withCredits(auth, 1, () => capture(c.env, spec));
  return { spec, result, usage, capturedAt: new Date().toISOString(), loadTimeMs: Date.now() - started };
}

async function sendBytes(c: Context<AppEnv>, req: CaptureRequest) {
  const { spec, result, usage, capturedAt, loadTimeMs } = await run(c, req);
  const headers = { ...captureHeaders(result, spec, capturedAt, loadTimeMs), ...usageHeaders(usage) };
  return c.body(result.bytes as Uint8Array<ArrayBuffer>, 200, headers);
}

/** hosted: true — the output goes to R2 and the caller gets a signed URL valid for cacheTtl. */
async function sendHosted(c: Context<AppEnv>, req: CaptureRequest) {
  const auth = c.get("auth");
  const spec = await prepareCapture(c.env, auth, req, { handled: ["hosted"] });
  const ttlSeconds = req.cacheTtl ?? LIMITS.cacheTtl.default;
  const { value, usage } = await withCredits(auth, 1, async () => {
    const result = await capture(c.env, spec);
    const stored = await storeOutput(c.env, { bytes: result.bytes, contentType: result.contentType, ttlSeconds, accountId: auth.accountId })
      .catch(() => {
        throw new ApiError("CAPTURE_FAILED", FAILURE.storage, { status: 500 });
      });
    return { result, stored };
  });
  const { result, stored } = value;
  const url = await signedImageUrl(c.env, publicOrigin(c.env, c.req.url), stored);
  const data = {
    url,
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
    const { spec, result, usage, capturedAt, loadTimeMs } = await run(c, req, { handled }, extract ? "image+dom" : "image");
    const data = captureData(result, spec, capturedAt, loadTimeMs);
    const extracted = extract ? extractedField(result, spec, extract, loadTimeMs) : {};
    return c.json(successBody(c.get("requestId"), { ...data, ...extracted }, usage));
  });
