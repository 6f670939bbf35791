/**
 * The dashboard in a real browser (Chromium through puppeteer-core) against `wrangler dev`,
 * driven as a person would: sign up, copy the key shown once, use it over HTTP, make a second
 * key, revoke the first, capture in the playground, run its page content actions, read the
 * chart, find a crawl on the usage page, send a test webhook and redeliver a job's, read the
 * request log, sign out. Screenshots of every page go to test-output/dashboard/ for review (not
 * compared).
 */
import type { Browser, HTTPResponse, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openDashboardBrowser,
  OVERFLOW,
  type DashboardBrowser,
} from "../helpers/dashboard-browser";
import { addKey, FIXTURE_ORIGIN, setPlan, sharedService, type Service } from "../helpers/e2e";
import { decodeImage, near } from "../helpers/images";

/** The DOM bits the page callbacks read (this project's TypeScript has no DOM library); only
 *  casts, since the callbacks run in the browser and can call nothing of this file. */
interface Dom {
  textContent: string | null;
  value: string;
  src: string;
  dataset: Record<string, string>;
  getAttribute(name: string): string | null;
  querySelector(selector: string): Dom | null;
}

const EMAIL = `person-${Date.now()}@example.com`;
const PASSWORD = "a long enough passphrase";

let service: Service;
let browser: Browser;
let page: Page;
/** Script errors on any page: the last test expects none. */
let pageErrors: string[];
let shot: DashboardBrowser["shot"];

beforeAll(async () => {
  service = sharedService();
  ({ browser, page, pageErrors, shot } = await openDashboardBrowser());
});
afterAll(async () => {
  await browser?.close();
});

const url = (path: string) => `${service.base}/dashboard${path}`;

/** Every dashboard page the browser loads must carry the CSP and its companions. */
function expectHeaders(res: HTTPResponse | null): void {
  const headers = res?.headers() ?? {};
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("unsafe-inline");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");
}

async function submit(selector = "form button[type=submit]"): Promise<HTTPResponse | null> {
  const [res] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return res;
}

async function fillCredentials(email: string, password: string): Promise<void> {
  await page.$eval("input[name=email]", (el) => ((el as unknown as Dom).value = ""));
  await page.type("input[name=email]", email);
  await page.type("input[name=password]", password);
}

const newKey = () =>
  page.$eval("[data-testid=new-api-key]", (el) => (el as unknown as Dom).textContent ?? "");

