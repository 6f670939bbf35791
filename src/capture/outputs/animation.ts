/**
 * A recording of the loaded page (POST /v1/animate; docs/ANIMATE.md): frames from Chromium, then
 * encoded by Chromium or by a maintained encoder, in the page, under the capture's deadline.
 *
 * Frames: Chromium's screencast (./screencast.ts) while the clip plays on the page's own frame
 * clock (`scroll`: the page's own scroll moved each animation frame, eased, to where the clip's
 * clock says; `still`: the page left to move by itself), resampled to the clip's fps: a still's
 * frame `i` is the newest drawn by its time, a scroll's the one drawn nearest the position its
 * time asks for (each screencast frame says its scroll). The frames the clip uses then go into the page, kept as JPEG Blobs in an
 * isolated world of ours.
 *
 * Encoding: where the page is a secure context, WebCodecs (webm: VP9 as screen content, mp4:
 * H.264) with mediabunny's muxers (a static asset, public/encoders/, inlined into the script),
 * fed while filming: each clip frame is handed over once it is settled, a fixed lag behind the
 * clip's clock, and no frame is dropped. Elsewhere webm (VP8) and mp4 (H.264) by Chromium's
 * MediaRecorder over a canvas the frames are drawn on at the clip's rate, after filming. gif by
 * gifenc (inlined likewise), each distinct frame quantised to its own 256 colours. A browser
 * without an H.264 encoder answers mp4 with 422 naming `format`.
 */
import type { Page } from "@cloudflare/puppeteer";
import { formatBytes, LIMITS } from "../../../schemas/limits";
import { CaptureError, failures, type CaptureFailure } from "../failures";
import type { CDPSession } from "@cloudflare/puppeteer";
import { mainFrameId, pageClient } from "../page/page-client";
import type { AnimationPlan } from "../capture-spec";
import { fromBase64 } from "../../encoding";
import {
  canRecord,
  gifScript,
  keepFrames,
  playEndScript,
  playScript,
  recordScript,
  scrollAt,
  streamFeedScript,
  streamFinishScript,
  streamStartScript,
  scrollTarget,
  type ScrollMotion,
} from "./animation-scripts";
import {
  resample,
  resampleScroll,
  settledFrames,
  startScreencast,
  type ScreencastShot,
} from "./screencast";

export interface RecordedAnimation {
  format: AnimationPlan["format"];
  bytes: Uint8Array;
  contentType: string;
  /** Device pixels of each frame. */
  width: number;
  height: number;
  frames: number;
  durationMs: number;
}

export type AnimationOutcome =
  { ok: true; output: RecordedAnimation } | { ok: false; failure: CaptureFailure };

const CONTENT_TYPES = { webm: "video/webm", mp4: "video/mp4", gif: "image/gif" } as const;
const MIME = { webm: "video/webm;codecs=vp8", mp4: "video/mp4;codecs=avc1" } as const;
const FRAME_QUALITY = 90;
/** Frames handed to the page per round trip: about 4 MB of base64 at most. */
const FRAMES_BATCH_CHARS = 4_000_000;

/**
 * A world of our own in the page's main frame (CDP Page.createIsolatedWorld): the page's DOM,
 * but its own globals, so the page's script can neither see the frames kept there nor replace
 * MediaRecorder, Blob or btoa under the encoder. `(source)(...args)`, awaited, as JSON.
 */
type World = <T>(source: string, ...args: unknown[]) => Promise<T>;

