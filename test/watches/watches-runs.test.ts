/**
 * Watch runs against real pages (fixture `/watched`, whose content the test sets per run):
 * baseline → unchanged → changed, with `changedPercent` checked against the share of pixels
 * that really differ between the two run images, the diff image red exactly where the page
 * changed; a failed run that does not move the baseline; ignored selectors hiding a ticking
 * clock; the signed watch.changed webhook; one credit per completed run only; retention and
 * delete removing the R2 objects.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { WatchRunView } from "../../schemas/watches";
import { verifyWebhook } from "../../sdk/src/webhooks";
import { accountDo } from "../helpers/account-do";
import { BASE, call, envelope, FIXTURES, runId } from "../helpers/http";
import { decodeImage, type Decoded } from "../helpers/images";
import { waitForWebhooks, webhookUrl } from "../helpers/jobs";
import {
  fireAlarm,
  mustCreate,
  runNow,
  runs,
  waitForRun,
  watchAccount,
  type WatchAccount,
} from "../helpers/watches";
import { SMALL_CAPTURE } from "../helpers/capture";

const box = (x: number, y: number, w: number, h: number, color: string) =>
  `<div style="position:absolute;left:${x}px;top:${y}px;width:${w}px;height:${h}px;background:${color}"></div>`;
const page = (body: string) =>
  `<!doctype html><html><body style="margin:0;background:#fff">${body}</body></html>`;
const PAGE_A = page(box(100, 100, 50, 40, "#00f"));
/** PAGE_A plus a 64×48 red box and a moved blue one. */
const PAGE_B = page(box(110, 100, 50, 40, "#00f") + box(10, 10, 64, 48, "#f00"));

async function setPage(run: string, html: string | null): Promise<void> {
  const res = await fetch(`${FIXTURES}/__page`, {
    method: "POST",
    body: JSON.stringify({ run, html }),
  });
  if (!res.ok) throw new Error(`__page: ${res.status}`);
}

async function image(url: string | null): Promise<{ bytes: Uint8Array; img: Decoded }> {
  if (!url) throw new Error("no image URL");
  expect(url.startsWith(`${BASE}/v1/images/w/`)).toBe(true);
  const res = await call(url.slice(BASE.length));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { bytes, img: decodeImage(bytes) };
}

async function manual(acc: WatchAccount, watchId: string): Promise<WatchRunView> {
  const res = await runNow(acc, watchId);
  expect(res.status).toBe(202);
  return waitForRun(acc.accountId, res.body.data?.runId ?? "");
}

const same = (a: [number, number, number], b: [number, number, number]) =>
  a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

