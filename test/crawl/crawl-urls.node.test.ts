/**
 * Crawl URLs, table-driven: the normal form of a link, the three scopes (the domain one through
 * tldts' Public Suffix List) and the include/exclude path globs.
 */
import { describe, expect, it } from "vitest";
import { globProblem } from "../../schemas/crawl";
import { compilePatterns, inScope, normalizeUrl, type CrawlScope } from "../../src/crawl/urls";

describe("normalizeUrl", () => {
  const CASES: Array<[input: string, base: string | undefined, expected: string | null]> = [
    ["HTTP://Example.COM/Path", undefined, "http://example.com/Path"],
    ["https://example.com:443/a", undefined, "https://example.com/a"],
    ["http://example.com:80/a", undefined, "http://example.com/a"],
    ["http://example.com:8080/a", undefined, "http://example.com:8080/a"],
    ["https://example.com:80/a", undefined, "https://example.com:80/a"],
    ["http://example.com/a#section", undefined, "http://example.com/a"],
    ["http://example.com/a?b=1&a=2#x", undefined, "http://example.com/a?b=1&a=2"],
    ["http://example.com/a?Q=%2F&z", undefined, "http://example.com/a?Q=%2F&z"],
    ["http://example.com", undefined, "http://example.com/"],
    ["/b", "http://example.com/docs/a", "http://example.com/b"],
    ["../b", "http://example.com/docs/sub/a", "http://example.com/docs/b"],
    ["c?x=1", "http://example.com/docs/a", "http://example.com/docs/c?x=1"],
    ["#top", "http://example.com/docs/a?p=1", "http://example.com/docs/a?p=1"],
    ["//other.example.org/x", "https://example.com/", "https://other.example.org/x"],
    ["  http://example.com/a \n", undefined, "http://example.com/a"],
    ["http://EXAMPLE.com./a", undefined, "http://example.com./a"],
    ["http://xn--nxasmq6b.com/", undefined, "http://xn--nxasmq6b.com/"],
    ["mailto:me@example.com", undefined, null],
    ["javascript:alert(1)", "http://example.com/", null],
    ["data:text/html,x", undefined, null],
    ["ftp://example.com/f", undefined, null],
    ["tel:+123", "http://example.com/", null],
    ["/relative", undefined, null],
    ["http://", undefined, null],
    ["http://exa mple.com/", undefined, null],
  ];
  it.each(CASES)("%s (base %s) → %s", (input, base, expected) => {
    expect(normalizeUrl(input, base)).toBe(expected);
  });
});

describe("inScope", () => {
  const CASES: Array<[start: string, candidate: string, scope: CrawlScope, expected: boolean]> = [
    // path: the start's directory, same origin.
    ["http://a.com/docs/intro", "http://a.com/docs/other", "path", true],
    ["http://a.com/docs/intro", "http://a.com/docs/deep/er", "path", true],
    ["http://a.com/docs/intro", "http://a.com/docs/", "path", true],
    ["http://a.com/docs/intro", "http://a.com/docs", "path", false],
    ["http://a.com/docs/intro", "http://a.com/blog/x", "path", false],
    ["http://a.com/docs/intro", "http://a.com/docsx/y", "path", false],
    ["http://a.com/docs/", "http://a.com/docs/a", "path", true],
    ["http://a.com/docs/", "http://a.com/", "path", false],
    ["http://a.com/", "http://a.com/anything/at/all", "path", true],
    ["http://a.com/docs/intro", "https://a.com/docs/other", "path", false],
    ["http://a.com/docs/intro", "http://a.com:8080/docs/other", "path", false],
    ["http://a.com/docs/intro", "http://b.a.com/docs/other", "path", false],
    // host: same host name and port; http and https both.
    ["http://a.com/docs/x", "http://a.com/blog/y", "host", true],
    ["http://a.com/", "https://a.com/y", "host", true],
    ["http://a.com:8080/", "http://a.com:8080/y", "host", true],
    ["http://a.com:8080/", "http://a.com/y", "host", false],
    ["http://a.com/", "http://www.a.com/", "host", false],
    ["http://127.0.0.1:4310/", "http://127.0.0.1:4311/", "host", false],
    // domain: the registrable domain (Public Suffix List) and its subdomains.
    ["http://a.com/", "http://www.a.com/x", "domain", true],
    ["http://www.a.com/", "https://deep.sub.a.com:8443/x", "domain", true],
    ["http://a.com/", "http://b.com/", "domain", false],
    ["http://a.com/", "http://a.com.evil.net/", "domain", false],
    ["http://shop.example.co.uk/", "http://blog.example.co.uk/", "domain", true],
    ["http://example.co.uk/", "http://other.co.uk/", "domain", false],
    // Private suffixes count: two github.io sites are two sites.
    ["https://alice.github.io/", "https://bob.github.io/", "domain", false],
    ["https://alice.github.io/", "https://alice.github.io/p", "domain", true],
    // IP addresses and one-label hosts are only themselves (any port).
    ["http://127.0.0.1:4310/", "http://127.0.0.1:4313/x", "domain", true],
    ["http://127.0.0.1/", "http://127.0.0.2/", "domain", false],
    ["http://10.0.0.1/", "http://0.1/", "domain", false],
    ["http://localhost/", "http://localhost:8080/", "domain", true],
    ["http://localhost/", "http://other/", "domain", false],
    ["http://[::1]/", "http://[::1]:81/", "domain", true],
  ];
  it.each(CASES)("%s ∋ %s by %s → %s", (start, candidate, scope, expected) => {
    expect(inScope(new URL(start), new URL(candidate), scope)).toBe(expected);
  });
});