async function isolatedWorld(page: Page): Promise<World> {
  const client: CDPSession = pageClient(page);
  const frameId = mainFrameId(page);
  if (frameId === undefined) throw new Error("puppeteer: the page has no main frame id");
  const { executionContextId } = await client.send("Page.createIsolatedWorld", {
    frameId,
    worldName: "edgeshot-recorder",
  });
  return async <T>(source: string, ...args: unknown[]): Promise<T> => {
    const { result, exceptionDetails } = await client.send("Runtime.evaluate", {
      expression: `(${source})(${args.map((a) => JSON.stringify(a)).join(",")})`,
      contextId: executionContextId,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails)
      throw new Error(`recorder script failed: ${exceptionDetails.exception?.description ?? ""}`);
    return result.value as T;
  };
}

/** The encoders served as static assets (public/encoders/, scripts/lib/assets.mjs). */
export const ENCODER_FILES = { gifenc: "gifenc.esm.js", mediabunny: "mediabunny.min.mjs" } as const;
export type EncoderAsset = keyof typeof ENCODER_FILES;

/**
 * An encoder's source (an ES module), read once by the host; absent = gif unavailable, and video
 * by MediaRecorder only.
 */
export type EncoderSource = (asset: EncoderAsset) => Promise<string>;

export async function recordAnimation(
  page: Page,
  plan: AnimationPlan,
  viewport: { width: number; height: number; deviceScaleFactor: number },
  encoders: EncoderSource | undefined,
): Promise<AnimationOutcome> {
  const encoder = plan.format === "gif" ? gifScript(await loadGifEncoder(encoders)) : null;
  // Read before filming (once per host): the video encoders' muxers, for WebCodecs.
  const muxers = plan.format !== "gif" && encoders ? await encoders("mediabunny") : null;
  const videoFormat = plan.format === "mp4" ? "mp4" : "webm";
  const inWorld = await isolatedWorld(page);
  if (plan.format !== "gif" && !(await inWorld<boolean>(canRecord, MIME[videoFormat])))
    return { ok: false, failure: formatUnavailable(plan.format) };
  if (plan.startDelayMs > 0) await new Promise((r) => setTimeout(r, plan.startDelayMs));
  const frames = Math.max(1, Math.round((plan.durationMs / 1000) * plan.fps));
  const motion = plan.scenario === "scroll" ? await scrollMotion(inWorld, plan, frames) : null;
  const width = evenFor(plan.format, Math.round(viewport.width * viewport.deviceScaleFactor));
  const height = evenFor(plan.format, Math.round(viewport.height * viewport.deviceScaleFactor));
  const client = pageClient(page);
  const key = () => `__edgeshot${crypto.randomUUID().replace(/-/g, "")}`;
  const bits = videoBits(width, height, plan.fps);
  // Video by WebCodecs where the page has it: encoded while filming (a lag behind the clip).
  const streamKey = key();
  const streaming =
    muxers !== null &&
    !(
      await inWorld<{ unavailable: boolean }>(
        streamStartScript(muxers),
        streamKey,
        videoFormat,
        width,
        height,
        plan.fps,
        bits,
      )
    ).unavailable;
  const positions = motion
    ? Array.from({ length: frames }, (_, i) => scrollAt(motion, i / plan.fps))
    : null;
  const feeder = streaming ? clipFeeder(inWorld, streamKey, frames, plan.fps, positions) : null;
  const end = motion ? scrollAt(motion, (frames - 1) / plan.fps) : null;
  const atEnd = (shot: ScreencastShot) => end !== null && Math.abs(shot.scrollY - end) < 1;
  let endArrived: (() => void) | null = null;
  const screencast = await startScreencast(client, { width, height }, FRAME_QUALITY, (shot) => {
    feeder?.add(shot);
    if (atEnd(shot)) endArrived?.();
  });
  const playKey = key();
  let clock: { startMs: number; endMs: number };
  try {
    const startMs = await inWorld<number>(playScript, playKey, motion, frames, plan.fps);
    feeder?.start(startMs);
    clock = await inWorld(playEndScript, playKey);
    // The scroll's end is drawn by now, but its frame may still be on its way (read back,
    // JPEG-encoded, sent): waited for a while rather than rendered and encoded again by a
    // screenshot (0.35–0.55 s under load).
    if (end !== null && !screencast.shots().some(atEnd))
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, END_FRAME_WAIT_MS);
        endArrived = () => {
          clearTimeout(timer);
          resolve();
        };
      });
  } catch (err) {
    await screencast.stop().catch(() => []);
    throw err;
  }
  const shots = await screencast.stop();
  const drawn: ScreencastShot[] = [...shots];
  // Nothing drawn (a page that never painted), or a scroll's end not among the frames (not
  // drawn in time): a screenshot of the page as it is now.
  if (drawn.length === 0 || (end !== null && !drawn.some(atEnd)))
    drawn.push({ data: await screenshot(client), atMs: clock.endMs, scrollY: end ?? 0 });
  const cap = LIMITS.animation.outputBytes;
  type Encoded = { data: string | null; unsupported?: boolean };
  let answer: Encoded;
  if (feeder) {
    await feeder.finish(drawn, clock.startMs);
    answer = await inWorld<Encoded>(streamFinishScript, streamKey, cap);
  } else {
    const order = clipOrder(drawn, positions, clock.startMs, frames, plan.fps);
    const images = drawn.map((s) => s.data);
    const framesKey = key();
    const { kept, order: keptOrder } = onlyUsed(images, order);
    for (const batch of batches(kept)) await inWorld(keepFrames, framesKey, batch);
    answer = encoder
      ? await inWorld<Encoded>(encoder, framesKey, keptOrder, width, height, plan.fps, cap)
      : await inWorld<Encoded>(
          recordScript,
          framesKey,
          keptOrder,
          MIME[videoFormat],
          width,
          height,
          plan.fps,
          bits,
          cap,
        );
  }
  if (answer.unsupported) return { ok: false, failure: formatUnavailable(plan.format) };
  if (answer.data === null)
    return { ok: false, failure: failures.tooLarge("recording", formatBytes(cap)) };
  return {
    ok: true,
    output: {
      format: plan.format,
      bytes: fromBase64(answer.data),
      contentType: CONTENT_TYPES[plan.format],
      width,
      height,
      frames,
      durationMs: Math.round((frames * 1000) / plan.fps),
    },
  };
}

