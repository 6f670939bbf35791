/**
 * The reputation checker: is this URL flagged as unsafe (malware, phishing…)? Two sources:
 *
 * 1. A configured blocklist of host patterns (`UNSAFE_HOST_PATTERNS`): `example.bad` matches that
 *    host and every subdomain, `*.example.bad` only the subdomains. Local, synchronous, always
 *    on — it fails closed by construction.
 * 2. Google Safe Browsing Lookup API v4 (`threatMatches:find`) when `SAFE_BROWSING_API_KEY` is
 *    set. It is advisory and remote, so it FAILS OPEN: an error, a non-200 reply or no answer
 *    within 1.5 s lets the URL through with an error log line, and further lookups are skipped
 *    for 30 s (no request waits 1.5 s on an API that is down). Verdicts are cached in KV
 *    (`reputation:` keys, by SHA-256 of the URL) and per isolate: clean for 10 minutes,
 *    flagged for the match's `cacheDuration` (1 to 10 minutes).
 *
 * Applied to capture targets at request time and to document navigations in the browser
 * (src/security/target-check.ts).
 */
import { normalizeHost } from "../hosts";
import { log } from "../log";
import { sha256Hex } from "../encoding";
import { TUNING } from "../tuning";

export type Reputation =
  { flagged: false } | { flagged: true; source: "blocklist" | "safe-browsing"; threat: string };

/** After a failed lookup, skip the API (fail open at once) for this long. */
export const SAFE_BROWSING_BACKOFF_MS = 30_000;
export const CLEAN_CACHE_SECONDS = 600;
/** KV's shortest expirationTtl is 60 s. */
const MIN_CACHE_SECONDS = 60;
const KV_PREFIX = "reputation:sb:";
const MEMORY_ENTRIES = 5_000;

export const THREAT_TYPES = [
  "MALWARE",
  "SOCIAL_ENGINEERING",
  "UNWANTED_SOFTWARE",
  "POTENTIALLY_HARMFUL_APPLICATION",
] as const;
const CLIENT = { clientId: "edgeshot", clientVersion: "1.0" };

const CLEAN: Reputation = { flagged: false };

// ---------------------------------------------------------------------------------------------
// Blocklist

/** A matcher over canonical patterns: exact host or subdomain (`p`), subdomain only (`*.p`). */
export function hostPatternMatcher(
  patterns: readonly string[],
): (hostname: string) => string | null {
  const exactOrSub = new Set<string>();
  const subOnly = new Set<string>();
  for (const p of patterns) (p.startsWith("*.") ? subOnly : exactOrSub).add(p.replace(/^\*\./, ""));
  return (hostname) => {
    const host = normalizeHost(hostname);
    if (exactOrSub.has(host)) return host;
    // Walk the parent domains: a.b.c → b.c → c.
    for (let i = host.indexOf("."); i !== -1; i = host.indexOf(".", i + 1)) {
      const parent = host.slice(i + 1);
      if (exactOrSub.has(parent)) return parent;
      if (subOnly.has(parent)) return `*.${parent}`;
    }
    return null;
  };
}

// ---------------------------------------------------------------------------------------------
// Safe Browsing Lookup API v4

export interface SafeBrowsingOptions {
  apiKey: string;
  endpoint: string;
  /** Verdict cache shared across isolates (RENDER_CACHE); absent = per-isolate only. */
  kv?: KVNamespace;
  timeoutMs?: number;
}

interface ThreatMatch {
  threatType?: unknown;
  cacheDuration?: unknown;
}

const memory = new Map<string, { verdict: Reputation; expires: number }>();
const outageUntil = new Map<string, number>();

/** Test hook: forget cached verdicts and outages in this isolate. */
export function clearReputationCache(): void {
  memory.clear();
  outageUntil.clear();
}

/** What is looked up: the URL without its fragment (Safe Browsing ignores it too). */
export function lookupUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  copy.username = "";
  copy.password = "";
  return copy.href;
}

/** The request body of `threatMatches:find` for one URL. */
export function lookupBody(url: string): unknown {
  return {
    client: CLIENT,
    threatInfo: {
      threatTypes: THREAT_TYPES,
      platformTypes: ["ANY_PLATFORM"],
      threatEntryTypes: ["URL"],
      threatEntries: [{ url }],
    },
  };
}