describe("compilePatterns", () => {
  const verdict = (include: string[], exclude: string[], path: string) =>
    compilePatterns(include, exclude)(new URL(path, "http://a.com"));

  const CASES: Array<[include: string[], exclude: string[], path: string, expected: string]> = [
    // No globs: everything.
    [[], [], "/", "ok"],
    [[], [], "/any/where.html?q=1", "ok"],
    // `*` stays within one segment.
    [["/blog/*"], [], "/blog/post", "ok"],
    [["/blog/*"], [], "/blog/2024/post", "pattern"],
    [["/blog/*"], [], "/blog", "pattern"],
    [["/blog/*"], [], "/other", "pattern"],
    // `**` crosses segments (and matches the folder itself).
    [["/blog/**"], [], "/blog/2024/01/post", "ok"],
    [["/blog/**"], [], "/blog", "ok"],
    [["/blog/**"], [], "/blogger/x", "pattern"],
    [["**/*.html"], [], "/a/b/c.html", "ok"],
    [["**/*.html"], [], "/c.html", "ok"],
    [["**/*.html"], [], "/c.htm", "pattern"],
    // Dot files and folders match like any name.
    [["/**"], [], "/.well-known/security.txt", "ok"],
    [["/a/*"], [], "/a/.hidden", "ok"],
    // Anchored at the root when the glob has no leading slash.
    [["blog/**"], [], "/blog/x", "ok"],
    [["blog/**"], [], "/x/blog/y", "pattern"],
    // Only the pathname: the query is not matched.
    [["/search"], [], "/search?q=blog", "ok"],
    [["/**"], ["/search"], "/search?q=1", "pattern"],
    // Several include globs: any of them.
    [["/docs/**", "/api/**"], [], "/api/v1", "ok"],
    [["/docs/**", "/api/**"], [], "/blog/v1", "pattern"],
    // Exclude wins over include; with no include, exclude alone.
    [["/docs/**"], ["/docs/private/**"], "/docs/private/x", "pattern"],
    [["/docs/**"], ["/docs/private/**"], "/docs/public/x", "ok"],
    [[], ["**/*.pdf"], "/files/a.pdf", "pattern"],
    [[], ["**/*.pdf"], "/files/a.html", "ok"],
    // Braces are plain characters (the request schema refuses them: one pattern each); classes.
    [["/{en,fr}/**"], [], "/fr/page", "pattern"],
    [["/{en,fr}/**"], [], "/de/page", "pattern"],
    [["/en/**", "/fr/**"], [], "/fr/page", "ok"],
    [["/articles/[0-9]*"], [], "/articles/42", "ok"],
    [["/articles/[0-9]*"], [], "/articles/x42", "pattern"],
    // Percent-encoded pathnames are matched as the parser writes them.
    [["/caf%C3%A9/*"], [], "/café/menu", "ok"],
  ];
  it.each(CASES)("include %j exclude %j: %s → %s", (include, exclude, path, expected) => {
    expect(verdict(include, exclude, path)).toBe(expected);
  });
});

describe("globProblem: what the request schema refuses", () => {
  const CASES: Array<[glob: string, refused: boolean]> = [
    ["/blog/*", false],
    ["/articles/[0-9]*", false],
    ["/[^_]*", false],
    ["/wiki/Foo_(bar)", false], // parentheses alone are plain characters
    ["/wiki/*(disambiguation)", false],
    ["/{en,fr}/**", true],
    ["/docs/[a", true],
    ["/a/[]", true], // an empty class
    ["/a/[^]b", true],
    ["/[!_]*", true], // [!…]: [^…] is the documented negation
    ["/(en|fr)/**", true], // alternatives
    ["/a|b", true],
    ["/+(a)", true], // extglobs
    ["/@(a)", true],
    ["/!(a)", true],
  ];
  it.each(CASES)("%s refused: %s", (glob, refused) => {
    expect(globProblem(glob) !== null).toBe(refused);
  });
});
