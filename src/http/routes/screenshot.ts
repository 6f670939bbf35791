/** POST/GET /v1/screenshot (bytes) and POST /v1/screenshot/json (envelope with base64). */
import { Hono, type Context } from "hono";
import { captureQuerySchema, queryRecord } from "../../../schemas/capture-query";
import { captureRequestSchema, type CaptureRequest } from "../../../schemas/capture";
import { authenticate } from "../../accounts/auth";
import { usageHeaders, withCredits } from "../../accounts/credits";
import { prepareCapture } from "../../capture/request";
import { captureData, captureHeaders } from "../../capture/response";
import { capture } from "../../capture/service";
import { jsonBody, parseWith } from "../body";
import { successBody } from "../envelope";
import { ApiError } from "../errors";
import type { AppEnv } from "../types";

async function run(c: Context<AppEnv>, req: CaptureRequest) {
  const auth = c.get("auth");
  const spec = prepareCapture(c.env, auth, req);
  const started = Date.now();
  const { value: result, usage } = await withCredits(auth, 1, () => capture(c.env, spec));
  return { spec, result, usage, capturedAt: new Date().toISOString(), loadTimeMs: Date.now() - started };
}

async function sendBytes(c: Context<AppEnv>, req: CaptureRequest) {
  const { spec, result, usage, capturedAt, loadTimeMs } = await run(c, req);
  const headers = { ...captureHeaders(result, spec, capturedAt, loadTimeMs), ...usageHeaders(usage) };
  return c.body(result.bytes as Uint8Array<ArrayBuffer>, 200, headers);
}

export const screenshotRoutes = new Hono<AppEnv>()
  .post("/screenshot", authenticate(), async (c) => sendBytes(c, await jsonBody(c, captureRequestSchema)))
  .get("/screenshot", authenticate({ allowQueryKey: true }), async (c) => {
    const { record, issues } = queryRecord(new URL(c.req.url));
    if (issues.length > 0) {
      throw new ApiError("VALIDATION_ERROR", `Invalid request: ${issues.map((i) => i.path).join(", ")}.`, { details: issues });
    }
    return sendBytes(c, parseWith(captureQuerySchema, record) as CaptureRequest);
  })
  .post("/screenshot/json", authenticate(), async (c) => {
    const req = await jsonBody(c, captureRequestSchema);
    const { spec, result, usage, capturedAt, loadTimeMs } = await run(c, req);
    return c.json(successBody(c.get("requestId"), captureData(result, spec, capturedAt, loadTimeMs), usage));
  });
