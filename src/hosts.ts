/**
 * The one host-name normaliser, the canonical form of a host pattern, and a host's site (its
 * registrable domain). A leaf but for tldts (the Public Suffix List): URL guard, DNS, reputation,
 * ad blocking, config (the target allowlist), cookies, first-party requests, crawl scope and watch quotas use it.
 */
import { parse } from "tldts";

/**
 * The registrable domain of `hostname` (`example.co.uk` for `a.b.example.co.uk`; private
 * suffixes such as `github.io` count), or the host itself for an IP address or a name with no
 * public suffix (`localhost`).
 */
export function siteOf(hostname: string): string {
  const parsed = parse(hostname, { allowPrivateDomains: true });
  return parsed.isIp || parsed.domain === null ? hostname : parsed.domain;
}

/** `Ads.Example.COM.` → `ads.example.com`: trimmed, lower case, one trailing dot dropped. */
export function normalizeHost(hostname: string): string {
  const host = hostname.trim().toLowerCase();
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

/**
 * Canonical form of one `UNSAFE_HOST_PATTERNS` entry (`host` or `*.host`), through the URL
 * parser so that case, IDN, trailing dots and IPv4 spellings compare the way URLs will; null
 * when it is not a bare host.
 */
export function canonicalHostPattern(raw: string): string | null {
  const entry = raw.trim();
  const wildcard = entry.startsWith("*.");
  const host = wildcard ? entry.slice(2) : entry;
  if (host.length === 0 || /[\s/\\?#@*:]/.test(host.replace(/^\[[0-9a-fA-F:.]+\]$/, "v6")))
    return null;
  let hostname: string;
  try {
    const url = new URL(`http://${host}/`);
    if (url.port !== "" || url.pathname !== "/") return null;
    hostname = url.hostname.replace(/\.$/, "");
  } catch {
    return null;
  }
  if (hostname.length === 0 || hostname.split(".").includes("")) return null;
  if (wildcard && (hostname.startsWith("[") || /^[\d.]+$/.test(hostname))) return null; // *.<IP>
  return wildcard ? `*.${hostname}` : hostname;
}

/** The spellings of this machine's loopback that one allowlist entry stands for, as `host`. */
const LOOPBACK_SPELLINGS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The allowlist from its entries (`TARGET_ALLOWLIST`, lower-cased `host:port`): each entry as
 * given, and an entry on loopback — `localhost:P`, `127.0.0.1:P` or `[::1]:P` — stands for port P
 * of this machine's loopback under all three spellings. Chromium answers `localhost` with a
 * loopback address itself (never DNS), over IPv6 or IPv4 as the app listens, and the page's
 * response is checked against the address the browser connected to: with `localhost:3000` alone,
 * a capture of it would be refused at `127.0.0.1:3000`; with `127.0.0.1:3000` alone,
 * `http://localhost:3000` would be refused by name. A loopback port that is not listed stays
 * refused under every spelling.
 */
export function allowlistFrom(entries: readonly string[]): ReadonlySet<string> {
  const set = new Set<string>();
  for (const entry of entries) {
    set.add(entry);
    const cut = entry.lastIndexOf(":");
    if (!LOOPBACK_SPELLINGS.includes(entry.slice(0, cut))) continue;
    for (const host of LOOPBACK_SPELLINGS) set.add(`${host}${entry.slice(cut)}`);
  }
  return set;
}
