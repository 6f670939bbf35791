/**
 * Reading the article out of a DOM: metadata, absolute URLs, removed elements, "article-like".
 * The page reader runs here on linkedom (test/helpers/extract.ts); in Chromium in the
 * integration tests.
 */
import { describe, expect, it } from "vitest";
import { CONSENT_HIDE_SELECTORS } from "../../src/capture/page/consent-walls";
import { contentOf, found, readHtml } from "../helpers/extract";

const PROSE =
  "Readable prose about rendering pages at the edge, long enough to count as a real sentence. ";
const para = (n = 3, text = PROSE) => `<p>${text.repeat(n)}</p>`;
const doc = (body: string, head = "<title>Plain</title>") =>
  `<!doctype html><html lang="en"><head>${head}</head><body>${body}</body></html>`;
const read = (
  html: string,
  pageUrl = "https://example.com/dir/page.html",
  removeSelectors: string[] = [],
) => found(readHtml(html, pageUrl, removeSelectors));
const markdown = (html: string, pageUrl = "https://example.com/dir/page.html") =>
  contentOf(readHtml(html, pageUrl), "markdown", pageUrl);

describe("readArticle", () => {
  it("takes title, byline, site name, excerpt, language and published time from the page", () => {
    const head = `<title>Known Title</title><meta name="author" content="Ada Lovelace">
      <meta property="og:site_name" content="The Fixture"><meta name="description" content="A summary.">
      <meta property="article:published_time" content="2024-01-02T03:04:05Z">`;
    const article = read(doc(`<article>${para()}${para()}</article>`, head));
    expect(article).toMatchObject({
      title: "Known Title",
      byline: "Ada Lovelace",
      siteName: "The Fixture",
      excerpt: "A summary.",
      lang: "en",
      publishedTime: "2024-01-02T03:04:05Z",
    });
    expect(article?.length).toBeGreaterThan(2 * PROSE.length * 3 - 10);
  });

  it('a byline line\'s own "By" is not part of the author', () => {
    const article = read(
      doc(`<article><p class="byline">By Ada Flight</p>${para()}${para()}</article>`),
    );
    expect(article?.byline).toBe("Ada Flight");
    const meta = read(
      doc(`<article>${para()}${para()}</article>`, `<meta name="author" content="by: Bylund">`),
    );
    expect(meta?.byline).toBe("Bylund");
  });

  it("absent metadata is an empty string, never null", () => {
    const article = read(`<html><body><article>${para()}${para()}</article></body></html>`);
    expect(article).toMatchObject({ byline: "", siteName: "", lang: "", publishedTime: "" });
  });

  it("makes links and images absolute against the page URL", () => {
    const md = markdown(
      doc(`<article>${para()}<p>See <a href="other.html">other</a>, <a href="/root">root</a>,
      <a href="#part">part</a>, <a href="//cdn.example.net/x">cdn</a>. <img src="img/a.png" alt="A"></p>${para()}</article>`),
    );
    expect(md).toContain("[other](https://example.com/dir/other.html)");
    expect(md).toContain("[root](https://example.com/root)");
    expect(md).toContain("[part](https://example.com/dir/page.html#part)");
    expect(md).toContain("[cdn](https://cdn.example.net/x)");
    expect(md).toContain("![A](https://example.com/dir/img/a.png)");
  });

  it("honours the page's own <base href>, itself resolved against the page URL", () => {
    const md = markdown(
      doc(
        `<article>${para()}<p><a href="guide">guide</a></p>${para()}</article>`,
        `<base href="/docs/v2/"><title>t</title>`,
      ),
    );
    expect(md).toContain("[guide](https://example.com/docs/v2/guide)");
  });

  it("turns javascript: links into their text and lazy images into real sources", () => {
    const md = markdown(
      doc(`<article>${para()}<p><a href="javascript:void(0)">menu</a>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/lazy.png" alt="Lazy"></p>${para()}</article>`),
    );
    expect(md).not.toContain("javascript:");
    expect(md).toContain("menu");
    expect(md).toContain("![Lazy](https://example.com/lazy.png)");
  });

  it("removes elements matching the hide selectors and the consent-wall selectors", () => {
    const html = doc(`<article>${para()}<div class="promo">${para(1, "PROMOTED WIDGETS. ")}</div>
      <div id="CybotCookiebotDialog">${para(1, "WE USE COOKIES. ")}</div>${para()}</article>`);
    const kept = markdown(html);
    expect(kept).toContain("PROMOTED WIDGETS");
    expect(kept).toContain("WE USE COOKIES");
    const md = contentOf(
      readHtml(html, undefined, [".promo", ...CONSENT_HIDE_SELECTORS]),
      "markdown",
    );
    expect(md).toContain("Readable prose");
    expect(md).not.toContain("PROMOTED WIDGETS");
    expect(md).not.toContain("WE USE COOKIES");
  });

  it("keeps the markup's code language through Readability's class cleaning", () => {
    const cases: Array<[string, string]> = [
      ['<pre><code class="hljs language-TypeScript">x</code></pre>', "```typescript\nx\n```"],
      ['<pre class="prettyprint lang-go"><code>x</code></pre>', "```go\nx\n```"],
      ['<pre data-lang="rust"><code>x</code></pre>', "```rust\nx\n```"],
      ['<div class="highlight highlight-source-shell"><pre>x</pre></div>', "```shell\nx\n```"],
      ['<pre><code class="language-a&quot;b">x</code></pre>', "```\nx\n```"],
      ["<pre><code>x</code></pre>", "```\nx\n```"],
    ];
    for (const [block, fence] of cases) {
      expect(markdown(doc(`<article>${para()}${block}${para()}</article>`))).toContain(fence);
    }
  });
});

describe("readArticle — what is not an article", () => {
  it("a sign-in page → null", () => {
    const html = doc(
      `<h1>Sign in</h1><form><input name="email"><button>Go</button></form><p>Forgot your password?</p>`,
    );
    expect(read(html)).toBeNull();
  });

  it("a page of links (menu, product grid) → null, however long", () => {
    const links = Array.from(
      { length: 60 },
      (_, i) => `<a href="/p/${i}">Product number ${i} in the catalogue</a>`,
    ).join(" ");
    expect(read(doc(`<nav>${links}</nav><div>Cart: 0 items</div>`))).toBeNull();
  });

  it("an empty document → null", () => {
    expect(read("")).toBeNull();
  });

  it("prose in many short paragraphs is still an article", () => {
    const lines = Array.from(
      { length: 12 },
      (_, i) => `<p>Line ${i} of a gentle poem about the edge and the sea.</p>`,
    ).join("");
    expect(read(doc(`<article><h1>Poem</h1>${lines}</article>`))).not.toBeNull();
  });
});

describe("readArticle — removed elements", () => {
  it("a selector the DOM cannot evaluate does not stop the others from applying", () => {
    const html = doc(`<article>${para()}<p class="gone">${PROSE}GONE</p>${para()}</article>`);
    const md = contentOf(readHtml(html, undefined, ["p:has-text(x)", ".gone"]));
    expect(md).toContain("Readable prose");
    expect(md).not.toContain("GONE");
  });
});
