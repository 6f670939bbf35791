// One crawl by a peer crawler, in a process of its own so the bench can read its CPU (and its
// Chromium's) from /proc: Crawlee's PuppeteerCrawler (Chromium from the same binary as the
// service's) or CheerioCrawler (HTTP only), 5 pages at once, robots.txt respected, each page's
// Markdown made as their users make it: Mozilla Readability on the page's HTML, then Turndown.
//
// Usage: node crawlee.mjs <puppeteer|cheerio> <start URL> <max pages> <out.json> [chromium]
// Writes { wallMs, pages: [{ url, markdown }] } to out.json.
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { writeFileSync } from "node:fs";

const [kind, startUrl, maxPagesArg, out, chromium] = process.argv.slice(2);
const maxPages = Number(maxPagesArg);
if (!["puppeteer", "cheerio"].includes(kind) || !startUrl || !maxPages || !out) {
  console.error(
    "usage: node crawlee.mjs <puppeteer|cheerio> <start URL> <max pages> <out.json> [chromium]",
  );
  process.exit(2);
}
// Crawlee keeps its request queue and datasets in memory: nothing of a run outlives it.
process.env.CRAWLEE_PERSIST_STORAGE = "false";
process.env.CRAWLEE_PURGE_ON_START = "true";

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced" });
/** A page's reader-mode Markdown, as Readability and Turndown give it (the title first). */
function markdownOf(html) {
  const { document } = parseHTML(html);
  const article = new Readability(document).parse();
  if (!article?.content) return "";
  return `# ${article.title ?? ""}\n\n${turndown.turndown(article.content)}`;
}

const pages = [];
const common = {
  minConcurrency: 5,
  maxConcurrency: 5,
  maxRequestsPerCrawl: maxPages,
  respectRobotsTxtFile: true,
  maxRequestRetries: 1,
};

let crawler;
if (kind === "puppeteer") {
  const { PuppeteerCrawler } = await import("@crawlee/puppeteer");
  const puppeteer = (await import("puppeteer-core")).default;
  crawler = new PuppeteerCrawler({
    ...common,
    launchContext: {
      launcher: puppeteer,
      launchOptions: {
        executablePath: chromium,
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
      },
    },
    browserPoolOptions: { useFingerprints: false },
    // Its pages are tabs of one window: all but the newest are background tabs, hidden, and
    // render nothing (measured: 117 of 131 pages). BENCH_CRAWL_PEER_VISIBLE=1 keeps each page
    // shown, as the service keeps its own (focus emulation, docs/CRAWL.md): the same work.
    preNavigationHooks: process.env.BENCH_CRAWL_PEER_VISIBLE
      ? [
          async ({ page }) => {
            const session = await page.createCDPSession();
            await session.send("Emulation.setFocusEmulationEnabled", { enabled: true });
          },
        ]
      : [],
    async requestHandler({ page, request, enqueueLinks }) {
      pages.push({
        url: request.loadedUrl ?? request.url,
        markdown: markdownOf(await page.content()),
      });
      await enqueueLinks({ strategy: "same-hostname" });
    },
  });
} else {
  const { CheerioCrawler } = await import("@crawlee/cheerio");
  crawler = new CheerioCrawler({
    ...common,
    async requestHandler({ body, request, enqueueLinks }) {
      pages.push({ url: request.loadedUrl ?? request.url, markdown: markdownOf(String(body)) });
      await enqueueLinks({ strategy: "same-hostname" });
    },
  });
}

const t0 = performance.now();
await crawler.run([startUrl]);
const wallMs = performance.now() - t0;
writeFileSync(out, JSON.stringify({ wallMs, pages }));
process.exit(0);
