/**
 * /docs in a real Chromium with no network beyond the service: every request that leaves the
 * service's origin is blocked and recorded (there must be none), and every operation's title
 * from the OpenAPI document shows on the rendered page.
 */
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import openapi from "../../schemas/openapi.json";
import { sharedService, type Service } from "../helpers/e2e";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CHROMIUM = process.env.CHROME_PATH ?? "/usr/lib/chromium/chromium";

let service: Service;
let browser: Browser;
beforeAll(async () => {
  service = sharedService();
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
});
afterAll(async () => {
  await browser?.close();
});

describe("GET /docs in Chromium", () => {
  it("renders every operation's title using only the service's own origin", async () => {
    const page = await browser.newPage();
    const origin = new URL(service.base).origin;
    const outside: string[] = [];
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(msg.text());
    });
    await page.setRequestInterception(true);
    page.on("request", (req) => {
      const url = req.url();
      if (url.startsWith("data:") || url.startsWith("blob:") || url.startsWith(`${origin}/`)) {
        void req.continue();
      } else {
        outside.push(url);
        void req.abort("blockedbyclient");
      }
    });
    await page.setViewport({ width: 1400, height: 1000 });
    await page.goto(`${service.base}/docs`, { waitUntil: "networkidle0", timeout: 60_000 });

    const titles = Object.values(openapi.paths).flatMap((item) =>
      Object.values(item).map((op) => (op as { summary: string }).summary),
    );
    // Evaluated in the page, as a string: the root tsconfig has no DOM lib.
    const visible = async () => (await page.evaluate("document.body.innerText")) as string;
    const missing = async () => {
      const text = await visible();
      return titles.filter((t) => !text.includes(t));
    };
    const deadline = Date.now() + 60_000;
    while ((await missing()).length > 0 && Date.now() < deadline) await sleep(500);
    expect(await missing(), `${errors.join("\n")}\n${outside.join("\n")}`).toEqual([]);
    expect(outside, "requests outside the service").toEqual([]);
    expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });
});
