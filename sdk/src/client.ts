/**
 * The hand-written part of the SDK: transport (auth, JSON, retries on 429 honouring
 * Retry-After, typed errors), binary captures with their metadata headers, polling jobs and
 * batches to completion, and render-link tags. Shapes come from the generated types.
 */
import { EdgeshotError } from "./errors";
import type {
  Account,
  Artifact,
  ArtifactRequest,
  Batch,
  BatchAccepted,
  BatchRequest,
  CaptureJson,
  CaptureRequest,
  CredentialCheck,
  Destination,
  DestinationRequest,
  ErrorDetail,
  Extraction,
  ExtractRequest,
  HostedCapture,
  Job,
  JobAccepted,
  CreateWatchData,
  CreateWatchResponses,
  DeleteWatchResponses,
  ListBatchesData,
  ListJobsData,
  ListWatchesData,
  ListWatchesResponses,
  ListWatchRunsData,
  ListWatchRunsResponses,
  RunWatchResponses,
  UpdateWatchData,
  RenderLink,
  RenderLinkRequest,
  Usage,
} from "./generated";

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

/** The metadata headers of a binary capture, parsed. */
export interface CaptureMetadata {
  url: string;
  width: number;
  height: number;
  size: number;
  capturedAt: string;
  format: string;
  quality: string;
  waitStrategy: string;
  loadTimeMs: number;
  truncated: boolean;
  autoScrolled: boolean;
  watermarked: boolean;
  creditsCharged: number | null;
  /** null when the plan is unlimited. */
  creditsRemaining: number | null;
  cache: "hit" | "miss" | null;
}

export interface CaptureBytes {
  bytes: Uint8Array;
  contentType: string;
  metadata: CaptureMetadata;
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

export interface MintedRenderLink extends RenderLink {
  /** `<img src=… alt=…>` with the link, HTML-escaped. */
  imgTag(alt: string, attributes?: Record<string, string | number>): string;
  /** `<meta property="og:image" content=…>` (and twitter:image). */
  ogImageTags(): string;
}

type Query = Record<string, string | number | boolean | undefined>;

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

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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

const num = (v: string | null) => (v === null || v === "" ? null : Number(v));

function metadataOf(headers: Headers): CaptureMetadata {
  const remaining = headers.get("x-service-credits-remaining");
  const cache = headers.get("x-service-cache");
  return {
    url: headers.get("x-screenshot-url") ?? "",
    width: num(headers.get("x-screenshot-width")) ?? 0,
    height: num(headers.get("x-screenshot-height")) ?? 0,
    size: num(headers.get("x-screenshot-size")) ?? 0,
    capturedAt: headers.get("x-screenshot-captured-at") ?? "",
    format: headers.get("x-service-format") ?? "",
    quality: headers.get("x-service-quality") ?? "",
    waitStrategy: headers.get("x-service-wait-strategy") ?? "",
    loadTimeMs: num(headers.get("x-service-load-time-ms")) ?? 0,
    truncated: headers.get("x-service-truncated") === "true",
    autoScrolled: headers.get("x-service-auto-scrolled") === "true",
    watermarked: headers.get("x-service-watermarked") === "true",
    creditsCharged: num(headers.get("x-service-credits-charged")),
    creditsRemaining: remaining === "unlimited" ? null : num(remaining),
    cache: cache === "hit" || cache === "miss" ? cache : null,
  };
}

export class Edgeshot {
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
  async #send(method: string, path: string, body?: unknown, query?: Query): Promise<Response> {
    const url = new URL(this.#baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}` };
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

  async #json<T>(method: string, path: string, body?: unknown, query?: Query) {
    const res = await this.#send(method, path, body, query);
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

  async #bytes(res: Response): Promise<CaptureBytes> {
    return {
      bytes: new Uint8Array(await res.arrayBuffer()),
      contentType: res.headers.get("content-type") ?? "application/octet-stream",
      metadata: metadataOf(res.headers),
    };
  }

  /** POST /v1/screenshot: the image or PDF bytes and their metadata. */
  async screenshot(request: Omit<CaptureRequest, "hosted" | "async">): Promise<CaptureBytes> {
    return this.#bytes(await this.#send("POST", "/v1/screenshot", request));
  }

  /** POST /v1/screenshot with hosted: true: a signed URL instead of bytes. */
  screenshotHosted(request: Omit<CaptureRequest, "hosted" | "async">) {
    return this.#json<HostedCapture>("POST", "/v1/screenshot", { ...request, hosted: true });
  }

  /** POST /v1/screenshot/json: base64 image (and the article with extract: true). */
  screenshotJson(request: Omit<CaptureRequest, "async">) {
    return this.#json<CaptureJson>("POST", "/v1/screenshot/json", request);
  }

  /** POST /v1/screenshot with async: true: a queued job; see `jobs.wait`. */
  screenshotAsync(request: Omit<CaptureRequest, "async" | "hosted">) {
    return this.#json<JobAccepted>("POST", "/v1/screenshot", { ...request, async: true });
  }

  /** POST /v1/screenshot/batch (paid plans). */
  batch(request: BatchRequest) {
    return this.#json<BatchAccepted>("POST", "/v1/screenshot/batch", request);
  }

