/**
 * One watch run on the capture-jobs consumer (docs/WATCHES.md), run by the job runner
 * (jobs/runner.ts: a run is a job — start, engine, retry decision, finish, webhooks). What is
 * its own: the target is re-checked (URL guard, DNS, reputation: at every run, not only at
 * creation); the pipeline captures a PNG (plus the page's visible text for text comparison,
 * from the same page load) into our R2 — and, with a storage destination, into the customer's
 * bucket too, our copy kept whatever the destination says (the next run compares with it); the
 * run is compared with the last good run, the diff image stored beside it, and run and job
 * finish in one Account DO transaction: the credit committed (refunded on failure), the
 * baseline moved only by a good run, webhooks emitted, retention applied.
 */
import type { CompletenessData } from "../../schemas/responses";
import type { ChangeDetection } from "../../schemas/watches";
import { accountStub } from "../accounts/directory";
import type { RunContext, RunResult } from "./store/runs";
import type { WatchRunMessage } from "./queue-message";
import { FAILURE } from "../capture/failures";
import type { OutputResult, PipelineRun } from "../pipeline/pipeline";
import type { CaptureSpec } from "../capture/capture-spec";
import { ApiError } from "../errors";
import type { JobKind } from "../jobs/runner";
import { jobStorageTarget } from "../jobs/storage-target";
import { checkTarget } from "../security/target-check";
import { signedImageUrl } from "../storage/hosted";
import type { StorageChoice } from "../storage/destinations";
import { enqueueWebhooks } from "../webhooks/deliver";
import { compareImages, compareText } from "./compare";
import { firedAlerts } from "./alerts";
import { typeFields } from "../extract/fields";
import type { FieldValues } from "../../schemas/structured";
import { deleteWatchOutputs, outputTtlSeconds, storeWatchOutput } from "./outputs";

/** A watch run's job as the runner's job kind. */
export function watchRun(env: Env, msg: WatchRunMessage): JobKind<RunContext> {
  return {
    name: "watches",
    accountId: msg.accountId,
    jobId: msg.jobId,
    load: () => accountStub(env, msg.accountId).watches().runContext(msg.jobId),
    guard: async (ctx) => {
      try {
        await checkTarget(env, new URL(ctx.url));
        return null;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return FAILURE.unreachable;
      }
    },
    plan: async (ctx) => {
      const storage = await jobStorageTarget(env, {
        accountId: msg.accountId,
        choice: JSON.parse(ctx.storage ?? "null") as StorageChoice | null,
        hosted: {
          kind: "hosted",
          ttlSeconds: outputTtlSeconds(ctx.retentionDays, ctx.intervalMinutes),
          prefix: "w",
          context: `watch run ${ctx.runId}`,
        },
        keyValues: {
          jobId: msg.jobId,
          batchId: null,
          watchId: ctx.watchId,
          host: new URL(ctx.url).hostname,
          ext: "png",
        },
        keep: "always",
      });
      const cd = ctx.changeDetection;
      return {
        spec: JSON.parse(ctx.spec) as CaptureSpec,
        outputs: [
          { kind: "image", format: "png" },
          ...(wantsText(cd) ? [{ kind: "text" } as const] : []),
          ...(cd.fields
            ? [{ kind: "structured", fields: cd.fields, markup: false, billable: false } as const]
            : []),
        ],
        storage,
      };
    },
    complete: (ctx, run) => settle(env, msg, ctx, captured(run, ctx.changeDetection)),
    fail: (failure) => finish(env, msg, { status: "failed", ...failure }, []),
  };
}

interface Captured {
  png: Uint8Array;
  imageKey: string;
  imageExpires: number;
  text: string | null;
  /** The watch's fields as the page read them, typed; null when the watch reads none. */
  fields: FieldValues | null;
  width: number;
  height: number;
  loadTimeMs: number;
  completeness: CompletenessData | null;
}

const wantsText = (cd: ChangeDetection) => cd.mode === "text" || cd.mode === "both";
const wantsVisual = (cd: ChangeDetection) => cd.mode === "visual" || cd.mode === "both";

function captured(run: PipelineRun, cd: ChangeDetection): Captured {
  const [image, ...content] = run.outputs;
  if (image?.kind !== "image" || !image.ok || !image.stored)
    throw new Error("watch run image was not stored");
  return {
    png: image.result.bytes,
    imageKey: image.stored.key,
    imageExpires: image.stored.expires,
    text: textOf(content.find((o) => o.kind === "text")),
    fields: fieldsOf(
      cd,
      content.find((o) => o.kind === "structured"),
    ),
    width: image.result.width,
    height: image.result.height,
    loadTimeMs: run.loadTimeMs,
    completeness: image.result.completeness,
  };
}

function textOf(output: OutputResult | undefined): string | null {
  return output?.kind === "text" && output.ok ? output.text : null;
}

function fieldsOf(cd: ChangeDetection, output: OutputResult | undefined): FieldValues | null {
  if (!cd.fields || output?.kind !== "structured" || !output.ok || !output.fields) return null;
  return typeFields(cd.fields, output.fields.values, output.fields.base);
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
  shot: Captured,
): Promise<string[]> {
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
    const alerts =
      shot.fields === null
        ? []
        : firedAlerts(cd.alerts, baselineFields(base?.fields ?? null), shot.fields);
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
      fields: shot.fields === null ? null : JSON.stringify(shot.fields),
      alerts: alerts.length > 0 ? JSON.stringify(alerts) : null,
      meta: {
        width: shot.width,
        height: shot.height,
        loadTimeMs: shot.loadTimeMs,
        bytesSize: shot.png.byteLength,
        completeness: shot.completeness,
      },
    };
    return await finish(env, msg, result, written);
  } catch (err) {
    // Our own failure after the capture (R2, a corrupt baseline): nothing of it is kept.
    await deleteWatchOutputs(env, written);
    throw err;
  }
}

/** The last good run's fields; null when it read none (the watch's first run with fields). */
function baselineFields(json: string | null): FieldValues | null {
  return json === null ? null : (JSON.parse(json) as FieldValues);
}

/**
 * Finishes run and job; deletes what retention removed (and our outputs if we lost the race).
 * Returns the webhook deliveries to queue.
 */
async function finish(
  env: Env,
  msg: WatchRunMessage,
  result: RunResult,
  written: string[],
): Promise<string[]> {
  const done = await accountStub(env, msg.accountId).watches().finishRun(msg.jobId, result);
  await deleteWatchOutputs(env, done.changed ? done.deleteKeys : written);
  return done.webhooks;
}

/** The dead-letter path of a watch run: it fails with the generic reason unless finished. */
export async function abortWatchRun(env: Env, accountId: string, jobId: string): Promise<void> {
  const run = await accountStub(env, accountId).watches().abortRun(jobId, FAILURE.generic);
  await deleteWatchOutputs(env, run.deleteKeys);
  await enqueueWebhooks(env, accountId, run.webhooks);
}
