/**
 * GET /v1/jobs and GET /v1/batches: newest first, `{items, nextCursor}`, status filter, limit
 * bounds, opaque cursors. Jobs are admitted straight into the Account DO (never queued), so the
 * listing is all this file exercises.
 */
import { describe, expect, it } from "vitest";
import type { JobView } from "../../schemas/responses";
import { accountDo } from "../helpers/account-do";
import { bearer, createAccount, describeAuthCases } from "../helpers/accounts";
import { call, envelope } from "../helpers/http";

interface Listing {
  items: Array<{ jobId?: string; batchId?: string; status: string }>;
  nextCursor: string | null;
}

async function admit(
  accountId: string,
  n: number,
  batchId: string | null = null,
): Promise<string[]> {
  const jobs = Array.from({ length: n }, (_, i) => ({
    id: crypto.randomUUID(),
    url: `https://example.com/${i}`,
    format: "png",
  }));
  const result = await accountDo(accountId).jobs().admit({
    jobs,
    batchId,
    webhookUrl: null,
    reservationTtlMs: 60_000,
  });
  if (!result.ok) throw new Error("admit refused");
  return jobs.map((j) => j.id);
}

async function list(
  apiKey: string,
  path: string,
): Promise<{ status: number; body: Listing | undefined; code?: string }> {
  const res = await call(path, { headers: bearer(apiKey) });
  const body = await envelope<Listing>(res);
  return { status: res.status, body: body.data, code: body.error?.code };
}

describe("GET /v1/jobs", () => {
  describeAuthCases((headers) => call("/v1/jobs", { headers }));

  it("newest first, paged by an opaque cursor until nextCursor is null", async () => {
    const { accountId, apiKey } = await createAccount("pro");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(...(await admit(accountId, 1)));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(apiKey, `/v1/jobs?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      expect(page.body?.items.length).toBeLessThanOrEqual(2);
      seen.push(...(page.body?.items ?? []).map((j) => j.jobId ?? ""));
      cursor = page.body?.nextCursor ?? null;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it("default page of 20, status filter, free of credit", async () => {
    const { accountId, apiKey } = await createAccount("pro");
    const ids = await admit(accountId, 23);
    const first = ids[0] ?? "";
    await accountDo(accountId).jobs().start(first, 1);
    await accountDo(accountId).jobs().finish(first, {
      status: "failed",
      error: "Screenshot capture failed.",
    });
    const all = await list(apiKey, "/v1/jobs");
    expect(all.body?.items).toHaveLength(20);
    expect(all.body?.nextCursor).toEqual(expect.any(String));
    const failed = await list(apiKey, "/v1/jobs?status=failed");
    expect(failed.body?.items.map((j) => j.jobId)).toEqual([first]);
    expect(failed.body?.nextCursor).toBeNull();
    const queued = await list(apiKey, "/v1/jobs?status=queued&limit=100");
    expect(queued.body?.items).toHaveLength(22);
    const item = failed.body?.items[0] as unknown as JobView;
    expect(item).toMatchObject({
      status: "failed",
      error: "Screenshot capture failed.",
      url: "https://example.com/0",
    });
    expect((await accountDo(accountId).summary())?.usage.used).toBe(0);
  });

  it("400 for a bad status, limit or cursor (and a batch cursor on the job listing)", async () => {
    const { accountId, apiKey } = await createAccount("pro");
    await admit(accountId, 3, crypto.randomUUID());
    const batches = await list(apiKey, "/v1/batches?limit=1");
    expect(batches.status).toBe(200);
    const bad = [
      "status=done",
      "limit=0",
      "limit=101",
      "limit=abc",
      "cursor=%%%",
      "cursor=abc",
      "foo=1",
    ];
    for (const q of bad) {
      const res = await list(apiKey, `/v1/jobs?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.code).toBe("VALIDATION_ERROR");
    }
    await admit(accountId, 1, crypto.randomUUID());
    const page = await list(apiKey, "/v1/batches?limit=1");
    const batchCursor = page.body?.nextCursor ?? "";
    expect(batchCursor).not.toBe("");
    expect((await list(apiKey, `/v1/jobs?cursor=${batchCursor}`)).status).toBe(400);
  });

  it("another account's jobs never show", async () => {
    const a = await createAccount("pro");
    const b = await createAccount("pro");
    await admit(a.accountId, 2);
    expect((await list(b.apiKey, "/v1/jobs")).body).toEqual({ items: [], nextCursor: null });
  });
});

describe("GET /v1/batches", () => {
  describeAuthCases((headers) => call("/v1/batches", { headers }));

  it("newest first with counts, status filter and pages", async () => {
    const { accountId, apiKey } = await createAccount("pro");
    const batchIds = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    for (const id of batchIds) await admit(accountId, 2, id);
    const page1 = await list(apiKey, "/v1/batches?limit=2");
    expect(page1.body?.items.map((b) => b.batchId)).toEqual([batchIds[2], batchIds[1]]);
    expect(page1.body?.items[0]).toMatchObject({
      status: "queued",
      totalJobs: 2,
      completedJobs: 0,
      failedJobs: 0,
      outcome: null,
    });
    expect(page1.body?.items[0]).not.toHaveProperty("jobs");
    const page2 = await list(apiKey, `/v1/batches?limit=2&cursor=${page1.body?.nextCursor}`);
    expect(page2.body).toEqual({
      items: [expect.objectContaining({ batchId: batchIds[0] })],
      nextCursor: null,
    });
    expect((await list(apiKey, "/v1/batches?status=completed")).body?.items).toEqual([]);
    expect((await list(apiKey, "/v1/batches?status=failed")).status).toBe(400);
  });
});
