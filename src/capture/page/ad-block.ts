/**
 * Ad and tracker host matching for `blockAds`: the curated list in src/data/ad-hosts.ts plus
 * the hosts an operator adds through AD_BLOCK_EXTRA_HOSTS. A listed host blocks itself and
 * every subdomain (`x.doubleclick.net`), never a look-alike (`notdoubleclick.net`). One Set
 * lookup per label of the hostname.
 */
import { AD_HOSTS } from "../../data/ad-hosts";
import { normalizeHost } from "../../hosts";

export type HostMatcher = (hostname: string) => boolean;

const CURATED: ReadonlySet<string> = new Set(AD_HOSTS);

/** True when the host or one of its parent domains is in `hosts`. */
function listed(hosts: ReadonlySet<string>, hostname: string): boolean {
  const host = normalizeHost(hostname);
  if (host === "") return false;
  for (let at = 0; ;) {
    if (hosts.has(host.slice(at))) return true;
    const dot = host.indexOf(".", at);
    if (dot === -1) return false;
    at = dot + 1;
  }
}

/** Curated list only. */
export function isAdHost(hostname: string): boolean {
  return listed(CURATED, hostname);
}

/** Curated list plus operator-configured hosts (same matching rules). */
export function adHostMatcher(extraHosts: readonly string[]): HostMatcher {
  const extra = extraHostSet(extraHosts);
  if (extra.size === 0) return isAdHost;
  return (hostname) => listed(CURATED, hostname) || listed(extra, hostname);
}

/**
 * Every listed host, curated and extra: a request to one of them or a subdomain contains it in
 * its URL, so page interception pauses only URLs containing one (./page-requests.ts).
 */
export function adHostList(extraHosts: readonly string[]): readonly string[] {
  return [...new Set([...CURATED, ...extraHostSet(extraHosts)])];
}

function extraHostSet(extraHosts: readonly string[]): ReadonlySet<string> {
  return new Set(extraHosts.map(normalizeHost).filter(Boolean));
}
