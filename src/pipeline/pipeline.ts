/**
 * The capture pipeline: the ONE way a capture runs, whoever asks — the sync routes, render
 * links, the job consumer (and artifacts and watch runs next).
 *
 *   caller + prepared spec + requested outputs + storage target + engine
 *     → reserve one credit per billable output (charged runs)
 *     → the engine loads the page ONCE and renders every output
 *     → per output: extraction (of the article read in the page), storage (hosted R2 / render
 *       cache / customer bucket)
 *     → commit the credits of the outputs that succeeded, refund the rest
 *     → per-output results with one `loadTimeMs`
 *
 * `loadTimeMs` is defined here, once: the milliseconds from handing the spec to the engine to
 * its answer — loading the page, its waits and page controls, and rendering every requested
 * output. Credit round trips, storage and response shaping are outside it, so the number means
 * the same on every route (x-service-load-time-ms, `loadTimeMs` in JSON, job metadata).
 *
 * Nothing else reserves credits for, calls an engine for, or stores a capture.
 */
import type { ExtractFormat } from "../../schemas/extract";
import type { ExtractionData, Usage } from "../../schemas/responses";
import type { AuthContext } from "../accounts/auth";
import { creditsFor, withCredits } from "../accounts/credits";
import { ApiError } from "../errors";
import { extractFromCapture } from "./extraction";
import {
  contentPlan,
  contentResult,
  isContentOutput,
  type ContentOutput,
  type ContentResult,
} from "./page-content";
import type { CaptureResult, PageCapture } from "../capture/page/page-capture";
import { failureToApiError, type CaptureFailure } from "../capture/failures";
import { captureHeaders } from "../capture-request/response";
import type { AnimationPlan, CaptureSpec, Format } from "../capture/capture-spec";
import type { RecordedAnimation } from "../capture/outputs/animation";
import { geoEngine, type CaptureEngine } from "./engine";
import type { Delivery } from "../../schemas/storage";
import {
  deliverResult,
  type R2Target,
  storeResult,
  type StorageTarget,
  type Stored,
} from "./storage";

export type RequestedOutput =
  /** An image or PDF of the page: always billable. */
  | { kind: "image"; format: Format }
  /**
   * Reader-mode content of the page's DOM; billable when it is what the caller buys (POST
   * /v1/extract). `wholePage`: a page with no article gives its whole page (crawls).
   */
  | { kind: "extraction"; format: ExtractFormat; billable: boolean; wholePage?: boolean }
  /** Rendered HTML, visible text, links, scraped elements (./page-content.ts). */
  | ContentOutput
  /** A recording of the page (POST /v1/animate; ./animate.ts): `credits` by its length. */
  | { kind: "animation"; plan: AnimationPlan; credits: number };

export interface PipelineInput {
  spec: CaptureSpec;
  outputs: RequestedOutput[];
  storage: StorageTarget;
  engine: CaptureEngine;
  /** Background work (crawl pages): its browser slot yields to interactive captures. */
  background?: boolean;
  /**
   * Its crawl, and the crawl's pages at once: its page may run in the page the crawl's last one
   * left open (src/capture/host/lane-pages.ts).
   */
  lane?: { key: string; width: number };
}

/** Why one output failed: the error its caller answers with; `transient` if a retry may cure it. */
export interface OutputFailure {
  error: ApiError;
  transient: boolean;
  /** The capture failure's cause, where it has one (src/capture/failures.ts). */
  cause?: CaptureFailure["cause"];
}

export type OutputResult =
  | {
      kind: "image";
      ok: true;
      /** The spec as this output's format saw it (format, quality). */
      spec: CaptureSpec;
      result: CaptureResult;
      /** The capture headers of this output (x-screenshot-*, x-service-*). */
      headers: Record<string, string>;
      /** In our R2 (hosted / render-cache targets; bucket targets unless deliverOnly). */
      stored: Stored | null;
      /** In the customer's bucket (bucket targets). */
      delivered: Delivery | null;
    }
  | { kind: "extraction"; ok: true; data: ExtractionData }
  | ContentResult
  | {
      kind: "animation";
      ok: true;
      recording: RecordedAnimation;
      /** In our R2 (hosted targets; bucket targets unless deliverOnly). */
      stored: Stored | null;
      /** In the customer's bucket (bucket targets: a recording job's storage destination). */
      delivered: Delivery | null;
    }
  | { kind: RequestedOutput["kind"]; ok: false; failure: OutputFailure };

