/**
 * Site monitors against the monitor fixture site (test/fixtures/monitor-site.ts), rendered by
 * the real browser through the real queue and Crawl DO: the first check learns the site (every
 * page new, its noise learnt from two captures), the second — after the site changed — reports
 * exactly the added, removed, text-changed, visual-changed and failed pages and nothing for the
 * clock, the rotating banner, the animation or the caret. The images are decoded, the webhooks'
 * signatures verified, the fixture's request log read.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckPage, CheckView, MonitorDryRun, MonitorView } from "../../schemas/monitors";
import { verifyWebhook } from "../../sdk/src/webhooks";
import { MONITOR_BOX } from "../fixtures/monitor-site";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { creditsUsed, expectRefusal } from "../helpers/api";
import { call, envelope, FIXTURES, fixtureLog, postJson, runId } from "../helpers/http";
import { decodeImage } from "../helpers/images";
import { poll, waitForWebhooks, webhookUrl } from "../helpers/jobs";

const run = runId();
const SITE = `${FIXTURES}/mon/${run}/`;
const path = (url: string) => new URL(url).pathname.replace(`/mon/${run}/`, "/");

async function setVersion(version: number): Promise<void> {
  const res = await fetch(`${FIXTURES}/__monitor`, {
    method: "POST",
    body: JSON.stringify({ run, version }),
  });
  if (!res.ok) throw new Error(`set version: ${res.status}`);
}

const SETTINGS = {
  url: SITE,
  scope: "path",
  sitemap: "skip",
  width: 640,
  height: 480,
  ignore: [".nav"],
  fields: [{ name: "price", selector: ".price" }],
};

async function get<T>(account: TestAccount, url: string): Promise<{ status: number; data: T }> {
  const res = await call(url, { headers: bearer(account.apiKey) });
  const body = await envelope<T>(res);
  return { status: res.status, data: body.data as T };
}

const FINAL = new Set(["completed", "cancelled", "failed"]);
async function finishedCheck(
  account: TestAccount,
  monitorId: string,
  checkId: string,
): Promise<CheckView> {
  return (
    await poll(
      () => get<CheckView>(account, `/v1/monitors/${monitorId}/checks/${checkId}`),
      (r) => r.status === 200 && FINAL.has(r.data.status),
      180_000,
      300,
    )
  ).data;
}

async function pagesOf(
  account: TestAccount,
  monitorId: string,
  checkId: string,
): Promise<CheckPage[]> {
  const pages: CheckPage[] = [];
  let cursor: string | null = "";
  while (cursor !== null) {
    const q: string = cursor ? `?limit=2&cursor=${cursor}` : "?limit=2";
    const res = await get<{ pages: CheckPage[]; nextCursor: string | null }>(
      account,
      `/v1/monitors/${monitorId}/checks/${checkId}/pages${q}`,
    );
    expect(res.status).toBe(200);
    pages.push(...res.data.pages);
    cursor = res.data.nextCursor;
  }
  return pages;
}

/** A signed output URL of ours, fetched through the Worker. */
async function image(url: string): Promise<Uint8Array> {
  const u = new URL(url);
  const res = await call(`${u.pathname}${u.search}`);
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

function pixel(png: Uint8Array, x: number, y: number): number[] {
  return [...decodeImage(png).pixel(x, y)];
}

describe("site monitors", () => {
  let account: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    [account, other] = await Promise.all([createAccount("pro"), createAccount("pro")]);
    await setVersion(1);
  });

  it("refuses bad input with a 400 naming the field, and creates and charges nothing", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...SETTINGS, url: undefined }, "url"],
      [{ ...SETTINGS, schedule: { intervalMinutes: 60, cron: "0 * * * *" } }, "schedule"],
      [{ ...SETTINGS, schedule: { cron: "61 * * * *" } }, "schedule.cron"],
      [{ ...SETTINGS, compare: ["pixels"] }, "compare[0]"],
      [{ ...SETTINGS, ignore: ["div["] }, "ignore[0]"],
      [
        { ...SETTINGS, ignoreRegions: [{ x: 0, y: 0, width: 0, height: 5 }] },
        "ignoreRegions[0].width",
      ],
      [
        {
          ...SETTINGS,
          fields: [
            { name: "a", selector: "p" },
            { name: "a", selector: "h1" },
          ],
        },
        "fields[1]",
      ],
      [{ ...SETTINGS, limit: 0 }, "limit"],
      [{ ...SETTINGS, webhookEvents: ["monitor.page.changed"] }, "webhookEvents"],
      [{ ...SETTINGS, minChangedPixels: -1 }, "minChangedPixels"],
      [{ ...SETTINGS, sheduel: {} }, "sheduel"],
      [{ ...SETTINGS, alerts: [{ field: "cost", rule: "changed" }] }, "alerts[0].field"],
      [{ ...SETTINGS, alerts: [{ field: "price", rule: "below" }] }, "alerts[0].value"],
    ];
    for (const [body, field] of cases)
      await expectRefusal(
        await postJson("/v1/monitors", body, bearer(account.apiKey)),
        400,
        "VALIDATION_ERROR",
        field,
      );
    // The plan's floor: Pro checks at most every 30 minutes.
    await expectRefusal(
      await postJson(
        "/v1/monitors",
        { ...SETTINGS, schedule: { cron: "*/5 * * * *" } },
        bearer(account.apiKey),
      ),
      403,
      "MONITOR_SCHEDULE_TOO_FAST",
      "schedule.cron",
    );
    await expectRefusal(
      await postJson(
        "/v1/monitors",
        { ...SETTINGS, url: "http://10.0.0.1/" },
        bearer(account.apiKey),
      ),
      400,
      "INVALID_URL",
    );
    const list = await get<{ items: MonitorView[] }>(account, "/v1/monitors");
    expect(list.data.items).toEqual([]);
    expect(await creditsUsed(account.apiKey)).toBe(0);
  });

  it("holds a plan to its monitors and pages a check", async () => {
    // Three calls, the Free plan's rate limit (a plan's floor: the Pro refusals above).
    const free = await createAccount("free");
    const key = bearer(free.apiKey);
    await expectRefusal(
      await postJson("/v1/monitors", { ...SETTINGS, limit: 11 }, key),
      400,
      "VALIDATION_ERROR",
      "limit",
    );
    const first = await postJson("/v1/monitors", { ...SETTINGS, limit: 5, paused: true }, key);
    expect(first.status).toBe(201);
    expect((await envelope<MonitorView>(first)).data).toMatchObject({
      status: "paused",
      nextCheckAt: null,
      lastCheck: null,
    });
    await expectRefusal(
      await postJson("/v1/monitors", { ...SETTINGS, limit: 5, paused: true }, key),
      403,
      "MONITOR_LIMIT_REACHED",
    );
    expect(await creditsUsed(free.apiKey)).toBe(0);
  });

  it("answers a dry run with the URLs and credits a check would take, charging nothing", async () => {
    const res = await postJson(
      "/v1/monitors",
      { ...SETTINGS, dryRun: true, schedule: { intervalMinutes: 60 } },
      bearer(account.apiKey),
    );
    const body = await envelope<MonitorDryRun>(res);
    expect(res.status).toBe(200);
    const urls = (body.data?.urls ?? []).map(path).sort();
    expect(urls).toEqual(["/", "/broken", "/gone", "/stable", "/text", "/visual"]);
    expect(body.data).toMatchObject({
      dryRun: true,
      creditsPerCheck: 6,
      checksPerMonth: 720,
      creditsPerMonth: 4320,
    });
    expect(await creditsUsed(account.apiKey)).toBe(0);
    expect((await get<{ items: MonitorView[] }>(account, "/v1/monitors")).data.items).toEqual([]);
  });

  it("learns the site, then reports exactly what changed — and nothing for the noise", async () => {
    const since = Date.now();
    const created = await postJson(
      "/v1/monitors",
      {
        ...SETTINGS,
        name: "Fixture site",
        // A 20 % rise fires the first rule; the price never passes 100.
        alerts: [
          { field: "price", rule: "increased", byPercent: 10 },
          { field: "price", rule: "above", value: 100 },
        ],
        webhookUrl: webhookUrl(run),
        webhookEvents: [
          "monitor.check.completed",
          "monitor.page.changed",
          "monitor.page.new",
          "monitor.page.removed",
          "monitor.page.failed",
        ],
      },
      bearer(account.apiKey),
    );
    const monitor = (await envelope<MonitorView>(created)).data as MonitorView;
    expect(created.status).toBe(201);
    expect(monitor).toMatchObject({
      name: "Fixture site",
      status: "active",
      schedule: { intervalMinutes: 1440 },
    });

    // The first check starts by itself (due at creation) and sets the baseline.
    const first = await poll(
      () => get<MonitorView>(account, `/v1/monitors/${monitor.monitorId}`),
      (r) => r.data.lastCheck !== null,
      60_000,
    );
    const check1 = await finishedCheck(
      account,
      monitor.monitorId,
      first.data.lastCheck?.checkId ?? "",
    );
    expect(check1).toMatchObject({
      trigger: "created",
      status: "completed",
      baseline: true,
      counts: { new: 6, removed: 0, changed: 0, unchanged: 0, failed: 0 },
      creditsUsed: 6,
    });
    const baseline = await pagesOf(account, monitor.monitorId, check1.checkId);
    expect(baseline.map((p) => path(p.url)).sort()).toEqual([
      "/",
      "/broken",
      "/gone",
      "/stable",
      "/text",
      "/visual",
    ]);
    // A new page's capture: the visual page's box, blue.
    const visualNew = baseline.find((p) => path(p.url) === "/visual");
    expect(pixel(await image(visualNew?.screenshotUrl ?? ""), 200, 250)).toEqual([
      0x20, 0x50, 0xc0,
    ]);
    // Its report is the capture's: measured on its own pixels, nothing pending or retried.
    expect(visualNew?.completeness).toMatchObject({
      pendingRequests: 0,
      failedRequests: 0,
      retried: false,
    });
    expect(visualNew?.completeness?.blankRatio).toBeGreaterThan(0.5);
    expect(visualNew?.completeness?.blankRatio).toBeLessThan(0.995);
    // Learning captured each page twice (not charged): the fixture saw two loads of each.
    const firstLoads = (await fixtureLog(run)).filter(
      (r) => r.path.startsWith(`/mon/${run}/`) && r.at >= since,
    );
    expect(firstLoads.filter((r) => r.path === `/mon/${run}/stable`)).toHaveLength(2);

    // The site changes; a check now (a second one while it runs is refused).
    await setVersion(2);
    const started = await call(`/v1/monitors/${monitor.monitorId}/checks`, {
      method: "POST",
      headers: bearer(account.apiKey),
    });
    const check2Id = (await envelope<CheckView>(started)).data?.checkId ?? "";
    expect(started.status).toBe(202);
    await expectRefusal(
      await call(`/v1/monitors/${monitor.monitorId}/checks`, {
        method: "POST",
        headers: bearer(account.apiKey),
      }),
      409,
      "CHECK_IN_PROGRESS",
    );
    const secondSince = Date.now();
    const check2 = await finishedCheck(account, monitor.monitorId, check2Id);
    expect(check2).toMatchObject({
      trigger: "manual",
      status: "completed",
      baseline: false,
      counts: { new: 1, removed: 1, changed: 2, unchanged: 2, failed: 1 },
      // The two unchanged pages have a clock: never byte-identical, always compared.
      identical: 0,
      creditsUsed: 5,
    });
    expect(await creditsUsed(account.apiKey)).toBe(11);

    const pages = await pagesOf(account, monitor.monitorId, check2.checkId);
    const byPath = new Map(pages.map((p) => [path(p.url), p]));
    expect([...byPath.keys()].sort()).toEqual(["/added", "/broken", "/gone", "/text", "/visual"]);
    expect(byPath.get("/added")?.status).toBe("new");
    expect(byPath.get("/gone")?.status).toBe("removed");
    expect(byPath.get("/broken")).toMatchObject({
      status: "failed",
      reason: "http_error",
      statusCode: 500,
    });
    expect(byPath.get("/broken")?.completeness).toBeUndefined();
    expect(byPath.get("/added")?.completeness?.retried).toBe(false);

    // The text change: words, and the price field.
    const text = byPath.get("/text");
    expect(text?.status).toBe("changed");
    expect(text?.completeness?.pendingRequests).toBe(0);
    expect(text?.text).toMatchObject({ added: 2, removed: 1 });
    expect(text?.text?.parts).toEqual([
      { op: "removed", text: "10" },
      { op: "added", text: "12" },
      { op: "added", text: "today" },
    ]);
    expect(text?.fields).toEqual([{ name: "price", before: "10", after: "12" }]);
    // The alert rules on it: the rise fired (text read as a number), the bound did not.
    expect(text?.alerts).toEqual([
      { field: "price", rule: "increased", byPercent: 10, previous: "10", current: "12" },
    ]);

    // The visual-only change: one region, the box; no text, no fields.
    const visual = byPath.get("/visual");
    expect(visual?.status).toBe("changed");
    expect(visual?.text).toBeUndefined();
    expect(visual?.fields).toBeUndefined();
    expect(visual?.alerts).toBeUndefined();
    expect(visual?.visual?.regions).toEqual([MONITOR_BOX]);
    expect(visual?.visual?.changedPixels).toBe(MONITOR_BOX.width * MONITOR_BOX.height);
    const [before, after, diff] = await Promise.all(
      [visual?.visual?.beforeUrl, visual?.visual?.afterUrl, visual?.visual?.diffUrl].map((u) =>
        image(u ?? ""),
      ),
    );
    expect(pixel(before as Uint8Array, 200, 250)).toEqual([0x20, 0x50, 0xc0]);
    expect(pixel(after as Uint8Array, 200, 250)).toEqual([0xc0, 0x20, 0x20]);
    expect(pixel(diff as Uint8Array, 200, 250)).toEqual([255, 0, 0]);
    expect(pixel(diff as Uint8Array, 50, 400)[0]).toBeGreaterThan(200); // faded, not red

    // /gone was not requested again: it was no longer linked.
    const secondLoads = (await fixtureLog(run)).filter((r) => r.at >= secondSince);
    expect(secondLoads.some((r) => r.path === `/mon/${run}/gone`)).toBe(false);

    // Webhooks: check 1's six new pages and summary, check 2's five pages and summary — each
    // once, each signed.
    const deliveries = await waitForWebhooks(run, 13, 60_000);
    const bodies = deliveries.map((d) => JSON.parse(d.body) as Record<string, unknown>);
    const subjects = bodies.map((b) =>
      b.event === "monitor.check.completed"
        ? `${b.event} ${(b.check as CheckView).checkId}`
        : `${String(b.event)} ${String(b.checkId)} ${path((b.page as CheckPage).url)}`,
    );
    expect(new Set(subjects).size).toBe(subjects.length);
    expect(subjects.filter((s) => s.includes(check2.checkId)).sort()).toEqual(
      [
        `monitor.check.completed ${check2.checkId}`,
        `monitor.page.changed ${check2.checkId} /text`,
        `monitor.page.changed ${check2.checkId} /visual`,
        `monitor.page.failed ${check2.checkId} /broken`,
        `monitor.page.new ${check2.checkId} /added`,
        `monitor.page.removed ${check2.checkId} /gone`,
      ].sort(),
    );
    const secret = (await get<{ webhooks: { signingSecret: string } }>(account, "/v1/account")).data
      .webhooks.signingSecret;
    for (const d of deliveries)
      expect(
        await verifyWebhook({
          body: d.body,
          signature: String(d.headers["x-service-signature"]),
          timestamp: String(d.headers["x-service-timestamp"]),
          secret,
        }),
      ).toMatchObject({ ok: true });

    // The feed lists check 2's changes (not the baseline's), signed; a bad signature is refused.
    const view = (await get<MonitorView>(account, `/v1/monitors/${monitor.monitorId}`)).data;
    const feedUrl = new URL(view.feedUrl);
    const feed = await call(`${feedUrl.pathname}${feedUrl.search}`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toContain("application/atom+xml");
    const xml = await feed.text();
    const titles = [...xml.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1] ?? "").slice(1);
    expect(titles.map((t) => t.replace(SITE, "/")).sort()).toEqual(
      [
        "changed: /text",
        "changed: /visual",
        "failed: /broken",
        "new: /added",
        "removed: /gone",
      ].sort(),
    );
    const tampered = `${feedUrl.pathname}?account=${account.accountId}&sig=${"0".repeat(64)}`;
    await expectRefusal(await call(tampered), 403, "FORBIDDEN");

    // Another account sees none of it.
    for (const url of [
      `/v1/monitors/${monitor.monitorId}`,
      `/v1/monitors/${monitor.monitorId}/checks`,
      `/v1/monitors/${monitor.monitorId}/checks/${check2.checkId}/pages`,
    ])
      await expectRefusal(
        await call(url, { headers: bearer(other.apiKey) }),
        404,
        "MONITOR_NOT_FOUND",
      );
    await expectRefusal(
      await call(`/v1/monitors/${monitor.monitorId}/checks`, {
        method: "POST",
        headers: bearer(other.apiKey),
      }),
      404,
      "MONITOR_NOT_FOUND",
    );
    // A check is not one of the account's crawls.
    expect((await get<{ items: unknown[] }>(account, "/v1/crawls")).data.items).toEqual([]);
    await expectRefusal(
      await call(`/v1/crawl/${check2.checkId}`, { headers: bearer(account.apiKey) }),
      404,
      "CRAWL_NOT_FOUND",
    );

    // History: both checks, newest first.
    const checks = await get<{ items: CheckView[] }>(
      account,
      `/v1/monitors/${monitor.monitorId}/checks`,
    );
    expect(checks.data.items.map((c) => c.checkId)).toEqual([check2.checkId, check1.checkId]);

    // Pause, change, resume, delete.
    const paused = await call(`/v1/monitors/${monitor.monitorId}/pause`, {
      method: "POST",
      headers: bearer(account.apiKey),
    });
    expect((await envelope<MonitorView>(paused)).data).toMatchObject({
      status: "paused",
      nextCheckAt: null,
    });
    const patched = await call(`/v1/monitors/${monitor.monitorId}`, {
      method: "PATCH",
      headers: { ...bearer(account.apiKey), "content-type": "application/json" },
      body: JSON.stringify({ schedule: { cron: "0 6 * * *" }, name: null }),
    });
    expect((await envelope<MonitorView>(patched)).data).toMatchObject({
      name: null,
      status: "paused",
      schedule: { cron: "0 6 * * *" },
    });
    const resumed = await call(`/v1/monitors/${monitor.monitorId}/resume`, {
      method: "POST",
      headers: bearer(account.apiKey),
    });
    const next = (await envelope<MonitorView>(resumed)).data?.nextCheckAt ?? "";
    expect(new Date(next).getUTCHours()).toBe(6);
    const deleted = await call(`/v1/monitors/${monitor.monitorId}`, {
      method: "DELETE",
      headers: bearer(account.apiKey),
    });
    expect(deleted.status).toBe(200);
    await expectRefusal(
      await call(`/v1/monitors/${monitor.monitorId}`, { headers: bearer(account.apiKey) }),
      404,
      "MONITOR_NOT_FOUND",
    );
    const left = await env.OUTPUTS.list({
      prefix: `monitors/${account.accountId}/${monitor.monitorId}/`,
    });
    expect(left.objects).toEqual([]);
  }, 120_000); // two checks of a seven-page site, each page through the real queue
});
