/**
 * The resolver check: a host name whose DNS answers include a blocked address must not be
 * reached. The URL guard only sees the name (`rebind.attacker.com` looks public); this asks a
 * DNS-over-HTTPS resolver (the JSON API, `application/dns-json`, as served by Cloudflare's
 * and Google's resolvers) for the name's A and AAAA records and classifies every address in the
 * answer — CNAME chains included, since a recursive resolver returns the whole chain — with the
 * URL guard's `isBlockedAddress`.
 *
 * Fail closed: anything but a clean answer refuses the name. A transport failure, a timeout, a
 * non-200 reply, a malformed body, an rcode other than NOERROR/NXDOMAIN, or an address that does
 * not parse is never read as "public". One blocked address among public ones blocks the name
 * (the browser may pick any of them).
 *
 * What it cannot do: the browser resolves the name again when it connects, so an authoritative
 * server that answers "public" to us and "127.0.0.1" a moment later (DNS rebinding between
 * check and use) is not caught here. See docs/SECURITY.md for the layers that cover that.
 *
 * Verdicts are cached per isolate, per resolver and name, for the answer's TTL capped at
 * 5 minutes (negative answers 30 s; failures are never cached); concurrent lookups of one name
 * share one query.
 */
import { normalizeHost } from "../hosts";
import { isBlockedAddress } from "./url-guard";

export type DnsVerdict =
  /** Every A/AAAA address in the answer is public. */
  | { kind: "public"; addresses: string[] }
  /** At least one address in the answer must never be reached (or does not parse). */
  | { kind: "blocked"; address: string }
  /** The name has no address: NXDOMAIN, NOERROR with no A/AAAA, SERVFAIL/REFUSED for it. */
  | { kind: "unresolvable"; reason: string }
  /** The resolver could not be asked (network, timeout, HTTP status, malformed answer). */
  | { kind: "error"; reason: string };

export interface DnsCheckOptions {
  /** The DoH JSON endpoint, e.g. https://cloudflare-dns.com/dns-query. */
  endpoint: string;
  /** Per query (A and AAAA run in parallel). */
  timeoutMs?: number;
}

export const DOH_TIMEOUT_MS = 1500;
/** Longest a verdict is reused, whatever the TTL says. */
export const DNS_CACHE_MAX_SECONDS = 300;
/** NXDOMAIN and empty answers: reused briefly (RFC 2308's SOA minimum is not worth parsing). */
export const DNS_NEGATIVE_CACHE_SECONDS = 30;
const CACHE_ENTRIES = 5_000;

const RR_A = 1;
const RR_CNAME = 5;
const RR_AAAA = 28;
const RCODE_NOERROR = 0;
const RCODE_NXDOMAIN = 3;
const RCODE_NAMES: Record<number, string> = {
  1: "FORMERR",
  2: "SERVFAIL",
  4: "NOTIMP",
  5: "REFUSED",
};

interface DohAnswer {
  name?: unknown;
  type?: unknown;
  TTL?: unknown;
  data?: unknown;
}

/** One query's outcome: addresses with their TTLs, no such name, or why it failed. */
type QueryResult =
  | { kind: "answer"; addresses: Array<{ address: string; ttl: number }>; minTtl: number }
  | { kind: "nxdomain" }
  | { kind: "rcode"; reason: string }
  | { kind: "error"; reason: string };

const cache = new Map<string, { verdict: DnsVerdict; expires: number }>();
const pending = new Map<string, Promise<DnsVerdict>>();

/** Test hook: forget every cached verdict. */
export function clearDnsCache(): void {
  cache.clear();
}

/** The name as a resolver wants it: no trailing dot, lower case (the URL parser gives punycode). */
function queryName(hostname: string): string {
  return normalizeHost(hostname);
}

/** Resolves `hostname` (a canonical DNS name, never an IP literal) and classifies the answer. */
export async function checkHostDns(
  hostname: string,
  options: DnsCheckOptions,
): Promise<DnsVerdict> {
  const name = queryName(hostname);
  const key = `${options.endpoint} ${name}`;
  const hit = cache.get(key);
  if (hit && hit.expires > Date.now()) return hit.verdict;
  if (hit) cache.delete(key);
  const inFlight = pending.get(key);
  if (inFlight) return inFlight;

  const lookup = resolve(name, options)
    .then(({ verdict, ttl }) => {
      if (ttl > 0) {
        if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
        cache.set(key, { verdict, expires: Date.now() + ttl * 1000 });
      }
      return verdict;
    })
    .finally(() => pending.delete(key));
  pending.set(key, lookup);
  return lookup;
}

