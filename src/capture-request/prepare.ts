/**
 * From a validated capture request to a CaptureSpec: plan gates, the URL guard on the target,
 * parameters handled by other routes, then normalisation. Shared by every capture route.
 */
import type { CaptureRequest } from "../../schemas/capture";
import { optionsWhere, type CaptureOption } from "../../schemas/capture/options";
import type { Plan } from "../accounts/plans";
import { requireFeature } from "../accounts/policy";
import { config } from "../config";
import { ApiError } from "../errors";
import { checkTarget, invalidTarget } from "../security/target-check";
import { checkUrl } from "../security/url-guard";
import { FAILURE } from "../capture/failures";
import { GEO_PROVIDERS } from "../capture/geo/providers";
import type { CaptureSpec } from "../capture/capture-spec";
import { OPTION_DEFAULTS, toCaptureSpec } from "./spec";

/**
 * Options that geo captures cannot honour (their class, schemas/capture/options.ts): the spec's
 * list (capture behavior 3), then the page controls the provider has no equivalent for —
 * refused with a non-default value rather than silently dropped (the spec's defaults stated
 * explicitly are accepted).
 */
const GEO_UNSUPPORTED = optionsWhere((c) => c.geo === "no");

/**
 * Whom a capture is prepared for: only the plan matters here (its features gate options, its
 * watermark marks outputs) — not the key or the account, which are the pipeline's business.
 */
export interface Caller {
  plan: Plan;
}

export interface PrepareOptions {
  /** Parameters this route handles itself (e.g. `extract` on the JSON route). */
  handled?: ReadonlyArray<keyof CaptureRequest>;
}

/**
 * Parameters only some routes handle (hosted: POST /v1/screenshot; async/webhookUrl/storage: the POST
 * capture routes; extract: the JSON route). A route that does not name one in `handled` refuses
 * it — never a silent ignore.
 */
const ROUTE_SPECIFIC = optionsWhere((c) => c.routeSpecific === true);

/** Synchronous validation first, then (last, once everything else is known valid) the target's DNS and reputation. */
export async function prepareCapture(
  env: Env,
  caller: Caller,
  req: CaptureRequest,
  options: PrepareOptions = {},
): Promise<CaptureSpec> {
  const handled = new Set(options.handled ?? []);
  const refused = ROUTE_SPECIFIC.filter(
    (k) => req[k] !== undefined && req[k] !== false && !handled.has(k),
  );
  if (refused.length > 0) {
    throw new ApiError(
      "VALIDATION_ERROR",
      `Not supported on this endpoint: ${refused.join(", ")}.`,
      {
        details: refused.map((path) => ({ path, message: "Not supported on this endpoint." })),
      },
    );
  }

  if (req.cookies !== undefined) requireFeature(caller, "cookies");
  if (req.headers !== undefined) requireFeature(caller, "headers");

  let credentials: { username: string; password: string } | null = null;
  let target: URL | null = null;
  if (req.url !== undefined) {
    const verdict = checkUrl(req.url, "target", config(env).targetAllowlist);
    if (!verdict.ok) {
      throw invalidTarget(verdict.reason);
    }
    const url = verdict.url;
    if (url.username || url.password) {
      requireFeature(caller, "urlCredentials");
      credentials = {
        username: decodeCredential(url.username),
        password: decodeCredential(url.password),
      };
      url.username = "";
      url.password = "";
    }
    req = { ...req, url: url.href };
    target = url;
  }

  if (req.geo !== undefined) checkGeo(env, caller, req, credentials !== null);

  const spec = toCaptureSpec(req, { watermark: watermarkFor(env, caller) });
  if (target !== null) await checkTarget(env, target);
  return { ...spec, credentials };
}

/** The Free plan's watermark text (tiled on images, a footer on PDFs); null on paid plans. */
export function watermarkFor(env: Env, caller: Caller): string | null {
  return caller.plan.watermark ? config(env).watermarkText : null;
}

/**
 * A geo request the configured provider can run, or the answer: 422 naming every option it
 * cannot honour (and what the adapter cannot target), 403 below Pro, 503 with no provider.
 */
function checkGeo(env: Env, caller: Caller, req: CaptureRequest, urlCredentials: boolean): void {
  const conflicts: string[] = GEO_UNSUPPORTED.filter((k) => isStated(req, k));
  if (req.format !== undefined && req.format !== "png") conflicts.push("format");
  if (req.extract === true) conflicts.push("extract");
  if (urlCredentials) conflicts.push("url");
  if (conflicts.length > 0) throw geoUnavailable(conflicts, "Not available with geo.");
  requireFeature(caller, "geo");
  const geo = config(env).geo;
  if (geo === null) throw new ApiError("CONFIGURATION_ERROR", FAILURE.geoUnconfigured);
  const { supports } = GEO_PROVIDERS[geo.provider];
  const untargetable = (["geoCity", "geoState"] as const).filter(
    (k) => req[k] !== undefined && !supports[k],
  );
  if (untargetable.length > 0)
    throw geoUnavailable(untargetable, "Not supported by this deployment's geo provider.");
}

/** A value other than the spec's default (an empty list is the default of a list). */
function isStated(req: CaptureRequest, key: CaptureOption): boolean {
  const value = req[key];
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return false;
  return !(
    key in OPTION_DEFAULTS && OPTION_DEFAULTS[key as keyof typeof OPTION_DEFAULTS] === value
  );
}

function geoUnavailable(paths: string[], message: string): ApiError {
  return new ApiError(
    "GEO_FEATURE_UNAVAILABLE",
    `${message.replace(/\.$/, "")}: ${paths.join(", ")}.`,
    {
      details: paths.map((path) => ({ path, message })),
    },
  );
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
