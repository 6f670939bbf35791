/**
 * Every entry point runs the same guard: ONE page carrying every catalogue vector that does not
 * end the page (test/security/vectors.ts COMBINABLE, served as /sec/combined with its response
 * headers: Speculation-Rules, Link, Reporting-Endpoints, NEL, CSP report-only) plus, where the
 * route takes `js`, speculation rules inserted by `js` — through sync binary, JSON, hosted,
 * render link, async job, batch, watch run, extraction, the page content routes (content, scrape,
 * json, links, snapshot), crawl (every format of the crawled page) and map, artifact (the page's HTML
 * as the artifact's body fragment: its markup vectors, not its response headers), animate (the
 * page filmed while it scrolls) and the MCP tools screenshot and read_page (POST /mcp;
 * they take no `js`). The canary, the raw canary and the output must
 * show nothing of the canary. (Render links refuse cookies and headers by design.)
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BatchView } from "../../schemas/responses";
import { accountDo } from "../helpers/account-do";
import { Capturer } from "../helpers/capture";
import { dashboardSession } from "../helpers/dashboard";
import { call, CANARY, envelope, FIXTURES, mcpToolCall, postJson, runId } from "../helpers/http";
import { poll, waitForBatch, waitForJob } from "../helpers/jobs";
import { env } from "cloudflare:workers";
import { crawlStub } from "../../src/crawl/crawl-stub";
import {
  expectCanaryUntouched,
  expectNoCanaryContent,
  expectRawUntouched,
  securityCtx,
  settle,
} from "../helpers/security";
import { fireAlarm, mustCreate, runs, waitForRun, watchAccount } from "../helpers/watches";
import { COMBINABLE, insertRulesJs, tagger } from "./vectors";

const RAW = 9;
let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

const DELAY = Math.max(...COMBINABLE.map((v) => v.delay ?? 0));
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** The combined page for `run`, and capture options every image route shares. */
function attack(run: string, entry: string, withJs = true) {
  const url = `${FIXTURES}/sec/combined?run=${run}&raw=${RAW}`;
  const js = insertRulesJs(tagger(securityCtx(run, RAW), `js on ${entry}`));
  return {
    url,
    width: 320,
    height: 240,
    deviceScaleFactor: 1,
    fullPage: true,
    waitUntil: "load",
    blockAds: false,
    timeout: 20,
    delay: DELAY,
    ...(withJs ? { js } : {}),
  };
}

