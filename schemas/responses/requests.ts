/** GET /v1/requests: the account's request log (the last 200 API requests, kept 7 days). */
import { z } from "zod";

export const requestLogEntrySchema = z
  .object({
    at: z.iso.datetime().describe("When the request arrived."),
    method: z.string(),
    route: z
      .string()
      .describe("The route's pattern (`/v1/jobs/:jobId`), never the path's values or the query."),
    status: z.number().int().describe("The HTTP status answered."),
    errorCode: z.string().nullable().describe("The error code of an error answer."),
    credits: z.number().int().nullable().describe("Credits charged; null when none was spent."),
    durationMs: z.number().int(),
    requestId: z.string(),
    keyName: z.string().nullable().describe("The name of the key used, when it has one."),
    keyPrefix: z.string().nullable().describe("The first characters of the key used."),
  })
  .meta({ id: "RequestLogEntry", additionalProperties: false });
export type RequestLogEntry = z.output<typeof requestLogEntrySchema>;

export const requestLogSchema = z
  .object({ items: z.array(requestLogEntrySchema) })
  .meta({ id: "RequestLog", additionalProperties: false });
