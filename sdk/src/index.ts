/**
 * @edgeshot/sdk: a typed client for the Edgeshot API. Types are generated from the OpenAPI
 * document (`npm run generate`); the client is hand-written (./client.ts, its transport and resources).
 */
export { Edgeshot } from "./client";
export type { CaptureBytes, CaptureMetadata } from "./captures";
export type { MintedRenderLink } from "./resources/render-links";
export type { EdgeshotOptions, WaitOptions, WithMeta } from "./transport";
export { EdgeshotError } from "./errors";
export type * from "./generated";
/** Verify a webhook delivery (the service's own implementation, WebCrypto only). */
export { verifyWebhook } from "../../src/webhooks/verify";
export type { VerifyWebhookInput, VerifyWebhookResult } from "../../src/webhooks/verify";