async function resolve(
  name: string,
  options: DnsCheckOptions,
): Promise<{ verdict: DnsVerdict; ttl: number }> {
  const timeoutMs = options.timeoutMs ?? DOH_TIMEOUT_MS;
  const [a, aaaa] = await Promise.all([
    query(name, "A", options.endpoint, timeoutMs),
    query(name, "AAAA", options.endpoint, timeoutMs),
  ]);
  const results = [a, aaaa];

  // A blocked address anywhere decides, whatever the other query said.
  const addresses = results.flatMap((r) => (r.kind === "answer" ? r.addresses : []));
  const blocked = addresses.find((r) => isBlockedAddress(r.address));
  const ttls = results.flatMap((r) =>
    r.kind === "answer" && r.addresses.length > 0 ? [r.minTtl] : [],
  );
  const ttl = Math.min(DNS_CACHE_MAX_SECONDS, ...ttls);
  if (blocked) return { verdict: { kind: "blocked", address: blocked.address }, ttl };

  const failed = results.find((r) => r.kind === "error");
  if (failed?.kind === "error")
    return { verdict: { kind: "error", reason: failed.reason }, ttl: 0 };
  const refused = results.find((r) => r.kind === "rcode");
  if (refused?.kind === "rcode")
    return { verdict: { kind: "unresolvable", reason: refused.reason }, ttl: 0 };
  if (addresses.length === 0) {
    const reason = results.every((r) => r.kind === "nxdomain")
      ? "NXDOMAIN"
      : "no A or AAAA records";
    return { verdict: { kind: "unresolvable", reason }, ttl: DNS_NEGATIVE_CACHE_SECONDS };
  }
  return { verdict: { kind: "public", addresses: addresses.map((a) => a.address) }, ttl };
}

async function query(
  name: string,
  type: "A" | "AAAA",
  endpoint: string,
  timeoutMs: number,
): Promise<QueryResult> {
  const url = new URL(endpoint);
  url.searchParams.set("name", name);
  url.searchParams.set("type", type);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let body: unknown;
  try {
    const res = await fetch(url, {
      headers: { accept: "application/dns-json" },
      signal: controller.signal,
    });
    if (!res.ok) {
      await res.body?.cancel();
      return { kind: "error", reason: `resolver answered HTTP ${res.status} for ${type}` };
    }
    body = await res.json();
  } catch (err) {
    const reason = controller.signal.aborted
      ? `resolver timed out after ${timeoutMs} ms`
      : `resolver unreachable: ${String(err)}`;
    return { kind: "error", reason: `${reason} (${type})` };
  } finally {
    clearTimeout(timer);
  }
  return parseAnswer(body, type);
}

/** Reads a DoH JSON reply: Status, then every A/AAAA record in Answer (CNAMEs are skipped). */
export function parseAnswer(body: unknown, type: "A" | "AAAA"): QueryResult {
  if (typeof body !== "object" || body === null)
    return { kind: "error", reason: `malformed ${type} answer` };
  const { Status, Answer } = body as { Status?: unknown; Answer?: unknown };
  if (typeof Status !== "number")
    return { kind: "error", reason: `malformed ${type} answer (no Status)` };
  if (Status === RCODE_NXDOMAIN) return { kind: "nxdomain" };
  if (Status !== RCODE_NOERROR)
    return { kind: "rcode", reason: `${RCODE_NAMES[Status] ?? `rcode ${Status}`} for ${type}` };
  if (Answer !== undefined && !Array.isArray(Answer))
    return { kind: "error", reason: `malformed ${type} answer (Answer)` };
  const addresses: Array<{ address: string; ttl: number }> = [];
  for (const record of (Answer ?? []) as DohAnswer[]) {
    if (typeof record !== "object" || record === null)
      return { kind: "error", reason: `malformed ${type} record` };
    if (record.type === RR_CNAME) continue;
    if (record.type !== RR_A && record.type !== RR_AAAA) continue; // DNAME, RRSIG…: not addresses
    // A non-string address is kept as "" so that the check below refuses it (fail closed).
    const address = typeof record.data === "string" ? record.data.trim() : "";
    const ttl =
      typeof record.TTL === "number" && Number.isFinite(record.TTL)
        ? Math.max(0, Math.floor(record.TTL))
        : 0;
    addresses.push({ address, ttl });
  }
  const minTtl = addresses.reduce((m, a) => Math.min(m, a.ttl), DNS_CACHE_MAX_SECONDS);
  return { kind: "answer", addresses, minTtl };
}
