/**
 * The work behind POST /v1/extract (and the MCP `read_page` tool, src/http/mcp/): the reader-mode
 * article of a rendered page, loaded as an article-only capture and billed as its one output.
 * The route (src/http/routes/extract.ts) parses and responds.
 *
 * `render: "never"` reads the page without a browser: its document fetched through the guarded
 * fetch (src/security/guarded-fetch.ts: the URL guard, DNS and reputation checks on every hop
 * before it is requested, a byte cap) and read by the same reader and converter the browser path
 * uses; `"auto"` does that unless the document needs its scripts (src/extract/needs-browser.ts)
 * or could not be fetched, then renders it in the browser. One credit either way.
 */
import type { ExtractFormat, ExtractRequest } from "../../schemas/extract";
import { LIMITS } from "../../schemas/limits";
import type { ExtractionData } from "../../schemas/responses";
import type { AuthContext } from "../accounts/auth";
import { withCredits } from "../accounts/credits";
import { prepareCapture } from "../capture-request/prepare";
import type { CaptureSpec } from "../capture/capture-spec";
import { ApiError } from "../errors";
import { extractArticle } from "../extract/extract";
import { needsBrowser } from "../extract/needs-browser";
import { parseDocument } from "../extract/parse";
import { readDocument } from "../extract/reader";
import { fetchHtml, type FetchedHtml } from "../security/guarded-fetch";
import { TUNING } from "../tuning";
import { MESSAGES } from "../user-messages";
import { browserEngine } from "./engine";
import { extractOnlySpec, toCaptureRequest } from "./extraction";
import { runCapture } from "./pipeline";

/** The extraction's one output, billable: the route reserves it with authentication. */
export const EXTRACTION = { kind: "extraction", billable: true } as const;

export async function extractPage(env: Env, auth: AuthContext, req: ExtractRequest) {
  const { render = "always", ...rest } = req;
  const spec = extractOnlySpec(await prepareCapture(env, auth, toCaptureRequest(rest)));
  const format = req.extractFormat ?? "markdown";
  if (render !== "always" && spec.source.kind === "url") {
    const started = Date.now();
    const fetched = await fetchHtml(env, spec.source.url, {
      maxBytes: TUNING.crawlHttpPageBytes,
      timeoutMs: (req.timeout ?? LIMITS.timeoutSeconds.default) * 1000,
    });
    // `auto`: the browser when the document needs its scripts, or when it could not be fetched
    // (too slow, past the byte cap); a refusal or a document that is no web page is answered here.
    const browser =
      render === "auto" &&
      (fetched.kind === "error" ||
        (fetched.kind === "document" && needsBrowser(parseDocument(fetched.html))));
    if (!browser)
      return withCredits(auth, 1, async () =>
        readFetched(fetched, format, Date.now() - started, spec),
      ).then(({ value, usage }) => ({ data: value, usage }));
  }
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
  const data: ExtractionData =
    render === "always" ? output.data : { ...output.data, rendered: "browser" };
  return { data, usage: captured.usage };
}

/** A fetched answer as the extraction, or the error a browser load of it would have given. */
function readFetched(
  fetched: FetchedHtml,
  format: ExtractFormat,
  loadTimeMs: number,
  spec: CaptureSpec,
): ExtractionData {
  switch (fetched.kind) {
    case "blocked":
    case "error":
    case "not_modified": // no conditional request is sent from here: never answered
      throw new ApiError("CAPTURE_FAILED", MESSAGES.unreachable, { status: 400 });
    case "not_html": {
      const type = fetched.contentType;
      throw new ApiError(
        "CAPTURE_FAILED",
        `The target is not a web page${type ? ` (${type.slice(0, 100)})` : ""}.`,
        { status: 400, details: [{ path: "url", message: "Must point at an HTML page." }] },
      );
    }
    case "document": {
      const article = readDocument(parseDocument(fetched.html), {
        pageUrl: fetched.finalUrl,
        removeSelectors: spec.hideSelectors ?? [],
      });
      const data = extractArticle({ article, pageUrl: fetched.finalUrl, format, loadTimeMs });
      return { ...data, rendered: "http" };
    }
  }
}
