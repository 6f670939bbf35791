/** What the template modules share: the field a template came from and the 413 it may cause. */
import { ApiError } from "../../errors";

/** Which request field a template came from: errors name it (`details[].path`). */
export type Field =
  "html" | "markdown" | "content" | "title" | "branding.header" | "branding.footer";

/** 413 PAYLOAD_TOO_LARGE naming the field and what outgrew its limit. */
export function payloadTooLarge(field: Field, message: string): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `Payload too large: ${field}: ${message}`, {
    details: [{ path: field, message }],
  });
}
