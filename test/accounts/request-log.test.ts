/**
 * The request log (GET /v1/requests): a key-authenticated request shows up a moment later
 * (written through waitUntil, after the answer) with its method, route pattern — never the
 * path's values or the query — status, error code, credits charged, duration, request id and
 * key; filterable by status class; the newest 200 of the last 7 days; one account's only.
 */
import { describe, expect, it } from "vitest";
import { accountDo } from "../helpers/account-do";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { SMALL_CAPTURE } from "../helpers/capture";
import { call, envelope, FIXTURES, postJson, runId } from "../helpers/http";
import { poll } from "../helpers/jobs";

interface Entry {
  at: string;
  method: string;
  route: string;
  status: number;
  errorCode: string | null;
  credits: number | null;
  durationMs: number;
  requestId: string;
  keyName: string | null;
  keyPrefix: string | null;
}

async function requests(account: TestAccount, query = ""): Promise<Entry[]> {
  const res = await call(`/v1/requests${query}`, { headers: bearer(account.apiKey) });
  expect(res.status).toBe(200);
  return (await envelope<{ items: Entry[] }>(res)).data?.items ?? [];
}

/** The log's entry for the request answered as `res`, once written. */
async function entryFor(account: TestAccount, res: Response): Promise<Entry> {
  const id = res.headers.get("x-request-id") ?? "";
  const found = await poll(
    async () => (await requests(account)).find((e) => e.requestId === id),
    (e) => e !== undefined,
    10_000,
  );
  if (!found) throw new Error("not logged");
  return found;
}

describe("GET /v1/requests", () => {
  it("shows a request made a moment before: route pattern, status, error code, key; no query, no ids", async () => {
    const account = await createAccount("pro");
    const jobId = crypto.randomUUID();
    const missing = await call(`/v1/jobs/${jobId}?token=s3cret`, {
      headers: bearer(account.apiKey),
    });
    expect(missing.status).toBe(404);
    const entry = await entryFor(account, missing);
    expect(entry).toMatchObject({
      method: "GET",
      route: "/v1/jobs/:jobId",
      status: 404,
      errorCode: "NOT_FOUND",
      credits: null,
      keyPrefix: `${account.apiKey.slice(0, 8)}…`,
    });
    expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    expect(Math.abs(Date.parse(entry.at) - Date.now())).toBeLessThan(60_000);
    expect(JSON.stringify(await requests(account))).not.toMatch(new RegExp(`${jobId}|s3cret`));

    const bad = await postJson(
      "/v1/screenshot",
      { url: `${FIXTURES}/x`, width: 5 },
      {
        ...bearer(account.apiKey),
      },
    );
    expect(await entryFor(account, bad)).toMatchObject({
      method: "POST",
      route: "/v1/screenshot",
      status: 400,
      errorCode: "VALIDATION_ERROR",
    });
  });

  it("records the credits a capture charged", async () => {
    const account = await createAccount("pro");
    const res = await postJson(
      "/v1/screenshot/json",
      { ...SMALL_CAPTURE, url: `${FIXTURES}/boxes.html?run=${runId()}` },
      bearer(account.apiKey),
    );
    expect(res.status).toBe(200);
    expect(await entryFor(account, res)).toMatchObject({
      route: "/v1/screenshot/json",
      status: 200,
      errorCode: null,
      credits: 1,
    });
  });

  it("filters by status class, newest first; bad filters are named", async () => {
    const account = await createAccount("pro");
    const first = await call("/v1/account", { headers: bearer(account.apiKey) });
    await entryFor(account, first);
    const last = await call(`/v1/jobs/${crypto.randomUUID()}`, { headers: bearer(account.apiKey) });
    await entryFor(account, last);
    // Newest first (the log's own reads are requests too, and logged).
    const ids = (await requests(account)).map((e) => e.requestId);
    const lastAt = ids.indexOf(last.headers.get("x-request-id") ?? "");
    expect(lastAt).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(first.headers.get("x-request-id") ?? "")).toBeGreaterThan(lastAt);
    const fours = await requests(account, "?status=4xx");
    expect(fours.length).toBeGreaterThan(0);
    expect(fours.every((e) => e.status >= 400 && e.status < 500)).toBe(true);
    expect((await requests(account, "?status=2xx")).every((e) => e.status < 300)).toBe(true);
    expect(await requests(account, "?status=5xx")).toEqual([]);
    const bad = await call("/v1/requests?status=3xx&limit=0", { headers: bearer(account.apiKey) });
    expect(bad.status).toBe(400);
    expect((await envelope(bad)).error?.details?.map((d) => d.path).sort()).toEqual([
      "limit",
      "status",
    ]);
  });

  it("keeps the newest 200 of the last 7 days, and only the caller's", async () => {
    const account = await createAccount("pro");
    const other = await createAccount("pro");
    const log = accountDo(account.accountId).requests();
    const base = {
      method: "GET",
      route: "/v1/account",
      status: 200,
      errorCode: null,
      credits: null,
      durationMs: 1,
      keyId: "key_x",
    };
    await log.record({ ...base, at: Date.now() - 8 * 86_400_000, requestId: "req_old" });
    for (let i = 0; i < 205; i++)
      await log.record({ ...base, at: Date.now(), requestId: `req_${String(i).padStart(3, "0")}` });
    const kept = await requests(account, "?limit=200");
    expect(kept).toHaveLength(200);
    expect(kept[0]?.requestId).toBe("req_204");
    expect(kept.map((e) => e.requestId)).not.toContain("req_old");
    expect(kept.map((e) => e.requestId)).not.toContain("req_004");
    expect(await requests(other)).toEqual([]);
  });
});
