/**
 * Whether a crawl page may start now: robots.txt (fetched once per origin per crawl through the
 * URL guard — RFC 9309: a robots.txt governs its own scheme, host and port), the URL guard with the DNS and reputation checks (a refused
 * URL is skipped with no request made), at most `perHost` pages in flight (src/crawl/config.ts
 * `crawlConcurrency`),
 * and the robots.txt Crawl-delay (≤ 10 s) between starts.
 */
import { ApiError } from "../errors";
import { config as envConfig } from "../config";
import { checkUrl } from "../security/url-guard";
import { checkTarget, UnresolvableTarget } from "../security/target-check";
import { TUNING } from "../tuning";
import { guardedFetch } from "../security/guarded-fetch";
import { inFlight } from "./frontier";
import { parseRobots, ROBOTS_MAX_BYTES, type Robots, robotsForStatus } from "./robots";

export type Gate =
  | { kind: "go" }
  /** Until a time (Crawl-delay), or null: until one of the host's pages in flight finishes. */
  | { kind: "wait"; until: number | null }
  | { kind: "skip"; reason: "robots" | "blocked" }
  | { kind: "fail"; reason: "unreachable" | "capture_failed" };

interface OriginRow extends Record<string, SqlStorageValue> {
  origin: string;
  robots_status: number | null;
  robots_body: string | null;
  next_at: number;
}

/** robots_status for a robots.txt that could not be fetched at all (RFC 9309 "unreachable"). */
const UNREACHABLE = 0;

export class Politeness {
  private readonly parsed = new Map<string, Robots>();
  /** robots.txt reads under way, by origin. */
  private readonly asking = new Map<string, Promise<Robots>>();

  constructor(
    private readonly sql: SqlStorage,
    private readonly env: Env,
  ) {}

  /**
   * What needs no request first: a page whose host is busy (pages in flight, Crawl-delay) waits
   * unchecked. The alarm gates every pending page, and checked first, each waiting page cost a
   * reputation lookup (a KV read, or a Safe Browsing call) on every run of the alarm, about once
   * a second for a long crawl. Then the URL guard: a refused URL gets no request, not even for
   * its robots.txt.
   */
  async gate(url: URL, href: string, perHost: number): Promise<Gate> {
    const held = this.hold(url, perHost);
    if (held) return held;
    const guarded = await this.guard(url);
    if (guarded.kind !== "go") return guarded;
    const robots = await this.robots(url);
    if (!robots.allowed(href)) return { kind: "skip", reason: "robots" };
    return { kind: "go" };
  }

  /**
   * Whether `url`'s host must wait (its pages in flight, its Crawl-delay), asking nothing of
   * the network. The gate awaits requests (robots.txt, reputation), and other calls into the
   * Crawl DO run meanwhile: its caller asks again, synchronously, right before starting a page.
   */
  hold(url: URL, perHost: number): { kind: "wait"; until: number | null } | null {
    if (inFlight(this.sql, url.host) >= perHost) return { kind: "wait", until: null };
    const origin = this.origin(url.origin);
    return origin.next_at > Date.now() ? { kind: "wait", until: origin.next_at } : null;
  }

  /** A page of `url`'s host starts now: the next one waits the Crawl-delay. */
  started(url: URL): void {
    const delay = this.parsed.get(url.origin)?.crawlDelayMs ?? 0;
    this.sql.exec(
      "UPDATE origins SET next_at = ? WHERE origin = ?",
      Date.now() + delay,
      url.origin,
    );
  }

  /**
   * The host's robots.txt rules, fetched the first time the crawl meets the host: once, however
   * many calls into the Crawl DO ask for the host's pages meanwhile (renderers take pages at once).
   */
  async robots(url: URL): Promise<Robots> {
    const known = this.parsed.get(url.origin);
    if (known) return known;
    let asked = this.asking.get(url.origin);
    if (!asked) {
      asked = this.readRobots(url).finally(() => this.asking.delete(url.origin));
      this.asking.set(url.origin, asked);
    }
    return asked;
  }

  private async readRobots(url: URL): Promise<Robots> {
    let row = this.origin(url.origin);
    if (row.robots_status === null) {
      const fetched = await fetchRobots(this.env, url);
      this.sql.exec(
        "UPDATE origins SET robots_status = ?, robots_body = ? WHERE origin = ?",
        fetched.status,
        fetched.body,
        url.origin,
      );
      row = { ...row, robots_status: fetched.status, robots_body: fetched.body };
    }
    const robots = robotsOf(url, {
      status: row.robots_status ?? UNREACHABLE,
      body: row.robots_body,
    });
    this.parsed.set(url.origin, robots);
    return robots;
  }

  private origin(origin: string): OriginRow {
    this.sql.exec("INSERT OR IGNORE INTO origins (origin) VALUES (?)", origin);
    return this.sql.exec<OriginRow>("SELECT * FROM origins WHERE origin = ?", origin).one();
  }

  /** The capture's own checks, before any request: the URL guard, DNS, reputation. */
  private async guard(url: URL): Promise<Gate> {
    const verdict = checkUrl(url.href, "target", envConfig(this.env).targetAllowlist);
    if (!verdict.ok) return { kind: "skip", reason: "blocked" };
    try {
      await checkTarget(this.env, verdict.url);
      return { kind: "go" };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err instanceof UnresolvableTarget) return { kind: "fail", reason: "unreachable" };
      if (err.code === "INVALID_URL" || err.code === "UNSAFE_URL")
        return { kind: "skip", reason: "blocked" };
      return { kind: "fail", reason: err.status === 400 ? "unreachable" : "capture_failed" };
    }
  }
}

/** A host's robots.txt as fetched: its status (0 = unreachable) and, on 2xx, its text. */
export interface FetchedRobots {
  status: number;
  body: string | null;
}

export async function fetchRobots(env: Env, url: URL): Promise<FetchedRobots> {
  const answer = await guardedFetch(env, `${url.origin}/robots.txt`, {
    maxBytes: ROBOTS_MAX_BYTES,
    timeoutMs: TUNING.crawlFetchTimeoutMs,
  });
  if (answer.kind !== "ok") return { status: UNREACHABLE, body: null };
  const ok = answer.status >= 200 && answer.status < 300;
  return { status: answer.status, body: ok ? new TextDecoder().decode(answer.body) : null };
}

/** The rules of a fetched robots.txt (RFC 9309: 4xx allows all; 5xx or unreachable, nothing). */
export function robotsOf(url: URL, fetched: FetchedRobots): Robots {
  const { status, body } = fetched;
  if (status >= 200 && status < 300 && body !== null)
    return parseRobots(`${url.origin}/robots.txt`, body);
  return robotsForStatus(status === UNREACHABLE ? "unreachable" : status);
}
