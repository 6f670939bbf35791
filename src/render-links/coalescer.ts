/**
 * RenderCoalescer: a Durable Object per render-link cache key (idFromName), so that however
 * many first requests for one link arrive at once, anywhere, the link renders — and its owner
 * pays — once. The first call starts the render; calls arriving while it runs await the same
 * promise; calls after it finished get the remembered result (KV may not have propagated yet).
 *
 * A render: decode the signed parameters, check the owner (account exists, minting key still
 * active: else 403), charge the owner 1 credit (refunded on failure), capture with the owner's
 * plan (watermark, plan gates, URL guard re-run), store in R2 + KV for cacheTtl — all through
 * the capture pipeline (src/pipeline/). Results cross
 * RPC as the R2 key and metadata, never the bytes; errors as plain values (classes do not cross).
 */
import { DurableObject } from "cloudflare:workers";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { renderParamsSchema } from "../../schemas/render-link";
import type { AuthContext } from "../accounts/auth";
import { accountStub } from "../accounts/directory";
import { PLANS } from "../accounts/plans";
import { prepareCapture } from "../capture-request/prepare";
import { browserEngine } from "../pipeline/engine";
import { imageOutput, runCapture } from "../pipeline/pipeline";
import { ApiError, type ErrorCode, type ErrorDetail } from "../errors";
import { LIMITS } from "../../schemas/limits";
import { isLive, readEntry, type RenderEntry } from "../storage/render-cache";
import { decodePayload } from "./links";
import { log } from "../log";
import { MESSAGES } from "../user-messages";

export interface RenderJob {
  cacheKey: string;
  uid: string;
  /** The verified, still encoded parameters token. */
  p: string;
}

export interface WireError {
  code: ErrorCode;
  message: string;
  status: ContentfulStatusCode;
  details?: ErrorDetail[];
  headers?: Record<string, string>;
}

export type RenderOutcome =
  { ok: true; entry: RenderEntry; rendered: boolean } | { ok: false; error: WireError };

export class RenderCoalescer extends DurableObject<Env> {
  private readonly inflight = new Map<string, Promise<RenderOutcome>>();
  private readonly recent = new Map<string, RenderEntry>();

  render(job: RenderJob): Promise<RenderOutcome> {
    const running = this.inflight.get(job.cacheKey);
    if (running) return running;
    const started = this.resolve(job).finally(() => this.inflight.delete(job.cacheKey));
    this.inflight.set(job.cacheKey, started);
    return started;
  }

  private async resolve(job: RenderJob): Promise<RenderOutcome> {
    try {
      const existing = await this.existing(job.cacheKey);
      if (existing) return { ok: true, entry: existing, rendered: false };
      const entry = await renderOnce(this.env, job);
      this.recent.set(job.cacheKey, entry);
      return { ok: true, entry, rendered: true };
    } catch (err) {
      return { ok: false, error: toWire(err) };
    }
  }

  /** A finished render whose output is still stored: remembered here, else from KV. */
  private async existing(cacheKey: string): Promise<RenderEntry | null> {
    const remembered = this.recent.get(cacheKey);
    if (remembered && (await usable(this.env, remembered))) return remembered;
    this.recent.delete(cacheKey);
    const stored = await readEntry(this.env, cacheKey);
    return stored && (await usable(this.env, stored)) ? stored : null;
  }
}

async function usable(env: Env, entry: RenderEntry): Promise<boolean> {
  return entry.expires > Math.floor(Date.now() / 1000) && (await isLive(env, entry));
}

const forbidden = (message: string) => new ApiError("FORBIDDEN", message);

async function renderOnce(env: Env, job: RenderJob): Promise<RenderEntry> {
  const payload = decodePayload(job.p);
  const params = payload ? renderParamsSchema.safeParse(payload.r) : null;
  if (!payload || !params?.success) throw forbidden("The render link is invalid.");

  const account = accountStub(env, job.uid);
  const owner = await account.renderOwner(payload.k);
  if (!owner) throw forbidden("The account that created this render link no longer exists.");
  if (!owner.keyActive)
    throw forbidden("The API key that created this render link has been revoked.");
  const auth: AuthContext = {
    accountId: job.uid,
    keyId: payload.k,
    plan: PLANS[owner.plan],
    account,
  };

  const spec = await prepareCapture(env, auth, params.data);
  const ttlSeconds = params.data.cacheTtl ?? LIMITS.cacheTtl.default;
  const captured = await runCapture(env, auth, {
    spec,
    outputs: [{ kind: "image", format: spec.format }],
    storage: { kind: "render-cache", ttlSeconds, cacheKey: job.cacheKey, context: "render link" },
    engine: browserEngine(env),
  });
  const { stored } = imageOutput(captured);
  if (!stored?.entry) throw new Error("render link capture returned without its cache entry");
  return stored.entry;
}

function toWire(err: unknown): WireError {
  if (err instanceof ApiError) {
    const wire: WireError = { code: err.code, message: err.message, status: err.status };
    if (err.details) wire.details = err.details;
    if (Object.keys(err.extraHeaders).length > 0) wire.headers = err.extraHeaders;
    return wire;
  }
  log("error", "render link failed", {
    error: String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return { code: "INTERNAL_ERROR", message: MESSAGES.internalError, status: 500 };
}

/** The ApiError a failed outcome stands for, on the caller's side of the RPC. */
export function fromWire(error: WireError): ApiError {
  return new ApiError(error.code, error.message, {
    status: error.status,
    details: error.details,
    headers: error.headers,
  });
}