/**
 * The clip's frames as indexes into `shots` (oldest first): a scroll's by the positions its
 * curve asks for, a still's by its clock.
 */
function clipOrder(
  shots: readonly ScreencastShot[],
  positions: readonly number[] | null,
  startMs: number,
  frames: number,
  fps: number,
): number[] {
  return positions
    ? resampleScroll(shots, positions, startMs, fps)
    : resample(shots, startMs, frames, fps);
}

/** How long a scroll's last frame may take to arrive once drawn before a screenshot replaces it. */
const END_FRAME_WAIT_MS = 500;

/**
 * The frames after a clip frame's time before it is chosen while filming (screencast.ts). Frames
 * arrive in the order drawn and a scroll's frame is drawn at its own time (the page moves only
 * then), so a frame drawn this long after it means its own has arrived unless the page's frame
 * clock stalled longer; 500 ms left ~12 frames to encode after filming, 250 ms ~6 (80–100 ms
 * less at load 11–13).
 */
const STREAM_LAG_MS = 250;

/**
 * Hands the clip's frames to the encoder in the page while filming goes on: each screencast
 * frame as it arrives settles the clip frames `STREAM_LAG_MS` older than it, chosen among the
 * frames drawn so far as `clipOrder` chooses; each JPEG crosses into the page once, one handover
 * at a time. `finish` settles the rest with every frame drawn (and the screenshot added at the end).
 */
