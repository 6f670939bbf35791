/**
 * The work behind POST /v1/animate (docs/ANIMATE.md): a parsed request checked against the
 * plan's bounds, prepared as any capture (plan gates, the URL guard, DNS, reputation), then one
 * page load through the capture pipeline that records instead of taking images — the same
 * BrowserHost slots, fair CPU, browser guard and hard deadline (its length grows with the clip:
 * src/capture/page/deadline.ts). Credits by the clip's length, refunded when it fails.
 */
import type { AnimateRequest } from "../../schemas/animate";
import { LIMITS } from "../../schemas/limits";
import type { AuthContext } from "../accounts/auth";
import { usageHeaders } from "../accounts/credits";
import { ANIMATION_BOUNDS, type PlanId } from "../accounts/plans";
import { prepareCapture } from "../capture-request/prepare";
import { pageHeaders } from "../capture-request/response";
import type { AnimationPlan, CaptureSpec } from "../capture/capture-spec";
import type { RecordedAnimation } from "../capture/outputs/animation";
import { ApiError } from "../errors";
import { hostedHeaders, signedImageUrl } from "../storage/hosted";
import type { HostedAnimationData } from "../../schemas/responses";
import { browserEngine } from "./engine";
import { runCapture } from "./pipeline";
import type { StorageTarget } from "./storage";

const A = LIMITS.animation;

/** Credits of a clip: one per started `secondsPerCredit` seconds (the table in docs/ANIMATE.md). */
export function animationCredits(durationSeconds: number): number {
  return Math.max(1, Math.ceil(durationSeconds / A.secondsPerCredit - 1e-9));
}

/** The request's recording, with its defaults. */
export function animationPlan(req: AnimateRequest): AnimationPlan {
  return {
    format: req.format ?? "webm",
    scenario: req.scenario ?? "scroll",
    durationMs: Math.round((req.duration ?? A.durationSeconds.default) * 1000),
    fps: req.fps ?? A.fps.default,
    scrollSpeed: req.scrollSpeed ?? null,
    scrollDurationMs:
      req.scrollDuration === undefined ? null : Math.round(req.scrollDuration * 1000),
    scrollTillSelector: req.scrollTillSelector ?? null,
    scrollBack: req.scrollBack ?? false,
    startDelayMs: req.startDelay ?? 0,
  };
}

/**
 * 400 naming each field over the plan's bound, as the crawl's page cap does ("Must be at most N
 * on the X plan."): the caller's request against its plan's numbers, not a feature it lacks.
 */
function checkBounds(
  plan: PlanId,
  planName: string,
  recording: AnimationPlan,
  viewport: { width: number; height: number; deviceScaleFactor: number },
): void {
  const bounds = ANIMATION_BOUNDS[plan];
  const on = `on the ${planName} plan.`;
  const over: Array<{ path: string; message: string }> = [];
  if (recording.durationMs > bounds.durationSeconds * 1000)
    over.push({ path: "duration", message: `Must be at most ${bounds.durationSeconds} ${on}` });
  if (recording.fps > bounds.fps)
    over.push({ path: "fps", message: `Must be at most ${bounds.fps} ${on}` });
  const { width, height, deviceScaleFactor: dsf } = viewport;
  if (width * height * dsf * dsf > bounds.devicePixels)
    over.push({
      path: "width",
      message: `A frame is at most ${bounds.devicePixels.toLocaleString("en-US")} device pixels (width × height × deviceScaleFactor²) ${on}`,
    });
  const [first] = over;
  if (!first) return;
  throw new ApiError("VALIDATION_ERROR", `Invalid request: ${first.path}: ${first.message}`, {
    details: over,
  });
}

/** A recording ready to run: its prepared page, what it films, and what it costs. */
export interface PreparedRecording {
  spec: CaptureSpec;
  recording: AnimationPlan;
  credits: number;
}

/**
 * Every check of a recording, sync or async, in one place: geo refused, the page prepared as any
 * capture's (plan gates, the URL guard, DNS, reputation), then the plan's bounds; its credits.
 */