export interface PipelineRun {
  outputs: OutputResult[];
  /** What is known about the loaded page; null when the load failed. */
  page: PageFacts | null;
  loadTimeMs: number;
  capturedAt: string;
}

/** The facts of the one page load every output came from. */
export type PageFacts = Pick<
  PageCapture,
  "quality" | "completeness" | "waitStrategy" | "finalUrl" | "contentType" | "page" | "rendered"
>;

/** A run charged to its caller: one credit per billable output, committed or refunded each. */
export async function runCapture(
  env: Env,
  caller: AuthContext,
  input: PipelineInput,
): Promise<PipelineRun & { usage: Usage }> {
  const billable = creditsFor(input.outputs);
  if (billable === 0) throw new Error("runCapture: no billable output requested");
  const { value, usage } = await withCredits(
    caller,
    billable,
    () => execute(env, caller.accountId, input),
    // The same rule, over the outputs that succeeded.
    (run) => creditsFor(input.outputs.filter((_, i) => run.outputs[i]?.ok === true)),
  );
  return { ...value, usage };
}

/**
 * A run whose credits were reserved when its job was admitted (async jobs): they settle with
 * the job's guarded transition in the Account DO, atomically with its state, so a duplicate
 * queue delivery can never charge twice.
 */
export function runPrepaidCapture(
  env: Env,
  accountId: string,
  input: PipelineInput,
): Promise<PipelineRun> {
  return execute(env, accountId, input);
}

async function execute(env: Env, accountId: string, input: PipelineInput): Promise<PipelineRun> {
  const { spec, outputs } = input;
  const formats = outputs.flatMap((o) => (o.kind === "image" ? [o.format] : []));
  const article = outputs.some((o) => o.kind === "extraction");
  const content = contentPlan(outputs.filter(isContentOutput));
  const animation = outputs.find((o) => o.kind === "animation")?.plan ?? null;
  // A geo-targeted spec is rendered by the geo provider, whoever the caller's engine is.
  const engine = spec.geo ? geoEngine(env) : input.engine;
  const started = Date.now();
  const outcome = await engine.capture(
    { ...spec, outputs: { formats, article, content, animation } },
    accountId,
    {
      background: input.background === true,
      ...(input.lane ? { lane: input.lane.key, laneWidth: input.lane.width } : {}),
    },
  );
  const loadTimeMs = Date.now() - started;
  const capturedAt = new Date().toISOString();
  if (!outcome.ok) {
    const failure = fromCapture(outcome.failure);
    return {
      outputs: outputs.map((o) => ({ kind: o.kind, ok: false, failure })),
      page: null,
      loadTimeMs,
      capturedAt,
    };
  }
  const page = outcome.result;
  let image = 0;
  const results = await Promise.all(
    outputs.map((requested): Promise<OutputResult> | OutputResult => {
      if (requested.kind === "extraction")
        return extractionResult(page, requested.format, loadTimeMs, requested.wholePage);
      if (isContentOutput(requested)) return contentResult(page, requested);
      if (requested.kind === "animation") {
        const recorded = page.animation;
        if (!recorded) throw new Error("capture engine returned no recording");
        if (!recorded.ok)
          return { kind: "animation", ok: false, failure: fromCapture(recorded.failure) };
        return storeRecording(env, input.storage, accountId, recorded.output);
      }
      const rendered = page.outputs[image++];
      if (!rendered) throw new Error("capture engine returned fewer outputs than requested");
      if (!rendered.ok) return { kind: "image", ok: false, failure: fromCapture(rendered.failure) };
      const { format, ...shot } = rendered.output;
      const { outputs: _all, animation: _recording, ...facts } = page;
      const result: CaptureResult = { ...facts, ...shot };
      const formatSpec: CaptureSpec = format === spec.format ? spec : { ...spec, format };
      return store(env, input.storage, {
        accountId,
        spec: formatSpec,
        result,
        capturedAt,
        loadTimeMs,
      });
    }),
  );
  const { quality, completeness, waitStrategy, finalUrl, contentType, rendered } = page;
  return {
    outputs: results,
    page: { quality, completeness, waitStrategy, finalUrl, contentType, page: page.page, rendered },
    loadTimeMs,
    capturedAt,
  };
}

