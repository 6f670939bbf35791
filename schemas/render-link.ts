/**
 * Render links (POST /v1/render/link, GET /v1/render): the capture parameters a link may carry,
 * the mint body (those plus `expiresIn`), and the signed payload `p` decodes to.
 *
 * A link renders on someone else's request, long after it was minted, so whatever needs a
 * caller to wait for it or to be told about it (async, webhookUrl), returns something other
 * than bytes (extract, extractFormat, hosted) or needs a proxy (geo*) is refused by name.
 *
 * A link is also public: `p` is signed, not encrypted, and sits in HTML that anyone can read.
 * So secrets — cookies, custom headers, `user:pass@` in the url — are refused on links too.
 */
import { z } from "zod";
import { LIMITS } from "./limits";
import { captureRules, captureShape, type CaptureParams } from "./capture";
import { intIn, isPlainObject } from "./primitives";

export const LINK_REFUSED = [
  "async",
  "webhookUrl",
  "storage",
  "extract",
  "extractFormat",
  "hosted",
  "geo",
  "geoCity",
  "geoState",
] as const;

/** Parameters that would publish a secret inside the link. */
export const LINK_SECRETS = ["cookies", "headers"] as const;
const PUBLIC_LINK = "Not allowed on render links: the link is public and would reveal it.";

function linkRules(value: Partial<CaptureParams>, ctx: z.RefinementCtx): void {
  captureRules(value, ctx);
  for (const key of LINK_REFUSED) {
    if (value[key] !== undefined)
      ctx.addIssue({ code: "custom", path: [key], message: "Not supported on render links." });
  }
  for (const key of LINK_SECRETS) {
    if (value[key] !== undefined)
      ctx.addIssue({ code: "custom", path: [key], message: PUBLIC_LINK });
  }
  if (typeof value.url === "string" && /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value.url.trim())) {
    ctx.addIssue({ code: "custom", path: ["url"], message: PUBLIC_LINK });
  }
}

/** What a link renders: a capture request without the refused options. */
export const renderParamsSchema = z.strictObject(captureShape).superRefine(linkRules);
export type RenderParams = z.output<typeof renderParamsSchema>;

const E = LIMITS.renderLinkExpiry;
export const renderLinkRequestSchema = z
  .strictObject({
    ...captureShape,
    expiresIn: intIn(E.min, E.max, "seconds").optional().meta({
      description: "Seconds the link stays valid; defaults to cacheTtl, else 30 days.",
      default: E.default,
    }),
  })
  .superRefine(linkRules)
  .meta({ id: "RenderLinkRequest" });
export type RenderLinkRequest = z.output<typeof renderLinkRequestSchema>;

/** The decoded `p` token: the minting key's id and the parameters as the caller sent them. */
export const renderPayloadSchema = z.strictObject({
  k: z.string().regex(/^key_[0-9A-Za-z]{22}$/),
  // Passed through as parsed (not rebuilt), then checked with renderParamsSchema.
  r: z.custom<Record<string, unknown>>(isPlainObject),
});
export type RenderPayload = z.output<typeof renderPayloadSchema>;
