/** The completeness report of a capture: JSON answers, the binary header, job results. */
import { z } from "zod";

/** How complete a capture is (docs/CAPTURE.md, "Complete captures"). */
export const completenessSchema = z
  .object({
    blankRatio: z
      .number()
      .nullable()
      .describe(
        "Share (0-1) of the shot in its most common colour, read from the first image output (a PNG's own pixels; a JPEG or WebP: a thumbnail of the captured region); null for PDF-only captures and element (selector) captures in JPEG or WebP.",
      ),
    pendingRequests: z
      .number()
      .int()
      .describe(
        "The page's requests still in flight when the shot was taken (not the browser's favicon fetch).",
      ),
    failedRequests: z
      .number()
      .int()
      .describe(
        "Subresource requests that failed (network error or HTTP status 400+), not counting the ones the capture refused itself (ads, blocked resource types).",
      ),
    fontsLoaded: z.boolean().describe("No web font was still loading when the shot was taken."),
    images: z
      .object({ loaded: z.number().int(), total: z.number().int() })
      .describe(
        "<img> elements in the captured region with a source, and how many of them loaded.",
      ),
    lazyTriggered: z
      .number()
      .int()
      .describe(
        "Requests started after the page was ready: lazy images and frames, what scrolling woke, what the page loaded while it settled.",
      ),
    scrolledPx: z
      .number()
      .int()
      .describe("How far down the page was scrolled to wake lazy content (CSS px)."),
    retried: z
      .boolean()
      .describe("The shot looked blank while the page was still working: it was taken again once."),
    consentRemoved: z.number().int().describe("Consent walls hidden (blockCookieBanners)."),
    adsBlocked: z.number().int().describe("Requests to ad and tracker hosts refused (blockAds)."),
  })
  .meta({ id: "Completeness" });
export type CompletenessData = z.output<typeof completenessSchema>;