  /** POST /v1/extract. */
  extract(request: ExtractRequest) {
    return this.#json<Extraction>("POST", "/v1/extract", request);
  }

  /** POST /v1/artifact. */
  artifact(request: ArtifactRequest) {
    return this.#json<Artifact>("POST", "/v1/artifact", request);
  }

  /** GET /v1/account. */
  account() {
    return this.#json<Account>("GET", "/v1/account");
  }

  /** GET /v1/credential-check. */
  credentialCheck() {
    return this.#json<CredentialCheck>("GET", "/v1/credential-check");
  }

  /** Fetch a signed URL of this service (hosted output, job result, render link) as bytes. */
  async fetchSigned(url: string): Promise<CaptureBytes> {
    const res = await this.#fetch(url);
    if (!res.ok) throw await errorFrom(res);
    return this.#bytes(res);
  }

  readonly jobs = {
    get: (jobId: string) => this.#json<Job>("GET", `/v1/jobs/${encodeURIComponent(jobId)}`),
    list: (query: NonNullable<ListJobsData["query"]> = {}) =>
      this.#json<{ items: Job[]; nextCursor: string | null }>("GET", "/v1/jobs", undefined, query),
    /** Polls until the job completed or failed (a failed job resolves; check `status`). */
    wait: (jobId: string, options: WaitOptions = {}) =>
      this.#poll(
        () => this.jobs.get(jobId),
        (j) => j.status === "completed" || j.status === "failed",
        options,
      ),
  };

  readonly batches = {
    get: (batchId: string) =>
      this.#json<Batch>("GET", `/v1/batches/${encodeURIComponent(batchId)}`),
    list: (query: NonNullable<ListBatchesData["query"]> = {}) =>
      this.#json<{ items: Batch[]; nextCursor: string | null }>(
        "GET",
        "/v1/batches",
        undefined,
        query,
      ),
    /** Polls until every job of the batch finished. */
    wait: (batchId: string, options: WaitOptions = {}) =>
      this.#poll(
        () => this.batches.get(batchId),
        (b) => b.status === "completed",
        options,
      ),
  };

  readonly renderLinks = {
    /** POST /v1/render/link: a signed URL, with helpers for `<img>` and og:image tags. */
    create: async (request: RenderLinkRequest): Promise<WithMeta<MintedRenderLink>> => {
      const link = await this.#json<RenderLink>("POST", "/v1/render/link", request);
      const src = escapeHtml(link.url);
      return Object.assign(link, {
        imgTag(alt: string, attributes: Record<string, string | number> = {}) {
          const extra = Object.entries(attributes)
            .map(([k, v]) => ` ${escapeHtml(k)}="${escapeHtml(String(v))}"`)
            .join("");
          return `<img src="${src}" alt="${escapeHtml(alt)}"${extra}>`;
        },
        ogImageTags() {
          return `<meta property="og:image" content="${src}">\n<meta name="twitter:image" content="${src}">`;
        },
      });
    },
  };

  readonly destinations = {
    create: (request: DestinationRequest) =>
      this.#json<Destination>("POST", "/v1/storage/destinations", request),
    list: () => this.#json<{ items: Destination[] }>("GET", "/v1/storage/destinations"),
    get: (id: string) =>
      this.#json<Destination>("GET", `/v1/storage/destinations/${encodeURIComponent(id)}`),
    delete: (id: string) =>
      this.#json<{ destinationId: string; deleted: true }>(
        "DELETE",
        `/v1/storage/destinations/${encodeURIComponent(id)}`,
      ),
    test: (id: string) =>
      this.#json<{ destinationId: string; ok: true }>(
        "POST",
        `/v1/storage/destinations/${encodeURIComponent(id)}/test`,
      ),
  };

  /** Watches: scheduled captures with change detection (watch.changed / watch.failed webhooks). */
  readonly watches = {
    create: (request: CreateWatchData["body"]) =>
      this.#json<CreateWatchResponses[201]["data"]>("POST", "/v1/watches", request),
    list: (query: NonNullable<ListWatchesData["query"]> = {}) =>
      this.#json<ListWatchesResponses[200]["data"]>("GET", "/v1/watches", undefined, query),
    get: (watchId: string) =>
      this.#json<CreateWatchResponses[201]["data"]>("GET", watchPath(watchId)),
    update: (watchId: string, change: UpdateWatchData["body"]) =>
      this.#json<CreateWatchResponses[201]["data"]>("PATCH", watchPath(watchId), change),
    delete: (watchId: string) =>
      this.#json<DeleteWatchResponses[200]["data"]>("DELETE", watchPath(watchId)),
    /** One run now; the schedule is not shifted. */
    run: (watchId: string) =>
      this.#json<RunWatchResponses[202]["data"]>("POST", `${watchPath(watchId)}/run`),
    runs: (watchId: string, query: NonNullable<ListWatchRunsData["query"]> = {}) =>
      this.#json<ListWatchRunsResponses[200]["data"]>(
        "GET",
        `${watchPath(watchId)}/runs`,
        undefined,
        query,
      ),
  };

  async #poll<T>(read: () => Promise<T>, done: (value: T) => boolean, options: WaitOptions) {
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

const watchPath = (watchId: string) => `/v1/watches/${encodeURIComponent(watchId)}`;
