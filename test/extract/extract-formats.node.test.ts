/** The three content formats (markdown, html, json) and the extraction's errors. */
import { describe, expect, it } from "vitest";
import type { ExtractionData } from "../../schemas/responses";
import { extractArticle } from "../../src/extract/extract";
import { readHtml } from "../helpers/extract";
import { ApiError } from "../../src/errors";
import type { ExtractFormat } from "../../schemas/extract";

const PROSE =
  "Readable prose about rendering pages at the edge, long enough to count as a real sentence. ";
const P = `<p>${PROSE.repeat(3)}</p>`;
const HEAD = `<title>Formats</title><meta name="author" content="Ada Lovelace"><meta property="og:site_name" content="The Fixture">`;
const page = (article: string) => `<!doctype html><html lang="en"><head>${HEAD}</head><body>
  <nav><a href="/">Home</a></nav><article>${P}${article}${P}</article><footer>Footer links</footer>
  <script>var secret = 1;</script></body></html>`;

function run(html: string, format: ExtractFormat = "markdown", wholePage = false): ExtractionData {
  const pageUrl = "https://example.com/post";
  const article = readHtml(html, pageUrl, [".promo"]);
  return extractArticle({ article, pageUrl, format, loadTimeMs: 42, wholePage });
}

function failure(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("did not throw");
}

describe("markdown", () => {
  const md = (article: string) => run(page(article)).content;

  it("headings (ATX), emphasis, strikethrough, blockquote, rule", () => {
    const out =
      md(`<h2>Two</h2><h3>Three</h3><p><em>em</em> <strong>strong</strong> <del>gone</del></p>
      <blockquote><p>Quoted line.</p></blockquote><hr>${P}`);
    expect(out).toContain("## Two\n\n### Three");
    expect(out).toContain("_em_ **strong** ~~gone~~");
    expect(out).toContain("> Quoted line.");
    expect(out).toContain("\n---\n");
  });

  it("nested and ordered lists (with a start number)", () => {
    const out = md(
      `<ul><li>a<ul><li>a1</li></ul></li><li>b</li></ul><ol start="3"><li>three</li><li>four</li></ol>`,
    );
    expect(out).toMatch(/^-\s+a\n\s+-\s+a1\n-\s+b$/m);
    expect(out).toMatch(/^3\.\s+three\n4\.\s+four$/m);
  });

  it("code fences keep the language and outgrow backtick runs inside the code", () => {
    const out = md('<pre><code class="language-md">```js\nx\n```\n</code></pre>');
    expect(out).toContain("````md\n```js\nx\n```\n````");
  });

  it("tables: header from <thead> or <th> row, else an empty header; colspan pads; pipes escaped", () => {
    const out =
      md(`<table><caption>Prices</caption><thead><tr><th>Item</th><th>Cost</th></tr></thead>
      <tbody><tr><td>a|b</td><td><strong>1</strong></td></tr><tr><td colspan="2">both</td></tr></tbody></table>
      <table><tr><td>x</td><td>y</td><td>z</td></tr><tr><td>only</td></tr></table>`);
    expect(out).toContain(
      "Prices\n\n| Item | Cost |\n| --- | --- |\n| a\\|b | **1** |\n| both | |",
    );
    expect(out).toContain("|  |  |  |\n| --- | --- | --- |\n| x | y | z |\n| only |  |  |");
  });

  it("images are links to their absolute URL; inline data: images become their alt text", () => {
    const out = md(
      `<p><img src="/a (1).png" alt="Chart [big]" title="T"> <img src="data:image/png;base64,AAAA" alt="inline pic"></p>`,
    );
    expect(out).toContain('![Chart \\[big\\]](https://example.com/a%20%281%29.png "T")');
    expect(out).toContain("inline pic");
    expect(out).not.toContain("data:image");
  });

  it("leaves out page furniture and scripts", () => {
    const out = md("");
    expect(out).not.toMatch(/Home|Footer links|secret/);
  });
});

describe("html", () => {
  it("is Readability's cleaned article: lower-case tags, no scripts or furniture, code language kept", () => {
    const out = run(
      page(
        `<h2 style="color:red" class="fancy">Two</h2><pre><code class="language-js x">1</code></pre>`,
      ),
      "html",
    ).content;
    expect(out).toContain("<h2>Two</h2>");
    expect(out).toContain('<pre><code class="language-js">1</code></pre>');
    expect(out).toMatch(
      /^<div id="readability-page-1" class="page">|^<div class="page" id="readability-page-1">/,
    );
    expect(out).not.toMatch(/<script|<nav|<footer|<DIV|<P>/);
  });
});

