/**
 * POST /v1/animate: a video (WebM, MP4) or GIF of a page that scrolls itself or is filmed as it
 * moves, from one page load (docs/ANIMATE.md). The work: src/pipeline/animate.ts; here the
 * request is read and the bytes answered with the clip's and the page's headers. With
 * `async: true` the recording is a job (src/jobs/submit.ts `submitAsyncRecording`): 202.
 * POST /v1/animate/batch: one recording job a URL, checked and queued as a capture batch is
 * (src/jobs/batch.ts `submitRecordingBatch`): 202.
 */
import { z } from "zod";
import { animateBatchRequestSchema, animateRequestSchema } from "../../../schemas/animate";
import {
  batchAcceptedSchema,
  hostedAnimationSchema,
  jobAcceptedSchema,
  successEnvelope,
} from "../../../schemas/responses";
import { submitRecordingBatch } from "../../jobs/batch";
import { submitAsyncRecording } from "../../jobs/submit";
import { animationHeaders, hostedRecording, recordPage } from "../../pipeline/animate";
import { publicOrigin } from "../../storage/hosted";
import { endpoint, endpoints } from "../endpoint";
import { charged, successBody } from "../envelope";
import {
  BINARY_SCHEMA,
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  rateLimitHeaders,
} from "../openapi/registry";
import { ASYNC_ERRORS, BATCH_ERRORS, CAPTURE_ERRORS } from "./capture-contract";

const h = (description: string) => z.string().meta({ description });

const animationHeaderSchema = {
  "x-animation-width": h("Frame width in device pixels."),
  "x-animation-height": h("Frame height in device pixels."),
  "x-animation-frames": h("Frames in the clip (duration × fps)."),
  "x-animation-duration-ms": h("The clip's length in milliseconds."),
  "x-service-final-url": h("Where the page ended up after redirects."),
  "x-service-target-status": h("The main document's HTTP status (url targets).").optional(),
  "x-service-page-title": h("The page's title, percent-encoded (UTF-8).").optional(),
  "x-service-quality": h("full, degraded or best_attempt."),
  "x-service-wait-strategy": h("The wait strategy that succeeded."),
  "x-service-load-time-ms": h("Load, recording and encoding time in milliseconds."),
  "x-service-credits-charged": h("Credits this request spent."),
  "x-service-credits-remaining": h("Credits left this month, or unlimited."),
  ...rateLimitHeaders,
};

export const animateRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/animate",
    auth: "key",
    idempotent: true,
    body: {
      schema: animateRequestSchema,
      example: {
        url: "https://example.com",
        format: "webm",
        scenario: "scroll",
        duration: 5,
        fps: 24,
        scrollTillSelector: "footer",
      },
    },
    operation: {
      operationId: "animate",
      summary: "Record a scrolling video or GIF of a page",
      description:
        "Loads the page once (every page control applies) and films its viewport: scenario scroll scrolls it from the top to scrollTillSelector (or its end), scenario still films it as it moves on its own. webm (VP9) and mp4 (H.264) are encoded in Chromium (WebCodecs where the page is a secure context, else MediaRecorder), gif by gifenc; mp4 answers 422 where the browser has no H.264 encoder. Credits: one per started 5 s of clip, refunded when the recording fails. Duration, fps and frame size are bounded per plan (400 naming the field). With `async: true` the recording is queued (202) as an async capture is: job webhooks (`webhookUrl`), delivery to a storage destination (`storage`).",
      tags: ["Capture"],
      responses: {
        "200": {
          description: "The video or GIF bytes; with `hosted: true`, JSON with a signed URL.",
          headers: z.object(animationHeaderSchema).partial(),
          content: {
            "video/webm": { schema: BINARY_SCHEMA },
            "video/mp4": { schema: BINARY_SCHEMA },
            "image/gif": { schema: BINARY_SCHEMA },
            "application/json": { schema: successEnvelope(hostedAnimationSchema) },
          },
        },
        "202": envelopeResponse(
          "async: true — queued; poll GET /v1/jobs/{jobId}. The job's resultUrl is the hosted clip (or its object in your storage destination); meta.usage holds the credits reserved by the clip's length.",
          jobAcceptedSchema,
          rateLimitHeaders,
        ),
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS, ...ASYNC_ERRORS]),
      },
    },
    handler: async (c) => {
      const req = c.req.valid("json");
      if (req.async === true) {
        const { data, usage } = await submitAsyncRecording(c.env, c.get("auth"), req, c.req.url);
        return c.json(successBody(c.get("requestId"), data, charged(c, usage)), 202);
      }
      if (req.hosted === true) {
        const origin = publicOrigin(c.env, c.req.url);
        const { data, usage } = await hostedRecording(c.env, c.get("auth"), req, origin);
        return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
      }
      const result = await recordPage(c.env, c.get("auth"), req);
      charged(c, result.usage);
      const bytes = result.recording.bytes as Uint8Array<ArrayBuffer>;
      return c.body(bytes, 200, animationHeaders(result));
    },
  }),
  endpoint({
    method: "post",
    path: "/v1/animate/batch",
    auth: "key",
    idempotent: true,
    body: {
      schema: animateBatchRequestSchema,
      example: {
        urls: ["https://example.com", "https://example.org"],
        defaults: { format: "gif", width: 640, height: 400, duration: 4, fps: 10 },
      },
    },
    operation: {
      operationId: "animateBatch",
      summary: "Queue a batch of recordings",
      description:
        "Paid plans. One recording job per URL, all with the settings in `defaults` (those of POST /v1/animate but the source and delivery fields); each job reserves the recording's credits (one per started 5 s of clip). Capped per plan as capture batches are (Basic 10, Starter 25, Pro 100, Enterprise 500); every URL is checked first (one bad URL refuses the batch, named `urls[i]`). One batch.completed webhook when every job finished.",
      tags: ["Async"],
      responses: {
        "202": envelopeResponse(
          "Queued; jobs in `urls` order. meta.usage holds the credits reserved (the recording's credits × the URLs).",
          batchAcceptedSchema,
          rateLimitHeaders,
        ),
        ...errorResponses(BATCH_ERRORS),
      },
    },
    handler: async (c) => {
      const body = c.req.valid("json");
      const { data, usage } = await submitRecordingBatch(c.env, c.get("auth"), body, c.req.url);
      return c.json(successBody(c.get("requestId"), data, charged(c, usage)), 202);
    },
  }),
);
