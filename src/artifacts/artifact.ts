/**
 * POST /v1/artifact as a service: prepare (templates, content, logo, branded document) → the ONE
 * capture pipeline (one page load, one credit per requested format, an output that fails is
 * refunded, each success stored in R2 for `expiresIn`) → the share page stored beside them →
 * signed URLs. All outputs failing is the first failure's error (every credit refunded).
 */
import type { ArtifactRequest } from "../../schemas/artifact";
import type { ArtifactData, Usage } from "../../schemas/responses";
import type { AuthContext } from "../accounts/auth";
import { browserEngine, type CaptureEngine } from "../pipeline/engine";
import { runCapture } from "../pipeline/pipeline";
import { storageFailed } from "../pipeline/storage";
import { signedImageUrl, storeOutput, type StoredOutput } from "../storage/hosted";
import { prepareArtifact } from "./request";
import { sharePage } from "./share-page";

export const SHARE_PAGE_TYPE = "text/html; charset=utf-8";
const SITE_NAME = "Edgeshot";

export interface ArtifactOptions {
  /** The origin signed URLs are minted on. */
  origin: string;
  /** The engine the pipeline runs on (tests pass one that fails an output on purpose). */
  engine?: CaptureEngine;
}

export async function createArtifact(
  env: Env,
  auth: AuthContext,
  req: ArtifactRequest,
  options: ArtifactOptions,
): Promise<{ data: ArtifactData; usage: Usage }> {
  const prepared = await prepareArtifact(env, auth, req);
  const run = await runCapture(env, auth, {
    spec: prepared.spec,
    outputs: prepared.formats.map((format) => ({ kind: "image", format })),
    storage: { kind: "hosted", ttlSeconds: prepared.ttlSeconds, prefix: "a", context: "artifact" },
    engine: options.engine ?? browserEngine(env),
  });

  const urls: { pdf: string | null; png: string | null } = { pdf: null, png: null };
  const stored: StoredOutput[] = [];
  const failed: NonNullable<ArtifactData["failed"]> = [];
  let watermarked = false;
  for (const [i, format] of prepared.formats.entries()) {
    const output = run.outputs[i];
    if (!output) throw new Error(`artifact: no outcome for output ${i}`);
    if (!output.ok) {
      failed.push({
        format,
        code: output.failure.error.code,
        message: output.failure.error.message,
      });
      continue;
    }
    if (output.kind !== "image" || !output.stored)
      throw new Error("artifact: an output was not stored");
    stored.push(output.stored);
    urls[format] = await signedImageUrl(env, options.origin, output.stored);
    watermarked ||= output.result.watermarked;
  }
  const firstFailure = run.outputs.find((o) => !o.ok);
  if (stored.length === 0 && firstFailure && !firstFailure.ok) throw firstFailure.failure.error;

  const expiresAt = new Date(Math.min(...stored.map((s) => s.expires)) * 1000).toISOString();
  const page = sharePage({
    title: prepared.title,
    pngUrl: urls.png,
    pdfUrl: urls.pdf,
    expiresAt,
    siteName: SITE_NAME,
  });
  let share: StoredOutput;
  try {
    share = await storeOutput(env, {
      bytes: new TextEncoder().encode(page),
      contentType: SHARE_PAGE_TYPE,
      ttlSeconds: prepared.ttlSeconds,
      accountId: auth.accountId,
      prefix: "a",
    });
  } catch (err) {
    throw storageFailed("artifact share page", err);
  }
  const data: ArtifactData = {
    ...(urls.pdf ? { pdfUrl: urls.pdf } : {}),
    ...(urls.png ? { pngUrl: urls.png } : {}),
    shareUrl: await signedImageUrl(env, options.origin, {
      key: share.key,
      expires: Math.min(share.expires, ...stored.map((s) => s.expires)),
    }),
    expiresAt,
    title: prepared.title,
    ...(failed.length > 0 ? { failed } : {}),
    ...(watermarked ? { metadata: { watermarked: true } } : {}),
  };
  return { data, usage: run.usage };
}
