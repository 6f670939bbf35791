/**
 * Async results delivered to a storage destination, end to end against a real S3-compatible
 * server (s3rver behind a SigV4 check): the object lands under the key template, decodes to the
 * captured image with the right Content-Type; a batch lands one object per URL; a destination
 * that stops working fails the job with the spec's string and refunds its credit; the
 * `storage` option's validation; the secret never appears in a response or a log line.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { prepareCapture } from "../../src/capture-request/prepare";
import { createJobs, enqueueJobs } from "../../src/jobs/submit";
import { DEFAULT_KEY_TEMPLATE } from "../../src/storage/destinations";
import type { BatchView, JobView } from "../../schemas/responses";
import { accountDo } from "../helpers/account-do";
import { Capturer } from "../helpers/capture";
import { BASE, call, envelope, FIXTURES, postJson, runId } from "../helpers/http";
import { decodeImage } from "../helpers/images";
import { authFor, waitForBatch, waitForJob, waitForWebhooks, webhookUrl } from "../helpers/jobs";
import { createDestination, deleteBucket, newKeyPair, readObject, rotateKey } from "../helpers/s3";

const small = (run: string, path = "boxes.html") => ({
  url: `${FIXTURES}/${path}?run=${run}`,
  width: 320,
  height: 240,
  deviceScaleFactor: 1,
  waitUntil: "load" as const,
  blockAds: false,
});
const today = () => new Date().toISOString().slice(0, 10);
const used = async (accountId: string) => (await accountDo(accountId).summary())?.usage.used;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("async capture → storage destination", () => {
  it("lands in the bucket under the default key: a PNG of the page, Content-Type image/png; the job names bucket and key", async () => {
    const lines: string[] = [];
    for (const level of ["log", "warn", "error"] as const) {
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) => void lines.push(args.map(String).join(" ")),
      );
    }
    const cap = await Capturer.create("pro");
    const key = await newKeyPair();
    const destinationId = await createDestination(cap.auth, key, { prefix: "tenant-a/" });
    const run = runId();
    const { res, body } = await cap.json<{ jobId: string }>({
      ...small(run),
      async: true,
      webhookUrl: webhookUrl(run),
      storage: { destinationId },
    });
    expect(res.status).toBe(202);
    const jobId = body.data?.jobId ?? "";
    const job = await waitForJob(cap.account.accountId, jobId);
    expect(job.status, JSON.stringify(job)).toBe("completed");

    const objectKey = `tenant-a/edgeshot/${today()}/${jobId}.png`;
    expect(job.storage).toEqual({
      destinationId,
      bucket: "edgeshot-test",
      key: objectKey,
      url: expect.stringMatching(new RegExp(`/edgeshot-test/${objectKey.replaceAll("/", "\\/")}$`)),
      etag: expect.any(String),
    });
    const stored = await readObject("edgeshot-test", objectKey);
    expect(stored?.contentType).toBe("image/png");
    const image = decodeImage(stored?.bytes ?? new Uint8Array());
    expect({ width: image.width, height: image.height }).toEqual({ width: 320, height: 240 });
    // Not deliverOnly: our R2 keeps a copy and resultUrl is our signed URL serving the same bytes.
    expect(job.resultUrl).toMatch(new RegExp(`^${BASE}/v1/images/j/`));
    const copy = await call(job.resultUrl?.slice(BASE.length) ?? "");
    expect(copy.status).toBe(200);
    expect(new Uint8Array(await copy.arrayBuffer())).toEqual(stored?.bytes);
    expect(await used(cap.account.accountId)).toBe(1);

    const polled = await call(`/v1/jobs/${jobId}`, { headers: cap.auth });
    const raw = await polled.text();
    expect((JSON.parse(raw) as { data: JobView }).data.storage?.key).toBe(objectKey);
    expect(raw).not.toContain(key.secretAccessKey);

    // The job.completed webhook names where the result went.
    const [hook] = await waitForWebhooks(run);
    const event = JSON.parse(hook?.body ?? "{}") as {
      event: string;
      resultUrl: string;
      storage: unknown;
    };
    expect(event).toMatchObject({
      event: "job.completed",
      resultUrl: job.resultUrl,
      storage: job.storage,
    });
    expect(hook?.body).not.toContain(key.secretAccessKey);
    expect(lines.join("\n")).not.toContain(key.secretAccessKey);
  });

  it("a key template with {host}, {batchId}, {ext}: a batch of 5 lands 5 objects, listed with the batch", async () => {
    const cap = await Capturer.create("pro");
    const destinationId = await createDestination(cap.auth, await newKeyPair(), {
      acl: "public-read",
      storageClass: "STANDARD_IA",
    });
    const run = runId();
    const urls = [0, 1, 2, 3, 4].map((i) => `${FIXTURES}/boxes.html?run=${run}&i=${i}`);
    const res = await postJson(
      "/v1/screenshot/batch",
      {
        urls,
        defaults: {
          width: 320,
          height: 240,
          deviceScaleFactor: 1,
          waitUntil: "load",
          blockAds: false,
          format: "jpeg",
        },
        storage: { destinationId, key: "b/{batchId}/{host}-{jobId}.{ext}" },
      },
      cap.auth,
    );
    const answer = await envelope<{ batchId: string }>(res);
    expect(res.status, JSON.stringify(answer.error)).toBe(202);
    const accepted = answer.data;
    const batch: BatchView = await waitForBatch(
      cap.account.accountId,
      accepted?.batchId ?? "",
      90_000,
    );
    expect(batch.completedJobs).toBe(5);
    for (const job of batch.jobs ?? []) {
      const objectKey = `b/${batch.batchId}/127.0.0.1-${job.jobId}.jpg`;
      expect(job.storage?.key).toBe(objectKey);
      const stored = await readObject("edgeshot-test", objectKey);
      expect(stored?.contentType).toBe("image/jpeg");
      expect(stored?.headers.get("x-amz-storage-class")).toBe("STANDARD_IA"); // sent, and signed

      expect(decodeImage(stored?.bytes ?? new Uint8Array()).width).toBe(320);
    }
  });

  it("deliverOnly: resultUrl is the bucket object's URL and nothing of the result is kept in our R2", async () => {
    const cap = await Capturer.create("pro");
    const destinationId = await createDestination(cap.auth, await newKeyPair(), {
      deliverOnly: true,
    });
    const view = await call(`/v1/storage/destinations/${destinationId}`, { headers: cap.auth });
    expect(((await view.json()) as { data: { deliverOnly: boolean } }).data.deliverOnly).toBe(true);
    const { body } = await cap.json<{ jobId: string }>({
      ...small(runId()),
      async: true,
      storage: { destinationId },
    });
    const job = await waitForJob(cap.account.accountId, body.data?.jobId ?? "");
    expect(job.status, JSON.stringify(job)).toBe("completed");
    expect(job.resultUrl).toBe(job.storage?.url);
    expect(
      decodeImage(
        (await readObject("edgeshot-test", job.storage?.key ?? ""))?.bytes ?? new Uint8Array(),
      ).width,
    ).toBe(320);
    const kept = await env.OUTPUTS.list({ prefix: "j/", include: ["customMetadata"] });
    expect(
      kept.objects.filter((o) => o.customMetadata?.accountId === cap.account.accountId),
    ).toEqual([]);
    expect(await used(cap.account.accountId)).toBe(1);
  });

  it("a secret rotated at the provider after creation → job failed with the spec's string, credit refunded", async () => {
    const cap = await Capturer.create("pro");
    const key = await newKeyPair();
    const destinationId = await createDestination(cap.auth, key);
    await rotateKey(key.accessKeyId);
    const { body } = await cap.json<{ jobId: string }>({
      ...small(runId()),
      async: true,
      storage: { destinationId },
    });
    const job = await waitForJob(cap.account.accountId, body.data?.jobId ?? "");
    expect(job.status).toBe("failed");
    expect(job.error).toBe("Failed to store capture result.");
    expect(job.resultUrl).toBeUndefined();
    expect(await used(cap.account.accountId)).toBe(0);
  });

  it("a bucket deleted after creation → job failed with the spec's string, credit refunded", async () => {
    const cap = await Capturer.create("enterprise");
    const destinationId = await createDestination(cap.auth, await newKeyPair(), {
      bucket: "doomed-1",
    });
    await deleteBucket("doomed-1");
    const { body } = await cap.json<{ jobId: string }>({
      ...small(runId()),
      async: true,
      storage: { destinationId },
    });
    const job = await waitForJob(cap.account.accountId, body.data?.jobId ?? "");
    expect(job).toMatchObject({ status: "failed", error: "Failed to store capture result." });
    expect(await used(cap.account.accountId)).toBe(0);
  });

  it("a destination deleted while the job waits in the queue → job failed with the spec's string, credit refunded", async () => {
    const cap = await Capturer.create("pro");
    const destinationId = await createDestination(cap.auth, await newKeyPair());
    const auth = authFor(cap.account.accountId);
    const spec = await prepareCapture(env, auth, small(runId()));
    const admitted = await createJobs(env, auth, {
      specs: [spec],
      batch: false,
      webhookUrl: null,
      cacheTtl: 3600,
      origin: BASE,
      storage: { destinationId, key: DEFAULT_KEY_TEMPLATE },
    });
    await call(`/v1/storage/destinations/${destinationId}`, {
      method: "DELETE",
      headers: cap.auth,
    });
    await enqueueJobs(env, admitted.messages);
    const job = await waitForJob(cap.account.accountId, admitted.jobs[0]?.jobId ?? "");
    expect(job).toMatchObject({ status: "failed", error: "Failed to store capture result." });
    expect(await used(cap.account.accountId)).toBe(0);
  });
});

describe("the storage option", () => {
  it("sync capture with storage → 400 naming storage; unknown destination → 404 naming storage.destinationId; bad key template → 400 naming storage.key", async () => {
    const cap = await Capturer.create("pro");
    const destinationId = await createDestination(cap.auth, await newKeyPair());
    const sync = await cap.json({ ...small(runId()), storage: { destinationId } });
    expect(sync.res.status).toBe(400);
    expect(sync.body.error?.details?.[0]?.path).toBe("storage");

    const unknown = await cap.json({
      ...small(runId()),
      async: true,
      storage: { destinationId: "dst_unknown" },
    });
    expect(unknown.res.status).toBe(404);
    expect(unknown.body.error?.details?.[0]?.path).toBe("storage.destinationId");

    for (const key of ["{nope}/{jobId}", "a/../b", "x".repeat(1025), "a/{jobId"]) {
      const bad = await cap.json({
        ...small(runId()),
        async: true,
        storage: { destinationId, key },
      });
      expect(bad.res.status, key).toBe(400);
      expect(bad.body.error?.details?.[0]?.path, key).toBe("storage.key");
    }
    const batchDefaults = await postJson(
      "/v1/screenshot/batch",
      { urls: [small(runId()).url], defaults: { storage: { destinationId } } },
      cap.auth,
    );
    expect(batchDefaults.status).toBe(400);
    expect((await envelope(batchDefaults)).error?.details?.[0]?.path).toContain("storage");
    expect(await used(cap.account.accountId)).toBe(0);
  });

  it("Starter with storage on an async capture → 403 PLAN_UPGRADE_REQUIRED, nothing charged", async () => {
    const cap = await Capturer.create("starter");
    const { res, body } = await cap.json({
      ...small(runId()),
      async: true,
      storage: { destinationId: "dst_abc" },
    });
    expect(res.status).toBe(403);
    expect(body.error?.code).toBe("PLAN_UPGRADE_REQUIRED");
    expect(await used(cap.account.accountId)).toBe(0);
  });
});
