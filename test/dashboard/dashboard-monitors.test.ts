/**
 * The dashboard's Monitors pages through the worker's fetch handler: the list, a monitor's page
 * (settings, feed URL, the timeline of its checks) and a check's pages (the viewer's images as
 * same-origin paths, the regions, the text diff, the fields, failed, removed and new pages,
 * filters and paging) for the signed-in account — another account's monitor is a 404 page — with
 * every value from the site or the customer escaped. The monitor is created paused through the
 * API and its check written into the Account DO as a check's renderer would report it, so no
 * browser runs here; the real checks, in Chromium, are test/dashboard/monitors.e2e.test.ts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CheckPage, MonitorView } from "../../schemas/monitors";
import { accountStub } from "../../src/accounts/directory";
import { bearer } from "../helpers/accounts";
import { dashboardSession } from "../helpers/dashboard";
import { BASE, call, envelope, FIXTURES, postJson, runId } from "../helpers/http";

const HOSTILE = `<b>Shop</b> & "co"`;
const SITE = `${FIXTURES}/mon/${runId()}/`;
const image = (name: string) =>
  `${BASE}/v1/images/monitors/acc/mon/${name}.png?expires=1999999999&sig=${"0".repeat(64)}`;

const get = (path: string, cookie: string) =>
  call(`/dashboard${path}`, { headers: { cookie }, redirect: "manual" });
const text = async (path: string, cookie: string) => {
  const res = await get(path, cookie);
  expect(res.status, path).toBe(200);
  return res.text();
};

/** A signed-in dashboard user, their account's id and API key (shown once on the keys page). */
async function signedIn() {
  const session = await dashboardSession();
  const keys = await text("/keys", session.cookie);
  const apiKey = /data-testid="new-api-key">(svc_[0-9A-Za-z]{43})</.exec(keys)?.[1] ?? "";
  const me = await envelope<{ accountId: string }>(
    await call("/v1/credential-check", { headers: bearer(apiKey) }),
  );
  return { cookie: session.cookie, apiKey, accountId: me.data?.accountId ?? "" };
}

/** A monitor created paused (the Free plan: 10 pages a check at most), so no check starts. */
async function pausedMonitor(apiKey: string, body: Record<string, unknown> = {}) {
  const res = await postJson(
    "/v1/monitors",
    { url: SITE, limit: 5, paused: true, ...body },
    bearer(apiKey),
  );
  const view = (await envelope<MonitorView>(res)).data as MonitorView;
  expect(res.status).toBe(201);
  return view;
}

const CHANGED: CheckPage = {
  url: "https://shop.example/<script>alert(1)</script>",
  status: "changed",
  visual: {
    changedPixels: 20_000,
    changedPercent: 6.51,
    regions: [{ x: 100, y: 200, width: 200, height: 100 }],
    beforeUrl: image("before"),
    afterUrl: image("after"),
    diffUrl: image("diff"),
  },
  text: {
    added: 2,
    removed: 1,
    parts: [
      { op: "removed", text: `10 & "dollars"` },
      { op: "added", text: "<img src=x onerror=alert(1)>" },
    ],
    truncated: true,
  },
  fields: [{ name: "<price>", before: "10", after: "<b>12</b>" }],
  masked: { regions: [{ x: 0, y: 0, width: 10, height: 10 }], lines: 2 },
};

/**
 * A check of the monitor with a changed, a new, a failed and a removed page; `completed`: its
 * crawl then reports it done (3 pages rendered, 3 credits), as a check's Crawl DO does.
 */
async function seededCheck(
  accountId: string,
  monitorId: string,
  { completed = false } = {},
): Promise<string> {
  const account = accountStub(env, accountId);
  const monitors = account.monitors();
  const checkId = crypto.randomUUID();
  expect((await monitors.beginCheck(monitorId, checkId, "manual")).ok).toBe(true);
  // A page gone (404) comes as the renderer sends it: failed, and removed.
  const report = (body: CheckPage, removed = false) =>
    monitors.pageChecked(
      checkId,
      { url: body.url, status: body.status === "removed" ? "failed" : body.status, body },
      removed,
    );
  await report(CHANGED);
  await report({ url: `${SITE}new`, status: "new", screenshotUrl: image("new") });
  await report({ url: `${SITE}broken`, status: "failed", reason: "http_error", statusCode: 500 });
  await report({ url: `${SITE}gone`, status: "removed" }, true);
  if (completed) {
    const crawl = { crawlId: checkId, url: SITE, limit: 5 };
    await account.crawls().admit({ ...crawl, monitorId, webhookUrl: null, webhookEvents: [] });
    const now = new Date().toISOString();
    await account.crawls().progress({
      summary: {
        ...crawl,
        status: "completed",
        stoppedBy: "limit",
        counts: { rendered: 3, skipped: 0, failed: 1, queued: 0, cached: 0, notModified: 0 },
        creditsUsed: 3,
        createdAt: now,
        completedAt: now,
      },
    });
  }
  return checkId;
}

