/**
 * A real browser for the dashboard's e2e tests: Chromium through puppeteer-core, one page at a
 * desktop size that records every script error, and full-page screenshots into
 * test-output/dashboard/ for review (not compared).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { ROOT } from "./e2e";

const SHOTS = join(ROOT, "test-output", "dashboard");
const CHROMIUM = process.env.CHROME_PATH ?? "/usr/lib/chromium/chromium";

/**
 * A page expression: how far the page, or any table in its `.table-wrap`, is wider than its box
 * (0 or less when nothing scrolls sideways).
 */
export const OVERFLOW = `(() => {
  const doc = document.documentElement;
  const wraps = [...document.querySelectorAll(".table-wrap")];
  return Math.max(doc.scrollWidth - doc.clientWidth, ...wraps.map((w) => w.scrollWidth - w.clientWidth));
})()`;

export interface DashboardBrowser {
  browser: Browser;
  page: Page;
  /** Script errors of every page loaded so far. */
  pageErrors: string[];
  /** Saves a full-page screenshot as test-output/dashboard/<name>.png. */
  shot(name: string): Promise<void>;
}

export async function openDashboardBrowser(): Promise<DashboardBrowser> {
  mkdirSync(SHOTS, { recursive: true });
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (err) => pageErrors.push(String(err)));
  await page.setViewport({ width: 1200, height: 900 });
  return {
    browser,
    page,
    pageErrors,
    shot: async (name) => {
      await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    },
  };
}
