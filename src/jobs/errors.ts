/**
 * The user-facing reason of a failed job or watch run: what the same request made synchronously
 * answers — the error's message, then each of its details as `path: message`, or `(path)` where
 * it only repeats the message: the selector that matched nothing, the status that matched
 * failOnStatus, the script that threw. An ApiError's message and details are written for the
 * caller (what the browser throws is mapped by src/capture/failures.ts, anything else answers
 * INTERNAL_ERROR), so a job says no more than the sync answer, and no less.
 */
import type { ApiError } from "../errors";

export function jobError(error: Pick<ApiError, "message" | "details">): string {
  const details = (error.details ?? []).map((d) =>
    d.message === error.message ? `(${d.path})` : `${d.path}: ${d.message}`,
  );
  return [error.message, ...details].join(" ");
}
