/** The webhook deliveries a receiver gets, as OpenAPI `webhooks` (spec: Events). */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import {
  batchCompletedEventSchema,
  jobCompletedEventSchema,
  jobFailedEventSchema,
  testPingEventSchema,
} from "../../../schemas/webhooks";
import {
  watchAlertEventSchema,
  watchChangedEventSchema,
  watchFailedEventSchema,
} from "../../../schemas/watches";
import { crawlCompletedEventSchema, crawlPageEventSchema } from "../../../schemas/crawl";
import {
  monitorCheckCompletedEventSchema,
  monitorPageEventSchema,
} from "../../../schemas/monitors";

const h = (description: string) => z.string().meta({ description });

const deliveryHeaders = z.object({
  "x-service-signature": h(
    "Hex HMAC-SHA256 over `<timestamp>.<raw body>` with the signing secret.",
  ),
  "x-service-timestamp": h("Unix seconds when signed; reject deliveries older than 300 s."),
  "x-service-event": h(
    "job.completed, job.failed, batch.completed, watch.changed, watch.alert, watch.failed, crawl.completed, crawl.page, monitor.check.completed, monitor.page.changed, monitor.page.new, monitor.page.removed, monitor.page.failed or test.ping.",
  ),
  "x-service-delivery-id": h("Unique per delivery, identical across retries (idempotency)."),
  "user-agent": h("Service-Webhook/1.0"),
});

function delivery(summary: string, schema: z.ZodType, example: Record<string, unknown>) {
  return {
    post: {
      summary,
      description:
        "POSTed to the webhookUrl. Answer 2xx within 10 s; 5xx and timeouts are retried up to 3 times with backoff, 4xx are not.",
      requestParams: { header: deliveryHeaders },
      requestBody: { required: true, content: { "application/json": { schema, example } } },
      responses: { "200": { description: "Received." } },
    },
  };
}

