/** POST /v1/extract against fixture pages rendered by the real browser: content, formats, credits. */
import { beforeAll, describe, expect, it } from "vitest";
import type { ExtractionData } from "../../schemas/responses";
import { bearer, createAccount, describeAuthCases, type TestAccount } from "../helpers/accounts";
import { call, envelope, FIXTURES, fixtureLog, postJson, runId } from "../helpers/http";

let account: TestAccount;
beforeAll(async () => {
  account = await createAccount("pro");
});

const page = (name: string, run = runId()) => `${FIXTURES}/${name}?run=${run}`;

async function extract(body: Record<string, unknown>, who: TestAccount = account) {
  const res = await postJson("/v1/extract", body, bearer(who.apiKey));
  return { res, body: await envelope<ExtractionData>(res) };
}

async function remaining(who: TestAccount): Promise<number> {
  const res = await call("/v1/account", { headers: bearer(who.apiKey) });
  const body = await envelope<{ usage: { remaining: number } }>(res);
  return body.data?.usage.remaining ?? Number.NaN;
}

describe("POST /v1/extract", () => {
  it("markdown (default): metadata, headings, lists, table, fenced code with language, absolute links", async () => {
    const url = page("extract-article.html");
    const { res, body } = await extract({ url });
    expect(res.status).toBe(200);
    const data = body.data as ExtractionData;
    expect(data).toMatchObject({
      url,
      format: "markdown",
      title: "Reading the Edge",
      byline: "Grace Hopper",
      siteName: "Fixture Gazette",
      excerpt: "How pages are read at the edge, in one long fixture.",
    });
    expect(data.length).toBeGreaterThan(1000);
    expect(data.loadTimeMs).toBeGreaterThan(0);
    expect(body.meta.usage?.credits).toBe(1);

    const md = data.content;
    expect(md).toContain("## Why render first");
    expect(md).toContain("### A code sample");
    expect(md).toMatch(/^-\s+Scripts run before the text is read$/m);
    expect(md).toMatch(/^1\.\s+Load the page$/m);
    expect(md).toContain("| Engine | Cold start |\n| --- | --- |\n| Workers | 5 ms |");
    expect(md).toContain("```python\ndef read(page):\n    return page.article.text\n```");
    expect(md).toContain("> The best reader is the one you never notice.");
    expect(md).toContain(`[reading guide](${FIXTURES}/docs/guide.html)`);
    expect(md).toContain("_long_");
    expect(md).toContain("**short**");
    expect(md).toMatch(
      new RegExp(
        `!\\[Latency chart\\]\\(${FIXTURES.replace(/\./g, "\\.")}/img/extract-figure\\.png\\?run=\\w+\\)`,
      ),
    );
    // Page furniture is not article content.
    expect(md).not.toContain("About us");
    expect(md).not.toContain("Privacy");
  });

  it("is text only: the page's images are never fetched", async () => {
    const run = runId();
    const { res } = await extract({ url: page("extract-article.html", run) });
    expect(res.status).toBe(200);
    const log = await fixtureLog(run);
    expect(log.filter((e) => e.path === "/extract-article.html")).toHaveLength(1);
    expect(log.filter((e) => e.path.startsWith("/img/"))).toEqual([]);
  });

  it("reads the rendered DOM: an article a script writes after load is extracted", async () => {
    const raw = await (await fetch(`${FIXTURES}/extract-injected.html`)).text();
    const markup = raw.replace(/<script[\s\S]*?<\/script>/g, "");
    expect(markup).toContain("Loading…");
    expect(markup).not.toContain("only a reader of the rendered DOM");
    const { res, body } = await extract({ url: page("extract-injected.html") });
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({
      title: "Injected Story",
      byline: "Alan Turing",
      siteName: "Script Weekly",
    });
    expect(body.data?.content).toContain("## Rendered by script");
    expect(body.data?.content).toContain("only a reader of the rendered DOM can see it");
  });

  it("json: a serialized document with typed blocks in page order", async () => {
    const { res, body } = await extract({
      url: page("extract-article.html"),
      extractFormat: "json",
    });
    expect(res.status).toBe(200);
    expect(body.data?.format).toBe("json");
    const doc = JSON.parse(body.data?.content ?? "{}") as {
      blocks: Array<{ type: string }>;
    } & Record<string, unknown>;
    expect(doc).toMatchObject({
      title: "Reading the Edge",
      byline: "Grace Hopper",
      siteName: "Fixture Gazette",
      lang: "en",
    });
    expect(doc.publishedTime).toBe("2024-05-01T10:00:00Z");
    expect(doc.text).toContain("Static HTML is often a shell.");
    const types = [...new Set(doc.blocks.map((b) => b.type))];
    expect(types).toEqual(["paragraph", "heading", "list", "code", "quote", "table", "image"]);
    expect(doc.blocks).toContainEqual({
      type: "code",
      language: "python",
      text: "def read(page):\n    return page.article.text",
    });
    expect(doc.blocks).toContainEqual({
      type: "list",
      ordered: true,
      items: ["Load the page", "Wait for the network to settle", "Read the article"],
    });
    expect(doc.blocks).toContainEqual({
      type: "table",
      header: ["Engine", "Cold start"],
      rows: [
        ["Workers", "5 ms"],
        ["Containers", "900 ms"],
      ],
    });
  });

  it("html: Readability's cleaned article HTML", async () => {
    const { res, body } = await extract({
      url: page("extract-article.html"),
      extractFormat: "html",
    });
    expect(res.status).toBe(200);
    const html = body.data?.content ?? "";
    expect(html).toContain("<h2>Why render first</h2>");
    expect(html).toContain(`<a href="${FIXTURES}/docs/guide.html">reading guide</a>`);
    expect(html).toContain('<code class="language-python">');
    expect(html).not.toMatch(/<nav|<footer|<script|<style/);
  });

  it("uses the final URL after redirects for url and for resolving links", async () => {
    const target = page("extract-article.html");
    const { res, body } = await extract({
      url: `${FIXTURES}/redirect?to=${encodeURIComponent(target)}`,
    });
    expect(res.status).toBe(200);
    expect(body.data?.url).toBe(target);
    expect(body.data?.content).toContain(`(${FIXTURES}/docs/guide.html)`);
  });

  it("hideSelectors removes matching elements from the extracted article", async () => {
    const url = page("extract-article.html");
    const plain = await extract({ url });
    const hidden = await extract({ url, hideSelectors: [".reader-note"] });
    expect(plain.body.data?.content).toContain("A note for some readers");
    expect(hidden.res.status).toBe(200);
    expect(hidden.body.data?.content).not.toContain("A note for some readers");
    expect(hidden.body.data?.content).toContain("That is the whole method.");
  });

  it("no article-like content → 422 EXTRACTION_FAILED and no credit spent", async () => {
    const who = await createAccount("pro");
    const before = await remaining(who);
    const { res, body } = await extract({ url: page("extract-none.html") }, who);
    expect(res.status).toBe(422);
    expect(body.error?.code).toBe("EXTRACTION_FAILED");
    expect(await remaining(who)).toBe(before);
    const ok = await extract({ url: page("extract-article.html") }, who);
    expect(ok.body.meta.usage).toEqual({ credits: 1, remaining: before - 1 });
  });

  it("extracted content over the 2 MB cap → 413 PAYLOAD_TOO_LARGE and no credit spent", async () => {
    const who = await createAccount("pro");
    const before = await remaining(who);
    const { res, body } = await extract(
      {
        url: `${FIXTURES}/article?words=220000&run=${runId()}`,
        extractFormat: "json",
        waitUntil: "load",
      },
      who,
    );
    expect(res.status).toBe(413);
    expect(body.error?.code).toBe("PAYLOAD_TOO_LARGE");
    expect(await remaining(who)).toBe(before);
  });
});

