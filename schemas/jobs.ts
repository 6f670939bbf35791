/**
 * GET /v1/jobs and GET /v1/batches query parameters: `status`, `limit` (default 20, max 100)
 * and `cursor` (opaque, from the previous page's `nextCursor`).
 */
import { z } from "zod";
import { LIMITS } from "./limits";

export const JOB_STATUSES = ["queued", "processing", "completed", "failed"] as const;
export const BATCH_STATUSES = ["queued", "processing", "completed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** Cursors are the base64url of `<kind>:<seq>`; a cursor of one listing is refused by the other. */
export function encodeCursor(kind: "job" | "batch", seq: number): string {
  return btoa(`${kind}:${seq}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeCursor(kind: "job" | "batch", cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return null;
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  const match = new RegExp(`^${kind}:([1-9][0-9]{0,14})$`).exec(text);
  return match?.[1] ? Number(match[1]) : null;
}

function listQuery<S extends readonly [string, ...string[]]>(kind: "job" | "batch", statuses: S) {
  return z.strictObject({
    status: z.enum(statuses).optional(),
    limit: z
      .string()
      .regex(/^[0-9]{1,3}$/, "Must be a whole number.")
      .transform(Number)
      .pipe(z.number().min(1, "Must be at least 1.").max(LIMITS.listMax, `Must be at most ${LIMITS.listMax}.`))
      .optional(),
    cursor: z
      .string()
      .transform((c, ctx) => {
        const before = decodeCursor(kind, c);
        if (before === null) ctx.addIssue({ code: "custom", message: "Invalid cursor." });
        return before ?? 0;
      })
      .optional(),
  });
}

export const jobListQuery = listQuery("job", JOB_STATUSES);
export const batchListQuery = listQuery("batch", BATCH_STATUSES);