function fromCapture(failure: CaptureFailure): OutputFailure {
  const { transient, cause } = failure;
  return { error: failureToApiError(failure), transient, ...(cause ? { cause } : {}) };
}

/** The page's article in its format; no article (422) or too large (413) fails this output only. */
export function extractionResult(
  page: Pick<PageCapture, "article" | "finalUrl">,
  format: ExtractFormat,
  loadTimeMs: number,
  wholePage = false,
): OutputResult {
  try {
    return {
      kind: "extraction",
      ok: true,
      data: extractFromCapture(page, format, loadTimeMs, wholePage),
    };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { kind: "extraction", ok: false, failure: { error: err, transient: false } };
  }
}

async function store(
  env: Env,
  target: StorageTarget,
  item: {
    accountId: string;
    spec: CaptureSpec;
    result: CaptureResult;
    capturedAt: string;
    loadTimeMs: number;
  },
): Promise<OutputResult> {
  const { spec, result } = item;
  const headers = captureHeaders(result, spec, item.capturedAt, item.loadTimeMs);
  if (target.kind === "none")
    return { kind: "image", ok: true, spec, result, headers, stored: null, delivered: null };
  try {
    if (target.kind === "bucket") {
      const delivered = await deliverResult(target, result);
      const stored = target.keep
        ? await storeResult(env, target.keep, { result, accountId: item.accountId, headers })
        : null;
      return { kind: "image", ok: true, spec, result, headers, stored, delivered };
    }
    const stored = await storeResult(env, target, { result, accountId: item.accountId, headers });
    return { kind: "image", ok: true, spec, result, headers, stored, delivered: null };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // A bucket upload already retried its transient failures (src/storage/s3.ts).
    return {
      kind: "image",
      ok: false,
      failure: { error: err, transient: target.kind !== "bucket" },
    };
  }
}

/**
 * A recording kept in our R2 for a hosted target, or delivered to the customer's bucket (and
 * kept unless deliverOnly) for a job's storage destination; other targets answer with its bytes.
 */
async function storeRecording(
  env: Env,
  target: StorageTarget,
  accountId: string,
  recording: RecordedAnimation,
): Promise<OutputResult> {
  const done = (stored: Stored | null, delivered: Delivery | null): OutputResult => ({
    kind: "animation",
    ok: true,
    recording,
    stored,
    delivered,
  });
  const keep = (to: R2Target) =>
    storeResult(env, to, { result: recording, accountId, headers: {} });
  try {
    if (target.kind === "hosted") return done(await keep(target), null);
    if (target.kind !== "bucket") return done(null, null);
    const delivered = await deliverResult(target, recording);
    return done(target.keep ? await keep(target.keep) : null, delivered);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // A bucket upload already retried its transient failures (src/storage/s3.ts).
    const transient = target.kind !== "bucket";
    return { kind: "animation", ok: false, failure: { error: err, transient } };
  }
}

/** The image output at `index`, or its failure thrown as the caller's answer. */
export function imageOutput(
  run: PipelineRun,
  index = 0,
): Extract<OutputResult, { kind: "image"; ok: true }> {
  const output = run.outputs[index];
  if (!output) throw new Error(`no output ${index} in this run`);
  if (!output.ok) throw output.failure.error;
  if (output.kind !== "image") throw new Error(`output ${index} is not an image`);
  return output;
}

/**
 * `extracted` for a JSON capture. The customer paid for the screenshot too, so an extraction
 * that fails (no article, over the size cap) does not fail the capture: `extracted` is null and
 * `extractionError` carries the code and message POST /v1/extract would have answered with.
 */
export type ExtractedField =
  | { extracted: ExtractionData }
  | { extracted: null; extractionError: { code: string; message: string } };

export function extractedField(output: OutputResult | undefined): ExtractedField {
  if (output?.kind !== "extraction") throw new Error("no extraction output in this run");
  if (output.ok) return { extracted: output.data };
  const { code, message } = output.failure.error;
  return { extracted: null, extractionError: { code, message } };
}
