/**
 * @edgeshot/sdk: a typed client for the Edgeshot API. Types are generated from the OpenAPI
 * document (`npm run generate`); the client is hand-written (./client.ts).
 */
export { Edgeshot } from "./client";
export type {
  CaptureBytes,
  CaptureMetadata,
  EdgeshotOptions,
  MintedRenderLink,
  WaitOptions,
  WithMeta,
} from "./client";
export { EdgeshotError } from "./errors";
export type * from "./generated";
/** Verify a webhook delivery (the service's own implementation, WebCrypto only). */
export { verifyWebhook } from "../../src/webhooks/verify";
export type { VerifyWebhookInput, VerifyWebhookResult } from "../../src/webhooks/verify";
