/**
 * robots.txt for the crawler: the Edgeshot group over `*`, the longest match, Crawl-delay in ms
 * and its cap, Sitemap lines, other origins, and RFC 9309 §2.3.1 for a robots.txt not read.
 */
import { describe, expect, it } from "vitest";
import {
  CRAWLER_TOKEN,
  CRAWLER_USER_AGENT,
  MAX_CRAWL_DELAY_MS,
  parseRobots,
  robotsForStatus,
} from "../../src/crawl/robots";

const ORIGIN = "https://site.example.com";
const ROBOTS_URL = `${ORIGIN}/robots.txt`;
const at = (path: string) => `${ORIGIN}${path}`;

describe("parseRobots", () => {
  it("the user agent carries the token", () => {
    expect(CRAWLER_TOKEN).toBe("Edgeshot");
    expect(CRAWLER_USER_AGENT).toBe(
      "Mozilla/5.0 (compatible; Edgeshot/1.0; +https://edgeshot.dev/docs/crawler)",
    );
  });

  it("falls back to the * group when no group names Edgeshot", () => {
    const robots = parseRobots(
      ROBOTS_URL,
      "User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n",
    );
    expect(robots.allowed(at("/private/x"))).toBe(false);
    expect(robots.allowed(at("/public"))).toBe(true);
    expect(robots.allowed(at("/"))).toBe(true);
  });

  it("obeys the Edgeshot group (any case, any version) and not * when both exist", () => {
    for (const line of ["Edgeshot", "edgeshot", "EDGESHOT/2.0"]) {
      const robots = parseRobots(
        ROBOTS_URL,
        `User-agent: *\nDisallow: /private/\n\nUser-agent: ${line}\nDisallow: /no-edgeshot/\n`,
      );
      expect(robots.allowed(at("/no-edgeshot/a")), line).toBe(false);
      expect(robots.allowed(at("/private/a")), line).toBe(true); // * does not apply to us
    }
  });

  it("a group naming another agent that starts like ours is not ours", () => {
    const robots = parseRobots(ROBOTS_URL, "User-agent: EdgeshotBot\nDisallow: /\n");
    expect(robots.allowed(at("/x"))).toBe(true);
  });

  it("a group listing several agents, groups merged, longest match wins, Allow on a tie", () => {
    const robots = parseRobots(
      ROBOTS_URL,
      [
        "User-agent: other",
        "User-agent: Edgeshot",
        "Disallow: /shop/",
        "Allow: /shop/public/",
        "",
        "User-agent: Edgeshot",
        "Disallow: /*.pdf$",
        "Disallow: /tie",
        "Allow: /tie",
      ].join("\n"),
    );
    expect(robots.allowed(at("/shop/cart"))).toBe(false);
    expect(robots.allowed(at("/shop/public/item"))).toBe(true);
    expect(robots.allowed(at("/docs/a.pdf"))).toBe(false);
    expect(robots.allowed(at("/docs/a.pdf?x=1"))).toBe(true); // `$` anchors the end
    expect(robots.allowed(at("/tie"))).toBe(true);
  });

  it("allows everything when no group applies or the file is empty or garbage", () => {
    for (const body of ["", "User-agent: Googlebot\nDisallow: /\n", "<html>not robots</html>"]) {
      expect(parseRobots(ROBOTS_URL, body).allowed(at("/any")), body).toBe(true);
    }
  });

  it("a URL of another origin is not governed by this file: not allowed (fail closed)", () => {
    const robots = parseRobots(ROBOTS_URL, "User-agent: *\nAllow: /\n");
    expect(robots.allowed("https://other.example.com/x")).toBe(false);
    expect(robots.allowed("http://site.example.com/x")).toBe(false);
    expect(robots.allowed("https://site.example.com:8443/x")).toBe(false);
    expect(robots.allowed("https://site.example.com:443/x")).toBe(true);
    expect(robots.allowed("not a url")).toBe(false);
  });

  it("Crawl-delay of our group in ms, fractions kept, capped at 10 s; none → 0", () => {
    const delay = (body: string) => parseRobots(ROBOTS_URL, body).crawlDelayMs;
    expect(delay("User-agent: Edgeshot\nCrawl-delay: 0.1\n")).toBe(100);
    expect(delay("User-agent: Edgeshot\nCrawl-delay: 2.5\n")).toBe(2500);
    expect(delay("User-agent: *\nCrawl-delay: 3\n")).toBe(3000);
    expect(delay("User-agent: Edgeshot\nCrawl-delay: 60\n")).toBe(MAX_CRAWL_DELAY_MS);
    expect(MAX_CRAWL_DELAY_MS).toBe(10_000);
    expect(delay("User-agent: Edgeshot\nCrawl-delay: 1e9\n")).toBe(10_000);
    expect(delay("User-agent: Edgeshot\nCrawl-delay: soon\n")).toBe(0);
    expect(delay("User-agent: Edgeshot\nCrawl-delay: -5\n")).toBe(0);
    expect(delay("User-agent: *\nDisallow: /x\n")).toBe(0);
    // Our group without a delay: the * group's delay is not ours.
    expect(delay("User-agent: *\nCrawl-delay: 5\n\nUser-agent: Edgeshot\nDisallow: /x\n")).toBe(0);
  });

  it("Sitemap lines wherever they are, in order", () => {
    const robots = parseRobots(
      ROBOTS_URL,
      `Sitemap: ${ORIGIN}/a.xml\nUser-agent: *\nDisallow:\nsitemap: ${ORIGIN}/b.xml.gz # comment\n`,
    );
    expect(robots.sitemaps).toEqual([`${ORIGIN}/a.xml`, `${ORIGIN}/b.xml.gz`]);
    expect(robots.allowed(at("/x"))).toBe(true); // an empty Disallow disallows nothing
  });
});

describe("robotsForStatus (RFC 9309 §2.3.1)", () => {
  it("4xx (unavailable) allows everything", () => {
    for (const status of [400, 401, 403, 404, 410, 429, 499]) {
      const robots = robotsForStatus(status);
      expect(robots.allowed(at("/anything")), String(status)).toBe(true);
      expect(robots.crawlDelayMs).toBe(0);
      expect(robots.sitemaps).toEqual([]);
    }
  });

  it("5xx and unreachable disallow everything", () => {
    for (const status of [500, 502, 503, 504, 599, "unreachable"] as const) {
      const robots = robotsForStatus(status);
      expect(robots.allowed(at("/")), String(status)).toBe(false);
      expect(robots.allowed(at("/anything")), String(status)).toBe(false);
    }
  });
});
