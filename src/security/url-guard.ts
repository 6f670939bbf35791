/**
 * The URL guard: one set of pure functions used for every URL we may fetch or let the browser
 * load (targets, webhooks, logos, and every request a page makes). It canonicalises with the
 * WHATWG URL parser (the same one `fetch()` and Chromium use, so decimal/octal/hex IPv4,
 * full-width and percent-encoded hosts, `\` and `@` tricks, tabs and newlines all come out the
 * way they will be fetched), then classifies the scheme, the host name and the address. What
 * does not parse is refused. Host names that resolve to blocked addresses are a DNS concern
 * handled by the resolver check; this module only sees the URL.
 */
import { LIMITS } from "../../schemas/limits";
import { ipLiteralBlockReason } from "./ip";

export type GuardPurpose =
  | "target" // a capture/extract target URL given by the customer: http(s) only
  | "webhook" // a webhook URL: https only (http only for an allowlisted host:port), no credentials
  | "navigation" // in the browser: a document/frame navigation or redirect: http(s), about:blank
  | "subresource"; // inside the browser: any other request: http(s), ws(s), data: and blob:
export type GuardResult = { ok: true; url: URL } | { ok: false; reason: string };

/** Length caps per purpose; in-browser URLs are not capped (data: URLs are legitimately huge). */
const MAX_CHARS: Partial<Record<GuardPurpose, number>> = {
  target: LIMITS.urlChars,
  webhook: LIMITS.webhookUrlChars,
};

/** Schemes that reach the network through a host, per purpose. */
const NETWORK_SCHEMES: Record<GuardPurpose, readonly string[]> = {
  target: ["http:", "https:"],
  webhook: ["http:", "https:"],
  navigation: ["http:", "https:"],
  subresource: ["http:", "https:", "ws:", "wss:"],
};
const DEFAULT_PORTS: Readonly<Record<string, string>> = {
  "http:": "80",
  "https:": "443",
  "ws:": "80",
  "wss:": "443",
};

/**
 * Suffixes that never name a public site: special-use names (RFC 6761, 6762, 7686, 8375, 9476),
 * ICANN's private-use `.internal`, and the undelegated TLDs intranets and home routers use.
 */
const BLOCKED_SUFFIXES: readonly string[] = [
  "localhost",
  "local",
  "internal",
  "home.arpa",
  "localdomain",
  "lan",
  "home",
  "corp",
  "intranet",
  "private",
  "test",
  "invalid",
  "example",
  "onion",
  "alt",
];
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

const refuse = (reason: string): GuardResult => ({ ok: false, reason });

/** Why a canonical domain name (from the URL parser) is blocked, or null when it may be public. */
function nameBlockReason(host: string): string | null {
  const name = host.endsWith(".") ? host.slice(0, -1) : host; // one trailing dot = FQDN
  if (name.length === 0 || name.length > 253) return "invalid host name";
  const labels = name.split(".");
  if (!labels.every((l) => LABEL.test(l))) return "invalid host name";
  const suffix = BLOCKED_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
  if (suffix !== undefined) return `reserved name (.${suffix})`;
  if (labels.length < 2) return "single-label host name";
  return TLD.test(labels[labels.length - 1] ?? "") ? null : "invalid top-level domain";
}

/** Why a canonical host (`url.hostname`) is blocked, or null when it may be reached. */
function hostBlockReason(host: string): string | null {
  const ip = ipLiteralBlockReason(host);
  return ip === undefined ? nameBlockReason(host) : ip;
}

/**
 * Canonicalise a bare host (name, IPv4 in any encoding, `[v6]` or bare v6) with the URL parser;
 * null when it is not exactly one host (a port, path, credentials or garbage came with it).
 */
