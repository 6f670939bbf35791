/**
 * What tests read back from the API, written once: a refusal's envelope checked whole, and the
 * credits an account has used this month (GET /v1/account, free of credit).
 */
import { expect } from "vitest";
import { bearer } from "./accounts";
import { call, envelope, type Envelope } from "./http";

/**
 * A refusal: the status, the spec's error envelope (success false, a request id) with `code`,
 * and — given — a detail naming `field`. Returns the envelope for further checks.
 */
export async function expectRefusal(
  res: Response,
  status: number,
  code: string,
  field?: string,
): Promise<Envelope> {
  const text = await res.text();
  let body: Envelope;
  try {
    body = JSON.parse(text) as Envelope;
  } catch {
    throw new Error(`not JSON (${res.status}): ${text.slice(0, 200)}`);
  }
  expect(res.status, text.slice(0, 300)).toBe(status);
  expect(body.success).toBe(false);
  expect(body.error?.code, text.slice(0, 300)).toBe(code);
  expect(body.meta.requestId).toMatch(/^req_/);
  if (field !== undefined)
    expect(
      body.error?.details?.map((d) => d.path),
      text.slice(0, 300),
    ).toContain(field);
  return body;
}

/** Credits the account used this month: by its API key, or the headers that authenticate it. */
export async function creditsUsed(key: string | Record<string, string>): Promise<number> {
  const headers = typeof key === "string" ? bearer(key) : key;
  const body = await envelope<{ usage: { used: number } }>(await call("/v1/account", { headers }));
  return body.data?.usage.used ?? Number.NaN;
}
