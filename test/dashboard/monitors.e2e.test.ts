/**
 * A site monitor in the dashboard, in a real browser (Chromium through puppeteer-core) against
 * `wrangler dev`: a person signs up, and a monitor of one page of the monitor fixture site
 * (test/fixtures/monitor-site.ts) is made with their key. Its first check runs by itself; the
 * page's box turns from blue to red; a check now reports it changed. Then the person follows
 * Monitors → the monitor → its second check, and moves the viewer's slider: what lies left of the
 * divider is the before image (blue), right of it the after image (red), read from the browser's
 * own pixels. Screenshots go to test-output/dashboard/ for review (not compared).
 */
import type { Browser, ElementHandle, HTTPResponse, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckView, MonitorView } from "../../schemas/monitors";
import { MONITOR_BOX } from "../fixtures/monitor-site";
import {
  openDashboardBrowser,
  OVERFLOW,
  type DashboardBrowser,
} from "../helpers/dashboard-browser";
import { FIXTURE_ORIGIN, setPlan, sharedService, type Service } from "../helpers/e2e";
import { decodeImage, near, type Rgb } from "../helpers/images";

/** The DOM bits the page callbacks read (this project's TypeScript has no DOM library). */
interface Dom {
  textContent: string | null;
  value: string;
}

const run = `dash-mon-${Date.now()}`;
const PAGE_URL = `${FIXTURE_ORIGIN}/mon/${run}/visual`;
const BLUE: Rgb = [0x20, 0x50, 0xc0];
const RED: Rgb = [0xc0, 0x20, 0x20];

let service: Service;
let browser: Browser;
let page: Page;
let pageErrors: string[];
let shot: DashboardBrowser["shot"];
let auth: Record<string, string>;

const url = (path: string) => `${service.base}/dashboard${path}`;

async function api<T>(path: string, init: RequestInit = {}): Promise<{ status: number; data: T }> {
  const res = await fetch(`${service.base}${path}`, {
    ...init,
    headers: { ...auth, "content-type": "application/json" },
  });
  const body = (await res.json()) as { data: T; error?: unknown };
  return { status: res.status, data: body.data };
}

async function setVersion(version: number): Promise<void> {
  const res = await fetch(`${FIXTURE_ORIGIN}/__monitor`, {
    method: "POST",
    body: JSON.stringify({ run, version }),
  });
  expect(res.status).toBe(200);
}

const FINAL = new Set(["completed", "cancelled", "failed"]);

/** The monitor's newest check once it is over (the first one starts on its own). */
async function settled(monitorId: string, after: string | null): Promise<CheckView> {
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    const { data } = await api<MonitorView>(`/v1/monitors/${monitorId}`);
    const last = data.lastCheck;
    if (last && last.checkId !== after && FINAL.has(last.status)) return last;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error(`monitor ${monitorId}: no check finished in time`);
}

function expectHeaders(res: HTTPResponse | null): void {
  const csp = res?.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("img-src 'self'");
  expect(csp).not.toContain("unsafe-inline");
}

async function follow(selector: string): Promise<HTTPResponse | null> {
  const [res] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return res;
}

beforeAll(async () => {
  service = sharedService();
  ({ browser, page, pageErrors, shot } = await openDashboardBrowser());
  await page.goto(url("/signup"));
  await page.type("input[name=email]", `monitors-${Date.now()}@example.com`);
  await page.type("input[name=password]", "a long enough passphrase");
  await follow("form button[type=submit]");
  const key = await page.$eval(
    "[data-testid=new-api-key]",
    (el) => (el as unknown as Dom).textContent ?? "",
  );
  auth = { authorization: `Bearer ${key}` };
  const me = await api<{ accountId: string }>("/v1/credential-check");
  // Pro: the Free plan's tiled watermark would cross the pixels read below.
  await setPlan(service.base, me.data.accountId, "pro");
  await setVersion(1);
});
afterAll(async () => {
  await browser?.close();
});