function clipFeeder(
  inWorld: World,
  key: string,
  frames: number,
  fps: number,
  positions: readonly number[] | null,
) {
  const shots: ScreencastShot[] = [];
  const kept = new Map<ScreencastShot, number>();
  let settled = 0;
  let startMs: number | null = null;
  let running: Promise<void> | null = null;
  let failed: unknown = null;

  const hand = async (all: readonly ScreencastShot[], upTo: number) => {
    const sorted = [...all].sort((a, b) => a.atMs - b.atMs);
    const chosen = clipOrder(sorted, positions, startMs ?? 0, frames, fps)
      .slice(settled, upTo)
      .map((i) => sorted[i] as ScreencastShot);
    settled = upTo;
    let images: string[] = [];
    let order: number[] = [];
    let chars = 0;
    for (const shot of chosen) {
      let at = kept.get(shot);
      if (at === undefined) {
        if (images.length > 0 && chars + shot.data.length > FRAMES_BATCH_CHARS) {
          await inWorld(streamFeedScript, key, images, order);
          [images, order, chars] = [[], [], 0];
        }
        at = kept.size;
        kept.set(shot, at);
        images.push(shot.data);
        chars += shot.data.length;
      }
      order.push(at);
    }
    if (order.length > 0) await inWorld(streamFeedScript, key, images, order);
  };

  const pump = () => {
    if (running || failed || startMs === null || shots.length === 0) return;
    const newest = Math.max(...shots.map((s) => s.atMs));
    const upTo = settledFrames(newest, startMs, frames, fps, STREAM_LAG_MS);
    if (upTo <= settled) return;
    running = hand(shots, upTo)
      .catch((err: unknown) => {
        failed = err;
      })
      .finally(() => {
        running = null;
        pump();
      });
  };

  return {
    add(shot: ScreencastShot) {
      shots.push(shot);
      pump();
    },
    start(at: number) {
      startMs = at;
      pump();
    },
    async finish(drawn: readonly ScreencastShot[], clipStartMs: number) {
      startMs = clipStartMs;
      while (running) await running;
      if (failed) throw failed;
      await hand(drawn, frames);
    },
  };
}

async function screenshot(client: CDPSession): Promise<string> {
  const shot = await client.send("Page.captureScreenshot", {
    format: "jpeg",
    quality: FRAME_QUALITY,
    optimizeForSpeed: true,
    captureBeyondViewport: false,
  });
  return shot.data;
}

/** The images the clip uses, in order of first use, and the clip's order over them. */
function onlyUsed(images: string[], order: number[]): { kept: string[]; order: number[] } {
  const slot = new Map<number, number>();
  const kept: string[] = [];
  const mapped = order.map((i) => {
    let at = slot.get(i);
    if (at === undefined) {
      at = kept.push(images[i] ?? "") - 1;
      slot.set(i, at);
    }
    return at;
  });
  return { kept, order: mapped };
}

function* batches(images: string[]): Generator<string[]> {
  let batch: string[] = [];
  let chars = 0;
  for (const image of images) {
    if (batch.length > 0 && chars + image.length > FRAMES_BATCH_CHARS) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(image);
    chars += image.length;
  }
  if (batch.length > 0) yield batch;
}

/** H.264 (MediaRecorder's mp4) needs even sides. */
function evenFor(format: AnimationPlan["format"], px: number): number {
  return format === "mp4" ? Math.max(2, px - (px % 2)) : px;
}

function formatUnavailable(format: string): CaptureFailure {
  return {
    code: "CAPTURE_FAILED",
    status: 422,
    message: `This browser cannot encode ${format}.`,
    transient: false,
    details: [{ path: "format", message: `${format} is not available here: use webm or gif.` }],
  };
}

async function loadGifEncoder(source: EncoderSource | undefined): Promise<string> {
  if (!source) throw new Error("no gif encoder source");
  return source("gifenc");
}

/** The video's bit rate: ~0.12 bit a pixel, 0.5–8 Mbit/s. */
function videoBits(width: number, height: number, fps: number): number {
  return Math.min(8e6, Math.max(5e5, Math.round(width * height * fps * 0.12)));
}

/**
 * The scroll: from the top to the target (scrollTillSelector's top, or the page's end), eased
 * over the scroll's time (scrollDuration, or target / scrollSpeed, or the clip — half of it with
 * scrollBack), then, with scrollBack, as long back up.
 */
async function scrollMotion(
  inWorld: World,
  plan: AnimationPlan,
  frames: number,
): Promise<ScrollMotion> {
  const target = await inWorld<number | null>(scrollTarget, plan.scrollTillSelector);
  if (target === null)
    throw new CaptureError(
      failures.elementNotFound("scrollTillSelector", plan.scrollTillSelector ?? ""),
    );
  const last = (frames - 1) / plan.fps;
  const downS =
    plan.scrollDurationMs !== null
      ? plan.scrollDurationMs / 1000
      : plan.scrollSpeed !== null
        ? target / plan.scrollSpeed
        : plan.scrollBack
          ? last / 2
          : last;
  return { target, downS, back: plan.scrollBack };
}