describe("json", () => {
  it("carries the metadata, plain text and typed blocks in document order", () => {
    const data = run(
      page(`<h2>Part</h2><div>Loose <em>inline</em> text<br>after a break</div>
      <ul><li>one</li><li>two</li></ul><pre><code class="language-sh">ls\n</code></pre><blockquote>Said.</blockquote>
      <table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>
      <figure><img src="/f.png" alt="Fig"><figcaption>Caption.</figcaption></figure>`),
      "json",
    );
    expect(data.format).toBe("json");
    const doc = JSON.parse(data.content) as Record<string, unknown> & {
      blocks: unknown[];
      text: string;
    };
    expect(doc).toMatchObject({
      title: "Formats",
      byline: "Ada Lovelace",
      siteName: "The Fixture",
      lang: "en",
      publishedTime: "",
    });
    expect(doc.blocks).toEqual([
      { type: "paragraph", text: PROSE.repeat(3).trim() },
      { type: "heading", level: 2, text: "Part" },
      { type: "paragraph", text: "Loose inline text after a break" },
      { type: "list", ordered: false, items: ["one", "two"] },
      { type: "code", language: "sh", text: "ls" },
      { type: "quote", text: "Said." },
      { type: "table", header: ["k", "v"], rows: [["a", "1"]] },
      { type: "image", src: "https://example.com/f.png", alt: "Fig", caption: "Caption." },
      { type: "paragraph", text: PROSE.repeat(3).trim() },
    ]);
    expect(doc.text).toContain(
      "Part\n\nLoose inline text after a break\n\n- one\n- two\n\nls\n\nSaid.\n\nk\tv\na\t1\n\nCaption.",
    );
  });
});

describe("result and errors", () => {
  it("returns the spec's Extraction result data", () => {
    const data = run(page(""));
    expect(Object.keys(data).sort()).toEqual([
      "byline",
      "content",
      "excerpt",
      "format",
      "length",
      "loadTimeMs",
      "siteName",
      "title",
      "url",
    ]);
    expect(data).toMatchObject({
      url: "https://example.com/post",
      format: "markdown",
      title: "Formats",
      loadTimeMs: 42,
    });
  });

  it("a page the reader could not read (it threw in the page) → 422 EXTRACTION_FAILED", () => {
    const err = failure(() =>
      extractArticle({
        article: { kind: "failed", error: "TypeError: x is not a function" },
        pageUrl: "https://example.com/post",
        format: "markdown",
        loadTimeMs: 1,
      }),
    );
    expect([err.code, err.status, err.message]).toEqual([
      "EXTRACTION_FAILED",
      422,
      "The page could not be read as an article.",
    ]);
  });

  it("no article → 422 EXTRACTION_FAILED; with wholePage too when the page shows nothing", () => {
    const signIn = "<html><body><button>Sign in</button></body></html>";
    for (const wholePage of [false, true]) {
      const err = failure(() => run(signIn, "markdown", wholePage));
      expect([err.code, err.status]).toEqual(["EXTRACTION_FAILED", 422]);
    }
  });

  it("wholePage: a page with no article is the whole page — headings, lists, links, tables", () => {
    const listing = `<!doctype html><html><head><title>Shop</title><base href="/shop/">
      <style>p { color: red }</style></head><body>
      <nav><a href="/">Home</a> <a href="javascript:void(0)">Menu</a></nav>
      <h1 class="x" style="color:red">Shop</h1><h2>Kits</h2>
      <ul><li><a href="kits/starter" onclick="track()">Starter kit</a></li><li>Pro kit</li></ul>
      <table><tr><th>Kit</th><th>Price</th></tr><tr><td>Starter</td><td>49 €</td></tr></table>
      <img src="img/kit.png" alt="Kit"><div class="promo">PROMOTED</div>
      <form><input name="q"><button>Search</button></form><script>var secret = 1;</script>
      </body></html>`;
    const data = run(listing, "markdown", true);
    expect(data.content).toBe(
      [
        "[Home](https://example.com/) Menu",
        "# Shop",
        "## Kits",
        "-   [Starter kit](https://example.com/shop/kits/starter)\n-   Pro kit",
        "| Kit | Price |\n| --- | --- |\n| Starter | 49 € |",
        "![Kit](https://example.com/shop/img/kit.png)",
      ].join("\n\n"),
    );
    expect(data).toMatchObject({ title: "Shop", byline: "", excerpt: "", siteName: "" });
    expect(data.length).toBeGreaterThan(30);
    const json = JSON.parse(run(listing, "json", true).content) as { blocks: unknown[] };
    expect(json.blocks).toContainEqual({ type: "heading", level: 1, text: "Shop" });
    // A page with an article is read as before.
    expect(run(page(P), "markdown", true).content).not.toContain("Footer links");
  });

  it("content over 2 MB → 413 PAYLOAD_TOO_LARGE; the same article in markdown under the cap passes", () => {
    const big = `<p>${"word ".repeat(150)}</p>`.repeat(1500); // ≈ 1.1 MB of text
    expect(run(page(big)).content.length).toBeGreaterThan(1_000_000);
    const err = failure(() => run(page(big), "json")); // text + blocks ≈ 2.2 MB
    expect([err.code, err.status]).toEqual(["PAYLOAD_TOO_LARGE", 413]);
  });
});
