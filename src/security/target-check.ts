/**
 * The asynchronous half of target checking, after the (synchronous) URL guard has passed:
 * the unsafe-host blocklist, the DNS check and Safe Browsing. Two entry points:
 *
 * - `checkTarget(env, url)`: at request time, for a capture target (prepareCapture). Throws the
 *   ApiError to answer with; nothing is reserved or launched before it passes.
 * - `navigationVetter(env)`: inside the browser, for every document navigation (the first one,
 *   redirect hops, frames): the page's interception handler awaits it before continuing.
 *   Safe Browsing is asked for main-frame navigations only; the blocklist and the DNS check
 *   apply to every frame. Subresources are not vetted here (see docs/SECURITY.md).
 *
 * Allowlisted `host:port` entries and IP-literal hosts skip the DNS check (the guard already
 * classified them); the reputation checks apply to every URL, allowlisted or not.
 */
import { config, type Config } from "../config";
import { ApiError } from "../errors";
import { MESSAGES } from "../user-messages";
import { checkHostDns, type DnsCheckOptions, type DnsVerdict } from "./dns";
import { ipLiteralBlockReason } from "./ip";
import {
  hostPatternMatcher,
  safeBrowsingLookup,
  type Reputation,
  type SafeBrowsingOptions,
} from "./reputation";
import { log, type LogLevel } from "../log";
import { TUNING } from "../tuning";

/** What the browser does with a navigation: go on, refuse it (unreachable), refuse it (unsafe). */
export type NavigationVerdict = "allow" | "blocked" | "unsafe";

interface Checks {
  allowlist: ReadonlySet<string>;
  unsafeHost: (hostname: string) => string | null;
  safeBrowsing: SafeBrowsingOptions | null;
  dns: DnsCheckOptions | null;
}

const built = new WeakMap<Config, Checks>();

function checksFor(env: Env): Checks {
  const cfg = config(env);
  let checks = built.get(cfg);
  if (!checks) {
    checks = {
      allowlist: cfg.targetAllowlist,
      unsafeHost: hostPatternMatcher(cfg.unsafeHostPatterns),
      safeBrowsing: cfg.safeBrowsingApiKey
        ? {
            apiKey: cfg.safeBrowsingApiKey,
            endpoint: cfg.safeBrowsingEndpoint,
            timeoutMs: cfg.safeBrowsingTimeoutMs,
            kv: env.RENDER_CACHE,
          }
        : null,
      dns: cfg.dnsCheck ? { endpoint: cfg.dohEndpoint } : null,
    };
    built.set(cfg, checks);
  }
  return checks;
}

/** IP literals were classified by the guard; allowlisted host:port entries are trusted. */
function needsDns(url: URL, allowlist: ReadonlySet<string>): boolean {
  if (ipLiteralBlockReason(url.hostname) !== undefined) return false;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return !allowlist.has(`${url.hostname}:${port}`);
}

const NOT_ASKED: Reputation = { flagged: false };

function dnsFor(url: URL, checks: Checks): Promise<DnsVerdict | null> {
  return checks.dns && needsDns(url, checks.allowlist)
    ? checkHostDns(url.hostname, checks.dns)
    : Promise.resolve(null);
}

/** Logs with the host only: a URL's query may carry the customer's tokens. */
function logHost(level: LogLevel, msg: string, url: URL, extra: Record<string, unknown>): void {
  log(level, msg, { host: url.hostname, ...extra });
}

/**
 * A capture target the URL guard or the DNS check refuses: 400 INVALID_URL naming `url`, saying
 * why (`why`: the guard's reason, or what the DNS check found). The caller's to fix.
 */
export function invalidTarget(why: string): ApiError {
  return new ApiError("INVALID_URL", `The url is not a public http(s) URL: ${why}.`, {
    details: [{ path: "url", message: `Must be a public http or https URL (${why}).` }],
  });
}

/**
 * A name that does not resolve: to the caller, 400 INVALID_URL saying so; to a crawl, a place
 * that cannot be reached (a failure), not a blocked one (a skip) — hence its own class.
 */
