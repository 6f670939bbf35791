/**
 * The work behind POST /v1/extract (and the MCP `read_page` tool, src/http/mcp/): the reader-mode
 * article of a rendered page, loaded as an article-only capture and billed as its one output.
 * The route (src/http/routes/extract.ts) parses and responds.
 */
import type { ExtractRequest } from "../../schemas/extract";
import type { AuthContext } from "../accounts/auth";
import { prepareCapture } from "../capture-request/prepare";
import { browserEngine } from "./engine";
import { extractOnlySpec, toCaptureRequest } from "./extraction";
import { runCapture } from "./pipeline";

/** The extraction's one output, billable: the route reserves it with authentication. */
export const EXTRACTION = { kind: "extraction", billable: true } as const;

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