/** One MCP tools/call through POST /mcp (stateless: no initialize needed); its result. */
async function mcpCall(name: string, args: Record<string, unknown>) {
  const res = await mcpToolCall(cap.auth, name, args);
  expect(res.status).toBe(200);
  const { result } = (await res.json()) as {
    result: {
      isError?: boolean;
      content: Array<{ type: string; text?: string; data?: string; uri?: string }>;
    };
  };
  return result;
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  const res = await call(pathOf(url));
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * Runs `capture` for a fresh run id; checks output, canary and raw canary. A capture that loads
 * the page more than once under run ids of its own (`run` + each of `suffixes`) has the canary
 * checked for each of them too.
 */
async function check(
  entry: string,
  capture: (run: string) => Promise<Uint8Array | string>,
  suffixes: string[] = [],
): Promise<void> {
  const run = runId();
  const since = Date.now();
  const output = await capture(run);
  expectNoCanaryContent(output, entry);
  await expectCanaryUntouched(run, `through ${entry}`, 600);
  for (const suffix of suffixes)
    await expectCanaryUntouched(`${run}${suffix}`, `through ${entry} (${suffix})`, 0);
  await settle(200);
  await expectRawUntouched(RAW, since, `through ${entry}`);
}

// One at a time: the raw canary cannot tell runs apart.
describe("every entry point refuses the combined attack page", () => {
  it(`the combined page carries ${COMBINABLE.length} vectors`, () => {
    expect(COMBINABLE.length).toBeGreaterThan(60);
  });

  it("sync binary (POST /v1/screenshot)", () =>
    check("sync", async (run) => {
      const { res, bytes } = await cap.post(attack(run, "sync"));
      expect(res.status).toBe(200);
      return bytes;
    }));

  it("JSON (POST /v1/screenshot/json)", () =>
    check("json", async (run) => {
      const { res, body } = await cap.json<{ image: string }>(attack(run, "json"));
      expect(res.status).toBe(200);
      return fromBase64(body.data?.image ?? "");
    }));

  it("hosted (hosted: true, then the signed image URL)", () =>
    check("hosted", async (run) => {
      const { res, bytes } = await cap.post({ ...attack(run, "hosted"), hosted: true });
      expect(res.status).toBe(200);
      const hosted = (JSON.parse(new TextDecoder().decode(bytes)) as { data: { url: string } })
        .data;
      return fetchBytes(hosted.url);
    }));

  it("render link (POST /v1/render/link, then GET the link)", () =>
    check("render link", async (run) => {
      const res = await postJson("/v1/render/link", attack(run, "render link"), cap.auth);
      const link = await envelope<{ url: string }>(res);
      expect(res.status, JSON.stringify(link.error)).toBe(200);
      return fetchBytes(link.data?.url ?? "");
    }));

  it("async job (async: true, then the job's result)", () =>
    check("async", async (run) => {
      const { res, body } = await cap.json<{ jobId: string }>({
        ...attack(run, "async"),
        async: true,
      });
      expect(res.status).toBe(202);
      const job = await waitForJob(cap.account.accountId, body.data?.jobId ?? "");
      expect(job.status, job.error ?? "").toBe("completed");
      return fetchBytes(job.resultUrl ?? "");
    }));

  it("watch run (POST /v1/watches, the alarm's run, its stored image and page text)", () =>
    check("watch", async (run) => {
      const acc = await watchAccount("pro");
      const { url, ...capture } = attack(run, "watch");
      const watch = await mustCreate(acc, {
        url,
        intervalMinutes: 60,
        capture,
        changeDetection: { mode: "both" },
      });
      await fireAlarm(acc.accountId);
      const [first] = await runs(acc.accountId, watch.id);
      const done = await waitForRun(acc.accountId, first?.id ?? "");
      expect(done.status, done.error ?? "").toBe("completed");
      return fetchBytes(done.imageUrl ?? "");
    }));

  it("batch (POST /v1/screenshot/batch, then each job's result)", () =>
    check("batch", async (run) => {
      const { url, ...defaults } = attack(run, "batch");
      const res = await postJson("/v1/screenshot/batch", { urls: [url], defaults }, cap.auth);
      const accepted = await envelope<{ batchId: string; jobs: Array<{ jobId: string }> }>(res);
      expect(res.status, JSON.stringify(accepted.error)).toBe(202);
      await waitForBatch(cap.account.accountId, accepted.data?.batchId ?? "");
      const batch = (await accountDo(cap.account.accountId)
        .jobs()
        .getBatch(accepted.data?.batchId ?? "")) as BatchView;
      expect(batch.completedJobs).toBe(1);
      const job = await accountDo(cap.account.accountId)
        .jobs()
        .get(accepted.data?.jobs[0]?.jobId ?? "");
      return fetchBytes(job?.resultUrl ?? "");
    }));

  it("dashboard playground (POST /dashboard/api/capture, session-authenticated)", () =>
    check("playground", async (run) => {
      const session = await dashboardSession();
      const res = await session.capture(attack(run, "playground"));
      const body = await envelope<{ image: string }>(res);
      expect(res.status, JSON.stringify(body.error)).toBe(200);
      return fromBase64(body.data?.image ?? "");
    }));

  it("dashboard playground: the canary itself is refused before any browser work", async () => {
    const run = runId();
    const session = await dashboardSession();
    const res = await session.capture({ url: `${CANARY}/sec/page?run=${run}` });
    expect(res.status).toBe(400);
    await expectCanaryUntouched(run, "through the playground's url");
  });

  it("extraction (POST /v1/extract): the text holds nothing of the canary", () =>
    check("extract", async (run) => {
      const { url } = attack(run, "extract", false);
      const res = await postJson("/v1/extract", { url, waitUntil: "load", timeout: 20 }, cap.auth);
      const text = await res.text();
      expect([200, 422], text.slice(0, 300)).toContain(res.status);
      return text;
    }));

  it("crawl (POST /v1/crawl, the page's every format and its screenshot)", () =>
    check("crawl", async (run) => {
      const { url, width, height, waitUntil, timeout, delay, blockAds } = attack(
        run,
        "crawl",
        false,
      );
      const res = await postJson(
        "/v1/crawl",
        {
          url,
          ...{ width, height, waitUntil, timeout, delay, blockAds },
          limit: 1,
          maxDepth: 0,
          sitemap: "skip",
          formats: ["markdown", "html", "text", "links", "metadata", "screenshot"],
        },
        cap.auth,
      );
      const started = await envelope<{ crawlId: string }>(res);
      expect(res.status, JSON.stringify(started.error)).toBe(202);
      const crawlId = started.data?.crawlId ?? "";
      const crawl = await poll(
        () => crawlStub(env, cap.account.accountId, crawlId).summary(),
        (c) => c?.status === "completed" || c?.status === "failed",
      );
      const { pages } = await crawlStub(env, cap.account.accountId, crawlId).pages(0, 100);
      const [page] = pages;
      expect(crawl?.status, JSON.stringify(page)).toBe("completed");
      expectNoCanaryContent(JSON.stringify(pages), "crawl page");
      return fetchBytes(page?.screenshotUrl ?? "");
    }));

  it("map (POST /v1/map): the canary is never requested", () =>
    check("map", async (run) => {
      const { url } = attack(run, "map", false);
      const res = await postJson("/v1/map", { url, sitemap: "skip" }, cap.auth);
      const text = await res.text();
      expect(res.status, text.slice(0, 300)).toBe(200);
      return text;
    }));

  it("MCP screenshot (POST /mcp tools/call): the image shown and the full-size link", () =>
    check("mcp screenshot", async (run) => {
      const result = await mcpCall("screenshot", attack(run, "mcp screenshot", false));
      const texts = result.content.map((c) => c.text ?? "").join("\n");
      expect(result.isError, texts).toBeFalsy();
      const view = result.content.find((c) => c.type === "image");
      expectNoCanaryContent(fromBase64(view?.data ?? ""), "mcp screenshot view");
      expectNoCanaryContent(texts, "mcp screenshot text");
      const link = result.content.find((c) => c.type === "resource_link");
      return fetchBytes(link?.uri ?? "");
    }));

  it("MCP read_page (POST /mcp tools/call): the Markdown holds nothing of the canary", () =>
    check("mcp read_page", async (run) => {
      const { url } = attack(run, "mcp read_page", false);
      const result = await mcpCall("read_page", { url, waitUntil: "load", timeout: 20 });
      const text = result.content.map((c) => c.text ?? "").join("\n");
      if (result.isError) expect(text).toMatch(/^EXTRACTION_FAILED: /);
      return text;
    }));

  it("MCP: the canary itself is refused before any browser work", async () => {
    for (const name of ["screenshot", "read_page", "pdf", "render_link"]) {
      const run = runId();
      const result = await mcpCall(name, { url: `${CANARY}/sec/page?run=${run}` });
      expect(result.isError, name).toBe(true);
      expect(result.content[0]?.text, name).toMatch(/^INVALID_URL: /);
      await expectCanaryUntouched(run, `through the MCP ${name} tool's url`);
    }
  });

  // The page content routes: whatever the page read or built must not reach html, text, links
  // or elements (every element of the body scraped with all its attributes). The page's own
  // scripts carry the marker in their source (the leak function), so the HTML is checked with
  // scripts stripped (the default) and the scrape skips the head.
  const content = async (path: string, extra: Record<string, unknown>, run: string) => {
    const { url, js } = attack(run, path);
    const request = { url, js, waitUntil: "load", timeout: 20, delay: DELAY, ...extra };
    const res = await postJson(path, request, cap.auth);
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBe(200);
    return text;
  };

  it("content (POST /v1/content: html and text)", () =>
    check(
      "content",
      async (run) => {
        const html = await content("/v1/content", {}, run);
        return html + (await content("/v1/content", { contentFormat: "text" }, `${run}-text`));
      },
      ["-text"],
    ));

  it("scrape (POST /v1/scrape: every element of the body, all attributes)", () =>
    check("scrape", (run) =>
      content("/v1/scrape", { elements: [{ selector: "body, body *" }] }, run),
    ));

  it("json (POST /v1/json: the body's text, every element's text and href, the page's markup)", () =>
    check("json", (run) =>
      content(
        "/v1/json",
        {
          fields: {
            body: { selector: "body" },
            all: { selector: "body *", list: true },
            hrefs: { selector: "body [href]", list: true, attribute: "href" },
          },
          kind: "auto",
        },
        run,
      ),
    ));

  it("links (POST /v1/links, non-http links too)", () =>
    check("links", (run) => content("/v1/links", { includeNonHttp: true }, run)));

  it("snapshot (POST /v1/snapshot: the html and the screenshot)", () =>
    check("snapshot", async (run) => {
      const text = await content("/v1/snapshot", { fullPage: true }, run);
      const data = (JSON.parse(text) as { data: { screenshot: string } }).data;
      expectNoCanaryContent(fromBase64(data.screenshot), "snapshot screenshot");
      return text;
    }));

  it("artifact (POST /v1/artifact): the combined page's markup as an html body fragment", () =>
    check("artifact", async (run) => {
      const { url } = attack(run, "artifact", false);
      const html = await (await fetch(url)).text();
      const request = {
        content: html,
        inputFormat: "html",
        formats: ["pdf", "png"],
        pageSetup: { width: 320, height: 240, fullPage: true },
      };
      const res = await postJson("/v1/artifact", request, cap.auth);
      const body = await envelope<{ pdfUrl: string; pngUrl: string; shareUrl: string }>(res);
      expect(res.status, JSON.stringify(body.error)).toBe(200);
      expectNoCanaryContent(await fetchBytes(body.data?.pdfUrl ?? ""), "artifact pdf");
      return fetchBytes(body.data?.pngUrl ?? "");
    }));

  it("animate (POST /v1/animate: the page filmed while it scrolls itself, js too)", () =>
    check("animate", async (run) => {
      const { fullPage: _fullPage, ...options } = attack(run, "animate");
      const request = { ...options, format: "gif", duration: 1, fps: 5 };
      const res = await postJson("/v1/animate", request, cap.auth);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(res.status, new TextDecoder().decode(bytes.subarray(0, 300))).toBe(200);
      return bytes;
    }));
});