export class UnresolvableTarget extends ApiError {
  constructor(host: string, reason: string) {
    const why = `${host} does not resolve (${reason})`;
    super("INVALID_URL", `The url is not a public http(s) URL: ${why}.`, {
      details: [{ path: "url", message: `Must be a public http or https URL (${why}).` }],
    });
  }
}

/**
 * A refusal of `checkTarget` about another field than `url` (an artifact's logo, a storage
 * endpoint): the same code, status and headers, its message and details naming `path`.
 */
export function refusalOf(err: ApiError, path: string): ApiError {
  return new ApiError(err.code, err.message.replace(/^The url\b/, `The ${path}`), {
    status: err.status,
    headers: err.extraHeaders,
    details: (err.details ?? []).map((d) => (d.path === "url" ? { ...d, path } : d)),
  });
}

/** Request-time check of a capture target that passed the URL guard; throws the answer. */
export async function checkTarget(env: Env, url: URL): Promise<void> {
  const checks = checksFor(env);
  const listed = checks.unsafeHost(url.hostname);
  if (listed !== null) {
    logHost("info", "target refused: unsafe host pattern", url, { pattern: listed });
    throw unsafeError();
  }
  const [dns, reputation] = await Promise.all([
    dnsFor(url, checks),
    checks.safeBrowsing ? safeBrowsingLookup(url, checks.safeBrowsing) : Promise.resolve(NOT_ASKED),
  ]);
  if (dns?.kind === "blocked") {
    logHost("info", "target refused: resolves to a blocked address", url, { address: dns.address });
    throw invalidTarget(`${url.hostname} resolves to a private or reserved address`);
  }
  if (reputation.flagged) {
    logHost("info", "target refused: flagged by Safe Browsing", url, { threat: reputation.threat });
    throw unsafeError();
  }
  if (dns?.kind === "unresolvable") {
    logHost("info", "target refused: does not resolve", url, { reason: dns.reason });
    throw new UnresolvableTarget(url.hostname, dns.reason);
  }
  if (dns?.kind === "error") {
    // A warning: the 503 says what happened, and offline (npm start with no internet) it is the
    // answer to every public URL, not a fault of ours to look at (docs/LOCAL-DEV.md).
    logHost("warn", "target refused: DNS check failed (fail closed)", url, { reason: dns.reason });
    throw urlCheckUnavailable();
  }
}

/**
 * The DNS check itself failed (fail closed): ours, not the caller's — 503 URL_CHECK_UNAVAILABLE
 * with Retry-After (failures are never cached, so the next try asks again). `path` is the field
 * whose URL was being checked (a capture's `url`, a `webhookUrl`). The error's docs link says
 * what an offline deployment does about it.
 */
export function urlCheckUnavailable(path = "url"): ApiError {
  return new ApiError(
    "URL_CHECK_UNAVAILABLE",
    `The ${path} could not be checked: the DNS resolver could not be reached. Nothing was ` +
      "fetched; retry shortly (a deployment without internet reaches only allowlisted targets).",
    {
      details: [{ path, message: "Not checked: the DNS resolver could not be reached." }],
      headers: { "retry-after": String(TUNING.urlCheckRetryAfterSeconds) },
    },
  );
}

function unsafeError(): ApiError {
  return new ApiError("UNSAFE_URL", MESSAGES.unsafeUrl, {
    details: [{ path: "url", message: "Flagged as malware, phishing or unwanted software." }],
  });
}

/** The in-browser check of a document navigation, for the page's interception handler. */
export function navigationVetter(
  env: Env,
): (url: URL, mainFrame: boolean) => Promise<NavigationVerdict> {
  const checks = checksFor(env);
  return async (url, mainFrame) => {
    if (checks.unsafeHost(url.hostname) !== null) return "unsafe";
    const [dns, reputation] = await Promise.all([
      dnsFor(url, checks),
      mainFrame && checks.safeBrowsing
        ? safeBrowsingLookup(url, checks.safeBrowsing)
        : Promise.resolve(NOT_ASKED),
    ]);
    if (dns !== null && dns.kind !== "public") {
      if (dns.kind === "error")
        logHost("warn", "navigation refused: DNS check failed (fail closed)", url, {
          reason: dns.reason,
        });
      return "blocked";
    }
    return reputation.flagged ? "unsafe" : "allow";
  };
}
