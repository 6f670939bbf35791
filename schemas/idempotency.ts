/**
 * The `Idempotency-Key` request header (POSTs that spend credits or queue work), and the codes
 * and header of its answers — for the HTTP middleware and the OpenAPI document.
 */
import { z } from "zod";
import { LIMITS } from "./limits";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** Set to "true" on a response replayed from an earlier request with the same key. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

export const idempotencyKeySchema = z
  .string()
  .min(1, "Must not be empty.")
  .max(LIMITS.idempotencyKeyChars, `Must be at most ${LIMITS.idempotencyKeyChars} characters.`)
  .regex(/^[\x21-\x7e]+$/, "Must be printable ASCII without spaces.")
  .describe(
    "Optional. The same key with the same request within 24 h returns the first response without running or charging again; with a different request: 422 IDEMPOTENCY_KEY_REUSED; while the first still runs: waits, or 409 IDEMPOTENCY_KEY_IN_USE.",
  );
