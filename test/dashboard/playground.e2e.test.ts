/**
 * The playground in a real browser against `wrangler dev`, as a new user meets it: every capture
 * option of the contract is on the form with the OpenAPI document's description, the API's own
 * error message and details are shown (and the fields they name marked), the newer options
 * (actions, clip, timezone, PDF margins) reach the API, a PDF is labelled by its pages and
 * paper, not px, and a recording (POST /v1/animate) plays in a <video>. Screenshots go to
 * test-output/dashboard/ (not compared).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureFields } from "../../schemas/capture";
import { PLAYGROUND_REFUSED } from "../../schemas/dashboard";
import { openDashboardBrowser, type DashboardBrowser } from "../helpers/dashboard-browser";
import { ROOT, setPlan, sharedService, type Service } from "../helpers/e2e";

interface Hidden {
  hidden: boolean;
}

interface Dom {
  textContent: string | null;
  dataset: Record<string, string>;
}

const OPENAPI = JSON.parse(readFileSync(join(ROOT, "schemas/openapi.json"), "utf8")) as {
  components: {
    schemas: { CaptureRequest: { properties: Record<string, { description?: string }> } };
  };
};

let service: Service;
let browser: Browser;
let page: Page;
let pageErrors: string[];
let shot: DashboardBrowser["shot"];

beforeAll(async () => {
  service = sharedService();
  ({ browser, page, pageErrors, shot } = await openDashboardBrowser());
  // A new user, moved to Pro: several runs in a minute, and no watermark.
  await page.goto(`${service.base}/dashboard/signup`);
  await page.type("input[name=email]", `playground-${Date.now()}@example.com`);
  await page.type("input[name=password]", "a long enough passphrase");
  await Promise.all([page.waitForNavigation(), page.click("form button[type=submit]")]);
  const key = await page.$eval(
    "[data-testid=new-api-key]",
    (el) => (el as unknown as Dom).textContent ?? "",
  );
  const me = await fetch(`${service.base}/v1/credential-check`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await setPlan(
    service.base,
    ((await me.json()) as { data: { accountId: string } }).data.accountId,
    "pro",
  );
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

const text = (selector: string) =>
  page.$eval(selector, (el) => (el as unknown as Dom).textContent?.trim() ?? "");

/**
 * The curl snippet shown, the button clicked in the page rather than at its coordinates: after
 * the PDF run, a pointer click on it missed on 2026-11-29 (every run, the last landed commit's
 * too: the snippet stayed the one made when the action changed). What is checked is the
 * snippet, not where the button sits.
 */
const showCurl = () =>
  page.$eval("button.snippet[data-lang=curl]", (el) =>
    (el as unknown as { click(): void }).click(),
  );

/** Submits the form and waits for this run's result (the last one's is cleared first). */
async function run(): Promise<void> {
  await page.$eval("#pg-output", (el) => ((el as unknown as Dom).textContent = ""));
  await page.$eval("#pg-status", (el) => ((el as unknown as Dom).textContent = ""));
  await page.click("#playground button[type=submit]");
  await page.waitForFunction(
    'document.getElementById("pg-status").textContent === "Done" || document.querySelector("#pg-output [data-error-code]")',
    { timeout: 120_000 },
  );
}

async function meta(): Promise<Record<string, string>> {
  return page.$$eval("#pg-meta dd", (dds) =>
    Object.fromEntries(
      dds.map((d) => [
        (d as unknown as Dom).dataset.meta ?? "",
        (d as unknown as Dom).textContent ?? "",
      ]),
    ),
  );
}

