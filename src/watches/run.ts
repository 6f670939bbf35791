/**
 * One watch run on the capture-jobs consumer (docs/WATCHES.md): take the job (guarded, as any
 * async job), re-check the target (URL guard, DNS, reputation: at every run, not only at
 * creation), capture through the pipeline (PNG, plus the page's visible text for text
 * comparison, from the same page load), compare with the last good run, store the diff image
 * beside the run, and finish run and job in one Account DO transaction: the credit committed
 * (refunded on failure), the baseline moved only by a good run, webhooks emitted, retention
 * applied. Returns "retry" for a transient failure with attempts left; the consumer retries.
 */
import type { ChangeDetection } from "../../schemas/watches";
import { accountStub } from "../accounts/directory";
import type { RunContext, RunResult, WatchRunMessage } from "./store/runs";
import type { CaptureOutcome } from "../capture/browser-host";
import { FAILURE, toFailure } from "../capture/failures";
import type { CaptureEngine } from "../capture/pipeline/engine";
import { runPrepaidCapture, type OutputResult } from "../capture/pipeline/pipeline";
import type { CaptureSpec } from "../capture/spec";
import { ApiError } from "../errors";
import { jobError } from "../jobs/errors";
import { log } from "../log";
import { checkTarget } from "../security/target-check";
import { signedImageUrl } from "../storage/hosted";
import { expandKey, openDestination, type StorageChoice } from "../storage/destinations";
import { deliverResult } from "../capture/pipeline/storage";
import { TUNING } from "../tuning";
import { enqueueWebhooks } from "../webhooks/deliver";
import { compareImages, compareText } from "./compare";
import { deleteWatchOutputs, outputTtlSeconds, storeWatchOutput } from "./outputs";

export interface WatchRunDeps {
  /** The queue delivery attempt (1-based). */
  attempt: number;
  capture: (env: Env, spec: CaptureSpec) => Promise<CaptureOutcome>;
}

type Verdict = "done" | "retry";

export async function runWatchJob(
  env: Env,
  msg: WatchRunMessage,
  deps: WatchRunDeps,
): Promise<Verdict> {
  const account = accountStub(env, msg.accountId);
  const start = await account.jobs().start(msg.jobId, deps.attempt);
  if (!start.ok) {
    await enqueueWebhooks(env, msg.accountId, start.pendingWebhooks);
    return "done";
  }
  const ctx = await account.watches().runContext(msg.jobId);
  if (!ctx) {
    log("error", "watches: run context missing", { jobId: msg.jobId });
    await finish(env, msg, { status: "failed", error: FAILURE.generic }, []);
    return "done";
  }
  try {
    await checkTarget(env, new URL(ctx.url));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    await finish(env, msg, { status: "failed", error: FAILURE.unreachable }, []);
    return "done";
  }
  const outcome = await capture(env, msg, ctx, deps);
  if (outcome.kind === "failed") {
    if (outcome.transient && deps.attempt < TUNING.captureAttempts) return "retry";
    await finish(env, msg, { status: "failed", error: outcome.error }, []);
    return "done";
  }
  if (ctx.storage !== null && !(await deliverCopy(env, msg, ctx, outcome))) {
    await finish(env, msg, { status: "failed", error: FAILURE.storage }, [outcome.imageKey]);
    return "done";
  }
  await settle(env, msg, ctx, outcome);
  return "done";
}

type Captured =
  | { kind: "failed"; error: string; transient: boolean }
  | {
      kind: "ok";
      png: Uint8Array;
      imageKey: string;
      imageExpires: number;
      text: string | null;
      width: number;
      height: number;
      loadTimeMs: number;
    };

const wantsText = (cd: ChangeDetection) => cd.mode === "text" || cd.mode === "both";
const wantsVisual = (cd: ChangeDetection) => cd.mode === "visual" || cd.mode === "both";

async function capture(
  env: Env,
  msg: WatchRunMessage,
  ctx: RunContext,
  deps: WatchRunDeps,
): Promise<Captured> {
  const spec = JSON.parse(ctx.spec) as CaptureSpec;
  const engine: CaptureEngine = {
    capture: (s) =>
      deps
        .capture(env, s)
        .catch((err: unknown): CaptureOutcome => ({ ok: false, failure: toFailure(err) })),
  };
  const text = wantsText(ctx.changeDetection);
  const run = await runPrepaidCapture(env, msg.accountId, {
    spec,
    outputs: [{ kind: "image", format: "png" }, ...(text ? [{ kind: "text" } as const] : [])],
    storage: {
      kind: "hosted",
      ttlSeconds: outputTtlSeconds(ctx.retentionDays, ctx.intervalMinutes),
      prefix: "w",
      context: `watch run ${ctx.runId}`,
    },
    engine,
  });
  const [image, page] = run.outputs;
  if (!image) throw new Error("watch run returned no output");
  if (!image.ok) {
    return {
      kind: "failed",
      error: jobError(image.failure.error),
      transient: image.failure.transient,
    };
  }
  if (image.kind !== "image" || !image.stored) throw new Error("watch run image was not stored");
  return {
    kind: "ok",
    png: image.result.bytes,
    imageKey: image.stored.key,
    imageExpires: image.stored.expires,
    text: textOf(page),
    width: image.result.width,
    height: image.result.height,
    loadTimeMs: run.loadTimeMs,
  };
}

/**
 * The watch's storage destination gets a copy of the run's image (our R2 keeps the original:
 * the next run compares with it). False when the destination is gone or the upload failed.
 */
