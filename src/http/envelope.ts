/** The spec's JSON envelope (schemas/responses.ts): `{success, data | error, meta {requestId, timestamp, usage?}}`. */
import type { Meta, Usage } from "../../schemas/responses";
import type { ErrorCode, ErrorDetail } from "../errors";

export interface SuccessBody<T> {
  success: true;
  data: T;
  meta: Meta;
}

export interface ErrorBody {
  success: false;
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] };
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
  const error = details && details.length > 0 ? { code, message, details } : { code, message };
  return { success: false, error, meta: meta(requestId) };
}
