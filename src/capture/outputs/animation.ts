/**
 * A recording of the loaded page (POST /v1/animate; docs/ANIMATE.md): frames from Chromium, then
 * encoded by Chromium or by a maintained encoder, in the page, under the capture's deadline.
 *
 * Frames: one JPEG `Page.captureScreenshot` of the viewport per frame of the clip. `scroll`
 * moves the page's own scroll (`scrollTo`, instant) to where the clip's clock says before each
 * frame, so the clip is exact however slow the screenshots are; `still` takes each frame when
 * the wall clock reaches its time (late, never skipped, when the page is slow). Each frame goes
 * into the page as it is taken (kept there as a JPEG Blob, in an isolated world of ours), in the
 * same round trip as the next scroll.
 *
 * Encoding: webm (VP8) and mp4 (H.264) by Chromium's MediaRecorder over a canvas the frames are
 * drawn on at the clip's rate (so it takes the clip's length); gif by gifenc (a static asset,
 * public/encoders/, inlined into the script), each frame quantised to its own 256 colours. A
 * browser without an H.264 encoder answers mp4 with 422 naming `format`.
 */
import type { Page } from "@cloudflare/puppeteer";
import { formatBytes, LIMITS } from "../../../schemas/limits";
import { CaptureError, failures, type CaptureFailure } from "../failures";
import type { CDPSession } from "@cloudflare/puppeteer";
import { mainFrameId, pageClient } from "../page/page-client";
import type { AnimationPlan } from "../capture-spec";
import { fromBase64 } from "../../encoding";

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

/** The gifenc source (an ES module), read once by the host; absent = gif unavailable. */
export type EncoderSource = () => Promise<string>;

