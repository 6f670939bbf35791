/** renderContent's markdown document in the real browser: theme and typography as pixels. */
import puppeteer from "@cloudflare/puppeteer";
import type { Browser, Page } from "@cloudflare/puppeteer";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderContent } from "../../src/capture-request/source-document";
import { decodeImage, near } from "../helpers/images";
import type { Decoded, Rgb } from "../helpers/images";

const MARKDOWN = `# Quarterly report for {{team}}

A paragraph of body text.

| Region | Sales |
|--------|------:|
| North  |    12 |
| South  |    34 |
| East   |    56 |

\`\`\`
const total = 12 + 34 + 56;
\`\`\`
`;

const THEMES = {
  light: { bg: [255, 255, 255], codeBg: [246, 248, 250], border: [209, 217, 224] },
  dark: { bg: [13, 17, 23], codeBg: [22, 27, 34], border: [61, 68, 77] },
} satisfies Record<string, Record<string, Rgb>>;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Rendered {
  page: Page;
  shot: Decoded;
  rect(selector: string): Promise<Rect>;
  style(selector: string, property: string): Promise<string>;
}

let browser: Browser;
beforeAll(async () => {
  browser = await puppeteer.launch(env.BROWSER);
});
afterAll(async () => {
  await browser.close();
});

async function render(darkMode: boolean): Promise<Rendered> {
  const page = await browser.newPage();
  await page.setViewport({ width: 800, height: 600, deviceScaleFactor: 1 });
  const document = renderContent({ markdown: MARKDOWN, data: { team: "Ops" }, darkMode });
  await page.setContent(document, { waitUntil: "load" });
  const shot = decodeImage((await page.screenshot({ type: "png" })) as Uint8Array);
  const query = (selector: string) => `document.querySelector(${JSON.stringify(selector)})`;
  const box = "(({ x, y, width, height }) => ({ x, y, width, height }))";
  return {
    page,
    shot,
    rect: async (selector) =>
      (await page.evaluate(`${box}(${query(selector)}.getBoundingClientRect())`)) as Rect,
    style: async (selector, property) =>
      (await page.evaluate(
        `getComputedStyle(${query(selector)}).getPropertyValue(${JSON.stringify(property)})`,
      )) as string,
  };
}

describe.each([
  ["light", false],
  ["dark", true],
] as const)("markdown document, %s theme", (name, darkMode) => {
  const theme = THEMES[name];
  let view: Rendered;
  beforeAll(async () => {
    view = await render(darkMode);
  });
  afterAll(async () => {
    await view.page.close();
  });

  it("paints the whole viewport in the theme background", () => {
    for (const [x, y] of [
      [2, 2],
      [797, 2],
      [2, 597],
      [797, 597],
    ] as const) {
      expect(view.shot.pixel(x, y), `pixel ${x},${y}`).toSatisfy((p: Rgb) => near(p, theme.bg, 2));
    }
  });

  it("fills the template and scales headings above body text", async () => {
    expect(await view.page.evaluate(`document.querySelector("h1").textContent`)).toBe(
      "Quarterly report for Ops",
    );
    const h1 = parseFloat(await view.style("h1", "font-size"));
    const p = parseFloat(await view.style("p", "font-size"));
    expect(p).toBe(16);
    expect(h1).toBeGreaterThan(p * 1.5);
  });

  it("keeps the text column to a comfortable measure, centred", async () => {
    const main = await view.rect("main");
    expect(main.width).toBeLessThanOrEqual(760);
    expect(main.x).toBeGreaterThan(0);
  });

  it("draws table borders and zebra rows", async () => {
    expect(await view.style("td", "border-top-style")).toBe("solid");
    const table = await view.rect("table");
    // A vertical line through the first column's left padding crosses only backgrounds and the
    // horizontal borders: top, header/body, between the three body rows, bottom.
    const x = Math.round(table.x + 4);
    let borders = 0;
    for (let y = Math.floor(table.y); y < table.y + table.height; y++) {
      if (near(view.shot.pixel(x, y), theme.border, 6)) borders++;
    }
    expect(borders).toBeGreaterThanOrEqual(5);
    const zebra = await view.rect("tbody tr:nth-child(2)");
    const inZebra = view.shot.pixel(x, Math.round(zebra.y + zebra.height / 2));
    expect(near(inZebra, theme.bg, 2)).toBe(false);
  });

  it("gives code blocks their own background and a monospace font", async () => {
    const pre = await view.rect("pre");
    const inside = view.shot.pixel(Math.round(pre.x + 4), Math.round(pre.y + 4));
    expect(near(inside, theme.codeBg, 3)).toBe(true);
    expect(near(inside, theme.bg, 4)).toBe(false);
    expect(await view.style("pre", "font-family")).toMatch(/monospace/);
    expect(await view.style("pre", "overflow-x")).toBe("auto");
  });
});
