/**
 * The user-facing reason of a failed job or watch run, in two parts: `error`, always one of the
 * sanitized strings (src/capture/failures.ts `FAILURE`: the contract's fixed list a client may
 * match on), and `detail`, what the same request made synchronously answers when it says more —
 * the error's message, then each of its details as `path: message`, or `(path)` where it only
 * repeats the message: the selector that matched nothing, the status that matched failOnStatus,
 * the script that threw. An ApiError's message and details are written for the caller (what the
 * browser throws is mapped by src/capture/failures.ts, anything else answers INTERNAL_ERROR), so
 * a job says no more than the sync answer, and no less.
 */
import { FAILURE } from "../capture/failures";
import type { ApiError } from "../errors";

const SANITIZED: ReadonlySet<string> = new Set(Object.values(FAILURE));

export interface JobFailure {
  error: string;
  /** The whole cause, when it says more than `error`. */
  detail: string | null;
}

export function jobError(error: Pick<ApiError, "message" | "details">): JobFailure {
  const details = (error.details ?? []).map((d) =>
    d.message === error.message ? `(${d.path})` : `${d.path}: ${d.message}`,
  );
  const cause = [error.message, ...details].join(" ");
  const sanitized = SANITIZED.has(error.message) ? error.message : FAILURE.generic;
  return { error: sanitized, detail: cause === sanitized ? null : cause };
}
