/**
 * Reading dashboard forms: urlencoded or multipart, text fields only. Their size is capped by
 * the `bodyLimit` in front of every dashboard form route (./index.ts, FORM_BYTES).
 */
import type { Context } from "hono";
import { ApiError } from "../../errors";

/** Forms are small; anything larger is refused with 413 before it is parsed. */
export const FORM_BYTES = 16 * 1024;

export type FormRecord = Record<string, string | File | (string | File)[]>;

export async function formRecord(c: Context): Promise<FormRecord> {
  const type = c.req.header("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    throw new ApiError("VALIDATION_ERROR", "Send the form as a browser does (form encoding).");
  }
  return c.req.parseBody();
}

/** A text field's value; "" when absent or not text. */
export function formField(form: FormRecord, name: string): string {
  const value = form[name];
  return typeof value === "string" ? value : "";
}
