/**
 * GET /v1/jobs and GET /v1/batches query parameters: `status`, `limit` (default 20, max 100)
 * and `cursor` (opaque, from the previous page's `nextCursor`).
 */
import { z } from "zod";
import { decodeBase64Url, encodeBase64Url } from "./base64url";
import { LIMITS } from "./limits";
import { WHOLE_NUMBER } from "./primitives";

export const JOB_STATUSES = ["queued", "processing", "completed", "failed"] as const;
export const BATCH_STATUSES = ["queued", "processing", "completed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** The listings with cursors (jobs, batches, watches, a watch's runs, crawls, webhook deliveries). */
export type CursorKind =
  "job" | "batch" | "watch" | "run" | "crawl" | "delivery" | "monitor" | "check";

/** Cursors are the base64url of `<kind>:<seq>`; a cursor of one listing is refused by the others. */
export function encodeCursor(kind: CursorKind, seq: number): string {
  return encodeBase64Url(new TextEncoder().encode(`${kind}:${seq}`));
}

function decodeCursor(kind: CursorKind, cursor: string): number | null {
  const bytes = cursor.length > 40 ? null : decodeBase64Url(cursor);
  if (bytes === null || bytes.length === 0) return null;
  const text = String.fromCharCode(...bytes);
  const match = new RegExp(`^${kind}:([1-9][0-9]{0,14})$`).exec(text);
  return match?.[1] ? Number(match[1]) : null;
}

/** `status`, `limit`, `cursor` of a listing of `kind`. */
export function listQuery<S extends readonly [string, ...string[]]>(kind: CursorKind, statuses: S) {
  return z.strictObject({
    status: z.enum(statuses).optional(),
    limit: z
      .string()
      .regex(/^[0-9]{1,3}$/, WHOLE_NUMBER)
      .transform(Number)
      .pipe(
        z
          .number()
          .min(1, "Must be at least 1.")
          .max(LIMITS.listMax, `Must be at most ${LIMITS.listMax}.`),
      )
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

/**
 * A page of a run's results (a crawl's pages, a monitor check's pages): `status` filters, `cursor`
 * is the last answer's `nextCursor` (a position in finishing order), `limit` ≤ `max`.
 */
export function pagesQuery<S extends readonly [string, ...string[]]>(statuses: S, max: number) {
  return z.strictObject({
    status: z.enum(statuses).optional(),
    cursor: z
      .string()
      .regex(/^[1-9][0-9]{0,9}$/, "Invalid cursor.")
      .transform(Number)
      .optional(),
    limit: z
      .string()
      .regex(/^[0-9]{1,3}$/, WHOLE_NUMBER)
      .transform(Number)
      .pipe(z.number().min(1, "Must be at least 1.").max(max, `Must be at most ${max}.`))
      .optional(),
  });
}

export const jobListQuery = listQuery("job", JOB_STATUSES);
export const batchListQuery = listQuery("batch", BATCH_STATUSES);
