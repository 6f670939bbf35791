/**
 * The extraction request contract (POST /v1/extract): a URL plus the navigation controls that
 * matter for reading a page. The fields are the capture contract's own, so bounds and messages
 * match; anything else is refused by name (strict object).
 */
import { z } from "zod";
import { captureFields, EXTRACT_FORMATS } from "./capture";

export const extractRequestSchema = z
  .strictObject({
    url: captureFields.url,
    extractFormat: captureFields.extractFormat.optional(),
    waitUntil: captureFields.waitUntil.optional(),
    timeout: captureFields.timeout.optional(),
    device: captureFields.device.optional(),
    blockCookieBanners: captureFields.blockCookieBanners.optional(),
    hideSelectors: captureFields.hideSelectors.optional(),
  })
  .meta({ id: "ExtractRequest" });

export type ExtractRequest = z.output<typeof extractRequestSchema>;
export type ExtractFormat = (typeof EXTRACT_FORMATS)[number];
