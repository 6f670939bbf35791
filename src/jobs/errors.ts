/** The user-facing reason of a failed job or watch run: always one of the spec's sanitized strings. */
import { FAILURE } from "../capture/failures";

const SANITIZED: ReadonlySet<string> = new Set(Object.values(FAILURE));

export function jobError(failure: { message: string }): string {
  return SANITIZED.has(failure.message) ? failure.message : FAILURE.generic;
}