function remember(key: string, verdict: Reputation, seconds: number): void {
  if (memory.size >= MEMORY_ENTRIES) memory.delete(memory.keys().next().value as string);
  memory.set(key, { verdict, expires: Date.now() + seconds * 1000 });
}

/** "300s" / "300.5s" (protobuf Duration JSON) → whole seconds clamped to [60, 600]. */
function cacheSeconds(duration: unknown): number {
  const m = typeof duration === "string" ? /^(\d+)(?:\.\d+)?s$/.exec(duration) : null;
  const seconds = m ? Number(m[1]) : 300;
  return Math.min(CLEAN_CACHE_SECONDS, Math.max(MIN_CACHE_SECONDS, seconds));
}

/** Looks a URL up; fails open (clean) when the API cannot answer. */
export async function safeBrowsingLookup(
  url: URL,
  options: SafeBrowsingOptions,
): Promise<Reputation> {
  const target = lookupUrl(url);
  const key = KV_PREFIX + (await sha256Hex(`${options.endpoint} ${target}`));
  const hit = memory.get(key);
  if (hit && hit.expires > Date.now()) return hit.verdict;
  if (hit) memory.delete(key);

  if (options.kv) {
    const stored = await options.kv.get<Reputation>(key, "json").catch(() => null);
    if (stored && typeof stored.flagged === "boolean") {
      remember(key, stored, MIN_CACHE_SECONDS);
      return stored;
    }
  }
  if ((outageUntil.get(options.endpoint) ?? 0) > Date.now()) return CLEAN;

  const outcome = await ask(target, options);
  if (outcome.kind === "error") {
    outageUntil.set(options.endpoint, Date.now() + SAFE_BROWSING_BACKOFF_MS);
    log("error", "safe browsing lookup failed; failing open", {
      reason: outcome.reason,
      backoffMs: SAFE_BROWSING_BACKOFF_MS,
    });
    return CLEAN;
  }
  outageUntil.delete(options.endpoint);
  const { verdict, seconds } = outcome;
  remember(key, verdict, seconds);
  if (options.kv) {
    await options.kv.put(key, JSON.stringify(verdict), { expirationTtl: seconds }).catch(() => {});
  }
  return verdict;
}

type Outcome =
  { kind: "verdict"; verdict: Reputation; seconds: number } | { kind: "error"; reason: string };

async function ask(target: string, options: SafeBrowsingOptions): Promise<Outcome> {
  const endpoint = new URL(options.endpoint);
  endpoint.searchParams.set("key", options.apiKey);
  const timeoutMs = options.timeoutMs ?? TUNING.safeBrowsingTimeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let body: unknown;
  try {
    const res = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(lookupBody(target)),
      signal: controller.signal,
    });
    if (!res.ok) {
      await res.body?.cancel();
      return { kind: "error", reason: `HTTP ${res.status}` };
    }
    body = await res.json();
  } catch (err) {
    return {
      kind: "error",
      reason: controller.signal.aborted ? `no answer within ${timeoutMs} ms` : String(err),
    };
  } finally {
    clearTimeout(timer);
  }
  if (typeof body !== "object" || body === null)
    return { kind: "error", reason: "malformed answer" };
  const matches = (body as { matches?: unknown }).matches;
  if (matches === undefined)
    return { kind: "verdict", verdict: CLEAN, seconds: CLEAN_CACHE_SECONDS };
  if (!Array.isArray(matches)) return { kind: "error", reason: "malformed answer (matches)" };
  if (matches.length === 0)
    return { kind: "verdict", verdict: CLEAN, seconds: CLEAN_CACHE_SECONDS };
  const first = matches[0] as ThreatMatch;
  const threat =
    typeof first.threatType === "string" ? first.threatType : "THREAT_TYPE_UNSPECIFIED";
  return {
    kind: "verdict",
    verdict: { flagged: true, source: "safe-browsing", threat },
    seconds: cacheSeconds(first.cacheDuration),
  };
}