describe("dashboard monitors", () => {
  it("lists the account's monitors, escaped, each linking to its page", async () => {
    const user = await signedIn();
    expect(await text("/monitors", user.cookie)).toContain("No monitors yet");
    const m = await pausedMonitor(user.apiKey, { name: HOSTILE });
    const checkId = await seededCheck(user.accountId, m.monitorId);

    const list = await text("/monitors", user.cookie);
    expect(list).toContain('<a href="/dashboard/monitors" aria-current="page"');
    const row = list.slice(list.indexOf(`data-monitor-id="${m.monitorId}"`)).split("</tr>")[0];
    expect(row).toContain(
      `<a href="/dashboard/monitors/${m.monitorId}">&lt;b&gt;Shop&lt;/b&gt; &amp; &quot;co&quot;</a>`,
    );
    expect(list).not.toContain("<b>Shop");
    expect(row).toContain(`<small>${m.url}</small>`);
    expect(row).toContain('<span class="status paused">paused</span>');
    expect(row).toContain("every 1 d");
    expect(row).toContain(`href="/dashboard/monitors/${m.monitorId}/checks/${checkId}"`);
    expect(row).toContain("1 changed, 1 new, 1 removed, 1 failed");
    expect(row).toContain("<td>—</td>"); // paused: no next check
  });

  it("a monitor's page: settings, feed URL and the timeline of its checks, newest first", async () => {
    const user = await signedIn();
    const m = await pausedMonitor(user.apiKey, {
      name: HOSTILE,
      ignore: [".nav > a[href*='<x>']"],
      width: 640,
      height: 480,
    });
    const older = await seededCheck(user.accountId, m.monitorId, { completed: true });
    const newer = await seededCheck(user.accountId, m.monitorId, { completed: true });

    const page = await text(`/monitors/${m.monitorId}`, user.cookie);
    expect(page).toContain("<h1>&lt;b&gt;Shop&lt;/b&gt; &amp; &quot;co&quot;</h1>");
    expect(page).toContain(
      `<code id="feed-url" data-testid="feed-url">${m.feedUrl.replaceAll("&", "&amp;")}</code>`,
    );
    expect(page).toContain("<code>.nav &gt; a[href*=&#39;&lt;x&gt;&#39;]</code>");
    expect(page).toContain("640 × 480 px");
    const table = page.slice(page.indexOf('data-testid="checks"'));
    const row = (id: string) =>
      table.slice(table.indexOf(`data-check-id="${id}"`)).split("</tr>")[0] ?? "";
    expect(table.indexOf(newer)).toBeLessThan(table.indexOf(older)); // newest first
    for (const id of [newer, older]) {
      expect(row(id)).toContain(`href="/dashboard/monitors/${m.monitorId}/checks/${id}"`);
      expect(row(id)).toContain('<span class="status completed">completed</span>');
      expect(row(id)).toContain("stopped by limit");
      // New, removed, changed, failed; credits.
      expect([...row(id).matchAll(/<td>(\d+)<\/td>/g)].map((r) => r[1])).toEqual([
        "1",
        "1",
        "1",
        "1",
        "3",
      ]);
    }
    expect(row(older)).toContain("manual<br /><small>baseline</small>");
    expect(row(newer)).not.toContain("baseline");
  });

  it("a check's pages: the viewer, regions, text diff and fields of a changed page, escaped", async () => {
    const user = await signedIn();
    const m = await pausedMonitor(user.apiKey);
    const checkId = await seededCheck(user.accountId, m.monitorId);
    const path = `/monitors/${m.monitorId}/checks/${checkId}`;
    const res = await get(path, user.cookie);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("img-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const page = await res.text();
    expect(page).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(page).not.toContain("<img src=x");
    expect(page).not.toContain("<b>12");

    const changed =
      page.slice(page.indexOf('data-page-status="changed"')).split("</article>")[0] ?? "";
    expect(changed).toContain(
      'href="https://shop.example/&lt;script&gt;alert(1)&lt;/script&gt;" rel="noreferrer"',
    );
    // Our signed images as paths of the dashboard's own origin: `img-src 'self'` admits them.
    const imagePath = (name: string) => new URL(image(name)).pathname;
    for (const name of ["before", "after", "diff"])
      expect(changed).toContain(
        `src="${imagePath(name)}?expires=1999999999&amp;sig=${"0".repeat(64)}"`,
      );
    expect(changed).toMatch(/<img class="before" src="\/v1\/images\//);
    expect(changed).toMatch(/<img class="after" src="\/v1\/images\//);
    expect(changed).toMatch(/<input\s+type="range"\s+class="compare-slider"/);
    expect(changed).toContain("20,000 pixels changed (6.51%)");
    const regions = changed.slice(changed.indexOf('data-testid="regions"'));
    expect([...regions.matchAll(/<td>(\d+)<\/td>/g)].map((r) => r[1]).slice(0, 4)).toEqual([
      "100",
      "200",
      "200",
      "100",
    ]);
    expect(changed).toContain("Text: 2 words added, 1 removed");
    expect(changed).toContain("<li><del>10 &amp; &quot;dollars&quot;</del></li>");
    expect(changed).toContain("<li><ins>&lt;img src=x onerror=alert(1)&gt;</ins></li>");
    expect(changed).toContain("More changed than is listed here.");
    expect(changed).toContain("<td>&lt;price&gt;</td>");
    expect(changed).toContain("<td><code>&lt;b&gt;12&lt;/b&gt;</code></td>");
    expect(changed).toContain("Left out as noise: 1 region, 2 lines.");

    const failed = page.slice(page.indexOf('data-page-status="failed"')).split("</article>")[0];
    expect(failed).toContain("Failed: http_error (HTTP 500)");
    const added = page.slice(page.indexOf('data-page-status="new"')).split("</article>")[0];
    expect(added).toContain(`href="${imagePath("new")}?expires=`);
    expect(page).toContain('data-page-status="removed"');

    // The filter links: only the changed page.
    const only = await text(`${path}?status=changed`, user.cookie);
    expect(only.match(/data-page-status="/g)).toHaveLength(1);
    expect(only).toMatch(/aria-current="page"\s*>changed \(1\)<\/a/);
  });

  it("a check's pages come 20 at a time, with a link to the next ones", async () => {
    const user = await signedIn();
    const m = await pausedMonitor(user.apiKey);
    const monitors = accountStub(env, user.accountId).monitors();
    const checkId = crypto.randomUUID();
    await monitors.beginCheck(m.monitorId, checkId, "manual");
    for (let i = 1; i <= 21; i++) {
      const url = `${SITE}p${i}`;
      await monitors.pageChecked(
        checkId,
        { url, status: "new", body: { url, status: "new" } },
        false,
      );
    }
    const path = `/monitors/${m.monitorId}/checks/${checkId}`;
    const first = await text(path, user.cookie);
    expect(first.match(/data-page-status="new"/g)).toHaveLength(20);
    const next = /<a href="([^"]+)" data-testid="more">More pages<\/a>/.exec(first)?.[1] ?? "";
    expect(next).toMatch(new RegExp(`^/dashboard${path}\\?cursor=\\d+$`));
    const second = await text(next.slice("/dashboard".length), user.cookie);
    expect(second.match(/data-page-status="new"/g)).toHaveLength(1);
    expect(second).toContain(`${SITE}p21`);
    expect(second).not.toContain('data-testid="more"');
    const none = await text(`${path}?status=failed`, user.cookie);
    expect(none).toMatch(/data-testid="no-pages">\s*No failed\s+pages\./);
  });

  it("another account's monitor and check are a 404 page; so is a check the monitor lacks", async () => {
    const owner = await signedIn();
    const stranger = await signedIn();
    const m = await pausedMonitor(owner.apiKey, { name: "Owner's" });
    const checkId = await seededCheck(owner.accountId, m.monitorId);
    for (const path of [`/monitors/${m.monitorId}`, `/monitors/${m.monitorId}/checks/${checkId}`]) {
      const res = await get(path, stranger.cookie);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      const body = await res.text();
      expect(body).toContain("No monitor with this id on this account.");
      expect(body).not.toContain("Owner&#39;s");
    }
    expect(await text("/monitors", stranger.cookie)).not.toContain(m.monitorId);
    const missing = await get(
      `/monitors/${m.monitorId}/checks/${crypto.randomUUID()}`,
      owner.cookie,
    );
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("No check with this id on this monitor.");
    const signedOut = await call(`/dashboard/monitors/${m.monitorId}`, { redirect: "manual" });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("location")).toBe("/dashboard/login");
  });
});
