/**
 * HTTP-first pages (src/crawl/http-page.ts): `auto`'s test on raw documents, and a fetched
 * document's formats and links as the browser path gives them.
 */
import { describe, expect, it } from "vitest";
import type { CrawlConfig } from "../../src/crawl/config";
import { convertPage } from "../../src/crawl/http-page";
import { needsBrowser } from "../../src/extract/needs-browser";
import { parseDocument } from "../../src/extract/parse";

const PROSE = "Plain words a reader can read without any script running at all. ".repeat(6);
const doc = (body: string, head = "") =>
  parseDocument(
    `<!doctype html><html><head>${head}<title>T</title></head><body>${body}</body></html>`,
  );

describe("needsBrowser", () => {
  it.each([
    ["a static article", `<main><p>${PROSE}</p></main>`, false],
    ["a page with no script, however short", `<p>Hi</p>`, false],
    ["an empty app root with a script", `<div id="root"></div><script src="/a.js"></script>`, true],
    [
      "an empty #__next beside prose",
      `<p>${PROSE}</p><div id="__next"></div><script>x()</script>`,
      true,
    ],
    [
      "a server-rendered app",
      `<div id="__next"><p>${PROSE}</p></div><script src="/a.js"></script>`,
      false,
    ],
    [
      "scripts and almost no text",
      `<div class="shell">Loading…</div><script type="module" src="/m.js"></script>`,
      true,
    ],
    [
      "only JSON-LD, little text",
      `<p>Hi</p><script type="application/ld+json">{"a":1}</script>`,
      false,
    ],
    [
      "a long inline script's text does not count as prose",
      `<p>Hi</p><script>var s = "${"x ".repeat(300)}";</script>`,
      true,
    ],
  ])("%s → %s", (_name, body, expected) => {
    expect(needsBrowser(doc(body))).toBe(expected);
  });
});

describe("convertPage", () => {
  const config = {
    formats: ["markdown", "html", "text", "links", "metadata"],
  } as unknown as CrawlConfig;
  const html =
    `<!doctype html><html><head><title>Guide</title><base href="/docs/">` +
    `<meta property="og:title" content="OG guide"><meta property="og:site_name" content="Site">` +
    `<style>.x{color:red}</style></head><body><main><h1>Guide</h1><p onclick="steal()">${PROSE}</p>` +
    `<a href="intro#top">Intro</a> <a href="https://other.example/" rel="nofollow">Other</a>` +
    `<a href="javascript:alert(1)">JS</a> <a href="mailto:a@b.c">Mail</a> <a href="intro">Again</a>` +
    `</main><script>document.title = "x"</script></body></html>`;
  const page = convertPage(config, { status: 200, finalUrl: "https://site.example/a/b", html });

  it("gives the formats: Markdown, HTML without scripts, text, metadata", () => {
    expect(page.result).toMatchObject({
      rendered: "http",
      statusCode: 200,
      finalUrl: "https://site.example/a/b",
      metadata: {
        title: "Guide",
        statusCode: 200,
        openGraph: { title: "OG guide", siteName: "Site", description: "", image: "" },
      },
    });
    expect(page.bodies.markdown).toContain("Plain words a reader can read");
    expect(page.bodies.html).not.toMatch(/<script|onclick|javascript:/);
    expect(page.bodies.html).toContain("Plain words");
    expect(page.bodies.text).toContain("Plain words");
    expect(page.bodies.text).not.toContain("color:red");
    expect(page.bodies.text).not.toContain("document.title");
  });

  it("lists http(s) links once each, resolved against <base>, fragments dropped, nofollow kept", () => {
    expect(page.result.links).toEqual([
      { url: "https://site.example/docs/intro", text: "Intro" },
      { url: "https://other.example/", text: "Other" },
    ]);
    expect(page.links).toEqual([
      { url: "https://site.example/docs/intro", nofollow: false },
      { url: "https://other.example/", nofollow: true },
    ]);
  });
});
