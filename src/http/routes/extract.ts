/** POST /v1/extract: reader-mode content of a rendered page (markdown, json or html). */
import { Hono } from "hono";
import { extractRequestSchema } from "../../../schemas/extract";
import { withCredits } from "../../accounts/credits";
import { prepareCapture } from "../../capture/request";
import { capture } from "../../capture/service";
import { extractFromCapture, extractOnlySpec, toCaptureRequest } from "../../extract/request";
import { jsonBody } from "../body";
import { successBody } from "../envelope";
import { authenticate } from "../middleware/authenticate";
import type { AppEnv } from "../types";

export const extractRoutes = new Hono<AppEnv>().post("/extract", authenticate(), async (c) => {
  const req = await jsonBody(c, extractRequestSchema);
  const auth = c.get("auth");
  const spec = extractOnlySpec(await prepareCapture(c.env, auth, toCaptureRequest(req)));
  const format = req.extractFormat ?? "markdown";
  const started = Date.now();
  // Extraction runs inside the credit's work: no article (422) or too large (413) costs nothing.
  const { value, usage } = await withCredits(auth, 1, async () => {
    const result = await capture(c.env, spec);
    return extractFromCapture(result, spec, format, Date.now() - started);
  });
  return c.json(successBody(c.get("requestId"), value, usage));
});
