/**
 * Capture engines: what loads a spec's page once and renders the outputs it asks for. Today the
 * BrowserHost Durable Objects (a warm browser each), and for geo-targeted specs the configured
 * geo provider (capture/geo/) behind the same interface. Only the pipeline (and the job
 * consumer's test seam) calls one; the pipeline picks the geo engine when `spec.geo` is set.
 */
import { config } from "../config";
import type { BrowserHost, CaptureOutcome, CaptureTurn } from "../capture/host/browser-host";
import type { PageCapture } from "../capture/page/page-capture";
import type { OutputOutcome } from "../capture/outputs/outputs";
import { failures } from "../capture/failures";
import { imageSize } from "../capture/outputs/image-info";
import { log } from "../log";
import { captureThroughProvider } from "../capture/geo/through-provider";
import type { CaptureSpec } from "../capture/capture-spec";
import { captureWeight } from "../capture/page/weight";
import { TUNING } from "../tuning";

export interface CaptureEngine {
  /**
   * Loads `spec`'s page once and renders `spec.outputs`; a failed load is an outcome.
   * `accountId` is whose share of the browser slots the capture counts against; `turn` says
   * whether its slot yields to interactive captures and which lane (crawl) it belongs to
   * (src/capture/host/browser-host.ts).
   */
  capture(spec: CaptureSpec, accountId: string, turn?: CaptureTurn): Promise<CaptureOutcome>;
}

/**
 * One BrowserHost shard, at random (a crawl's pages, `lane`: always the same one, where its last
 * page may be kept open for the next): of the heavy lane (HEAVY_BROWSER_HOSTS, `heavy-<n>`) for a
 * capture that may render more than TUNING.heavyCapturePixels device pixels (a full page counts
 * at its maximum height: it is not measured yet), else of the BROWSER_HOSTS (`host-<n>`). A giant
 * raster holds its browser's GPU process for tens of seconds, and that process is shared by every
 * capture of the browser: in its own lane it slows only other giants.
 */
function browserHost(env: Env, weight = 0, lane?: string): DurableObjectStub<BrowserHost> {
  const { browserHosts, heavyBrowserHosts } = config(env);
  const heavy = weight > TUNING.heavyCapturePixels;
  const shards = heavy ? heavyBrowserHosts : browserHosts;
  const shard = lane === undefined ? Math.floor(Math.random() * shards) : hashOf(lane) % shards;
  return env.BROWSER_HOST.get(env.BROWSER_HOST.idFromName(`${heavy ? "heavy" : "host"}-${shard}`));
}

/** A string's FNV-1a hash: a lane's shard. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The BrowserHost engine: each capture on a randomly chosen shard of its lane. */
export function browserEngine(env: Env): CaptureEngine {
  return {
    capture: (spec, accountId, turn) =>
      browserHost(env, captureWeight(spec), turn?.lane).capture(spec, accountId, turn),
  };
}

/**
 * The geo provider engine. Configuration was checked when the request was admitted; a job run
 * after the provider was unconfigured fails as the service being unavailable (503, refunded).
 */
export function geoEngine(env: Env): CaptureEngine {
  return {
    capture: async (spec, accountId) => {
      const { geo, targetAllowlist } = config(env);
      if (geo === null) return { ok: false, failure: failures.geoUnavailable(false) };
      const outcome = await captureThroughProvider(geo, spec, targetAllowlist);
      return outcome.ok && spec.resize !== null
        ? resizeOnHost(env, outcome.result, spec.resize, accountId)
        : outcome;
    },
  };
}

/**
 * Downscales an image into `box` on a BrowserHost (PNG out, never upscaled): the rule a geo
 * capture's resize follows, and the MCP screenshot tool's view for a model (src/http/mcp/).
 */
export function resizeOnBrowserHost(
  env: Env,
  bytes: Uint8Array,
  box: { width: number | null; height: number | null },
  accountId: string,
): Promise<Uint8Array> {
  return browserHost(env).resizeImage(bytes, box, accountId);
}

/** resizeWidth/resizeHeight on a geo PNG: the usual rules, applied by a BrowserHost. */
async function resizeOnHost(
  env: Env,
  page: PageCapture,
  box: { width: number | null; height: number | null },
  accountId: string,
): Promise<CaptureOutcome> {
  const outputs = await Promise.all(
    page.outputs.map(async (outcome): Promise<OutputOutcome> => {
      if (!outcome.ok) return outcome;
      try {
        const bytes = await resizeOnBrowserHost(env, outcome.output.bytes, box, accountId);
        const size = imageSize(bytes);
        if (!size) return { ok: false, failure: failures.generic() };
        return {
          ok: true,
          output: { ...outcome.output, bytes, width: size.width, height: size.height },
        };
      } catch (err) {
        log("error", "geo resize failed", { error: err instanceof Error ? err.name : "unknown" });
        return { ok: false, failure: failures.generic() };
      }
    }),
  );
  return { ok: true, result: { ...page, outputs } };
}