async function account(key: string): Promise<{ status: number; code?: string }> {
  const res = await fetch(`${service.base}/v1/account`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const body = (await res.json()) as { error?: { code: string } };
  return { status: res.status, code: body.error?.code };
}

describe("dashboard in a browser", () => {
  let firstKey = "";
  let secondKey = "";

  it("signs up: the first key is shown once, and works over HTTP at once", async () => {
    expectHeaders(await page.goto(url("/signup")));
    await shot("signup");
    await fillCredentials(EMAIL, PASSWORD);
    const res = await submit();
    expectHeaders(res);
    expect(page.url()).toBe(url("/keys"));
    firstKey = await newKey();
    expect(firstKey).toMatch(/^svc_[0-9A-Za-z]{43}$/);
    expect(await page.content()).toContain("you will not see this key again");
    await shot("keys-first");

    const cookies = await browser.cookies();
    const session = cookies.find((c) => c.name === "edgeshot_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/dashboard" });
    // http (wrangler dev): no Secure, so no __Secure-/__Host- prefix (docs/DASHBOARD.md).
    expect(session?.secure).toBe(false);
    expect(await page.evaluate("window.localStorage.length")).toBe(0);

    expectHeaders(await page.reload());
    expect(await page.$("[data-testid=new-api-key]")).toBeNull();
    expect(await page.content()).not.toContain(firstKey);
    expect(await page.content()).toContain(firstKey.slice(0, 8));

    expect(await account(firstKey)).toEqual({ status: 200, code: undefined });
  });

  it("creates a second key, revokes the first: the first gets 403 KEY_DISABLED", async () => {
    await page.type("input[name=name]", "second");
    await submit("form.inline button[type=submit]");
    secondKey = await newKey();
    expect(secondKey).not.toBe(firstKey);
    await shot("keys-second");

    const prefix = firstKey.slice(0, 8);
    const revokeLink = await page.$$eval(
      "table.keys tbody tr",
      (rows, p) =>
        (rows as unknown as Dom[])
          .find((r) => r.textContent?.includes(p))
          ?.querySelector("a")
          ?.getAttribute("href") ?? "",
      prefix,
    );
    expectHeaders(await page.goto(`${service.base}${revokeLink}`));
    await shot("revoke-confirm");
    await submit("button.danger");
    const status = await page.$$eval(
      "table.keys tbody tr",
      (rows, p) =>
        (rows as unknown as Dom[]).find((r) => r.textContent?.includes(p))?.querySelector(".status")
          ?.textContent,
      prefix,
    );
    expect(status).toBe("revoked");
    expect(await account(firstKey)).toEqual({ status: 403, code: "KEY_DISABLED" });
  });

  it("the playground captures: a decoded image of the right size and the response's metadata", async () => {
    expectHeaders(await page.goto(url("/playground")));
    await shot("playground");
    await page.type("#f-url", `${FIXTURE_ORIGIN}/boxes.html?run=dashboard`);
    await page.type("#f-width", "640");
    await page.type("#f-height", "400");
    await page.type("#f-deviceScaleFactor", "1");
    await page.select("#f-waitUntil", "load");
    await page.click("#f-extract"); // the same load reads the article (boxes.html has none)
    await page.click("button.snippet[data-lang=curl]");
    const snippet = await page.$eval(
      "#pg-snippet",
      (el) => (el as unknown as Dom).textContent ?? "",
    );
    expect(snippet).toContain("YOUR_API_KEY");
    expect(snippet).toContain('"width":640');
    await page.click("button.snippet[data-lang=js]");
    const js = await page.$eval("#pg-snippet", (el) => (el as unknown as Dom).textContent ?? "");
    expect(js).toContain('import { Edgeshot } from "@edgeshot/sdk";');
    expect(js).toContain('"width": 640');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/dashboard/api/capture"), { timeout: 90_000 }),
      page.click("#playground button[type=submit]"),
    ]);
    await page.waitForSelector("#pg-image, [data-error-code]", { timeout: 90_000 });
    const error = await page.$eval("#pg-output", (el) => (el as unknown as Dom).textContent ?? "");
    expect(error).not.toMatch(/^[A-Z_]+:/);
    // The browser decoded the image it shows at the asked size…
    await page.waitForFunction('document.getElementById("pg-image")?.complete');
    const shown = await page.$eval("#pg-image", (img) => {
      const i = img as unknown as { naturalWidth: number; naturalHeight: number };
      return [i.naturalWidth, i.naturalHeight];
    });
    expect(shown).toEqual([640, 400]);
    // …and the bytes it was given are a PNG of that size with the page's pixels.
    const json = (await answer.json()) as { data: { image: string } };
    const image = decodeImage(new Uint8Array(Buffer.from(json.data.image, "base64")));
    expect([image.width, image.height]).toEqual([640, 400]);
    // The fixture's red box (0–100 px); the Free plan's watermark may cross a sample or two.
    const samples: [number, number][] = [
      [10, 10],
      [50, 50],
      [90, 10],
      [10, 90],
      [90, 90],
    ];
    const red = samples.filter(([x, y]) => near(image.pixel(x, y), [255, 0, 0], 40));
    expect(red.length).toBeGreaterThanOrEqual(3);
    const meta = await page.$$eval("#pg-meta dd", (dds) =>
      Object.fromEntries(
        dds.map((d) => [(d as unknown as Dom).dataset.meta, (d as unknown as Dom).textContent]),
      ),
    );
    expect(meta.size).toMatch(/^640 × 400 px/);
    expect(meta["wait strategy"]).toBeTruthy();
    expect(meta["load time"]).toMatch(/^\d+ ms$/);
    expect(meta["credits left"]).toBe("99");
    // The extraction the answer carried is shown: here, why there is no article.
    expect(
      await page.$eval("#pg-extraction-error", (el) => (el as unknown as Dom).textContent),
    ).toBe("EXTRACTION_FAILED: No article-like content was found on the page.");
    await shot("playground-result");

    await page.click("#pg-link-button");
    await page.waitForSelector("#pg-link-tags[data-url], #pg-link-tags[data-error-code]");
    const tags = await page.$eval(
      "#pg-link-tags",
      (el) => (el as unknown as Dom).textContent ?? "",
    );
    expect(tags).toContain(`<img src="${service.base}/v1/render?`);
    expect(tags).toContain('<meta property="og:image" content="');
    // `extract` is still ticked: a render link leaves it out (and says so) rather than failing.
    expect(
      await page.$eval("#pg-link-left", (el) => (el as unknown as Dom).textContent ?? ""),
    ).toBe("Left out of the link (render links return an image only): extract.");
  });

  it("the usage page's chart has a bar for today", async () => {
    expectHeaders(await page.goto(url("/usage")));
    const today = new Date().toISOString().slice(0, 10);
    const bar = await page.$eval(`svg.chart rect[data-day="${today}"]`, (r) => ({
      credits: Number(r.getAttribute("data-credits")),
      height: Number(r.getAttribute("height")),
    }));
    expect(bar.credits).toBeGreaterThanOrEqual(1);
    expect(bar.height).toBeGreaterThan(0);
    expect(
      await page.$eval("[data-testid=credits-used]", (el) => (el as unknown as Dom).textContent),
    ).toBe("1");
    await shot("usage");
    await page.setViewport({ width: 390, height: 844 }); // a phone, for review
    await shot("usage-phone");
    const overflow = await page.evaluate(
      "document.documentElement.scrollWidth - document.documentElement.clientWidth",
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewport({ width: 1200, height: 900 });
    for (const path of ["/webhooks", "/plans"]) {
      expectHeaders(await page.goto(url(path)));
      await shot(path.slice(1));
    }
    expect(
      await page.$eval("[data-testid=current-plan]", (el) => (el as unknown as Dom).textContent),
    ).toBe("your plan");
  });

  it("the playground runs each page content action and shows its result as text", async () => {
    // Five runs in a row: past the Free plan's 3 requests a minute, so the account moves to Pro.
    const me = await fetch(`${service.base}/v1/credential-check`, {
      headers: { authorization: `Bearer ${secondKey}` },
    });
    const { data } = (await me.json()) as { data: { accountId: string } };
    await setPlan(service.base, data.accountId, "pro");
    await page.goto(url("/playground"));
    await page.type("#f-url", `${FIXTURE_ORIGIN}/quick-actions-markup.html?run=dashboard`);
    await page.type("#f-width", "400");
    await page.type("#f-height", "300");
    await page.select("#f-waitUntil", "load");
    /** Runs `action`; the text of `shown`, which must appear, and what the output holds. */
    const runAction = async (action: string, shown: string) => {
      await page.select("#pg-action", action);
      await Promise.all([
        page.waitForResponse((r) => r.url().includes("/dashboard/api/page/"), { timeout: 90_000 }),
        page.click("#playground button[type=submit]"),
      ]);
      await page.waitForSelector(`${shown}, #pg-output [data-error-code]`, { timeout: 90_000 });
      const text = await page.$eval("#pg-output", (el) => (el as unknown as Dom).textContent ?? "");
      expect(text).not.toMatch(/^[A-Z_]+:/);
      return page.$eval(shown, (el) => (el as unknown as Dom).textContent ?? "");
    };
    // Image and PDF fields are hidden for content actions (the route would refuse them).
    await page.select("#pg-action", "links");
    expect(await page.$eval("#f-format", (el) => (el as unknown as Dom).value)).toBe("png");
    expect(await page.$("#f-format:not([hidden] *)")).toBeNull();
    const snippet = await page.$eval(
      "#pg-snippet",
      (el) => (el as unknown as Dom).textContent ?? "",
    );
    expect(snippet).toContain("/v1/links");

    expect(await runAction("links", "#pg-links")).toContain("<img src=x id=link-injected>");
    expect(await runAction("text", "#pg-text")).toBe(
      "<img src=x id=h1-injected>\n<img src=x id=link-injected>",
    );
    expect(await runAction("scrape", "#pg-scrape")).toContain("<img src=x id=h1-injected>");
    expect(await runAction("content", "#pg-html")).toContain("&lt;img src=x id=h1-injected&gt;");
    expect(await runAction("snapshot", "#pg-html")).toContain("<h1>");
    await page.waitForFunction('document.getElementById("pg-image")?.complete');
    const meta = await page.$$eval("#pg-meta dd", (dds) =>
      Object.fromEntries(
        dds.map((d) => [(d as unknown as Dom).dataset.meta, (d as unknown as Dom).textContent]),
      ),
    );
    expect(meta.title).toBe("<b id=title-injected>Markup</b>");
    // Nothing the page said became markup of ours.
    for (const id of ["title-injected", "h1-injected", "link-injected"])
      expect(await page.$(`#${id}`)).toBeNull();
    await shot("playground-actions");
  });

  it("webhooks: a test send shows the receiver's answer; a job's delivery is listed and redelivered", async () => {
    const run = `dash-hook-${Date.now()}`;
    const hook = `${FIXTURE_ORIGIN}/webhook?run=${run}`;
    const received = async () => {
      const res = await fetch(`${FIXTURE_ORIGIN}/__log?run=${run}`);
      const log = (await res.json()) as Array<{ path: string; headers: Record<string, string> }>;
      return log.filter((r) => r.path === "/webhook");
    };
    const until = async (count: number) => {
      const deadline = Date.now() + 90_000;
      while ((await received()).length < count && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 300));
      return received();
    };
    const noticeText = () =>
      page.$eval("[data-testid=webhook-notice]", (el) => (el as unknown as Dom).textContent ?? "");

    expectHeaders(await page.goto(url("/webhooks")));
    await page.type("input[name=url]", hook);
    expectHeaders(await submit("button.send-test"));
    expect(await noticeText()).toContain("Delivered: the receiver answered HTTP 200.");
    expect((await received()).map((r) => r.headers["x-service-event"])).toEqual(["test.ping"]);

    // A real delivery: an async job with this webhook (the key from above; Pro by now).
    const accepted = await fetch(`${service.base}/v1/screenshot/json`, {
      method: "POST",
      headers: { authorization: `Bearer ${secondKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        url: `${FIXTURE_ORIGIN}/boxes.html?run=${run}`,
        width: 400,
        height: 300,
        waitUntil: "load",
        async: true,
        webhookUrl: hook,
      }),
    });
    expect(accepted.status).toBe(202);
    const [, first] = await until(2);
    const deliveryId = first?.headers["x-service-delivery-id"] ?? "";
    expect(first?.headers["x-service-event"]).toBe("job.completed");

    const row = `tr[data-delivery-id="${deliveryId}"]`;
    const stateOf = () =>
      page.$eval(
        `${row} [data-testid=delivery-state]`,
        (el) => (el as unknown as Dom).textContent ?? "",
      );
    // The attempt is recorded just after the receiver answered: reload until it shows.
    for (let i = 0; i < 20; i++) {
      await page.goto(url("/webhooks"));
      if ((await page.$(row)) && (await stateOf()) === "delivered") break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(await stateOf()).toBe("delivered");
    await shot("webhooks");

    expectHeaders(await submit(`${row} button.redeliver`));
    expect(await noticeText()).toContain(`Delivery ${deliveryId} queued again.`);
    const again = await until(3);
    expect(again[2]?.headers["x-service-delivery-id"]).toBe(deliveryId);
  });

  it("the requests page shows a request made a moment before, filterable by status", async () => {
    const res = await fetch(`${service.base}/v1/jobs/${crypto.randomUUID()}?token=zq7SecretTok`, {
      headers: { authorization: `Bearer ${secondKey}` },
    });
    expect(res.status).toBe(404);
    const row = `tr[data-request-id="${res.headers.get("x-request-id") ?? ""}"]`;
    // Written after the answer (waitUntil): reload until it shows.
    for (let i = 0; i < 20 && !(await page.$(row)); i++) {
      expectHeaders(await page.goto(url("/requests")));
      if (!(await page.$(row))) await new Promise((r) => setTimeout(r, 300));
    }
    const text = await page.$eval(row, (el) => (el as unknown as Dom).textContent ?? "");
    expect(text).toContain("GET /v1/jobs/:jobId");
    expect(text).toContain("404");
    expect(text).toContain("NOT_FOUND");
    expect(await page.content()).not.toContain("zq7SecretTok");
    // The playground's captures are logged too, made with no key: the key column says so.
    const rows = await page.$$eval("[data-testid=requests] tbody tr", (trs) =>
      (trs as unknown as { textContent: string; lastElementChild: Dom }[]).map((tr) => ({
        text: tr.textContent,
        key: tr.lastElementChild.textContent?.trim(),
      })),
    );
    expect(rows.find((r) => r.text.includes("/api/capture"))?.key).toBe("dashboard");
    // At 1280 px every column shows whole (no sideways scroll, no cell wider than its column)
    // and a timestamp and a request id take one line each.
    await page.setViewport({ width: 1280, height: 900 });
    expectHeaders(await page.goto(url("/requests")));
    const layout = await page.evaluate(`(() => {
      const wrap = document.querySelector(".table-wrap");
      const cells = [...wrap.querySelectorAll("tr > *")];
      const right = wrap.getBoundingClientRect().right;
      const lines = (el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].map((b) => Math.round(b.top))).size;
      };
      const first = wrap.querySelector("tbody tr").children;
      return {
        overflow: wrap.scrollWidth - wrap.clientWidth,
        clipped: cells.filter((c) => c.getBoundingClientRect().right > right + 0.5).length,
        crammed: cells.filter((c) => c.scrollWidth > c.clientWidth).length,
        timeLines: lines(first[0]),
        idLines: lines(first[6]),
      };
    })()`);
    expect(layout).toEqual({ overflow: 0, clipped: 0, crammed: 0, timeLines: 1, idLines: 1 });
    await shot("requests");
    await page.setViewport({ width: 1200, height: 900 });
    await Promise.all([
      page.waitForNavigation(),
      page.click("[data-testid=request-filters] a[href$='status=2xx']"),
    ]);
    expect(await page.$(row)).toBeNull();
    await Promise.all([
      page.waitForNavigation(),
      page.click("[data-testid=request-filters] a[href$='status=4xx']"),
    ]);
    expect(await page.$(row)).not.toBeNull();
  });

  it("a same-origin post without the CSRF token is refused; so is a cross-site one", async () => {
    const status = await page.evaluate(async () => {
      const res = await fetch("/dashboard/keys", {
        method: "POST",
        body: new URLSearchParams({ name: "sneaky" }),
      });
      return res.status;
    });
    expect(status).toBe(403);
    const crossSite = await fetch(url("/keys"), {
      method: "POST",
      headers: {
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
        cookie: (await browser.cookies()).map((c) => `${c.name}=${c.value}`).join("; "),
      },
      body: "name=sneaky",
      redirect: "manual",
    });
    expect(crossSite.status).toBe(403);
  });

  it("the usage page lists a crawl and a batch the account started, once they are done", async () => {
    const site = `http://127.0.0.1:${Number(process.env.FIXTURE_PORT ?? 4010) + 11}`;
    const auth = { authorization: `Bearer ${secondKey}`, "content-type": "application/json" };
    // A batch with one page that fails (404 with failOnStatus): its outcome is `partial`.
    const batch = await fetch(`${service.base}/v1/screenshot/batch`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        urls: [`${FIXTURE_ORIGIN}/boxes.html?run=dash-batch`, `${FIXTURE_ORIGIN}/no-such-page`],
        defaults: { width: 400, height: 300, waitUntil: "load", failOnStatus: [404] },
      }),
    });
    expect(batch.status).toBe(202);
    const batchId = ((await batch.json()) as { data: { batchId: string } }).data.batchId;
    // Stopped by its limit with the start page's links found: they will never be rendered.
    const started = await fetch(`${service.base}/v1/crawl`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ url: `${site}/`, limit: 1, maxDepth: 1, sitemap: "skip" }),
    });
    expect(started.status).toBe(202);
    const crawlId = ((await started.json()) as { data: { crawlId: string } }).data.crawlId;
    // GET /v1/crawls reads the same store as the page; polled within the plan's read limit.
    let status = "";
    for (let i = 0; i < 80 && !["completed", "failed"].includes(status); i++) {
      await new Promise((r) => setTimeout(r, 1_500));
      const res = await fetch(`${service.base}/v1/crawls`, { headers: auth });
      const list = (await res.json()) as { data: { items: { crawlId: string; status: string }[] } };
      status = list.data.items.find((c) => c.crawlId === crawlId)?.status ?? "";
    }
    expect(status).toBe("completed");
    expectHeaders(await page.goto(url("/usage")));
    const row = await page.$eval(
      `[data-testid=crawls] tr[data-crawl-id="${crawlId}"]`,
      (el) => (el as unknown as Dom).textContent ?? "",
    );
    expect(row).toContain(`${site}/`);
    expect(row).toContain("completed");
    expect(row).toContain("stopped by limit");
    expect(row).toMatch(/1 of 1 rendered, \d+ not reached/);
    expect(row).not.toContain("queued");

    let outcome: string | null = null;
    for (let i = 0; i < 60 && outcome === null; i++) {
      const res = await fetch(`${service.base}/v1/batches/${batchId}`, { headers: auth });
      outcome = ((await res.json()) as { data: { outcome: string | null } }).data.outcome;
      if (outcome === null) await new Promise((r) => setTimeout(r, 1_000));
    }
    expect(outcome).toBe("partial");
    expectHeaders(await page.goto(url("/usage")));
    const shown = await page.evaluate(`(() => {
      const row = [...document.querySelectorAll("tbody tr")]
        .find((tr) => tr.textContent.includes(${JSON.stringify(batchId)}));
      const status = row && row.querySelector(".status");
      return status ? { text: status.textContent, color: getComputedStyle(status).color } : null;
    })()`);
    // Amber, not the green of a batch whose every page succeeded.
    expect(shown).toEqual({ text: "partial", color: "rgb(181, 71, 8)" });
    await shot("usage-crawls");
  }, 150_000);

  it("at a phone's width no page nor table is wider than the screen; an unnamed key says so", async () => {
    const me = await fetch(`${service.base}/v1/credential-check`, {
      headers: { authorization: `Bearer ${secondKey}` },
    });
    const accountId = ((await me.json()) as { data: { accountId: string } }).data.accountId;
    const keyId = await addKey(service.base, accountId); // as `npm run admin` makes one: no name
    await page.setViewport({ width: 390, height: 844 });
    for (const path of ["/usage", "/keys", "/requests", "/webhooks", "/plans", "/mcp"]) {
      expectHeaders(await page.goto(url(path)));
      expect(await page.evaluate(OVERFLOW), path).toBeLessThanOrEqual(0);
      await shot(`phone-${path.slice(1)}`);
      if (path === "/keys") {
        const name = await page.$eval(
          `tr[data-key-id="${keyId}"] td`,
          (el) => (el as unknown as Dom).textContent ?? "",
        );
        expect(name.trim()).toBe("unnamed");
      }
      if (path === "/mcp") {
        // The MCP page is a page of the signed-in dashboard: its navigation, this page current.
        expect(
          await page.$eval(
            "nav.top a[aria-current=page]",
            (el) => (el as unknown as Dom).textContent,
          ),
        ).toBe("MCP");
      }
    }
    await page.setViewport({ width: 1200, height: 900 });
  });

  it("signs out: the dashboard then redirects to login", async () => {
    await page.goto(url("/usage"));
    await submit("nav form.logout button");
    expect(page.url()).toBe(url("/login"));
    for (const path of ["/usage", "/mcp"]) {
      await page.goto(url(path));
      expect(page.url(), path).toBe(url("/login"));
    }
    await shot("login");
  });

  it("refuses a duplicate email", async () => {
    await page.goto(url("/signup"));
    await fillCredentials(EMAIL.toUpperCase(), PASSWORD);
    const res = await submit();
    expect(res?.status()).toBe(409);
    expect(await page.content()).toContain("already exists");
  });

  it("refuses a wrong password, then rate limits (429)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      await page.goto(url("/login"));
      await fillCredentials(EMAIL, `wrong password ${i}`);
      statuses.push((await submit())?.status() ?? 0);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(await page.content()).toContain("Too many sign-in attempts");
    await shot("login-throttled");
  });

  it("no page threw a script error along the way", () => {
    expect(pageErrors).toEqual([]);
  });
});
