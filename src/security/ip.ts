/**
 * IP address classification for the URL guard. Input is what the WHATWG URL parser serialises:
 * IPv4 as dotted decimal, IPv6 as lowercase hex groups with one `::` (never a dotted tail), so
 * the parsers below are strict and refuse anything else. Each classifier returns why an address
 * is blocked, or null when it is a public unicast address.
 *
 * No library: the URL parser already does the hard part (decimal/octal/hex/short IPv4, IPv6
 * compression and embedded dotted forms); what is left is two tables and the unwrapping of IPv6
 * forms that carry an IPv4 address, which we want spelled out here rather than inferred.
 */

type Range = readonly [base: string, prefix: number, label: string];

/** IANA special-purpose IPv4 ranges (RFC 6890 and successors) that must never be reached. */
const V4_BLOCKED: readonly Range[] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared address space (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local (metadata)"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "6to4 relay anycast"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved or broadcast"],
];

/**
 * Named IPv6 ranges that must never be reached (most specific first); anything else outside
 * 2000::/3, the only global unicast space, is blocked too as unallocated or special.
 */
const V6_BLOCKED: readonly Range[] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["::", 96, "IPv4-compatible (deprecated)"],
  ["64:ff9b:1::", 48, "local-use NAT64"],
  ["100::", 64, "discard-only"],
  ["2001::", 23, "IETF protocol assignments (incl. Teredo)"],
  ["2001:db8::", 32, "documentation"],
  ["3fff::", 20, "documentation"],
  ["fc00::", 7, "unique-local"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local (deprecated)"],
  ["ff00::", 8, "multicast"],
];

/** IPv6 prefixes whose low 32 bits are an IPv4 address, classified by that address. */
const V6_WRAPS_V4: readonly (readonly [base: string, prefix: number])[] = [
  ["::ffff:0:0", 96], // IPv4-mapped
  ["::ffff:0:0:0", 96], // IPv4-translated (SIIT)
  ["64:ff9b::", 96], // NAT64 well-known prefix
];

/** Dotted-decimal IPv4 (canonical form only) to an unsigned 32-bit number. */
export function parseIPv4(text: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  const octets = m.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return null;
  return octets.reduce((acc, o) => acc * 256 + o, 0);
}

/** Hex-group IPv6 (at most one `::`, no dotted tail, no zone) to a 128-bit bigint. */
export function parseIPv6(text: string): bigint | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = halves.map((h) => (h === "" ? [] : h.split(":")));
  const head = groups[0] ?? [];
  const tail = groups[1] ?? [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill("0"), ...tail];
  let value = 0n;
  for (const g of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  return value;
}

/** Prefix matchers, built once at load: a typo in a table throws instead of matching 0. */
function v4Net(base: string, prefix: number): (ip: number) => boolean {
  const net = parseIPv4(base);
  if (net === null) throw new Error(`bad URL guard table entry: ${base}`);
  const divisor = 2 ** (32 - prefix);
  return (ip) => Math.floor(ip / divisor) === Math.floor(net / divisor);
}
function v6Net(base: string, prefix: number): (ip: bigint) => boolean {
  const net = parseIPv6(base);
  if (net === null) throw new Error(`bad URL guard table entry: ${base}`);
  const shift = BigInt(128 - prefix);
  return (ip) => ip >> shift === net >> shift;
}
const V4_TABLE = V4_BLOCKED.map(([base, prefix, label]) => ({ label, has: v4Net(base, prefix) }));
const V6_TABLE = V6_BLOCKED.map(([base, prefix, label]) => ({ label, has: v6Net(base, prefix) }));
const WRAPS_V4 = V6_WRAPS_V4.map(([base, prefix]) => v6Net(base, prefix));
const SIX_TO_FOUR = v6Net("2002::", 16);
const GLOBAL_UNICAST = v6Net("2000::", 3);

/** Why an IPv4 address (as a number) is blocked, or null when it is public. */
export function ipv4BlockReason(ip: number): string | null {
  return V4_TABLE.find((r) => r.has(ip))?.label ?? null;
}

/** Why an IPv6 address is blocked, or null when it is public; IPv4 inside is unwrapped. */
export function ipv6BlockReason(ip: bigint): string | null {
  if (WRAPS_V4.some((has) => has(ip))) {
    const inner = ipv4BlockReason(Number(ip & 0xffffffffn));
    return inner === null ? null : `IPv4 inside IPv6: ${inner}`;
  }
  if (SIX_TO_FOUR(ip)) {
    const inner = ipv4BlockReason(Number((ip >> 80n) & 0xffffffffn));
    return inner === null ? null : `IPv4 inside 6to4: ${inner}`;
  }
  const named = V6_TABLE.find((r) => r.has(ip));
  if (named) return named.label;
  return GLOBAL_UNICAST(ip) ? null : "not global unicast IPv6";
}

/**
 * Why a canonical host from the URL parser is blocked when it is an IP literal (`1.2.3.4` or
 * `[v6]`): a reason, null when public, or undefined when the host is not an IP literal.
 */
export function ipLiteralBlockReason(host: string): string | null | undefined {
  if (host.startsWith("[")) {
    const v6 = host.endsWith("]") ? parseIPv6(host.slice(1, -1)) : null;
    return v6 === null ? "malformed IPv6 literal" : ipv6BlockReason(v6);
  }
  const v4 = parseIPv4(host);
  return v4 === null ? undefined : ipv4BlockReason(v4);
}
