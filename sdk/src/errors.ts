/** Every failed call surfaces as an `EdgeshotError` carrying the API's error envelope. */
import type { ErrorDetail } from "./generated/index.js";

export class EdgeshotError extends Error {
  override readonly name = "EdgeshotError";
  /** The API's error code (VALIDATION_ERROR, RATE_LIMITED, …), or NETWORK_ERROR / INVALID_RESPONSE. */
  readonly code: string;
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  /** Per-field problems (`path`, `message`), when the API gave them. */
  readonly details: ErrorDetail[];
  /** The request id (`meta.requestId` / `x-request-id`), for support. */
  readonly requestId: string | null;
  /** Seconds the API asked to wait (`Retry-After`), on 429. */
  readonly retryAfter: number | null;

  constructor(init: {
    code: string;
    message: string;
    status: number;
    details?: ErrorDetail[];
    requestId?: string | null;
    retryAfter?: number | null;
  }) {
    super(init.message);
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? [];
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }
}
