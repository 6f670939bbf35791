/**
 * POST /v1/screenshot/batch (paid plans). Checks, in order: the body (400, per-job-only defaults
 * named), the plan allows batches (403), the plan's batch cap (400 BATCH_LIMIT_EXCEEDED), the
 * webhook URL (400 INVALID_WEBHOOK_URL), then EVERY url through the single-capture path (guard,
 * plan gates, DNS, reputation) — one bad URL rejects the whole batch, its index in
 * `details[].path` (`urls[57]`) — before anything is reserved or queued. 202 with the jobs in
 * `urls` order; 1 credit per URL reserved (meta.usage.credits).
 */
import { batchRequestSchema, type BatchDefaults } from "../../../schemas/batch";
import type { CaptureRequest } from "../../../schemas/capture";
import { batchAcceptedSchema, type BatchAccepted } from "../../../schemas/responses";
import type { AuthContext } from "../../accounts/auth";
import { requireFeature } from "../../accounts/policy";
import { prepareCapture } from "../../capture-request/prepare";
import type { CaptureSpec } from "../../capture/capture-spec";
import { mapLimit } from "../../jobs/pool";
import { submitJobs } from "../../jobs/submit";
import { requireWebhookUrl } from "../../webhooks/url";
import { LIMITS } from "../../../schemas/limits";
import { publicOrigin } from "../../storage/hosted";
import { requireStorage } from "../../storage/destinations";
import { endpoint, endpoints } from "../endpoint";
import { charged, successBody } from "../envelope";
import { ApiError, type ErrorDetail } from "../../errors";
import { BODY_ERRORS, envelopeResponse, errorResponses } from "../openapi/registry";
import { TUNING } from "../../tuning";
import { ASYNC_ERRORS, CAPTURE_ERRORS } from "./capture-contract";

type Checked = { ok: true; spec: CaptureSpec } | { ok: false; index: number; error: ApiError };

/** Every URL as a single capture would check it; the first failing index decides the answer. */
async function prepareUrls(
  env: Env,
  auth: AuthContext,
  urls: string[],
  defaults: BatchDefaults,
): Promise<CaptureSpec[]> {
  const checked = await mapLimit(
    urls,
    TUNING.submitConcurrency,
    async (url, index): Promise<Checked> => {
      const req: CaptureRequest = { ...defaults, url };
      try {
        return { ok: true, spec: await prepareCapture(env, auth, req) };
      } catch (err) {
        if (err instanceof ApiError) return { ok: false, index, error: err };
        throw err;
      }
    },
  );
  const failed = checked.filter((c): c is Extract<Checked, { ok: false }> => !c.ok);
  const first = failed[0];
  if (!first) return checked.flatMap((c) => (c.ok ? [c.spec] : []));
  const details: ErrorDetail[] = failed.flatMap(({ index, error }) =>
    (error.details ?? [{ path: "url", message: error.message }]).map((d) => ({
      path: d.path === "url" ? `urls[${index}]` : `urls[${index}] (${d.path})`,
      message: d.message,
    })),
  );
  // "urls[3] is not a public http(s) URL: … does not resolve (NXDOMAIN)." — what and why.
  const field = `urls[${first.index}]`;
  const said = first.error.message.replace(/^The url\b/, field);
  const message = said === first.error.message ? `${field}: ${said}` : said;
  const more = failed.length > 1 ? ` (${failed.length} URLs were refused; see details)` : "";
  throw new ApiError(first.error.code, `${message}${more}`, {
    details,
    status: first.error.status,
    headers: first.error.extraHeaders,
  });
}

export const batchRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/screenshot/batch",
    auth: "key",
    idempotent: true,
    body: {
      schema: batchRequestSchema,
      example: {
        urls: ["https://example.com", "https://example.org"],
        defaults: { format: "png", width: 1280 },
      },
    },
    operation: {
      operationId: "captureBatch",
      summary: "Queue a batch of captures",
      description:
        "Paid plans. 1 credit per URL; capped per plan (Basic 10, Starter 25, Pro 100, Enterprise 500). One batch.completed webhook when every job finished.",
      tags: ["Async"],
      responses: {
        "202": envelopeResponse("Queued; jobs in `urls` order.", batchAcceptedSchema),
        ...errorResponses([
          ...BODY_ERRORS,
          ...CAPTURE_ERRORS,
          ...ASYNC_ERRORS,
          "BATCH_LIMIT_EXCEEDED",
        ]),
      },
    },
    handler: async (c) => {
      const auth = c.get("auth");
      requireFeature(auth, "batch");
      const body = c.req.valid("json");
      if (body.urls.length > auth.plan.batchCap) {
        throw new ApiError(
          "BATCH_LIMIT_EXCEEDED",
          `This batch has ${body.urls.length} URLs; the ${auth.plan.name} plan allows at most ${auth.plan.batchCap}.`,
          {
            details: [
              {
                path: "urls",
                message: `At most ${auth.plan.batchCap} URLs on the ${auth.plan.name} plan.`,
              },
            ],
          },
        );
      }
      const webhookUrl =
        body.webhookUrl === undefined ? null : await requireWebhookUrl(c.env, body.webhookUrl);
      const storage = body.storage === undefined ? null : await requireStorage(auth, body.storage);
      const specs = await prepareUrls(c.env, auth, body.urls, body.defaults ?? {});
      const submitted = await submitJobs(c.env, auth, {
        specs,
        batch: true,
        webhookUrl,
        cacheTtl: body.cacheTtl ?? LIMITS.cacheTtl.default,
        origin: publicOrigin(c.env, c.req.url),
        storage,
      });
      if (submitted.batchId === null)
        throw new Error("submitJobs returned no batch id for a batch");
      const data: BatchAccepted = {
        batchId: submitted.batchId,
        status: "queued",
        totalJobs: submitted.jobs.length,
        jobs: submitted.jobs.map((job) => ({ jobId: job.jobId, url: job.url, status: "queued" })),
      };
      return c.json(successBody(c.get("requestId"), data, charged(c, submitted.usage)), 202);
    },
  }),
);
