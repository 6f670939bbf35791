/**
 * The spec's JSON envelope (schemas/responses.ts): `{success, data | error, meta {requestId,
 * timestamp, usage?}}`. Every error also links its code's explanation (`error.docs`, the page
 * GET /docs/errors generated from src/errors.ts): added here, the one place errors are shaped.
 */
import type { Context } from "hono";
import type { Meta, Usage } from "../../schemas/responses";
import { errorDocsPath, type ErrorCode, type ErrorDetail } from "../errors";
import type { AppEnv } from "./types";

export interface SuccessBody<T> {
  success: true;
  data: T;
  meta: Meta;
}

export interface ErrorBody {
  success: false;
  error: { code: ErrorCode; message: string; details?: ErrorDetail[]; docs: string };
  meta: Meta;
}

export function meta(requestId: string, usage?: Usage): Meta {
  return usage
    ? { requestId, timestamp: new Date().toISOString(), usage }
    : { requestId, timestamp: new Date().toISOString() };
}

export function successBody<T>(requestId: string, data: T, usage?: Usage): SuccessBody<T> {
  return { success: true, data, meta: meta(requestId, usage) };
}

export function errorBody(
  requestId: string,
  code: ErrorCode,
  message: string,
  details?: ErrorDetail[],
): ErrorBody {
  const docs = errorDocsPath(code);
  const error =
    details && details.length > 0 ? { code, message, details, docs } : { code, message, docs };
  return { success: false, error, meta: meta(requestId) };
}

/** Notes what a request spent, for the request log, and passes the usage on to its answer. */
export function charged(c: Context<AppEnv>, usage: Usage): Usage {
  c.set("charged", usage.credits);
  return usage;
}
