/**
 * The extraction request contract (POST /v1/extract): a URL plus the navigation controls that
 * matter for reading a page. The fields are the capture contract's own, so bounds and messages
 * match; anything else is refused by name (strict object).
 */
import { z } from "zod";
import { captureFields, EXTRACT_FORMATS } from "./capture";
import { RENDER_MODES } from "./crawl-enums";

export const extractRequestSchema = z
  .strictObject({
    url: captureFields.url,
    extractFormat: captureFields.extractFormat.optional(),
    waitUntil: captureFields.waitUntil.optional(),
    timeout: captureFields.timeout.optional(),
    device: captureFields.device.optional(),
    blockCookieBanners: captureFields.blockCookieBanners.optional(),
    hideSelectors: captureFields.hideSelectors.optional(),
    render: z.enum(RENDER_MODES).optional().meta({
      description:
        "always: the page rendered in the browser; never: its document fetched over HTTP and read without a browser (faster; no scripts run, waitUntil, device, blockCookieBanners and hideSelectors do not apply); auto: fetched over HTTP, rendered in the browser only when the document needs scripts to show its content. 1 credit either way; `rendered` in the answer says which.",
      default: "always",
    }),
  })
  .meta({ id: "ExtractRequest" });

export type ExtractRequest = z.output<typeof extractRequestSchema>;
export type ExtractFormat = (typeof EXTRACT_FORMATS)[number];