describe("the playground", () => {
  it("offers every capture option of the contract, described as the OpenAPI document does", async () => {
    await page.goto(`${service.base}/dashboard/playground`);
    const css = await fetch(`${service.base}/dashboard/assets/playground.css`);
    expect(css.status).toBe(200);
    expect(await css.text()).toContain(".field-error");
    await shot("playground-all-options");
    const refused: readonly string[] = PLAYGROUND_REFUSED;
    for (const name of Object.keys(captureFields)) {
      const field = await page.$(`[data-field="${name}"]`);
      if (refused.includes(name)) {
        expect(field, name).toBeNull();
        continue;
      }
      expect(field, name).not.toBeNull();
      expect(await page.$(`[data-field="${name}"] [data-kind]`), name).not.toBeNull();
      const described = OPENAPI.components.schemas.CaptureRequest.properties[name]?.description;
      expect(described, name).toBeTruthy();
      expect(await text(`[data-field="${name}"] small.desc`), name).toBe(described);
    }
  });

  it("shows the API's own message and details, and marks the fields they name", async () => {
    await page.type("#f-url", "https://example.com/");
    await page.type("#f-width", "5");
    await run();
    expect(await text("#pg-output [data-error-code]")).toBe(
      "VALIDATION_ERROR: Invalid request: width: Must be at least 320.",
    );
    expect(await text('#pg-error-details li[data-path="width"]')).toBe(
      "width: Must be at least 320.",
    );
    expect(await page.$("#f-width[aria-invalid=true]")).not.toBeNull();
    expect(await text('[data-field="width"] .field-error')).toBe("Must be at least 320.");
    await shot("playground-error");

    // Nested paths land on their field too; JSON that does not parse is caught before sending.
    await page.$eval("#f-width", (el) => ((el as unknown as { value: string }).value = ""));
    await page.type('[name="clip.x"]', "0");
    await run();
    expect(await text('#pg-error-details li[data-path="clip.y"]')).toBe(
      "clip.y: Required (number).",
    );
    expect(await text('[data-field="clip"] .field-error')).toContain("clip.y: Required (number).");
    expect(await page.$("#f-width[aria-invalid]")).toBeNull();
    await page.$eval('[name="clip.x"]', (el) => ((el as unknown as { value: string }).value = ""));
    await page.type("#f-actions", "[{click: nope}]");
    await run();
    expect(await text('#pg-error-details li[data-path="actions"]')).toBe(
      "actions: Not valid JSON.",
    );
  }, 240_000);

  it("actions, clip and timezone reach the API; the extracted article is shown", async () => {
    await page.goto(`${service.base}/dashboard/playground`);
    const prose = "Gentle sentences about rendering pages at the edge, long enough to read. ";
    const article =
      '<article><h2>Playground article</h2><p class="byline">By Ada Flight</p>' +
      `<p>${prose.repeat(4)}</p><p>${prose.repeat(4)}</p></article>`;
    const markup =
      '<body style="margin:0"><p id="tz"></p><p id="state">waiting</p><button id="go">go</button>' +
      article +
      "<script>document.getElementById('tz').textContent = Intl.DateTimeFormat().resolvedOptions().timeZone;" +
      "document.getElementById('go').onclick = () => { document.getElementById('state').textContent = 'clicked'; };</script></body>";
    await page.type("#f-html", markup);
    await page.type("#f-timezone", "Asia/Tokyo");
    await page.type("#f-actions", '[{"click": "#go"}]');
    await page.type('[name="clip.x"]', "0");
    await page.type('[name="clip.y"]', "0");
    await page.type('[name="clip.width"]', "400");
    await page.type('[name="clip.height"]', "300");
    await page.type("#f-deviceScaleFactor", "1");
    await page.click("#f-extract");
    await showCurl();
    const snippet = await text("#pg-snippet");
    expect(snippet).toContain('"clip":{"x":0,"y":0,"width":400,"height":300}');
    expect(snippet).toContain('"actions":[{"click":"#go"}]');
    expect(snippet).toContain('"timezone":"Asia/Tokyo"');
    await run();
    const shown = await meta();
    expect(shown.size).toMatch(/^400 × 300 px/);
    // `data.extracted` of the same answer: the article as Markdown, its byline, its length.
    const extracted = await text("#pg-extracted");
    expect(extracted).toContain("## Playground article");
    expect(extracted).toContain(prose.trim());
    expect(shown.byline).toBe("Ada Flight");
    expect(shown["article length"]).toMatch(/^[\d,]+ characters, markdown$/);
    await shot("playground-extracted");

    await page.select("#pg-action", "text"); // the same options, the page's visible text back
    await run();
    const visible = await text("#pg-text");
    expect(visible).toContain("Asia/Tokyo");
    expect(visible).toContain("clicked");
  }, 300_000);

  it("labels a PDF by its pages and paper, not px; PDF margins reach the API; a recording plays", async () => {
    await page.goto(`${service.base}/dashboard/playground`);
    const brk = '<div style="break-after: page"></div>';
    await page.type("#f-html", `<h1>One</h1>${brk}<h1>Two</h1>`);
    await page.select("#f-format", "pdf");
    await page.select("#f-pdfFormat", "Letter");
    await page.click("#f-pdfLandscape");
    await page.type('[name="pdfMargin.top"]', "1in");
    await showCurl();
    expect(await text("#pg-snippet")).toContain('"pdfMargin":{"top":"1in"}');
    await run();
    const size = (await meta()).size ?? "";
    expect(size).toMatch(/^2 pages, Letter landscape, [\d,]+ bytes$/);
    expect(size).not.toContain("px");
    await shot("playground-pdf");

    // The same page and html as a recording: the clip previewed in a <video> that loads it.
    await page.select("#pg-action", "animate");
    expect(await page.$eval("#pg-animation", (el) => (el as unknown as Hidden).hidden)).toBe(false);
    expect(
      await page.$eval('[data-field="pdfFormat"]', (el) => (el as unknown as Hidden).hidden),
    ).toBe(true);
    for (const [field, value] of [
      ["#f-width", "320"],
      ["#f-height", "240"],
      ["#f-deviceScaleFactor", "1"],
      ["#f-animate-duration", "1"],
      ["#f-animate-fps", "5"],
    ] as const) {
      await page.$eval(field, (el, v) => ((el as unknown as { value: string }).value = v), value);
    }
    await showCurl();
    const curl = await text("#pg-snippet");
    expect(curl).toContain("/v1/animate");
    expect(curl).toContain('"duration":1');
    expect(curl).not.toContain("pdf");
    await run();
    const clip = await page.waitForFunction(
      `(() => { const v = document.querySelector("#pg-clip"); return v instanceof HTMLVideoElement && v.readyState >= 1 && { width: v.videoWidth, height: v.videoHeight, src: v.src }; })()`,
      { timeout: 30_000 },
    );
    expect(await clip.jsonValue()).toMatchObject({
      width: 320,
      height: 240,
      src: expect.stringMatching(/^blob:/),
    });
    const recorded = await meta();
    expect(recorded.size).toMatch(/^320 × 240 px, [\d,]+ bytes$/);
    expect(recorded.clip).toBe("5 frames over 1.0 s");
    expect(recorded.format).toBe("webm (video/webm)");
    await shot("playground-animate");
    expect(pageErrors).toEqual([]);
  }, 300_000);
});