export async function recordAnimation(
  page: Page,
  plan: AnimationPlan,
  viewport: { width: number; height: number; deviceScaleFactor: number },
  gifEncoder: EncoderSource | undefined,
): Promise<AnimationOutcome> {
  const encoder = plan.format === "gif" ? gifScript(await loadGifEncoder(gifEncoder)) : null;
  const videoFormat = plan.format === "mp4" ? "mp4" : "webm";
  const inWorld = await isolatedWorld(page);
  if (plan.format !== "gif" && !(await inWorld<boolean>(canRecord, MIME[videoFormat])))
    return { ok: false, failure: formatUnavailable(plan.format) };
  if (plan.startDelayMs > 0) await new Promise((r) => setTimeout(r, plan.startDelayMs));
  const key = `__edgeshotFrames${crypto.randomUUID().replace(/-/g, "")}`;
  const frames = Math.max(1, Math.round((plan.durationMs / 1000) * plan.fps));
  const position = plan.scenario === "scroll" ? await scrollPlan(inWorld, plan, frames) : null;
  const client = pageClient(page);
  const started = Date.now();
  let pending: string | null = null;
  for (let i = 0; i < frames; i++) {
    if (position) {
      await inWorld(stepFrame, key, pending, position(i));
    } else {
      if (pending !== null) await inWorld(stepFrame, key, pending, null);
      const wait = started + (i * 1000) / plan.fps - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    const shot = await client.send("Page.captureScreenshot", {
      format: "jpeg",
      quality: FRAME_QUALITY,
      optimizeForSpeed: true,
      captureBeyondViewport: false,
    });
    pending = shot.data;
  }
  await inWorld(stepFrame, key, pending, null);
  const width = evenFor(plan.format, Math.round(viewport.width * viewport.deviceScaleFactor));
  const height = evenFor(plan.format, Math.round(viewport.height * viewport.deviceScaleFactor));
  const cap = LIMITS.animation.outputBytes;
  type Encoded = { data: string | null; unsupported?: boolean };
  const answer = encoder
    ? await inWorld<Encoded>(encoder, key, width, height, plan.fps, cap)
    : await inWorld<Encoded>(recordScript, key, MIME[videoFormat], width, height, plan.fps, cap);
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
  return source();
}

/**
 * Where frame `i` has the page scrolled to: eased from the top to the target (scrollTillSelector's
 * top, or the page's end) over the scroll's time, then, with scrollBack, as long back up.
 */
async function scrollPlan(inWorld: World, plan: AnimationPlan, frames: number) {
  const target = await inWorld<number | null>(scrollTarget, plan.scrollTillSelector);
  if (target === null)
    throw new CaptureError(
      failures.elementNotFound("scrollTillSelector", plan.scrollTillSelector ?? ""),
    );
  const last = (frames - 1) / plan.fps;
  const down =
    plan.scrollDurationMs !== null
      ? plan.scrollDurationMs / 1000
      : plan.scrollSpeed !== null
        ? target / plan.scrollSpeed
        : plan.scrollBack
          ? last / 2
          : last;
  const ease = (x: number) => (1 - Math.cos(Math.PI * Math.min(1, Math.max(0, x)))) / 2;
  return (i: number): number => {
    const t = i / plan.fps;
    if (down <= 0) return t > 0 || !plan.scrollBack ? target : 0;
    if (t <= down || !plan.scrollBack) return Math.round(target * ease(t / down));
    return Math.round(target * (1 - ease((t - down) / down)));
  };
}

/** The scroll target in CSS px (null: no element matches), the page scrolled to the top. */
const scrollTarget = `(selector) => {
  const root = document.scrollingElement || document.documentElement;
  const max = Math.max(0, (root ? root.scrollHeight : 0) - window.innerHeight);
  let target = max;
  if (selector !== null) {
    const el = document.querySelector(selector);
    if (!el) return null;
    target = Math.min(max, Math.max(0, Math.round(el.getBoundingClientRect().top + window.scrollY)));
  }
  window.scrollTo({ top: 0, left: 0, behavior: "instant" });
  return target;
}`;

/** Keeps the last frame (a JPEG, base64) as a Blob under `key`, then scrolls to `y` if given. */
const stepFrame = `(key, frame, y) => {
  if (!Object.prototype.hasOwnProperty.call(window, key))
    Object.defineProperty(window, key, { value: [], enumerable: false, configurable: true });
  if (frame !== null) {
    const bin = atob(frame);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    window[key].push(new Blob([bytes], { type: "image/jpeg" }));
  }
  if (y !== null) window.scrollTo({ top: y, left: 0, behavior: "instant" });
}`;

const canRecord = `(mime) => typeof MediaRecorder === "function" && MediaRecorder.isTypeSupported(mime)`;

/** Bytes → base64 in the page, in slices (String.fromCharCode's argument limit). */
const toBase64Source = `(bytes) => {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}`;

/**
 * MediaRecorder over a canvas: each frame drawn and pushed (`requestFrame`) at its time on the
 * clip's clock, so the stream's timestamps are the clip's. Returns the file, base64, or null when
 * it is over `cap`.
 */
const recordScript = `async (key, mime, width, height, fps, cap) => {
  const frames = window[key] || [];
  delete window[key];
  if (!MediaRecorder.isTypeSupported(mime)) return { data: null, unsupported: true };
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d");
  const stream = canvas.captureStream(0);
  const track = stream.getVideoTracks()[0];
  const bits = Math.min(8e6, Math.max(5e5, Math.round(width * height * fps * 0.12)));
  const recorder = new MediaRecorder(stream, { mimeType: mime, videoBitsPerSecond: bits });
  const chunks = [];
  recorder.ondataavailable = (e) => { if (e.data.size > 0) chunks.push(e.data); };
  const stopped = new Promise((resolve) => { recorder.onstop = resolve; });
  const draw = async (blob) => {
    const bitmap = await createImageBitmap(blob);
    ctx.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
  };
  if (frames.length > 0) await draw(frames[0]);
  recorder.start();
  const start = performance.now();
  for (let i = 0; i < frames.length; i++) {
    if (i > 0) await draw(frames[i]);
    track.requestFrame();
    const wait = start + ((i + 1) * 1000) / fps - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  recorder.stop();
  await stopped;
  track.stop();
  const file = new Blob(chunks, { type: mime });
  if (file.size > cap) return { data: null };
  return { data: (${toBase64Source})(new Uint8Array(await file.arrayBuffer())) };
}`;

/**
 * gifenc (its ES module's body, the `export { a as B }` clause turned into an object) and the
 * loop: each frame decoded on a canvas, quantised to 256 colours (rgb444), indexed, written with
 * its delay; the GIF loops forever.
 */
export function gifScript(moduleSource: string): string {
  const exportClause = /export\s*\{([^}]*)\}\s*;?/;
  const match = exportClause.exec(moduleSource);
  if (!match?.[1]) throw new Error("gifenc: no export clause");
  const names = match[1].split(",").map((part) => {
    const [local, exported] = part.trim().split(/\s+as\s+/);
    return `${JSON.stringify(exported ?? local)}: ${local}`;
  });
  const body = moduleSource.replace(exportClause, "").replace(/\/\/# sourceMappingURL=.*$/m, "");
  return `async (key, width, height, fps, cap) => {
  const lib = (() => { ${body}
    return { ${names.join(", ")} }; })();
  const frames = window[key] || [];
  delete window[key];
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const gif = lib.GIFEncoder();
  const delay = Math.round(1000 / fps);
  for (const blob of frames) {
    const bitmap = await createImageBitmap(blob);
    ctx.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    const { data } = ctx.getImageData(0, 0, width, height);
    const palette = lib.quantize(data, 256, { format: "rgb444" });
    const index = lib.applyPalette(data, palette, "rgb444");
    gif.writeFrame(index, width, height, { palette, delay, repeat: 0 });
  }
  gif.finish();
  const bytes = gif.bytes();
  if (bytes.length > cap) return { data: null };
  return { data: (${toBase64Source})(bytes) };
}`;
}
