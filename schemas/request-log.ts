/** GET /v1/requests query: `status` (2xx, 4xx or 5xx) and `limit` (up to the entries kept). */
import { z } from "zod";
import { LIMITS } from "./limits";
import { WHOLE_NUMBER } from "./primitives";

export const STATUS_CLASSES = ["2xx", "4xx", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export const requestLogQuery = z.strictObject({
  status: z.enum(STATUS_CLASSES).optional(),
  limit: z
    .string()
    .regex(/^[0-9]{1,3}$/, WHOLE_NUMBER)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, "Must be at least 1.")
        .max(LIMITS.requestLogEntries, `Must be at most ${LIMITS.requestLogEntries}.`),
    )
    .optional(),
});
