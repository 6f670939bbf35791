/**
 * The SDK's transport: auth, JSON envelopes, retries of a 429 honouring Retry-After, typed
 * errors, and polling until a resource is finished. The resources (./client.ts,
 * ./resources/) are thin typed calls on top of it.
 */
import { EdgeshotError } from "./errors.js";
import type { ErrorDetail, Usage } from "./generated/index.js";

export interface EdgeshotOptions {
  /** Your API key (`svc_…`). */
  apiKey: string;
  /** The service origin, e.g. `https://api.edgeshot.dev`. */
  baseUrl: string;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof fetch;
  /** Retries of a 429 (RATE_LIMITED, QUEUE_LIMIT_REACHED) after its Retry-After; default 2. */
  maxRetries?: number;
  /** Upper bound on one Retry-After wait, in seconds; default 60. */
  maxRetryAfterSeconds?: number;
}

/** A JSON answer's data with the envelope's meta. */
export type WithMeta<T> = T & { readonly meta: { requestId: string; usage?: Usage } };

export interface WaitOptions {
  /** Between polls, ms; default 2000 (the API recommends 2–5 s). */
  intervalMs?: number;
  /** Give up after this long, ms; default 300000. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type Query = Record<string, string | number | boolean | undefined>;

interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: { code: string; message: string; details?: ErrorDetail[] };
  meta?: { requestId: string; usage?: Usage };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error("aborted"));
    });
  });

function retryAfterSeconds(res: Response): number | null {
  const value = res.headers.get("retry-after");
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

async function errorFrom(res: Response): Promise<EdgeshotError> {
  const requestId = res.headers.get("x-request-id");
  const retryAfter = retryAfterSeconds(res);
  let body: Envelope<unknown> | null = null;
  try {
    body = (await res.json()) as Envelope<unknown>;
  } catch {
    // not JSON: described below by status
  }
  return new EdgeshotError({
    code: body?.error?.code ?? "INVALID_RESPONSE",
    message: body?.error?.message ?? `HTTP ${res.status}`,
    status: res.status,
    details: body?.error?.details ?? [],
    requestId: body?.meta?.requestId ?? requestId,
    retryAfter,
  });
}

export class Transport {
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #maxRetries: number;
  readonly #maxRetryAfter: number;

  constructor(options: EdgeshotOptions) {
    if (!options.apiKey) throw new TypeError("apiKey is required");
    this.#apiKey = options.apiKey;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#maxRetries = options.maxRetries ?? 2;
    this.#maxRetryAfter = options.maxRetryAfterSeconds ?? 60;
  }

  /** One request with auth; 429s (but monthly USAGE_EXCEEDED) are retried after Retry-After. */
  async send(
    method: string,
    path: string,
    body?: unknown,
    query?: Query,
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> {
    const url = new URL(this.#baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      ...extraHeaders,
      authorization: `Bearer ${this.#apiKey}`,
    };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers["content-type"] = "application/json";
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.#fetch(url, { method, headers, body: payload });
      } catch (err) {
        throw new EdgeshotError({
          code: "NETWORK_ERROR",
          message: err instanceof Error ? err.message : String(err),
          status: 0,
        });
      }
      if (res.ok) return res;
      const error = await errorFrom(res);
      const retryable = res.status === 429 && error.code !== "USAGE_EXCEEDED";
      if (!retryable || attempt >= this.#maxRetries) throw error;
      const wait = Math.min(error.retryAfter ?? 1, this.#maxRetryAfter);
      await sleep(wait * 1000);
    }
  }

  /** One JSON request: the envelope's data, with its meta. */
  async json<T>(method: string, path: string, body?: unknown, query?: Query) {
    // Routes that can answer in another type (POST /v1/content) answer JSON when asked.
    const res = await this.send(method, path, body, query, { accept: "application/json" });
    let envelope: Envelope<T>;
    try {
      envelope = (await res.json()) as Envelope<T>;
    } catch {
      throw new EdgeshotError({
        code: "INVALID_RESPONSE",
        message: "Not JSON.",
        status: res.status,
      });
    }
    if (!envelope.success || envelope.data === undefined)
      throw new EdgeshotError({
        code: envelope.error?.code ?? "INVALID_RESPONSE",
        message: envelope.error?.message ?? "No data.",
        status: res.status,
        requestId: envelope.meta?.requestId ?? null,
      });
    const meta = { requestId: envelope.meta?.requestId ?? "", usage: envelope.meta?.usage };
    return Object.assign(envelope.data as T & object, { meta }) as WithMeta<T>;
  }

  /** GET a signed URL of this service (no auth); a refusal becomes an EdgeshotError. */
  async fetchSigned(url: string): Promise<Response> {
    const res = await this.#fetch(url);
    if (!res.ok) throw await errorFrom(res);
    return res;
  }

  /** Reads until `done` holds, or throws TIMEOUT after `options.timeoutMs`. */
  async poll<T>(read: () => Promise<T>, done: (value: T) => boolean, options: WaitOptions) {
    const deadline = Date.now() + (options.timeoutMs ?? 300_000);
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() >= deadline)
        throw new EdgeshotError({ code: "TIMEOUT", message: "Still not finished.", status: 0 });
      await sleep(options.intervalMs ?? 2000, options.signal);
    }
  }
}