async function deliverCopy(
  env: Env,
  msg: WatchRunMessage,
  ctx: RunContext,
  shot: Extract<Captured, { kind: "ok" }>,
): Promise<boolean> {
  const choice = JSON.parse(ctx.storage ?? "null") as StorageChoice | null;
  if (choice === null) return true;
  const record = await accountStub(env, msg.accountId).destinations().record(choice.destinationId);
  if (!record) return false;
  try {
    const destination = await openDestination(env, record);
    const key = expandKey(choice.key, record.prefix, {
      jobId: msg.jobId,
      batchId: null,
      watchId: ctx.watchId,
      host: new URL(ctx.url).hostname,
      ext: "png",
      now: new Date(),
    });
    const context = `watch run ${ctx.runId}`;
    await deliverResult(
      { kind: "bucket", destination, key, context, keep: null }, // our copy is imageKey
      { bytes: shot.png, contentType: "image/png" },
    );
    return true;
  } catch (err) {
    // Never the error itself: a failed unseal must not put anything of the secret in the logs.
    log("error", "watches: storage destination delivery failed", {
      runId: ctx.runId,
      kind: err instanceof Error ? err.name : "unknown",
    });
    return false;
  }
}

function textOf(output: OutputResult | undefined): string | null {
  return output?.kind === "text" && output.ok ? output.text : null;
}

async function readObject(env: Env, key: string | null): Promise<Uint8Array | null> {
  if (key === null) return null;
  const object = await env.OUTPUTS.get(key);
  return object ? new Uint8Array(await object.arrayBuffer()) : null;
}

/** Compares with the baseline, stores the diff and the page text, and finishes the run. */
async function settle(
  env: Env,
  msg: WatchRunMessage,
  ctx: RunContext,
  shot: Extract<Captured, { kind: "ok" }>,
): Promise<void> {
  const written: string[] = [shot.imageKey];
  const ttlSeconds = outputTtlSeconds(ctx.retentionDays, ctx.intervalMinutes);
  const cd = ctx.changeDetection;
  try {
    const base = ctx.baseline;
    const basePng = base ? await readObject(env, base.imageKey) : null;
    const baseText = base ? await readObject(env, base.textKey) : null;
    let textKey: string | null = null;
    if (shot.text !== null) {
      const stored = await storeWatchOutput(env, {
        bytes: new TextEncoder().encode(shot.text),
        contentType: "text/plain; charset=utf-8",
        ttlSeconds,
        accountId: msg.accountId,
      });
      textKey = stored.key;
      written.push(stored.key);
    }
    const imageUrl = await signedImageUrl(env, ctx.origin, {
      key: shot.imageKey,
      expires: shot.imageExpires,
    });
    let outcome: "baseline" | "unchanged" | "changed" = "baseline";
    let changedPercent: number | null = null;
    let diffKey: string | null = null;
    let diffUrl: string | null = null;
    let textDiff: { added: string[]; removed: string[] } | null = null;
    const comparable =
      basePng !== null && (!wantsText(cd) || baseText !== null || shot.text === null);
    if (base && comparable) {
      const scores: number[] = [];
      if (wantsVisual(cd)) {
        const visual = compareImages(basePng, shot.png);
        const stored = await storeWatchOutput(env, {
          bytes: visual.diffPng,
          contentType: "image/png",
          ttlSeconds,
          accountId: msg.accountId,
        });
        written.push(stored.key);
        diffKey = stored.key;
        diffUrl = await signedImageUrl(env, ctx.origin, stored);
        scores.push(visual.changedPercent);
      }
      if (wantsText(cd) && shot.text !== null && baseText !== null) {
        const diff = compareText(new TextDecoder().decode(baseText), shot.text);
        textDiff = { added: diff.added, removed: diff.removed };
        scores.push(diff.changedPercent);
      }
      changedPercent = Math.max(0, ...scores);
      outcome = changedPercent > cd.thresholdPercent ? "changed" : "unchanged";
    }
    const result: RunResult = {
      status: "completed",
      outcome,
      changedPercent,
      imageKey: shot.imageKey,
      imageUrl,
      diffKey,
      diffUrl,
      previousImageUrl: base && comparable ? base.imageUrl : null,
      textKey,
      textDiff,
      meta: {
        width: shot.width,
        height: shot.height,
        loadTimeMs: shot.loadTimeMs,
        bytesSize: shot.png.byteLength,
      },
    };
    await finish(env, msg, result, written);
  } catch (err) {
    // Our own failure after the capture (R2, a corrupt baseline): nothing of it is kept.
    await deleteWatchOutputs(env, written);
    throw err;
  }
}

/** Finishes run and job; deletes what retention removed (and our outputs if we lost the race). */
async function finish(
  env: Env,
  msg: WatchRunMessage,
  result: RunResult,
  written: string[],
): Promise<void> {
  const done = await accountStub(env, msg.accountId).watches().finishRun(msg.jobId, result);
  await deleteWatchOutputs(env, done.changed ? done.deleteKeys : written);
  await enqueueWebhooks(env, msg.accountId, done.webhooks);
}

/** The dead-letter path of a watch run: it fails with the generic reason unless finished. */
export async function abortWatchRun(env: Env, accountId: string, jobId: string): Promise<void> {
  const run = await accountStub(env, accountId).watches().abortRun(jobId, FAILURE.generic);
  await deleteWatchOutputs(env, run.deleteKeys);
  await enqueueWebhooks(env, accountId, run.webhooks);
}