export async function prepareRecording(
  env: Env,
  auth: AuthContext,
  parsed: AnimateRequest,
): Promise<PreparedRecording> {
  const {
    format: _format,
    scenario: _scenario,
    duration: _duration,
    fps: _fps,
    scrollSpeed: _speed,
    scrollDuration: _scrollDuration,
    scrollTillSelector: _till,
    scrollBack: _back,
    startDelay: _startDelay,
    hosted: _hosted,
    ...req
  } = parsed;
  if (req.geo !== undefined) {
    const message = "Animated captures are not available with geo.";
    throw new ApiError("GEO_FEATURE_UNAVAILABLE", message, { details: [{ path: "geo", message }] });
  }
  const recording = animationPlan(parsed);
  // async, webhookUrl and storage are the jobs path's (./../jobs/submit.ts `submitAsyncRecording`).
  const spec = await prepareCapture(env, auth, req, {
    handled: ["async", "webhookUrl", "storage"],
  });
  checkBounds(auth.plan.id, auth.plan.name, recording, spec.viewport);
  return { spec, recording, credits: animationCredits(recording.durationMs / 1000) };
}

/**
 * POST /v1/animate (and the MCP tool record_page): the recording and its page's facts, charged by
 * its length; with `storage` hosted, the clip kept in our R2 too.
 */
export async function recordPage(
  env: Env,
  auth: AuthContext,
  parsed: AnimateRequest,
  storage: StorageTarget = { kind: "none" },
) {
  const { spec, recording, credits } = await prepareRecording(env, auth, parsed);
  const run = await runCapture(env, auth, {
    spec,
    outputs: [{ kind: "animation", plan: recording, credits }],
    storage,
    engine: browserEngine(env),
  });
  const output = run.outputs[0];
  if (!output) throw new Error("no recording in this run");
  if (!output.ok) throw output.failure.error;
  if (output.kind !== "animation" || !run.page) throw new Error("the run recorded nothing");
  return {
    recording: output.recording,
    stored: output.stored,
    page: run.page,
    loadTimeMs: run.loadTimeMs,
    usage: run.usage,
  };
}

/** The raw answer's headers: the file's type and size, the clip, the page, the credits. */
export function animationHeaders(
  result: Awaited<ReturnType<typeof recordPage>>,
): Record<string, string> {
  const r: RecordedAnimation = result.recording;
  return {
    ...hostedHeaders(r.contentType),
    "content-type": r.contentType,
    ...pageHeaders({ finalUrl: result.page.finalUrl, page: result.page.page }),
    "x-animation-width": String(r.width),
    "x-animation-height": String(r.height),
    "x-animation-frames": String(r.frames),
    "x-animation-duration-ms": String(r.durationMs),
    "x-service-quality": result.page.quality,
    "x-service-wait-strategy": result.page.waitStrategy,
    "x-service-load-time-ms": String(result.loadTimeMs),
    ...usageHeaders(result.usage),
  };
}

/** `hosted: true` (and record_page): the clip stored, answered as a signed URL and its facts. */
export async function hostedRecording(
  env: Env,
  auth: AuthContext,
  parsed: AnimateRequest,
  origin: string,
) {
  const storage: StorageTarget = {
    kind: "hosted",
    ttlSeconds: parsed.cacheTtl ?? LIMITS.cacheTtl.default,
    prefix: "o",
    context: "hosted recording",
  };
  const result = await recordPage(env, auth, parsed, storage);
  const { stored } = result;
  if (!stored) throw new Error("hosted recording returned without its stored output");
  const data: HostedAnimationData = {
    url: await signedImageUrl(env, origin, stored),
    expiresAt: new Date(stored.expires * 1000).toISOString(),
    ...clipFacts(result),
  };
  return { data, usage: result.usage };
}

/** What every answer with a recording says of it (hosted, the dashboard's playground). */
export function clipFacts({ recording: r, page, loadTimeMs }: Recorded) {
  return {
    contentType: r.contentType,
    format: r.format,
    width: r.width,
    height: r.height,
    frames: r.frames,
    durationMs: r.durationMs,
    bytesSize: r.bytes.byteLength,
    finalUrl: page.finalUrl,
    loadTimeMs,
  };
}

type Recorded = Awaited<ReturnType<typeof recordPage>>;
