/**
 * Watch runs that fail (real queues, a fixture page that drops the connection): each failed run
 * is `error`, refunded, reported by a signed watch.failed webhook, and the 5th in a row pauses
 * the watch, saying why. And retention: runs past `retention.runs` go, with their R2 objects.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountDo } from "../helpers/account-do";
import { FIXTURES, runId } from "../helpers/http";
import { waitForWebhooks, webhookUrl } from "../helpers/jobs";
import {
  fireAlarm,
  mustCreate,
  patchWatch,
  runNow,
  runs,
  waitForRun,
  watchAccount,
  watchOf,
} from "../helpers/watches";
import { SMALL_CAPTURE } from "../helpers/capture";

async function setPage(run: string, html: string | null): Promise<void> {
  const res = await fetch(`${FIXTURES}/__page`, {
    method: "POST",
    body: JSON.stringify({ run, html }),
  });
  if (!res.ok) throw new Error(`__page: ${res.status}`);
}

describe("failing watch runs and retention", () => {
  it("5 failed runs in a row pause the watch; each is refunded and sends watch.failed", async () => {
    const acc = await watchAccount("pro");
    const run = runId();
    await setPage(run, null);
    const watch = await mustCreate(acc, {
      url: `${FIXTURES}/watched?run=${run}`,
      intervalMinutes: 60,
      capture: SMALL_CAPTURE,
      webhookUrl: webhookUrl(run),
    });
    const used = (await accountDo(acc.accountId).summary())?.usage.used;
    const started = await Promise.all([1, 2, 3, 4, 5].map(() => runNow(acc, watch.id)));
    expect(started.map((s) => s.status)).toEqual([202, 202, 202, 202, 202]);
    const finished = await Promise.all(
      started.map((s) => waitForRun(acc.accountId, s.body.data?.runId ?? "", 120_000)),
    );
    for (const r of finished) {
      expect(r).toMatchObject({ status: "failed", outcome: "error", imageUrl: null });
      expect(r.error).toBe("Could not reach the target URL.");
    }
    const after = await watchOf(acc.accountId, watch.id);
    expect(after).toMatchObject({
      status: "paused",
      paused: true,
      consecutiveFailures: 5,
      nextRunAt: null,
    });
    expect(after.pausedReason).toMatch(/^Paused after 5 failed runs in a row/);
    const summary = await accountDo(acc.accountId).summary();
    expect(summary?.usage.used).toBe(used);
    expect(summary?.activeJobs).toBe(0);

    const hooks = await waitForWebhooks(run, 5, 60_000);
    const events = hooks.map((h) => JSON.parse(h.body) as Record<string, unknown>);
    expect(hooks.every((h) => h.headers["x-service-event"] === "watch.failed")).toBe(true);
    expect(events.map((e) => e.consecutiveFailures).sort()).toEqual([1, 2, 3, 4, 5]);
    const last = events.find((e) => e.consecutiveFailures === 5);
    expect(last).toMatchObject({
      event: "watch.failed",
      watchId: watch.id,
      error: "Could not reach the target URL.",
      paused: true,
    });
    expect(events.filter((e) => e.paused === true)).toHaveLength(1);

    const blocked = await runNow(acc, watch.id);
    expect(blocked.status).toBe(409);
  }, 120_000); // five watch runs through the real queue, then their webhooks

  it("retention.runs: older runs and their R2 objects are deleted; the baseline's run stays", async () => {
    const acc = await watchAccount("pro");
    const run = runId();
    await setPage(run, `<!doctype html><body style="background:#0a0">steady</body>`);
    const watch = await mustCreate(acc, {
      url: `${FIXTURES}/watched?run=${run}`,
      intervalMinutes: 60,
      capture: SMALL_CAPTURE,
      retention: { runs: 2 },
      paused: true,
    });
    await patchWatch(acc, watch.id, { paused: false });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await runNow(acc, watch.id);
      ids.push((await waitForRun(acc.accountId, res.body.data?.runId ?? "")).id);
    }
    const kept = await runs(acc.accountId, watch.id);
    expect(kept.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    const firstImage = kept[1]?.previousImageUrl;
    expect(firstImage).toBeTruthy();
    const key = new URL(firstImage ?? "").pathname.replace("/v1/images/", "");
    expect(await env.OUTPUTS.head(key)).toBeNull();
  });

  it("retention.days: runs older than the limit go with their objects once a newer run holds the baseline", async () => {
    const acc = await watchAccount("pro");
    const run = runId();
    await setPage(run, `<!doctype html><body style="background:#00a">aging</body>`);
    const watch = await mustCreate(acc, {
      url: `${FIXTURES}/watched?run=${run}`,
      intervalMinutes: 60,
      capture: SMALL_CAPTURE,
      retention: { runs: 50, days: 1 },
    });
    await fireAlarm(acc.accountId);
    const [first] = await runs(acc.accountId, watch.id);
    const old = await waitForRun(acc.accountId, first?.id ?? "");
    expect(old.outcome).toBe("baseline");
    await acc.setNow(acc.now + 2 * 86_400_000);
    const res = await runNow(acc, watch.id);
    const fresh = await waitForRun(acc.accountId, res.body.data?.runId ?? "");
    expect(fresh.outcome).toBe("unchanged");
    expect((await runs(acc.accountId, watch.id)).map((r) => r.id)).toEqual([fresh.id]);
    const key = new URL(old.imageUrl ?? "").pathname.replace("/v1/images/", "");
    expect(await env.OUTPUTS.head(key)).toBeNull();
  });
});
