/**
 * Watches: the routes, every limit and error code, and the schedule driven by the Account DO's
 * alarm (`runDurableObjectAlarm`; each account's DO clock runs 10 days ahead, so no alarm fires
 * on its own). Change detection against real pages is watches-runs.test.ts.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { WatchView } from "../../schemas/watches";
import { acquireJobSlots, accountDo } from "../helpers/account-do";
import { PLANS } from "../../src/accounts/plans";
import { TUNING } from "../../src/tuning";
import { describeAuthCases, setAccount } from "../helpers/accounts";
import { call, CANARY, envelope, FIXTURES, runId } from "../helpers/http";
import { expectCanaryUntouched } from "../helpers/security";
import {
  createWatch,
  fireAlarm,
  mustCreate,
  patchWatch,
  runNow,
  runs,
  watchAccount,
  watchBody,
  watchOf,
} from "../helpers/watches";

const MIN = 60_000;

describe("watch routes", () => {
  describeAuthCases((headers) =>
    call("/v1/watches", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(watchBody({ paused: true })),
    }),
  );

  it("creates a watch with its defaults, reads, lists and deletes it", async () => {
    const acc = await watchAccount();
    const watch = await mustCreate(acc, watchBody({ name: "home" }));
    expect(watch).toMatchObject({
      name: "home",
      status: "active",
      paused: false,
      pausedReason: null,
      intervalMinutes: 60,
      nextRunAt: new Date(acc.now).toISOString(),
      lastRunAt: null,
      consecutiveFailures: 0,
      changeDetection: { mode: "visual", thresholdPercent: 1, ignoreSelectors: [], alerts: [] },
      retention: { runs: 50, days: 90 },
      webhookUrl: null,
    });
    const got = await envelope<WatchView>(
      await call(`/v1/watches/${watch.id}`, { headers: acc.auth }),
    );
    expect(got.data).toEqual(watch);

    const paused = await mustCreate(acc, watchBody({ paused: true }));
    const list = await envelope<{ items: WatchView[]; nextCursor: string | null }>(
      await call("/v1/watches?status=paused", { headers: acc.auth }),
    );
    expect(list.data?.items.map((w) => w.id)).toEqual([paused.id]);
    const page1 = await envelope<{ items: WatchView[]; nextCursor: string | null }>(
      await call("/v1/watches?limit=1", { headers: acc.auth }),
    );
    expect(page1.data?.items.map((w) => w.id)).toEqual([paused.id]);
    const page2 = await envelope<{ items: WatchView[]; nextCursor: string | null }>(
      await call(`/v1/watches?limit=1&cursor=${page1.data?.nextCursor}`, { headers: acc.auth }),
    );
    expect(page2.data?.items.map((w) => w.id)).toEqual([watch.id]);
    expect(page2.data?.nextCursor).toBeNull();

    const del = await call(`/v1/watches/${watch.id}`, { method: "DELETE", headers: acc.auth });
    expect(del.status).toBe(200);
    const gone = await call(`/v1/watches/${watch.id}`, { headers: acc.auth });
    expect(gone.status).toBe(404);
    expect((await envelope(gone)).error?.code).toBe("WATCH_NOT_FOUND");
  });

  it("refuses bad bodies with 400 naming the field", async () => {
    const acc = await watchAccount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [watchBody({ intervalMinutes: 43_201 }), "intervalMinutes"],
      [watchBody({ intervalMinutes: 1.5 }), "intervalMinutes"],
      [watchBody({ capture: { format: "jpeg" } }), "capture.format"],
      [watchBody({ capture: { cookies: [] } }), "capture.cookies"],
      [
        watchBody({ changeDetection: { thresholdPercent: 101 } }),
        "changeDetection.thresholdPercent",
      ],
      [watchBody({ changeDetection: { mode: "smell" } }), "changeDetection.mode"],
      [
        watchBody({ changeDetection: { ignoreSelectors: Array(51).fill("#a") } }),
        "changeDetection.ignoreSelectors",
      ],
      [
        watchBody({ changeDetection: { ignoreSelectors: ["a[["] } }),
        "changeDetection.ignoreSelectors",
      ],
      [watchBody({ retention: { runs: 0 } }), "retention.runs"],
      [watchBody({ retention: { days: 366 } }), "retention.days"],
      [watchBody({ extra: 1 }), "extra"],
    ];
    for (const [body, path] of cases) {
      const { status, body: res } = await createWatch(acc, body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(res.error?.code).toBe("VALIDATION_ERROR");
      expect(res.error?.details?.some((d) => d.path.startsWith(path))).toBe(true);
    }
  });

  it("hostile bodies and queries: 4xx naming the field, nothing stored", async () => {
    const acc = await watchAccount();
    const raw = (path: string, method: string, body: string) =>
      call(path, { method, headers: { "content-type": "application/json", ...acc.auth }, body });
    const watch = await mustCreate(acc, watchBody({ paused: true }));
    const cases: Array<[Response, number, string]> = [
      [await raw("/v1/watches", "POST", '{"url":'), 400, "INVALID_JSON"],
      [await raw("/v1/watches", "POST", "[]"), 400, "VALIDATION_ERROR"],
      [await raw("/v1/watches", "POST", "null"), 400, "VALIDATION_ERROR"],
      [
        await raw("/v1/watches", "POST", JSON.stringify(watchBody({ intervalMinutes: "60" }))),
        400,
        "VALIDATION_ERROR",
      ],
      [
        await raw("/v1/watches", "POST", JSON.stringify(watchBody({ paused: "true" }))),
        400,
        "VALIDATION_ERROR",
      ],
      [
        await raw("/v1/watches", "POST", JSON.stringify(watchBody({ intervalMinutes: 1e21 }))),
        400,
        "VALIDATION_ERROR",
      ],
      [
        await raw(
          "/v1/watches",
          "POST",
          `{"__proto__":{"paused":true},"url":"${FIXTURES}/","intervalMinutes":60}`,
        ),
        400,
        "VALIDATION_ERROR",
      ],
      [
        await raw(
          "/v1/watches",
          "POST",
          JSON.stringify(watchBody({ webhookUrl: "http://hooks.example.com/x" })),
        ),
        400,
        "INVALID_WEBHOOK_URL",
      ],
      [await raw(`/v1/watches/${watch.id}`, "PATCH", '{"paused":'), 400, "INVALID_JSON"],
      [
        await raw(`/v1/watches/${watch.id}`, "PATCH", '{"url":"https://example.com/"}'),
        400,
        "VALIDATION_ERROR",
      ],
      [await call("/v1/watches?status=deleted", { headers: acc.auth }), 400, "VALIDATION_ERROR"],
      [await call("/v1/watches?limit=0", { headers: acc.auth }), 400, "VALIDATION_ERROR"],
      [await call("/v1/watches?cursor=%%%", { headers: acc.auth }), 400, "VALIDATION_ERROR"],
      [
        await call(`/v1/watches/${watch.id}/runs?cursor=${encodeURIComponent(btoa("watch:1"))}`, {
          headers: acc.auth,
        }),
        400,
        "VALIDATION_ERROR",
      ],
    ];
    for (const [res, status, code] of cases) {
      expect(res.status).toBe(status);
      expect((await envelope(res)).error?.code).toBe(code);
    }
    const list = await envelope<{ items: WatchView[] }>(
      await call("/v1/watches", { headers: acc.auth }),
    );
    expect(list.data?.items.map((w) => w.id)).toEqual([watch.id]);
  });

  it("checks the target and the webhook URL; the canary is never reached", async () => {
    const acc = await watchAccount();
    const run = runId();
    const target = await createWatch(acc, watchBody({ url: `${CANARY}/page?run=${run}` }));
    expect(target.status).toBe(400);
    expect(["INVALID_URL", "VALIDATION_ERROR"]).toContain(target.body.error?.code);
    const hook = await createWatch(acc, watchBody({ webhookUrl: `${CANARY}/hook?run=${run}` }));
    expect(hook.status).toBe(400);
    expect(hook.body.error?.code).toBe("INVALID_WEBHOOK_URL");
    const unsafe = await createWatch(acc, watchBody({ url: "https://listed.example.org/" }));
    expect(unsafe.status).toBe(400);
    expect(unsafe.body.error?.code).toBe("UNSAFE_URL");
    const watch = await mustCreate(acc, watchBody({ paused: true }));
    const patched = await patchWatch(acc, watch.id, { webhookUrl: `${CANARY}/hook?run=${run}` });
    expect(patched.status).toBe(400);
    await expectCanaryUntouched(run, "watch creation");
  });

  it("WATCH_INTERVAL_TOO_FAST below the plan's floor, on create and update", async () => {
    const acc = await watchAccount("pro");
    const fast = await createWatch(acc, watchBody({ intervalMinutes: 29 }));
    expect(fast.status).toBe(403);
    expect(fast.body.error?.code).toBe("WATCH_INTERVAL_TOO_FAST");
    expect(fast.body.error?.details?.[0]?.path).toBe("intervalMinutes");
    const watch = await mustCreate(acc, watchBody({ intervalMinutes: 30, paused: true }));
    const patched = await patchWatch(acc, watch.id, { intervalMinutes: 5 });
    expect(patched.status).toBe(403);
    expect(patched.body.error?.code).toBe("WATCH_INTERVAL_TOO_FAST");
    const free = await watchAccount("free");
    expect((await createWatch(free, watchBody({ intervalMinutes: 1439 }))).status).toBe(403);
    expect((await createWatch(free, watchBody({ intervalMinutes: 1440 }))).status).toBe(201);
  });

  it("WATCH_LIMIT_REACHED past the plan's count, paused ones included", async () => {
    const acc = await watchAccount("basic"); // 10 watches (Free's 3 would meet its rate limit first)
    for (let i = 0; i < 10; i++)
      await mustCreate(acc, watchBody({ intervalMinutes: 180, paused: i > 0 }));
    const over = await createWatch(acc, watchBody({ intervalMinutes: 180, paused: true }));
    expect(over.status).toBe(403);
    expect(over.body.error?.code).toBe("WATCH_LIMIT_REACHED");
  });

  it("WATCH_HOST_LIMIT_REACHED for an 11th active watch on one site, also on resume", async () => {
    const acc = await watchAccount("pro");
    for (let i = 0; i < 10; i++) await mustCreate(acc, watchBody());
    const eleventh = await createWatch(acc, watchBody());
    expect(eleventh.status).toBe(403);
    expect(eleventh.body.error?.code).toBe("WATCH_HOST_LIMIT_REACHED");
    const paused = await mustCreate(acc, watchBody({ paused: true }));
    const resume = await patchWatch(acc, paused.id, { paused: false });
    expect(resume.status).toBe(403);
    expect(resume.body.error?.code).toBe("WATCH_HOST_LIMIT_REACHED");
  });

  it("another account's watch, an unknown id and a malformed id are all 404 WATCH_NOT_FOUND", async () => {
    const owner = await watchAccount();
    const other = await watchAccount();
    const watch = await mustCreate(owner, watchBody({ paused: true }));
    const paths = [
      ["GET", `/v1/watches/${watch.id}`],
      ["PATCH", `/v1/watches/${watch.id}`],
      ["DELETE", `/v1/watches/${watch.id}`],
      ["POST", `/v1/watches/${watch.id}/run`],
      ["GET", `/v1/watches/${watch.id}/runs`],
      ["GET", `/v1/watches/${crypto.randomUUID()}`],
      ["GET", "/v1/watches/not-an-id"],
    ] as const;
    for (const [method, path] of paths) {
      const res = await call(path, {
        method,
        headers: { "content-type": "application/json", ...other.auth },
        ...(method === "PATCH" ? { body: JSON.stringify({ name: "x" }) } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await envelope(res)).error?.code).toBe("WATCH_NOT_FOUND");
    }
    expect(await watchOf(owner.accountId, watch.id)).toMatchObject({ name: null });
  });

  it("running a paused watch is 409 WATCH_PAUSED and records nothing", async () => {
    const acc = await watchAccount();
    const watch = await mustCreate(acc, watchBody({ paused: true }));
    const res = await runNow(acc, watch.id);
    expect(res.status).toBe(409);
    expect(res.body.error?.code).toBe("WATCH_PAUSED");
    expect(await runs(acc.accountId, watch.id)).toEqual([]);
  });

  it("a downgrade pauses the newest watches over the new caps and says so", async () => {
    const acc = await watchAccount("enterprise");
    const made: WatchView[] = [];
    for (let i = 0; i < 5; i++)
      made.push(await mustCreate(acc, watchBody({ intervalMinutes: 1440 })));
    await setAccount(acc.accountId, { plan: "free" });
    const after = await Promise.all(made.map((w) => watchOf(acc.accountId, w.id)));
    expect(after.map((w) => w.status)).toEqual(["active", "active", "active", "paused", "paused"]);
    expect(after[4]?.pausedReason).toMatch(/Free plan/);
    expect(after[4]?.nextRunAt).toBeNull();
  });
});

/**
 * The Account DO's one alarm is set to the earliest time any of its users needs: the next watch
 * run, or the stuck-job check of a run's job that is still active (src/jobs/store/sweep.ts)
 * — gone once the consumer finished that job.
 */