describe("POST /v1/extract — validation", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["missing url", {}, "url"],
    ["unknown field", { url: `${FIXTURES}/extract-article.html`, fullPage: true }, "fullPage"],
    ["capture-only field", { url: `${FIXTURES}/extract-article.html`, format: "png" }, "format"],
    [
      "bad extractFormat",
      { url: `${FIXTURES}/extract-article.html`, extractFormat: "pdf" },
      "extractFormat",
    ],
    ["timeout out of range", { url: `${FIXTURES}/extract-article.html`, timeout: 61 }, "timeout"],
    ["bad waitUntil", { url: `${FIXTURES}/extract-article.html`, waitUntil: "idle" }, "waitUntil"],
    ["bad device", { url: `${FIXTURES}/extract-article.html`, device: "nokia" }, "device"],
    [
      "invalid hideSelectors",
      { url: `${FIXTURES}/extract-article.html`, hideSelectors: ["a[["] },
      "hideSelectors[0]",
    ],
  ];
  for (const [name, input, path] of cases) {
    it(`${name} → 400 naming ${path}`, async () => {
      const { res, body } = await extract(input);
      expect(res.status).toBe(400);
      expect(body.error?.code).toBe("VALIDATION_ERROR");
      expect(body.error?.details?.map((d) => d.path)).toContain(path);
    });
  }

  it("a private target → 400 INVALID_URL, no credit", async () => {
    const { res, body } = await extract({ url: "http://169.254.169.254/latest/meta-data" });
    expect(res.status).toBe(400);
    expect(body.error?.code).toBe("INVALID_URL");
  });
});

describe("POST /v1/extract — authentication", () => {
  describeAuthCases((headers) =>
    postJson("/v1/extract", { url: `${FIXTURES}/extract-article.html` }, headers),
  );
});
