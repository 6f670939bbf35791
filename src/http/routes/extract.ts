/** POST /v1/extract: reader-mode content of a rendered page (markdown, json or html). */
import { Hono } from "hono";
import { extractRequestSchema, type ExtractRequest } from "../../../schemas/extract";
import type { AuthContext } from "../../accounts/auth";
import { browserEngine } from "../../pipeline/engine";
import { runCapture } from "../../pipeline/pipeline";
import { prepareCapture } from "../../capture/request";
import { extractOnlySpec, toCaptureRequest } from "../../pipeline/extraction";
import { jsonBody } from "../body";
import { charged, successBody } from "../envelope";
import { authenticate } from "../middleware/authenticate";
import { idempotent } from "../middleware/idempotency";
import type { AppEnv } from "../types";

/** The route's one output, billable: reserved with authentication, then requested. */
const EXTRACTION = { kind: "extraction", billable: true } as const;

/**
 * The reader-mode article of a rendered page, billed as its one output. Also the MCP
 * `read_page` tool's (src/http/mcp/).
 */
export async function extractPage(env: Env, auth: AuthContext, req: ExtractRequest) {
  const spec = extractOnlySpec(await prepareCapture(env, auth, toCaptureRequest(req)));
  const format = req.extractFormat ?? "markdown";
  // The extraction is the billable output: no article (422) or too large (413) is refunded.
  const captured = await runCapture(env, auth, {
    spec,
    outputs: [{ ...EXTRACTION, format }],
    storage: { kind: "none" },
    engine: browserEngine(env),
  });
  const [output] = captured.outputs;
  if (!output?.ok) throw output?.failure.error ?? new Error("extraction run returned no output");
  if (output.kind !== "extraction") throw new Error("extraction run returned an image");
  return { data: output.data, usage: captured.usage };
}

export const extractRoutes = new Hono<AppEnv>().post(
  "/extract",
  authenticate({ reserveFor: [EXTRACTION] }),
  idempotent(),
  async (c) => {
    const req = await jsonBody(c, extractRequestSchema);
    const { data, usage } = await extractPage(c.env, c.get("auth"), req);
    return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
  },
);
