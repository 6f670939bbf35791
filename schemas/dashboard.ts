/**
 * The dashboard's request and response shapes (src/http/dashboard/): its forms and the
 * playground's capture endpoint. Forms arrive form-encoded; each field is a string.
 */
import { z } from "zod";
import { animateRequestSchema } from "./animate";
import { captureRequestSchema } from "./capture";
import { LIMITS } from "./limits";
import { renderLinkRequestSchema } from "./render-link";
import { captureJsonSchema, hostedAnimationSchema, renderLinkSchema } from "./responses";

/** POST /dashboard/signup and /dashboard/login. */
export const credentialsFormSchema = z
  .object({
    email: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(
        z
          .email("enter a valid email address")
          .max(LIMITS.emailChars, `at most ${LIMITS.emailChars} characters`),
      )
      .describe(
        "The account's email address; compared trimmed and lower-cased (one account each).",
      ),
    password: z
      .string()
      .min(LIMITS.passwordMinChars, `must be at least ${LIMITS.passwordMinChars} characters`)
      .max(LIMITS.passwordMaxChars, `must be at most ${LIMITS.passwordMaxChars} characters`)
      .describe(
        `At least ${LIMITS.passwordMinChars} characters; common passwords are refused at signup.`,
      ),
  })
  .describe("Signup / login form.");
export type CredentialsForm = z.output<typeof credentialsFormSchema>;

/** POST /dashboard/keys: a new key's name. */
export const keyNameFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, `give 1 to ${LIMITS.keyNameChars} characters`)
      .max(LIMITS.keyNameChars, `give 1 to ${LIMITS.keyNameChars} characters`)
      .describe("A label for the key, shown in the key list."),
  })
  .describe("Create-key form (with the session's `_csrf` token).");

/** Capture options the playground leaves to the API (asynchronous or stored results). */
export const PLAYGROUND_REFUSED = ["async", "webhookUrl", "hosted", "storage", "cacheTtl"] as const;

/**
 * POST /dashboard/api/capture: a capture request as for POST /v1/screenshot/json, minus the
 * options of PLAYGROUND_REFUSED. Session-authenticated (cookie) with the `x-csrf-token` header.
 */
export const playgroundCaptureRequestSchema = captureRequestSchema
  .superRefine(refusePlaygroundOptions)
  .describe("A capture request from the dashboard's playground.");

/** `use the API for this option.` for each option of PLAYGROUND_REFUSED the body sets. */
function refusePlaygroundOptions(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const name of PLAYGROUND_REFUSED) {
    if (value[name] !== undefined) {
      ctx.addIssue({ code: "custom", path: [name], message: "use the API for this option." });
    }
  }
}

/**
 * POST /dashboard/api/animate: a recording request as for POST /v1/animate, minus the options of
 * PLAYGROUND_REFUSED (the clip comes back in the answer, to preview). Session-authenticated.
 */
export const playgroundAnimateRequestSchema = animateRequestSchema
  .superRefine(refusePlaygroundOptions)
  .describe("A recording request from the dashboard's playground.");

/** The playground's recording: the clip base64 with its facts (HostedAnimation's, but its link). */
export const playgroundAnimationSchema = hostedAnimationSchema
  .omit({ url: true, expiresAt: true })
  .extend({ clip: z.string().describe("The video or GIF, base64.") })
  .describe("The recording, base64, with the clip's and the page's facts.");
export type PlaygroundAnimation = z.output<typeof playgroundAnimationSchema>;

/** The playground's answer: exactly POST /v1/screenshot/json's `data`. */
export const playgroundCaptureResponseSchema = captureJsonSchema.describe(
  "The capture (base64 image or PDF) with its metadata, as POST /v1/screenshot/json answers.",
);

/**
 * POST /dashboard/api/render-link: the body of POST /v1/render/link; the link is signed for
 * the account's newest active key. Session-authenticated with the `x-csrf-token` header.
 */
export const playgroundRenderLinkRequestSchema = renderLinkRequestSchema.describe(
  "Render-link options from the playground (as POST /v1/render/link takes them).",
);

/** The playground's render link: exactly POST /v1/render/link's `data`. */
export const playgroundRenderLinkResponseSchema = renderLinkSchema.describe(
  "The signed render link, its expiry, format and cache lifetime.",
);
