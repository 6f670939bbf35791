/**
 * An async capture's document: its queue message carries ids only (./queue-message.ts), so the
 * capture itself — the normalised CaptureSpec plus what the consumer needs to finish (cacheTtl,
 * the public origin for the signed result URL) — waits in R2 at `jobs/<accountId>/<jobId>.json`.
 */
import { z } from "zod";
import type { CaptureJobMessage } from "./queue-message";
import type { AnimationPlan, CaptureSpec } from "../capture/capture-spec";
import type { StorageChoice } from "../storage/destinations";
import { isPlainObject, plainId } from "../../schemas/primitives";

const id = plainId;

export interface JobDocument {
  v: 1;
  accountId: string;
  jobId: string;
  spec: CaptureSpec;
  /** Lifetime of the hosted result (and its signed URL), seconds. */
  cacheTtl: number;
  /** Origin of the signed result URL: PUBLIC_BASE_URL or the submitting request's origin. */
  origin: string;
  /** Deliver the result to this storage destination (key template unexpanded); absent = hosted in R2. */
  storage?: StorageChoice;
  /** A recording job (POST /v1/animate with async: true): what it films and its credits. */
  recording?: RecordingJob;
}

/** What a recording job films, and the credits reserved for it at admission (by its length). */
export interface RecordingJob {
  plan: AnimationPlan;
  credits: number;
}

const jobDocument = z.object({
  v: z.literal(1),
  accountId: id,
  jobId: id,
  // Written by submit.ts from a CaptureSpec it built; only its shape is re-checked here.
  spec: z.custom<CaptureSpec>(
    (v) => isPlainObject(v) && isPlainObject(v.source) && typeof v.format === "string",
  ),
  cacheTtl: z.number().int().positive(),
  origin: z.url({ protocol: /^https?$/ }),
  storage: z.object({ destinationId: z.string().min(1), key: z.string().min(1) }).optional(),
  // Written by submit.ts from a checked AnimationPlan; only its shape is re-checked here.
  recording: z
    .object({
      plan: z.custom<AnimationPlan>(
        (v) => isPlainObject(v) && typeof v.format === "string" && typeof v.fps === "number",
      ),
      credits: z.number().int().positive(),
    })
    .optional(),
});

export function jobDocumentKey(accountId: string, jobId: string): string {
  return `jobs/${accountId}/${jobId}.json`;
}

/** The job's document, or null when missing or malformed. */
export async function readJobDocument(
  env: Env,
  message: Pick<CaptureJobMessage, "accountId" | "jobId">,
): Promise<JobDocument | null> {
  const object = await env.OUTPUTS.get(jobDocumentKey(message.accountId, message.jobId));
  if (!object) return null;
  const parsed = jobDocument.safeParse(await object.json().catch(() => null));
  if (!parsed.success) return null;
  const doc = parsed.data;
  return doc.accountId === message.accountId && doc.jobId === message.jobId ? doc : null;
}

export async function writeJobDocument(
  env: Env,
  doc: JobDocument,
  ttlSeconds: number,
): Promise<void> {
  const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
  await env.OUTPUTS.put(jobDocumentKey(doc.accountId, doc.jobId), JSON.stringify(doc), {
    httpMetadata: { contentType: "application/json" },
    // The hourly sweep deletes objects past `expires` (storage/hosted.ts).
    customMetadata: { expires: String(expires), accountId: doc.accountId },
  });
}

export function deleteJobDocument(env: Env, accountId: string, jobId: string): Promise<void> {
  return env.OUTPUTS.delete(jobDocumentKey(accountId, jobId));
}
