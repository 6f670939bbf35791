/**
 * ScrapingBee's HTML API as a geo provider, spoken as documented at
 * https://www.scrapingbee.com/documentation/ (HTML API reference; screenshot tutorials at
 * https://www.scrapingbee.com/tutorials/how-to-make-screenshots-in-python/):
 *
 *   GET {endpoint}/api/v1/?api_key=…&url=<encoded>&render_js=true&premium_proxy=true
 *       &country_code=<iso, lower case>&screenshot=true&window_width=1280&window_height=800
 *       [&wait=<ms after load>]&timeout=<ms, 1000–140000>
 *
 * - 200: the body is the PNG of the viewport. `Spb-Initial-Status-Code` carries the target's own
 *   status, `Spb-Resolved-Url` where it ended up after redirects, `Spb-Cost` the credits spent.
 * - The target's 404/410 come back as such (with `Spb-Initial-Status-Code`); its other failures
 *   as 500. 400 = a parameter it refuses; 401 = bad key or no credit left; 429 = too many
 *   concurrent requests; 500 without `Spb-Initial-Status-Code` = its own failure. Error bodies
 *   are JSON (`{"message": …}` or `{"error": …, "reason": …}`).
 * - `country_code` needs `premium_proxy=true` (or stealth). The HTML API has no city or state
 *   targeting, so this adapter declares neither (a geoCity/geoState request is a 422).
 */
import { failures } from "../failures";
import type { GeoProvider, ProviderResponse, ProviderAnswer } from "./provider";

/** ScrapingBee's bounds on `timeout` (ms). */
const TIMEOUT_MS = { min: 1_000, max: 140_000 } as const;
/** How much of an error body the logs keep. */
const DETAIL_CHARS = 300;

export const scrapingBee: GeoProvider = {
  supports: { geoCity: false, geoState: false },
  waitStrategy: "proxy-managed",

  request(spec, endpoint, apiKey) {
    const url = new URL(`${endpoint}/api/v1/`);
    const q = url.searchParams;
    q.set("api_key", apiKey);
    q.set("url", spec.source.url);
    q.set("render_js", "true");
    q.set("premium_proxy", "true");
    q.set("country_code", spec.geo.country.toLowerCase());
    q.set("screenshot", "true");
    q.set("window_width", String(spec.viewport.width));
    q.set("window_height", String(spec.viewport.height));
    if (spec.delayMs > 0) q.set("wait", String(spec.delayMs));
    q.set("timeout", String(Math.min(TIMEOUT_MS.max, Math.max(TIMEOUT_MS.min, spec.timeoutMs))));
    return new Request(url, { method: "GET", headers: { accept: "image/png" } });
  },

  interpret(res: ProviderResponse): ProviderAnswer {
    const initialRaw = res.headers.get("spb-initial-status-code");
    const initial = initialRaw !== null && /^\d{3}$/.test(initialRaw) ? Number(initialRaw) : null;
    const detail = {
      status: res.status,
      initialStatus: initial,
      cost: res.headers.get("spb-cost"),
      body:
        res.status === 200
          ? undefined
          : new TextDecoder().decode(res.body.subarray(0, DETAIL_CHARS * 4)).slice(0, DETAIL_CHARS),
    };
    if (res.status === 200) {
      if (initial !== null && initial >= 400)
        return { ok: false, failure: failures.unreachable(), detail };
      const type = res.headers.get("content-type") ?? "";
      if (!/^image\/png\b/i.test(type))
        return {
          ok: false,
          failure: failures.geoBadAnswer(),
          detail: { ...detail, contentType: type },
        };
      return { ok: true, png: res.body, finalUrl: res.headers.get("spb-resolved-url") };
    }
    // The target answered (404/410 passed through, its 5xx as a 500): it could not be captured.
    if (initial !== null) return { ok: false, failure: failures.unreachable(), detail };
    // Its own refusals: our key or quota (not cured by a retry), its load or outage (may be).
    const transient = res.status === 429 || res.status >= 500;
    return { ok: false, failure: failures.geoUnavailable(transient), detail };
  },
};
