/**
 * A geo capture: the spec's page rendered by the configured provider in the target country.
 * One place for what every adapter shares — the deadline, the size cap on the answer, the key
 * kept out of logs, and the rule that only a whole PNG of the fixed viewport becomes an output
 * (a provider's error page or broken image is never passed through: 502).
 */
import { LIMITS } from "../../../schemas/limits";
import type { GeoConfig } from "../../config";
import { log } from "../../log";
import { checkUrl } from "../../security/url-guard";
import { readCapped } from "../../security/outbound";
import { TUNING } from "../../tuning";
import type { CaptureOutcome } from "../host/browser-host";
import { NO_METADATA } from "../page/page-read";
import { failures, type CaptureFailure } from "../failures";
import { imageSize, pngComplete } from "../outputs/image-info";
import type { CaptureSpec, GeoTarget } from "../capture-spec";
import { GEO_PROVIDERS } from "./providers";

/** The rendering engine a geo capture reports (`x-service-rendering-engine`). */
export const GEO_RENDERING_ENGINE = "geo-proxy";

/**
 * `allowlist` is the URL guard's (TARGET_ALLOWLIST): the provider's report of where the page
 * ended up is echoed (`x-service-final-url`, JSON `url`) only as an http(s) URL the guard passes.
 */
export async function captureThroughProvider(
  geo: GeoConfig,
  spec: CaptureSpec,
  allowlist: ReadonlySet<string>,
): Promise<CaptureOutcome> {
  const provider = GEO_PROVIDERS[geo.provider];
  const target = spec.geo;
  const source = spec.source;
  if (!target || source.kind !== "url")
    throw new Error("captureThroughProvider: not a geo url spec");
  const fail = (
    failure: CaptureFailure,
    msg: string,
    fields: Record<string, unknown>,
  ): CaptureOutcome => {
    log(
      failure.code === "CONFIGURATION_ERROR" ? "error" : "warn",
      msg,
      redact({ provider: geo.provider, ...fields }, geo.apiKey),
    );
    return { ok: false, failure };
  };

  const signal = AbortSignal.timeout(spec.timeoutMs + spec.delayMs + TUNING.geoProviderGraceMs);
  let answer;
  try {
    const request = provider.request(
      { ...spec, geo: target satisfies GeoTarget, source },
      geo.endpoint,
      geo.apiKey,
    );
    const res = await fetch(request, { signal });
    const read = await readCapped(res, LIMITS.outputBytes);
    if (!read.ok && read.reason === "too-large")
      return fail(failures.tooLarge(), "geo provider answer over the size limit", {
        status: res.status,
      });
    if (!read.ok) return fail(failures.geoUnavailable(true), "geo provider unreachable", {});
    answer = provider.interpret({ status: res.status, headers: res.headers, body: read.bytes });
  } catch (err) {
    const name = err instanceof Error ? err.name : "";
    if (name === "TimeoutError" || name === "AbortError" || signal.aborted) {
      return fail(failures.timeout(), "geo provider timed out", { country: target.country });
    }
    // The fetch error's message may carry the request URL (and so the key): name only.
    return fail(failures.geoUnavailable(true), "geo provider unreachable", {
      error: name || "unknown",
    });
  }
  if (!answer.ok)
    return fail(answer.failure, "geo provider refused the capture", {
      country: target.country,
      ...answer.detail,
    });

  const size = pngComplete(answer.png) ? imageSize(answer.png) : null;
  const { width, height } = spec.viewport;
  if (!size || size.width !== width || size.height !== height) {
    return fail(failures.geoBadAnswer(), "geo provider answer is not the expected PNG", {
      size,
      bytes: answer.png.byteLength,
    });
  }
  return {
    ok: true,
    result: {
      content: null,
      article: null,
      quality: "full",
      completeness: null,
      waitStrategy: provider.waitStrategy,
      autoScrolled: false,
      finalUrl: reportedUrl(answer.finalUrl, allowlist) ?? source.url,
      contentType: null,
      page: NO_METADATA,
      animation: null,
      outputs: [
        {
          ok: true,
          output: {
            format: "png",
            bytes: answer.png,
            contentType: "image/png",
            width,
            height,
            truncated: false,
            watermarked: false,
          },
        },
      ],
    },
  };
}

/**
 * The provider's resolved URL in its canonical form when it is an http(s) URL the URL guard
 * passes as a target; null otherwise (`javascript:`, `data:`, a private host, unparseable), and
 * the requested URL is reported instead. The provider's headers are not ours to echo as is.
 */
function reportedUrl(raw: string | null, allowlist: ReadonlySet<string>): string | null {
  if (raw === null) return null;
  const verdict = checkUrl(raw, "target", allowlist);
  return verdict.ok ? verdict.url.href : null;
}

/** Our key never reaches a log line, whatever the provider echoed back. */
function redact(fields: Record<string, unknown>, apiKey: string): Record<string, unknown> {
  const text = JSON.stringify(fields).replaceAll(apiKey, "[redacted]");
  return JSON.parse(text) as Record<string, unknown>;
}
