/**
 * @edgeshot/sdk: a typed client for the Edgeshot API. Types are generated from the OpenAPI
 * document (`npm run generate`); the client is hand-written (./client.ts, its transport and resources).
 */
export { Edgeshot, type AnimateBatchInput } from "./client.js";
export type { AnimationBytes, CaptureBytes, CaptureMetadata } from "./captures.js";
export type { CrawlPagesOptions } from "./resources/crawl.js";
export type { MonitorCheckPagesOptions } from "./resources/monitors.js";
export type { MintedRenderLink } from "./resources/render-links.js";
export type { EdgeshotOptions, WaitOptions, WithMeta } from "./transport.js";
export { EdgeshotError } from "./errors.js";
export type * from "./generated/index.js";
/** Verify a webhook delivery (WebCrypto only; checked against the service's signatures). */
export { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, verifyWebhook } from "./webhooks.js";
export type { VerifyWebhookInput, VerifyWebhookResult } from "./webhooks.js";