describe("watch runs (real browser, real queues)", () => {
  it("baseline → unchanged → changed (true share ±1), diff red where the page changed; a failure keeps the baseline", async () => {
    const acc = await watchAccount("pro");
    const run = runId();
    await setPage(run, PAGE_A);
    const watch = await mustCreate(acc, {
      url: `${FIXTURES}/watched?run=${run}`,
      intervalMinutes: 60,
      capture: SMALL_CAPTURE,
      webhookUrl: webhookUrl(run),
    });
    const usedBefore = (await accountDo(acc.accountId).summary())?.usage.used ?? 0;

    expect(await fireAlarm(acc.accountId)).toBe(true);
    const [first] = await runs(acc.accountId, watch.id);
    const baseline = await waitForRun(acc.accountId, first?.id ?? "");
    expect(baseline).toMatchObject({
      status: "completed",
      outcome: "baseline",
      trigger: "schedule",
      changedPercent: null,
      diffUrl: null,
      previousImageUrl: null,
    });
    // Its report: read from the run's own PNG, white but for the 50×40 blue box.
    expect(baseline.completeness).toMatchObject({
      pendingRequests: 0,
      failedRequests: 0,
      images: { loaded: 0, total: 0 },
      retried: false,
    });
    expect(baseline.completeness?.blankRatio).toBeCloseTo(1 - (50 * 40) / (320 * 240), 3);

    const unchanged = await manual(acc, watch.id);
    expect(unchanged).toMatchObject({
      status: "completed",
      outcome: "unchanged",
      changedPercent: 0,
    });
    expect(unchanged.previousImageUrl).toBe(baseline.imageUrl);

    await setPage(run, PAGE_B);
    const changed = await manual(acc, watch.id);
    expect(changed).toMatchObject({ status: "completed", outcome: "changed" });
    const before = await image(changed.previousImageUrl);
    const after = await image(changed.imageUrl);
    const diff = await image(changed.diffUrl);
    expect([after.img.width, after.img.height]).toEqual([320, 240]);
    let differing = 0;
    let misplaced = 0;
    for (let y = 0; y < 240; y++) {
      for (let x = 0; x < 320; x++) {
        const moved = !same(before.img.pixel(x, y), after.img.pixel(x, y));
        if (moved) differing++;
        const red = same(diff.img.pixel(x, y), [255, 0, 0]);
        if (red !== moved) misplaced++;
      }
    }
    const truth = (differing / (320 * 240)) * 100;
    expect(truth).toBeGreaterThan(4); // the red box alone is 4 %
    expect(Math.abs((changed.changedPercent ?? 0) - truth)).toBeLessThanOrEqual(1);
    expect(misplaced).toBe(0);

    // The receiver gets watch.changed once, signed, with URLs that serve the images.
    const [hook, ...more] = await waitForWebhooks(run, 1);
    expect(more).toEqual([]);
    expect(hook?.headers["x-service-event"]).toBe("watch.changed");
    const secret = (
      await envelope<{ webhooks: { signingSecret: string } }>(
        await call("/v1/account", { headers: acc.auth }),
      )
    ).data?.webhooks.signingSecret;
    const verdict = await verifyWebhook({
      body: hook?.body ?? "",
      signature: String(hook?.headers["x-service-signature"]),
      timestamp: String(hook?.headers["x-service-timestamp"]),
      secret: secret ?? "",
    });
    expect(verdict.ok).toBe(true);
    const event = JSON.parse(hook?.body ?? "{}") as Record<string, unknown>;
    expect(event).toMatchObject({
      event: "watch.changed",
      watchId: watch.id,
      runId: changed.id,
      url: watch.url,
      changedPercent: changed.changedPercent,
      imageUrl: changed.imageUrl,
      previousImageUrl: changed.previousImageUrl,
      diffUrl: changed.diffUrl,
      detectedAt: changed.completedAt,
    });
    await image(event.diffUrl as string);

    // A failing run: error, and the baseline stays the changed run's image.
    await setPage(run, null);
    const failed = await manual(acc, watch.id);
    expect(failed).toMatchObject({ status: "failed", outcome: "error", imageUrl: null });
    expect(failed.completeness).toBeUndefined();
    expect(failed.error).toBe("Could not reach the target URL.");
    expect((await accountDo(acc.accountId).watches().get(watch.id))?.consecutiveFailures).toBe(1);
    await setPage(run, PAGE_B);
    const again = await manual(acc, watch.id);
    expect(again).toMatchObject({ outcome: "unchanged", changedPercent: 0 });
    expect(again.previousImageUrl).toBe(changed.imageUrl);
    expect((await accountDo(acc.accountId).watches().get(watch.id))?.consecutiveFailures).toBe(0);

    // Credits: one per completed run (4), none for the failed one.
    const usedAfter = (await accountDo(acc.accountId).summary())?.usage.used ?? 0;
    expect(usedAfter - usedBefore).toBe(4);

    // Delete: the watch, its runs and every R2 object of theirs are gone.
    const keys = [baseline, unchanged, changed, again].flatMap((r) =>
      [r.imageUrl, r.diffUrl].filter((u): u is string => u !== null),
    );
    const del = await call(`/v1/watches/${watch.id}`, { method: "DELETE", headers: acc.auth });
    expect(del.status).toBe(200);
    for (const url of keys) {
      const key = new URL(url).pathname.replace("/v1/images/", "");
      expect(await env.OUTPUTS.head(key), key).toBeNull();
    }
  }, 120_000); // five watch runs, one after another, each through the real queue

  it("ignoreSelectors hides a ticking clock: unchanged, visually and by text", async () => {
    const acc = await watchAccount("pro");
    const run = runId();
    await setPage(
      run,
      page(
        `<h1 style="margin:0;font-size:40px">Prices</h1><p id="clock" style="font-size:40px;margin:0">--</p>
         <script>document.getElementById("clock").textContent = String(Date.now()) + " " + Math.random();</script>`,
      ),
    );
    const watch = await mustCreate(acc, {
      url: `${FIXTURES}/watched?run=${run}`,
      intervalMinutes: 60,
      capture: SMALL_CAPTURE,
      changeDetection: { mode: "both", thresholdPercent: 0, ignoreSelectors: ["#clock"] },
    });
    await fireAlarm(acc.accountId);
    const [first] = await runs(acc.accountId, watch.id);
    expect((await waitForRun(acc.accountId, first?.id ?? "")).outcome).toBe("baseline");
    const second = await manual(acc, watch.id);
    expect(second).toMatchObject({
      outcome: "unchanged",
      changedPercent: 0,
      textDiff: { added: [], removed: [] },
    });

    // The control: the same page without the ignored selector does change.
    const control = await mustCreate(acc, {
      url: `${FIXTURES}/watched?run=${run}&control=1`,
      intervalMinutes: 60,
      capture: SMALL_CAPTURE,
      changeDetection: { mode: "text", thresholdPercent: 0 },
    });
    await fireAlarm(acc.accountId);
    const [c1] = await runs(acc.accountId, control.id);
    await waitForRun(acc.accountId, c1?.id ?? "");
    const c2 = await manual(acc, control.id);
    expect(c2.outcome).toBe("changed");
    expect(c2.textDiff?.added.length).toBe(1);
    expect(c2.textDiff?.removed.length).toBe(1);
    expect(c2.textDiff?.added[0]).toMatch(/^\d{13} /);
  });
});
