/** The one host-name normaliser. A leaf: URL guard, DNS, reputation, ad blocking and config use it. */

/** `Ads.Example.COM.` → `ads.example.com`: trimmed, lower case, one trailing dot dropped. */
export function normalizeHost(hostname: string): string {
  const host = hostname.trim().toLowerCase();
  return host.endsWith(".") ? host.slice(0, -1) : host;
}
