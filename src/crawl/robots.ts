/**
 * robots.txt for the crawler (RFC 9309): which URLs of one origin we may fetch, how long to wait
 * between requests, and the sitemaps it names. Parsing and matching are robots-parser's: it
 * implements RFC 9309's grammar and its matching (Google's robotstxt algorithm: the longest
 * match wins, Allow on a tie, `*` and `$`, percent-encoding normalised), groups merged per user
 * agent, with no dependencies. What is ours: the user-agent token, the crawl-delay cap and the
 * answer for a robots.txt that could not be read (§2.3.1).
 */
import robotsParser from "robots-parser";
import { SERVICE_TOKEN, SERVICE_USER_AGENT } from "../security/guarded-fetch";

/** The product token robots.txt groups name us by (`User-agent: Edgeshot`). */
export const CRAWLER_TOKEN = SERVICE_TOKEN;
/** The User-Agent of the crawler's own fetches (robots.txt, sitemaps, HTTP pages). */
export const CRAWLER_USER_AGENT = SERVICE_USER_AGENT;
/** The most of a robots.txt RFC 9309 §2.5 asks a crawler to parse (500 KiB). */
export const ROBOTS_MAX_BYTES = 500 * 1024;
/** The longest Crawl-delay honoured; a site asking for more is crawled at this pace. */
export const MAX_CRAWL_DELAY_MS = 10_000;

export interface Robots {
  /** May the crawler fetch `url`? False for a URL of another origin than the robots.txt's. */
  allowed(url: string): boolean;
  /** The group's Crawl-delay in ms (fractions of a second kept), capped; 0 when none. */
  crawlDelayMs: number;
  /** The `Sitemap:` URLs, as written (absolute per RFC 9309; resolve and check before use). */
  sitemaps: string[];
}

function delayMs(seconds: number | undefined): number {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.min(MAX_CRAWL_DELAY_MS, Math.round(seconds * 1000));
}

/**
 * The rules of `body`, the robots.txt at `robotsUrl`, for the group naming `Edgeshot` (any
 * case), or else the `*` group; no matching group allows everything. A URL of another origin
 * (scheme, host or port) is not governed by this file: `allowed` says false, fail closed — each
 * origin is read with its own robots.txt.
 */
export function parseRobots(robotsUrl: string, body: string): Robots {
  const robots = robotsParser(robotsUrl, body);
  return {
    allowed: (url) => robots.isAllowed(url, CRAWLER_TOKEN) === true,
    crawlDelayMs: delayMs(robots.getCrawlDelay(CRAWLER_TOKEN)),
    sitemaps: robots.getSitemaps(),
  };
}

const ALLOW_ALL: Robots = Object.freeze({ allowed: () => true, crawlDelayMs: 0, sitemaps: [] });
const DISALLOW_ALL: Robots = Object.freeze({ allowed: () => false, crawlDelayMs: 0, sitemaps: [] });

/**
 * The rules when robots.txt could not be read (RFC 9309 §2.3.1): "unavailable" — a 4xx, 404 or
 * 403 alike (§2.3.1.3) — allows everything; "unreachable" — a 5xx, or no answer at all
 * (§2.3.1.4) — disallows everything. A 2xx is parsed (`parseRobots`) and a 3xx followed (up to
 * five hops, §2.3.1.2), so neither is expected here: they allow everything, as "unavailable".
 */
export function robotsForStatus(status: number | "unreachable"): Robots {
  if (status === "unreachable" || status >= 500) return DISALLOW_ALL;
  return ALLOW_ALL;
}
