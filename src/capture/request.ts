/**
 * From a validated capture request to a CaptureSpec: plan gates, the URL guard on the target,
 * parameters handled by other routes, then normalisation. Shared by every capture route.
 */
import type { CaptureRequest } from "../../schemas/capture";
import type { AuthContext } from "../accounts/auth";
import { requireFeature } from "../accounts/policy";
import { config } from "../config";
import { ApiError } from "../errors";
import { checkTarget, invalidTarget } from "../security/target-check";
import { checkUrl } from "../security/url-guard";
import { toCaptureSpec, type CaptureSpec } from "./spec";

/** Options that geo captures cannot honour (spec, capture behavior 3). */
const GEO_UNSUPPORTED = [
  "html", "markdown", "css", "js", "cookies", "headers", "userAgent", "selector", "waitForSelector",
  "darkMode", "blockAds", "blockResourceTypes", "fullPage", "deviceScaleFactor", "pdfFormat",
  "pdfLandscape", "pdfPrintBackground", "pdfMargin", "pdfScale",
] as const;

export interface PrepareOptions {
  /** Parameters this route handles itself (e.g. `extract` on the JSON route). */
  handled?: ReadonlyArray<keyof CaptureRequest>;
}

/**
 * Parameters only some routes handle (hosted: POST /v1/screenshot; async/webhookUrl/storage: the POST
 * capture routes; extract: the JSON route). A route that does not name one in `handled` refuses
 * it — never a silent ignore.
 */
const ROUTE_SPECIFIC: ReadonlyArray<keyof CaptureRequest> = ["hosted", "async", "webhookUrl", "storage", "extract", "extractFormat"];

/** Synchronous validation first, then (last, once everything else is known valid) the target's DNS and reputation. */
export async function prepareCapture(env: Env, auth: AuthContext, req: CaptureRequest, options: PrepareOptions = {}): Promise<CaptureSpec> {
  const handled = new Set(options.handled ?? []);
  const refused = ROUTE_SPECIFIC.filter((k) => req[k] !== undefined && req[k] !== false && !handled.has(k));
  if (refused.length > 0) {
    throw new ApiError("VALIDATION_ERROR", `Not supported on this endpoint: ${refused.join(", ")}.`, {
      details: refused.map((path) => ({ path, message: "Not supported on this endpoint." })),
    });
  }

  if (req.cookies !== undefined) requireFeature(auth, "cookies");
  if (req.headers !== undefined) requireFeature(auth, "headers");

  let credentials: { username: string; password: string } | null = null;
  let target: URL | null = null;
  if (req.url !== undefined) {
    const verdict = checkUrl(req.url, "target", config(env).targetAllowlist);
    if (!verdict.ok) {
      throw invalidTarget();
    }
    const url = verdict.url;
    if (url.username || url.password) {
      requireFeature(auth, "urlCredentials");
      credentials = { username: decodeCredential(url.username), password: decodeCredential(url.password) };
      url.username = "";
      url.password = "";
    }
    req = { ...req, url: url.href };
    target = url;
  }

  if (req.geo !== undefined) {
    const conflicts = GEO_UNSUPPORTED.filter((k) => req[k] !== undefined);
    if (conflicts.length > 0) {
      throw new ApiError("GEO_FEATURE_UNAVAILABLE", `Not available with geo: ${conflicts.join(", ")}.`, {
        details: conflicts.map((path) => ({ path, message: "Not available with geo." })),
      });
    }
    requireFeature(auth, "geo");
    throw new ApiError("CONFIGURATION_ERROR", "Geo-targeted capture is not configured on this deployment.");
  }

  const spec = toCaptureSpec(req, { watermark: watermarkFor(env, auth) });
  if (target !== null) await checkTarget(env, target);
  return { ...spec, credentials };
}

/** The Free plan's watermark text (tiled on images, a footer on PDFs); null on paid plans. */
export function watermarkFor(env: Env, auth: AuthContext): string | null {
  return auth.plan.watermark ? config(env).watermarkText : null;
}

/** `user:pass@` as typed, percent-decoded; a malformed escape (`%ZZ`) is the caller's 400. */
function decodeCredential(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError("INVALID_URL", "The url's credentials are not validly percent-encoded.", {
      details: [{ path: "url", message: "Credentials must be validly percent-encoded." }],
    });
  }
}
