/** Capture calls for tests: a paid account per test file, and small request helpers. */
import { call, envelope, postJson, type Envelope } from "./http";
import { bearer, createAccount, type TestAccount } from "./accounts";
import type { PlanId } from "../../src/accounts/plans";
import type { CaptureSpec } from "../../src/capture/capture-spec";
import { toCaptureSpec } from "../../src/capture-request/spec";
import { FIXTURES, runId } from "./http";

/** The request fields of a small, quick capture: 320×240 at 1×, `load`, no ad blocking. */
export const SMALL_CAPTURE = {
  width: 320,
  height: 240,
  deviceScaleFactor: 1,
  waitUntil: "load",
  blockAds: false,
} as const;

/**
 * A small, quick capture spec (SMALL_CAPTURE, no watermark) for tests that drive the engine or
 * the queue directly; by default the red boxes page, one run id each.
 */
export function smallSpec(
  url = `${FIXTURES}/boxes.html?run=${runId()}`,
  extra: { timeout?: number; js?: string } = {},
): CaptureSpec {
  return toCaptureSpec({ url, ...SMALL_CAPTURE, ...extra }, { watermark: null });
}

export interface Shot {
  res: Response;
  bytes: Uint8Array;
}

export class Capturer {
  private constructor(readonly account: TestAccount) {}

  static async create(plan: PlanId = "pro"): Promise<Capturer> {
    return new Capturer(await createAccount(plan));
  }

  get auth(): Record<string, string> {
    return bearer(this.account.apiKey);
  }

  async post(body: Record<string, unknown>, path = "/v1/screenshot"): Promise<Shot> {
    const res = await postJson(path, body, this.auth);
    return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
  }

  async get(query: Record<string, string>): Promise<Shot> {
    const qs = new URLSearchParams(query).toString();
    const res = await call(`/v1/screenshot?${qs}`, { headers: this.auth });
    return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
  }

  /** POST /v1/screenshot/json and parse the envelope. */
  async json<T = Record<string, unknown>>(
    body: Record<string, unknown>,
  ): Promise<{ res: Response; body: Envelope<T> }> {
    const res = await postJson("/v1/screenshot/json", body, this.auth);
    return { res, body: await envelope<T>(res) };
  }

  postRaw(body: string, path = "/v1/screenshot"): Promise<Response> {
    return postJson(path, body, this.auth);
  }
}