export const webhooks: ZodOpenApiPathsObject = {
  "job.completed": delivery("job.completed", jobCompletedEventSchema, {
    event: "job.completed",
    jobId: "4b3c2a1e-0000-4000-8000-000000000001",
    status: "completed",
    resultUrl: "https://api.example.com/v1/images/o/abc.png?expires=1767225600&sig=…",
    metadata: {
      url: "https://example.com/",
      format: "png",
      width: 1280,
      height: 800,
      loadTimeMs: 812,
    },
    completedAt: "2026-01-01T00:00:00.000Z",
  }),
  "job.failed": delivery("job.failed", jobFailedEventSchema, {
    event: "job.failed",
    jobId: "4b3c2a1e-0000-4000-8000-000000000002",
    status: "failed",
    error: "The page took too long to load.",
    completedAt: "2026-01-01T00:00:00.000Z",
  }),
  "batch.completed": delivery("batch.completed", batchCompletedEventSchema, {
    event: "batch.completed",
    batchId: "4b3c2a1e-0000-4000-8000-000000000003",
    status: "completed",
    outcome: "partial",
    totalJobs: 2,
    completedJobs: 1,
    failedJobs: 1,
    completedAt: "2026-01-01T00:00:00.000Z",
    jobs: [
      {
        jobId: "4b3c2a1e-0000-4000-8000-000000000004",
        url: "https://example.com/",
        status: "completed",
        resultUrl: "https://api.example.com/v1/images/o/def.png?expires=1767225600&sig=…",
      },
      {
        jobId: "4b3c2a1e-0000-4000-8000-000000000005",
        url: "https://example.org/",
        status: "failed",
        error: "Could not reach the target URL.",
      },
    ],
  }),
  "watch.changed": delivery("watch.changed", watchChangedEventSchema, {
    event: "watch.changed",
    watchId: "4b3c2a1e-0000-4000-8000-000000000006",
    runId: "4b3c2a1e-0000-4000-8000-000000000007",
    url: "https://example.com/pricing",
    changedPercent: 4.2,
    imageUrl: "https://api.example.com/v1/images/w/new.png?expires=1767225600&sig=…",
    previousImageUrl: "https://api.example.com/v1/images/w/old.png?expires=1767225600&sig=…",
    diffUrl: "https://api.example.com/v1/images/w/diff.png?expires=1767225600&sig=…",
    detectedAt: "2026-01-01T00:00:00.000Z",
  }),
  "watch.alert": delivery("watch.alert", watchAlertEventSchema, {
    event: "watch.alert",
    watchId: "4b3c2a1e-0000-4000-8000-000000000006",
    runId: "4b3c2a1e-0000-4000-8000-000000000009",
    url: "https://example.com/product",
    alerts: [
      { field: "price", rule: "decreased", byPercent: 10, previous: 129.99, current: 99.99 },
      {
        field: "stock",
        rule: "becomes",
        value: "In stock",
        previous: "Sold out",
        current: "In stock",
      },
    ],
    fields: { price: 99.99, stock: "In stock" },
    imageUrl: "https://api.example.com/v1/images/w/new.png?expires=1767225600&sig=…",
    detectedAt: "2026-01-01T00:00:00.000Z",
  }),
  "watch.failed": delivery("watch.failed", watchFailedEventSchema, {
    event: "watch.failed",
    watchId: "4b3c2a1e-0000-4000-8000-000000000006",
    runId: "4b3c2a1e-0000-4000-8000-000000000008",
    error: "Could not reach the target URL.",
    consecutiveFailures: 1,
    paused: false,
  }),
  "crawl.completed": delivery("crawl.completed", crawlCompletedEventSchema, {
    event: "crawl.completed",
    crawlId: "4b3c2a1e-0000-4000-8000-000000000010",
    url: "https://example.com/docs/",
    status: "completed",
    stoppedBy: "limit",
    counts: { rendered: 50, skipped: 12, failed: 1, queued: 0 },
    limit: 50,
    creditsUsed: 50,
    createdAt: "2026-01-01T00:00:00.000Z",
    completedAt: "2026-01-01T00:03:10.000Z",
  }),
  "crawl.page": delivery("crawl.page", crawlPageEventSchema, {
    event: "crawl.page",
    crawlId: "4b3c2a1e-0000-4000-8000-000000000010",
    page: { url: "https://example.com/docs/intro", depth: 1, status: "rendered", statusCode: 200 },
  }),
  "monitor.check.completed": delivery("monitor.check.completed", monitorCheckCompletedEventSchema, {
    event: "monitor.check.completed",
    monitorId: "4b3c2a1e-0000-4000-8000-000000000011",
    check: {
      checkId: "4b3c2a1e-0000-4000-8000-000000000012",
      monitorId: "4b3c2a1e-0000-4000-8000-000000000011",
      trigger: "schedule",
      status: "completed",
      counts: { new: 1, removed: 0, changed: 1, unchanged: 18, failed: 0 },
      identical: 15,
      creditsUsed: 20,
      baseline: false,
      createdAt: "2026-01-01T00:00:00.000Z",
      completedAt: "2026-01-01T00:01:40.000Z",
    },
    pages: [
      { url: "https://example.com/pricing", status: "changed" },
      { url: "https://example.com/new-feature", status: "new" },
    ],
  }),
  ...Object.fromEntries(
    (["changed", "new", "removed", "failed"] as const).map((status) => [
      `monitor.page.${status}`,
      delivery(`monitor.page.${status}`, monitorPageEventSchema, {
        event: `monitor.page.${status}`,
        monitorId: "4b3c2a1e-0000-4000-8000-000000000011",
        checkId: "4b3c2a1e-0000-4000-8000-000000000012",
        page:
          status === "changed"
            ? {
                url: "https://example.com/pricing",
                status,
                statusCode: 200,
                text: {
                  added: 2,
                  removed: 1,
                  parts: [
                    { op: "removed", text: "$10" },
                    { op: "added", text: "$12 today" },
                  ],
                  truncated: false,
                },
                masked: { regions: [{ x: 900, y: 12, width: 160, height: 24 }], lines: 1 },
              }
            : status === "failed"
              ? { url: "https://example.com/status", status, reason: "http_error", statusCode: 500 }
              : { url: "https://example.com/new-feature", status },
      }),
    ]),
  ),
  "test.ping": delivery("test.ping (POST /v1/webhooks/test)", testPingEventSchema, {
    event: "test.ping",
    deliveryId: "4b3c2a1e-0000-4000-8000-000000000009",
    accountId: "acc_0123456789abcdef",
    sentAt: "2026-01-01T00:00:00.000Z",
  }),
};