const armedFor = (nextRunAt: number, jobMovedAt: number) => [
  nextRunAt,
  Math.min(nextRunAt, jobMovedAt + TUNING.jobStuckAfterMs),
];

describe("watch schedule (the Account DO alarm)", () => {
  it("due watches run, the alarm re-arms to the next nextRunAt, a manual run leaves it alone", async () => {
    const acc = await watchAccount();
    const t0 = acc.now;
    const watch = await mustCreate(acc, watchBody({ intervalMinutes: 60 }));
    const idle = await mustCreate(acc, watchBody({ intervalMinutes: 60, paused: true }));
    const stub = accountDo(acc.accountId);
    expect(await runInAlarm(acc.accountId)).toBe(t0);

    expect(await fireAlarm(acc.accountId)).toBe(true);
    let history = await runs(acc.accountId, watch.id);
    expect(history.map((r) => r.trigger)).toEqual(["schedule"]);
    expect(history[0]?.jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await watchOf(acc.accountId, watch.id)).nextRunAt).toBe(
      new Date(t0 + 60 * MIN).toISOString(),
    );
    expect(armedFor(t0 + 60 * MIN, t0)).toContain(await runInAlarm(acc.accountId));

    const manual = await runNow(acc, watch.id);
    expect(manual.status).toBe(202);
    expect(manual.body.data).toMatchObject({ status: "queued" });
    expect((await watchOf(acc.accountId, watch.id)).nextRunAt).toBe(
      new Date(t0 + 60 * MIN).toISOString(),
    );

    // Not due yet: the alarm fires early, nothing runs.
    await acc.setNow(t0 + 30 * MIN);
    await stub.watches().get(watch.id); // (keeps the instance and its clock)
    await fireAlarm(acc.accountId);
    expect((await runs(acc.accountId, watch.id)).length).toBe(2);

    await acc.setNow(t0 + 60 * MIN + 1000);
    expect(await fireAlarm(acc.accountId)).toBe(true);
    history = await runs(acc.accountId, watch.id);
    expect(history.map((r) => r.trigger)).toEqual(["schedule", "manual", "schedule"]);
    expect((await watchOf(acc.accountId, watch.id)).nextRunAt).toBe(
      new Date(t0 + 120 * MIN).toISOString(),
    );
    expect(await runs(acc.accountId, idle.id)).toEqual([]);
  });

  it("a missed window gives one catch-up run, then the schedule continues from now", async () => {
    const acc = await watchAccount();
    const t0 = acc.now;
    const watch = await mustCreate(acc, watchBody({ intervalMinutes: 60 }));
    await fireAlarm(acc.accountId);
    const later = t0 + 10 * 60 * MIN + 7 * MIN; // ten windows missed
    await acc.setNow(later);
    await fireAlarm(acc.accountId);
    expect((await runs(acc.accountId, watch.id)).length).toBe(2);
    expect((await watchOf(acc.accountId, watch.id)).nextRunAt).toBe(
      new Date(later + 60 * MIN).toISOString(),
    );
    expect(armedFor(later + 60 * MIN, later)).toContain(await runInAlarm(acc.accountId));
  });

  it("a paused watch never runs; with nothing active the alarm is cleared", async () => {
    const acc = await watchAccount();
    const watch = await mustCreate(acc, watchBody({ intervalMinutes: 60 }));
    await patchWatch(acc, watch.id, { paused: true });
    expect(await runInAlarm(acc.accountId)).toBeNull();
    await acc.setNow(acc.now + 5 * 60 * MIN);
    expect(await fireAlarm(acc.accountId)).toBe(false);
    expect(await runs(acc.accountId, watch.id)).toEqual([]);
  });

  it("no credits or no free job slot: the run is skipped with its reason and costs nothing", async () => {
    const acc = await watchAccount("basic");
    const watch = await mustCreate(acc, watchBody({ intervalMinutes: 180 }));
    await setAccount(acc.accountId, { creditsUsed: 1000 });
    await fireAlarm(acc.accountId);
    const [run] = await runs(acc.accountId, watch.id);
    expect(run).toMatchObject({
      status: "skipped",
      jobId: null,
      error: "Skipped: no credits left this month.",
    });
    const summary = await accountDo(acc.accountId).summary();
    expect(summary?.usage.used).toBe(1000);
    expect(summary?.activeJobs).toBe(0);
    const manual = await runNow(acc, watch.id);
    expect(manual.status).toBe(429);
    expect(manual.body.error?.code).toBe("USAGE_EXCEEDED");

    // Credits back, but every job slot taken.
    await setAccount(acc.accountId, { creditsUsed: 0 });
    const slots = await acquireJobSlots(acc.accountId, PLANS.basic.activeJobs);
    expect(slots.ok).toBe(true);
    await acc.setNow(acc.now + 181 * MIN);
    await fireAlarm(acc.accountId);
    const [latest] = await runs(acc.accountId, watch.id);
    expect(latest).toMatchObject({ status: "skipped", trigger: "schedule", jobId: null });
    expect(latest?.error).toMatch(/^Skipped: 25 async jobs were already queued or processing/);
    expect((await accountDo(acc.accountId).summary())?.usage.used).toBe(0);
    const busy = await runNow(acc, watch.id);
    expect(busy.status).toBe(429);
    expect(busy.body.error?.code).toBe("QUEUE_LIMIT_REACHED");
  });
});

/** The DO's alarm time (null when none is set). */
function runInAlarm(accountId: string): Promise<number | null> {
  return runInDurableObject(accountDo(accountId), (_i, state) => state.storage.getAlarm());
}