function canonicalHost(raw: string): string | null {
  if (raw.length === 0 || /[\s/\\?#@]/.test(raw)) return null;
  const bracketed = raw.includes(":") && !raw.startsWith("[") ? `[${raw}]` : raw;
  if (bracketed.startsWith("[") && !bracketed.endsWith("]")) return null;
  try {
    const url = new URL(`http://${bracketed}/`);
    return url.port === "" && url.pathname === "/" ? url.hostname : null;
  } catch {
    return null;
  }
}

/** Host, port and credential rules for a URL whose scheme reaches the network. */
function checkNetworkUrl(
  url: URL,
  purpose: GuardPurpose,
  allowlist: ReadonlySet<string>,
): GuardResult {
  if (purpose === "webhook" && (url.username !== "" || url.password !== "")) {
    return refuse("credentials are not allowed in a webhook URL");
  }
  if (isAllowlisted(url, allowlist)) return { ok: true, url };
  if (purpose === "webhook" && url.protocol !== "https:") return refuse("webhook must be https");
  if (url.port === "0") return refuse("port 0");
  const why = hostBlockReason(url.hostname);
  return why === null ? { ok: true, url } : refuse(`blocked host: ${why}`);
}

/** Canonicalise with the WHATWG URL parser, then classify scheme, host name and address. */
export function checkUrl(
  input: string,
  purpose: GuardPurpose,
  allowlist: ReadonlySet<string>,
): GuardResult {
  const cap = MAX_CHARS[purpose];
  if (cap !== undefined && input.length > cap) return refuse("URL too long");
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse("unparseable URL");
  }
  if (cap !== undefined && url.href.length > cap) return refuse("URL too long");
  const scheme = url.protocol;
  if (NETWORK_SCHEMES[purpose].includes(scheme)) return checkNetworkUrl(url, purpose, allowlist);
  if (purpose === "navigation" && scheme === "about:" && url.pathname === "blank") {
    return { ok: true, url };
  }
  if (purpose === "subresource" && (scheme === "data:" || scheme === "blob:")) {
    return { ok: true, url };
  }
  return refuse(`scheme ${scheme} is not allowed here`);
}

/**
 * Classify a bare host (name, IPv4 in any encoding, or [IPv6]) — true when it must never be
 * reached. A bare IPv6 is accepted too; a port, path or credentials alongside it is blocked.
 */
export function isBlockedHost(hostname: string): boolean {
  const host = canonicalHost(hostname);
  return host === null || hostBlockReason(host) !== null;
}

/** Classify a literal IP address string (after URL canonicalisation): true when blocked. */
export function isBlockedAddress(address: string): boolean {
  const host = canonicalHost(address);
  const why = host === null ? undefined : ipLiteralBlockReason(host);
  return why !== null; // not an IP literal (undefined) is blocked too
}

/**
 * The address a browser actually connected to (CDP's remoteIPAddress and remotePort of a
 * response): true when it is blocked and its `ip:port` is not allowlisted. Catches DNS rebinding
 * between our resolver check and Chromium's own lookup. Takes `1.2.3.4`, `::1` or `[::1]`.
 */
export function isBlockedRemoteAddress(
  ip: string,
  port: number,
  allowlist: ReadonlySet<string>,
): boolean {
  const host = ip.includes(":") && !ip.startsWith("[") ? `[${ip}]` : ip;
  if (allowlist.has(`${host}:${port}`)) return false;
  return isBlockedAddress(host);
}

/**
 * Whether `url`'s own `host:port` is on the allowlist (local development and tests; empty in
 * production): not merely an address a name of it resolves to.
 */
export function isAllowlisted(url: URL, allowlist: ReadonlySet<string>): boolean {
  return allowlist.has(`${url.hostname}:${url.port || DEFAULT_PORTS[url.protocol] || ""}`);
}

/**
 * Whether a response to `url` may reach the page only once the browser has said where it
 * connected: a host name (DNS may point it anywhere, and may change its mind between our check
 * and the browser's lookup) that is not an allowlisted `host:port`. An IP literal was classified
 * before its request, and is where the browser connects.
 */
export function needsAddressCheck(url: URL, allowlist: ReadonlySet<string>): boolean {
  const scheme = url.protocol;
  if (!(scheme in DEFAULT_PORTS)) return false;
  if (ipLiteralBlockReason(url.hostname) !== undefined) return false;
  return !isAllowlisted(url, allowlist);
}

/**
 * Why a response to `url` that the network service reports from address space `space` must not
 * reach the page, or null. `space` is CDP's IPAddressSpace of the connection
 * (`Network.responseReceivedExtraInfo`): `Public`, `Local`, `Loopback`, `Unknown` (before Local
 * Network Access: `Private` and `Local`). Anything but `Public` is refused — except where an
 * allowlisted address outside the public space has the URL's port (local development and tests,
 * where a name is mapped onto an allowlisted fixture; the allowlist is empty in production).
 */
export function addressSpaceRefusal(
  space: string,
  url: URL,
  allowlist: ReadonlySet<string>,
): string | null {
  if (space === "Public") return null;
  const port = url.port || DEFAULT_PORTS[url.protocol] || "";
  for (const entry of allowlist) {
    const cut = entry.lastIndexOf(":");
    if (entry.slice(cut + 1) !== port) continue;
    const host = entry.slice(0, cut);
    if (ipLiteralBlockReason(host) !== undefined && isBlockedAddress(host)) return null;
  }
  return `response from a ${space.toLowerCase()} address (${url.host})`;
}