describe("monitors in the dashboard", () => {
  let monitorId = "";
  let first: CheckView;
  let second: CheckView;

  it("a monitor made through the API checks the page, then reports its box changed", async () => {
    const created = await api<MonitorView>("/v1/monitors", {
      method: "POST",
      body: JSON.stringify({
        url: PAGE_URL,
        name: "Visual box",
        maxDepth: 0,
        scope: "path",
        sitemap: "skip",
        width: 640,
        height: 480,
        ignore: [".nav"],
        // The box's style attribute: one long word that changes with its colour (a fields diff).
        fields: [{ name: "box style", selector: "h1 + div", attribute: "style" }],
      }),
    });
    expect(created.status).toBe(201);
    monitorId = created.data.monitorId;
    first = await settled(monitorId, null);
    expect(first).toMatchObject({ status: "completed", counts: { new: 1 } });

    await setVersion(2);
    const now = await api<CheckView>(`/v1/monitors/${monitorId}/checks`, { method: "POST" });
    expect(now.status).toBe(202);
    second = await settled(monitorId, first.checkId);
    expect(second.checkId).toBe(now.data.checkId);
    expect(second).toMatchObject({ status: "completed", counts: { changed: 1 } });
  }, 330_000);

  it("Monitors → the monitor → its timeline of two checks, newest first", async () => {
    expectHeaders(await page.goto(url("/monitors")));
    const row = `[data-testid=monitors] tr[data-monitor-id="${monitorId}"]`;
    const text = await page.$eval(row, (el) => (el as unknown as Dom).textContent ?? "");
    expect(text).toContain("Visual box");
    expect(text).toContain("1 changed");
    await shot("monitors");

    expectHeaders(await follow(`${row} a[href$="/${monitorId}"]`));
    expect(page.url()).toBe(url(`/monitors/${monitorId}`));
    const checks = await page.$$eval("[data-testid=checks] tbody tr", (rows) =>
      rows.map((r) => r.getAttribute("data-check-id")),
    );
    expect(checks).toEqual([second.checkId, first.checkId]);
    const feed = await page.$eval(
      "[data-testid=feed-url]",
      (el) => (el as unknown as Dom).textContent ?? "",
    );
    expect(feed).toMatch(
      new RegExp(`/v1/monitors/${monitorId}/feed\\?account=.+&sig=[0-9a-f]{64}$`),
    );
    await shot("monitor");
  });

  it("the second check's viewer: the slider moves the divider between before and after", async () => {
    expectHeaders(await follow(`tr[data-check-id="${second.checkId}"] a`));
    expect(page.url()).toBe(url(`/monitors/${monitorId}/checks/${second.checkId}`));
    const regions = await page.$$eval("[data-testid=regions] tbody td", (cells) =>
      cells.map((c) => Number((c as unknown as Dom).textContent)),
    );
    const b = MONITOR_BOX;
    expect(regions).toEqual([b.x, b.y, b.width, b.height]);

    const frame = (await page.$("figure.compare .compare-frame")) as ElementHandle;
    await frame.scrollIntoView();
    await page.waitForFunction(
      '[...document.querySelectorAll("figure.compare img")].every((i) => i.complete && i.naturalWidth === 640)',
    );
    const clip = () =>
      page.evaluate(
        'getComputedStyle(document.querySelector("img.after")).clipPath',
      ) as Promise<string>;
    /** The browser's own pixels of the viewer, left and right of x = 200 (image px) in the box. */
    const sides = async () => {
      const png = decodeImage(new Uint8Array(await frame.screenshot()));
      const y = b.y + b.height / 2;
      return [png.pixel(b.x + 50, y), png.pixel(b.x + 150, y)];
    };
    const isColour = (got: Rgb | undefined, want: Rgb) => near(got ?? [0, 0, 0], want, 24);

    expect(await clip()).toBe("inset(0px 0px 0px 50%)");
    // The divider halfway (x = 320): the whole box is left of it, the before image, blue.
    let [left, right] = await sides();
    expect(isColour(left, BLUE) && isColour(right, BLUE), `${left} ${right}`).toBe(true);

    // Slid left with the keyboard to 31 % (x ≈ 199): before (blue) on its left, after on its right.
    await page.focus("input.compare-slider");
    for (let i = 0; i < 19; i++) await page.keyboard.press("ArrowLeft");
    expect(await page.$eval("input.compare-slider", (el) => (el as unknown as Dom).value)).toBe(
      "31",
    );
    expect(await clip()).toBe("inset(0px 0px 0px 31%)");
    [left, right] = await sides();
    expect(isColour(left, BLUE), `left ${left}`).toBe(true);
    expect(isColour(right, RED), `right ${right}`).toBe(true);
    await shot("monitor-check");

    // All the way left: only the after image shows.
    await page.keyboard.press("Home");
    expect(await clip()).toBe("inset(0px 0px 0px 0%)");
    [left, right] = await sides();
    expect(isColour(left, RED) && isColour(right, RED), `${left} ${right}`).toBe(true);

    // The field's before and after, as the check saw them.
    const fields = await page.$$eval(".fields-diff tbody td", (cells) =>
      cells.map((c) => (c as unknown as Dom).textContent?.trim()),
    );
    expect(fields[0]).toBe("box style");
    expect(fields[1]).toContain("background:#2050c0");
    expect(fields[2]).toContain("background:#c02020");
  });

  it("at a phone's width no monitor page nor table is wider than the screen", async () => {
    await page.setViewport({ width: 390, height: 844 });
    const check = `/monitors/${monitorId}/checks/${second.checkId}`;
    for (const path of ["/monitors", `/monitors/${monitorId}`, check]) {
      expectHeaders(await page.goto(url(path)));
      expect(await page.evaluate(OVERFLOW), path).toBeLessThanOrEqual(0);
    }
    await shot("phone-monitor-check");
    await page.setViewport({ width: 1200, height: 900 });
    // At a desktop's width too, the field's long value wraps in its cell.
    await page.goto(url(check));
    expect(await page.evaluate(OVERFLOW)).toBeLessThanOrEqual(0);
  });

  it("no page threw a script error along the way", () => {
    expect(pageErrors).toEqual([]);
  });
});
