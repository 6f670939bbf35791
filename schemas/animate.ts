/**
 * The animated capture contract (POST /v1/animate; docs/ANIMATE.md): a video or GIF of a page
 * that scrolls itself (`scroll`) or is filmed as it is (`still`), from one page load with the
 * page content routes' options (viewport, waits, page controls, actions). The plan's bounds
 * (duration, fps, pixels) are checked by the operation (src/pipeline/animate.ts), the absolute
 * ones here.
 */
import { z } from "zod";
import { batchDefaultsOf, batchDeliveryShape, batchUrlsSchema } from "./batch";
import { captureRules, captureShape } from "./capture";
import { LIMITS } from "./limits";
import { pageOptions } from "./page-content";
import { cssSelector, intIn, numberIn } from "./primitives";

const A = LIMITS.animation;

export const ANIMATION_FORMATS = ["webm", "mp4", "gif"] as const;
export type AnimationFormat = (typeof ANIMATION_FORMATS)[number];
export const ANIMATION_SCENARIOS = ["scroll", "still"] as const;
export type AnimationScenario = (typeof ANIMATION_SCENARIOS)[number];

/** The capture options that do not apply to a recording: it is the viewport, filmed. */
const { fullPage: _fullPage, ...recordedPageOptions } = pageOptions;

/** Options that only mean something while the page scrolls. */
const SCROLL_ONLY = ["scrollSpeed", "scrollDuration", "scrollTillSelector", "scrollBack"] as const;

const animateShape = {
  ...recordedPageOptions,
  format: z.enum(ANIMATION_FORMATS).optional().meta({
    description:
      "webm (VP9, or VP8 by MediaRecorder outside a secure context), mp4 (H.264, where the browser has an H.264 encoder; otherwise 422) or gif (gifenc, 256 colours a frame).",
    default: "webm",
  }),
  scenario: z.enum(ANIMATION_SCENARIOS).optional().meta({
    description:
      "scroll: the page scrolls itself from the top to scrollTillSelector (or its end); still: the viewport is filmed as it moves on its own (CSS animations, video, canvas).",
    default: "scroll",
  }),
  duration: numberIn(A.durationSeconds.min, A.durationSeconds.max)
    .optional()
    .meta({
      description: `Length of the clip in seconds (your plan may allow less). Credits: one per started ${A.secondsPerCredit} s.`,
      default: A.durationSeconds.default,
    }),
  fps: intIn(A.fps.min, A.fps.max)
    .optional()
    .meta({
      description: `Frames per second (your plan may allow less; gif at most ${A.gifMaxFps}).`,
      default: A.fps.default,
    }),
  scrollSpeed: intIn(A.scrollSpeed.min, A.scrollSpeed.max).optional().meta({
    description:
      "scroll: CSS pixels per second. Not with scrollDuration. Neither: the scroll takes the whole clip (half each way with scrollBack).",
  }),
  scrollDuration: numberIn(A.scrollDurationSeconds.min, A.scrollDurationSeconds.max)
    .optional()
    .meta({
      description:
        "scroll: seconds the scroll down takes (eased), at most the duration (half of it with scrollBack). Not with scrollSpeed.",
    }),
  scrollTillSelector: cssSelector(LIMITS.selectorChars).optional().meta({
    description:
      "scroll: stop where this element's top reaches the top of the viewport (or the page's end, if sooner). Omitted: the page's end.",
  }),
  scrollBack: z.boolean().optional().meta({
    description: "scroll: then scroll back to the top, as fast as down.",
    default: false,
  }),
  hosted: z.boolean().optional().meta({
    description:
      "Store the clip and answer JSON with a signed URL (kept for 24 hours) instead of the bytes.",
    default: false,
  }),
  async: captureShape.async.meta({
    description:
      "Queue the recording and answer 202 with a jobId; the job's result is a hosted link (or the object in your storage destination).",
    default: false,
  }),
  webhookUrl: captureShape.webhookUrl,
  storage: captureShape.storage,
  cacheTtl: captureShape.cacheTtl.meta({
    description:
      "Seconds the hosted clip (hosted: true, or an async job's result) stays available.",
    default: LIMITS.cacheTtl.default,
  }),
  startDelay: intIn(A.startDelayMs.min, A.startDelayMs.max, "ms").optional().meta({
    description:
      "Milliseconds to wait after the page is ready (and after delay, actions and the rest) before the first frame.",
    default: 0,
  }),
};
const animateObject = z.strictObject(animateShape);

/** The cross-field rules of a recording (a capture's, then the clip's own). */
function animateRules(value: Partial<z.output<typeof animateObject>>, ctx: z.RefinementCtx): void {
  const { format: _format, ...captureParams } = value;
  captureRules(captureParams, ctx);
  const issue = (path: string, message: string) =>
    ctx.addIssue({ code: "custom", path: [path], message });
  if (value.scenario === "still")
    for (const key of SCROLL_ONLY)
      if (value[key] !== undefined) issue(key, `${key} applies to scenario scroll.`);
  if (value.scrollSpeed !== undefined && value.scrollDuration !== undefined)
    issue("scrollDuration", "Give scrollSpeed or scrollDuration, not both.");
  const duration = value.duration ?? A.durationSeconds.default;
  const room = value.scrollBack === true ? duration / 2 : duration;
  if (value.scrollDuration !== undefined && value.scrollDuration > room)
    issue(
      "scrollDuration",
      `Must be at most the duration${value.scrollBack === true ? " / 2 with scrollBack" : ""} (${room} s).`,
    );
  if (value.format === "gif") {
    if ((value.fps ?? A.fps.default) > A.gifMaxFps)
      issue("fps", `Must be at most ${A.gifMaxFps} for a gif.`);
    const dsf = value.deviceScaleFactor ?? 1;
    const pixels = (value.width ?? 1280) * (value.height ?? 800) * dsf * dsf;
    if (pixels > A.gifMaxDevicePixels)
      issue(
        "width",
        `A gif is at most ${A.gifMaxDevicePixels.toLocaleString("en-US")} device pixels a frame (width × height × deviceScaleFactor²).`,
      );
  }
}

export const animateRequestSchema = animateObject
  .superRefine(animateRules)
  .meta({ id: "AnimateRequest" });
export type AnimateRequest = z.output<typeof animateRequestSchema>;

/**
 * POST /v1/animate/batch: one recording a URL, all with the same clip and page settings
 * (`defaults`, refused by name as a capture batch's are), delivered as a capture batch's jobs.
 */
export const animateBatchRequestSchema = z
  .strictObject({
    urls: batchUrlsSchema,
    defaults: batchDefaultsOf<AnimateRequest>(
      animateShape,
      animateRules,
      "recording settings",
    ).optional(),
    ...batchDeliveryShape,
  })
  .meta({ id: "AnimateBatchRequest" });
export type AnimateBatchRequest = z.output<typeof animateBatchRequestSchema>;
