/** The URL guard, table-driven, inside workerd (so the URL parser is the one production uses). */
import { describe, expect, it } from "vitest";
import { allowlistFrom } from "../../src/hosts";
import { parseIPv6 } from "../../src/security/ip";
import {
  addressSpaceRefusal,
  checkUrl,
  isBlockedAddress,
  isBlockedHost,
  isBlockedRemoteAddress,
  needsAddressCheck,
} from "../../src/security/url-guard";
import type { GuardPurpose } from "../../src/security/url-guard";

/** As TARGET_ALLOWLIST builds it: `127.0.0.1:4010` stands for `localhost:4010` and `[::1]:4010`. */
const ALLOWLIST = allowlistFrom(["127.0.0.1:4010"]);
const T: GuardPurpose = "target";
type Case = readonly [input: string, purpose: GuardPurpose];
const as = (purpose: GuardPurpose, inputs: string[]): Case[] => inputs.map((i) => [i, purpose]);

const BLOCK: Case[] = [
  // Every IPv4 range: first, last and an inner address.
  ...as(T, ["http://0.0.0.0/", "http://0.255.255.255/", "http://0/", "http://10.0.0.0/"]),
  ...as(T, ["http://10.255.255.255/", "http://10.1.2.3/", "http://100.64.0.0/"]),
  ...as(T, ["http://100.127.255.255/", "http://100.100.1.1/", "http://127.0.0.1/"]),
  ...as(T, ["http://127.255.255.254/", "http://169.254.0.0/", "http://169.254.255.255/"]),
  ...as(T, ["http://169.254.169.254/latest/meta-data/", "http://172.16.0.0/"]),
  ...as(T, ["http://172.31.255.255/", "http://172.20.1.1/", "http://192.0.0.1/"]),
  ...as(T, ["http://192.0.0.255/", "http://192.0.2.1/", "http://192.88.99.1/"]),
  ...as(T, ["http://192.168.0.0/", "http://192.168.255.255/", "http://192.168.1.1/"]),
  ...as(T, ["http://198.18.0.0/", "http://198.19.255.255/", "http://198.51.100.7/"]),
  ...as(T, ["http://203.0.113.255/", "http://224.0.0.1/", "http://239.255.255.250/"]),
  ...as(T, ["http://240.0.0.1/", "http://255.255.255.255/"]),
  // IPv4 encodings the parser normalises: decimal, octal, hex, mixed, short, trailing dot.
  ...as(T, ["http://2130706433/", "http://0x7f.1/", "http://017700000001/", "http://127.1/"]),
  ...as(T, ["http://127.0.1/", "http://0x7f000001/", "http://0177.0.0.1/", "http://10.1/"]),
  ...as(T, ["http://0x7F.00.0x0.1/", "http://127.0.0.1./", "http://3232235521/"]),
  ...as(T, ["http://0xa9fea9fe/", "http://0251.0376.0251.0376/", "http://0x0/"]),
  // IPv6: loopback spellings, wrapped IPv4 (mapped, compatible, SIIT, NAT64, 6to4), ranges.
  ...as(T, ["http://[::1]/", "http://[0:0:0:0:0:0:0:1]/", "http://[::ffff:127.0.0.1]/"]),
  ...as(T, ["http://[::ffff:7f00:1]/", "http://[0::1]/", "http://[::]/", "http://[::1]:8080/"]),
  ...as(T, ["http://[::ffff:10.0.0.1]/", "http://[::ffff:a9fe:a9fe]/", "http://[::127.0.0.1]/"]),
  ...as(T, ["http://[::8.8.8.8]/", "http://[::ffff:0:7f00:1]/", "http://[64:ff9b::10.0.0.1]/"]),
  ...as(T, ["http://[64:ff9b::7f00:1]/", "http://[64:ff9b:1::a00:1]/", "http://[2002:7f00:1::]/"]),
  ...as(T, ["http://[2002:c0a8:101::1]/", "http://[2001::1]/", "http://[fc00::1]/"]),
  ...as(T, ["http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "http://[fdff:ffff::1]/"]),
  ...as(T, ["http://[fd00:ec2::254]/", "http://[fe80::1]/", "http://[febf::1]/"]),
  ...as(T, ["http://[fe80::1%25eth0]/", "http://[fe80::1%eth0]/", "http://[ff02::1]/"]),
  ...as(T, ["http://[2001:db8::1]/", "http://[100::1]/", "http://[fec0::1]/", "http://[3fff::1]/"]),
  // What the parser rewrites: full-width, percent-encoded, tabs/newlines, `\`, `@`, credentials.
  ...as(T, ["http://１２７.０.０.１/", "http://%31%32%37.0.0.1/", "http://127.0.0.1\t/"]),
  ...as(T, ["http://12\n7.0.0.1/", "http://loc\talhost/", "http:\\\\127.0.0.1\\", "http:127.1"]),
  ...as(T, ["http://evil.com@127.0.0.1/", "http://user:pass@10.0.0.1/", "http://ⓛocalhost/"]),
  ...as(T, ["http://%6c%6fcalhost/", "HTTP://LOCALHOST/", " http://127.0.0.1/ "]),
  // Names.
  ...as(T, ["http://localhost/", "http://localhost:3000/", "http://localhost./"]),
  ...as(T, ["http://foo.localhost/", "http://printer.local/", "http://x.internal/"]),
  ...as(T, ["http://metadata.google.internal/computeMetadata/v1/", "http://intranet/"]),
  ...as(T, ["http://metadata/", "http://router.lan/", "http://nas.home.arpa/", "http://a..b/"]),
  ...as(T, ["http://ex_am!ple.com/", "http://foo.123abc/", "http://-bad.com/", "http://./"]),
  // Unparseable.
  ...as(T, ["", "not a url", "//example.com/", "http://", "http://exa mple.com/"]),
  ...as(T, ["http://1.2.3.256/", "http://example.com:99999/", "http://example.com:0/"]),
  // Schemes.
  ...as(T, ["file:///etc/passwd", "ftp://example.com/", "javascript:alert(1)", "data:,x"]),
  ...as(T, ["blob:https://example.com/0", "chrome://settings/", "chrome-extension://abc/x"]),
  ...as(T, ["devtools://devtools/", "about:blank", "view-source:https://example.com/"]),
  ...as(T, ["gopher://example.com/", "ws://example.com/", "wss://example.com/"]),
  ...as("navigation", ["about:srcdoc", "about:config", "data:text/html,x", "javascript:1"]),
  ...as("navigation", ["blob:https://example.com/0", "file:///", "ws://example.com/"]),
  ...as("subresource", ["ws://127.0.0.1/", "wss://[::1]/", "about:blank", "file:///etc/passwd"]),
  ...as("subresource", ["filesystem:https://example.com/temporary/x", "javascript:1"]),
  ...as("subresource", ["http://169.254.169.254/", "chrome://gpu/"]),
  // Webhooks: https only, no credentials, public.
  ...as("webhook", ["http://example.com/hook", "https://user:pass@example.com/"]),
  ...as("webhook", ["https://user@example.com/", "https://127.0.0.1/", "ftp://example.com/"]),
  // The allowlist is exact host:port (loopback's three spellings of one port are one entry).
  ...as(T, ["http://127.0.0.1:4011/", "http://127.0.0.1/", "http://localhost:4011/"]),
  ...as(T, ["http://localhost/", "http://app.localhost:4010/", "http://127.0.0.2:4011/"]),
  ...as(T, ["http://[::1]:4011/", "http://127.0.0.2:4010/", "ftp://127.0.0.1:4010/"]),
  ...as("webhook", ["http://u:p@127.0.0.1:4010/", "http://127.0.0.1:4011/"]),
  // Length caps.
  [`https://example.com/${"a".repeat(8200)}`, T],
  [`https://example.com/${"a".repeat(2100)}`, "webhook"],
  [`https://example.com/${"é".repeat(3000)}`, T], // short input, long once percent-encoded
];

const ALLOW: Case[] = [
  ...as(T, ["https://example.com/", "http://example.com", "https://8.8.8.8/", "http://1.1.1.1/"]),
  ...as(T, ["http://[2606:4700:4700::1111]/", "https://sub.domain.co.uk:8443/p?q=1#f"]),
  ...as(T, ["http://bücher.de/", "http://xn--bcher-kva.de/", "http://172.32.0.1/"]),
  ...as(T, ["http://172.15.255.255/", "http://100.128.0.1/", "http://100.63.255.255/"]),
  ...as(T, ["http://192.169.0.1/", "http://169.255.0.1/", "http://11.0.0.1/"]),
  ...as(T, ["http://126.255.255.255/", "http://128.0.0.1/", "http://223.255.255.255/"]),
  ...as(T, ["http://198.20.0.1/", "http://[::ffff:8.8.8.8]/", "http://[64:ff9b::808:808]/"]),
  ...as(T, ["http://[2002:808:808::1]/", "http://[2a00:1450:4001::200e]/"]),
  ...as(T, ["https://example.com./", "https://user:pass@example.com/", "http://example.com:8080/"]),
  ...as(T, ["https://my_host.example.com/", "http://evil.com\\@127.0.0.1/"]),
  ...as(T, ["http://127.0.0.1:4010/", "https://127.0.0.1:4010/", "http://2130706433:4010/"]),
  ...as(T, ["http://localhost:4010/", "http://LOCALHOST:4010/a", "http://[::1]:4010/"]),
  [`https://example.com/${"a".repeat(8000)}`, T],
  ...as("subresource", ["data:image/png;base64,AAAA", "blob:https://example.com/0"]),
  ...as("subresource", ["wss://example.com/socket", "https://cdn.example.com/a.js"]),
  ...as("subresource", ["http://[::1]:4010/x.css", `data:,${"a".repeat(20_000)}`]),
  ...as("navigation", ["about:blank", "about:blank#x", "https://example.com/next"]),
  ...as("navigation", ["http://127.0.0.1:4010/redirected"]),
  ...as("webhook", ["https://example.com/hook", "https://hooks.example.com:8443/x"]),
  ...as("webhook", ["http://127.0.0.1:4010/hook", "http://[::1]:4010/hook"]),
];

describe("checkUrl", () => {
  it("has enough cases", () => {
    expect(BLOCK.length).toBeGreaterThanOrEqual(60);
    expect(ALLOW.length).toBeGreaterThanOrEqual(15);
  });

  it.each(BLOCK)("blocks %j as %s", (input, purpose) => {
    const result = checkUrl(input, purpose, ALLOWLIST);
    expect(result).toMatchObject({ ok: false, reason: expect.any(String) });
  });

  it.each(ALLOW)("allows %j as %s", (input, purpose) => {
    const result = checkUrl(input, purpose, ALLOWLIST);
    expect(result).toMatchObject({ ok: true });
    if (result.ok) expect(result.url.href).toBe(new URL(input).href);
  });

  it.each([
    ["http://[::1]/", "loopback"],
    ["http://localhost/", "reserved name (.localhost)"],
    ["http://[fd00:ec2::254]/", "unique-local"],
    ["http://[::ffff:7f00:1]/", "IPv4 inside IPv6: loopback"],
    ["http://[2002:a9fe:a9fe::]/", "IPv4 inside 6to4: link-local (metadata)"],
  ])("explains why %j is blocked", (input, why) => {
    expect(checkUrl(input, T, ALLOWLIST)).toEqual({ ok: false, reason: `blocked host: ${why}` });
  });

  it("never throws, whatever it is given", () => {
    const alphabet = ["h", "t", "p", "s", ":", "/", "\\", "@", "[", "]", ".", "%", "0", "x", "#"];
    const purposes: GuardPurpose[] = ["target", "webhook", "navigation", "subresource"];
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 48271) % 2147483647) % n;
    for (let i = 0; i < 2000; i++) {
      const chars = Array.from({ length: next(30) }, () => alphabet[next(alphabet.length)]);
      const input = chars.join("");
      const result = checkUrl(`http://${input}`, purposes[i % 4] ?? T, ALLOWLIST);
      expect(typeof result.ok).toBe("boolean");
    }
  });

  it("uses no allowlist unless given one", () => {
    expect(checkUrl("http://127.0.0.1:4010/", T, new Set()).ok).toBe(false);
    expect(checkUrl("http://127.0.0.1:4010/hook", "webhook", new Set()).ok).toBe(false);
  });
});

describe("the guard classifies what the URL parser sees", () => {
  const SEEN: ReadonlyArray<readonly [input: string, host: string]> = [
    ["http://１２７.０.０.１/", "127.0.0.1"],
    ["http://%31%32%37.0.0.1/", "127.0.0.1"],
    ["http://exa\tmple.com/", "example.com"],
    ["http://exa\nmple.com/", "example.com"],
    ["http:\\\\127.0.0.1\\x", "127.0.0.1"],
    ["http://evil.com@127.0.0.1/", "127.0.0.1"],
    ["http://evil.com\\@127.0.0.1/", "evil.com"],
    ["http://127.0.0.1#@evil.com/", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"],
    ["http://ⓛocalhost/", "localhost"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://127.0.0.1./", "127.0.0.1"],
    ["http://bücher.de/", "xn--bcher-kva.de"],
  ];
  it.each(SEEN)("%j is %s", (input, host) => {
    expect(new URL(input).hostname).toBe(host);
    const result = checkUrl(input, T, new Set());
    expect(result.ok).toBe(!isBlockedHost(host));
    if (result.ok) expect(result.url.hostname).toBe(host);
  });
});

describe("isBlockedHost", () => {
  it.each([
    "localhost",
    "LOCALHOST.",
    "127.1",
    "0x7f.1",
    "[::1]",
    "::1",
    "example.com:80",
    "a/b",
    "",
    "evil.com@127.0.0.1",
    "metadata.google.internal",
    "[::1",
    "intranet",
    "10.0.0.1 ",
  ])("blocks %j", (host) => expect(isBlockedHost(host)).toBe(true));
  it.each(["example.com", "8.8.8.8", "[2606:4700:4700::1111]", "2606:4700:4700::1111"])(
    "allows %j",
    (host) => expect(isBlockedHost(host)).toBe(false),
  );
});

describe("isBlockedAddress", () => {
  it.each([
    "127.0.0.1",
    "::ffff:127.0.0.1",
    "::1",
    "[::1]",
    "fe80::1%eth0",
    "10.0.0.1",
    "fd00:ec2::254",
    "169.254.169.254",
    "example.com",
    "",
    "64:ff9b::a9fe:a9fe",
  ])("blocks %j", (address) => expect(isBlockedAddress(address)).toBe(true));
  it.each(["8.8.8.8", "2606:4700:4700::1111", "[2606:4700:4700::1111]", "::ffff:1.1.1.1"])(
    "allows %j",
    (address) => expect(isBlockedAddress(address)).toBe(false),
  );
});

describe("parseIPv6", () => {
  it("parses canonical forms and refuses malformed ones", () => {
    expect(parseIPv6("::")).toBe(0n);
    expect(parseIPv6("::1")).toBe(1n);
    expect(parseIPv6("1::")).toBe(1n << 112n);
    expect(parseIPv6("1:2:3:4:5:6:7::")).toBe(parseIPv6("1:2:3:4:5:6:7:0"));
    for (const bad of ["1:2:3:4:5:6:7:8:9", "1::2::3", "1:2:3:4:5:6:7:8::", "g::1", "12345::"]) {
      expect(parseIPv6(bad)).toBeNull();
    }
  });
});

describe("held responses: which are held, and which address spaces are refused", () => {
  const names = new Set([...ALLOWLIST, "ads.localhost:4010"]);
  it("a host name is held unless its host:port is allowlisted; an IP literal never is", () => {
    const held = (u: string) => needsAddressCheck(new URL(u), names);
    expect(held("https://example.com/a.js")).toBe(true);
    expect(held("http://public.rebind.example.com:4013/")).toBe(true);
    expect(held("wss://example.com/")).toBe(true);
    expect(held("http://ads.localhost:4010/x")).toBe(false);
    expect(held("http://ads.localhost:4011/x")).toBe(true);
    for (const u of ["http://93.184.216.34/", "http://127.0.0.1:4013/", "http://[2606:2800::1]/"])
      expect(held(u), u).toBe(false);
    for (const u of ["data:text/plain,x", "blob:https://example.com/1"])
      expect(held(u), u).toBe(false);
  });

  it("only Public passes, but for an allowlisted private address on the URL's port", () => {
    const refusal = (space: string, u: string) => addressSpaceRefusal(space, new URL(u), ALLOWLIST);
    expect(refusal("Public", "https://example.com/")).toBeNull();
    for (const space of ["Loopback", "Local", "Private", "Unknown", ""])
      expect(refusal(space, "https://example.com/"), space).toMatch(/^response from a /);
    // Tests map names onto the allowlisted fixture: its port passes, any other port does not.
    expect(refusal("Loopback", "http://public.rebind.example.com:4010/")).toBeNull();
    expect(refusal("Loopback", "http://public.rebind.example.com:4013/")).toMatch(/loopback/);
    expect(refusal("Loopback", "http://public.rebind.example.com/")).toMatch(/loopback/);
  });
});

describe("allowlistFrom: one loopback port under its three spellings", () => {
  it("a loopback entry stands for localhost, 127.0.0.1 and [::1] at its port, no other", () => {
    for (const entry of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000"])
      expect([...allowlistFrom([entry])].sort(), entry).toEqual([
        "127.0.0.1:3000",
        "[::1]:3000",
        "localhost:3000",
      ]);
    expect([...allowlistFrom(["ads.localhost:4010", "127.0.0.2:4010", "example.com:80"])]).toEqual([
      "ads.localhost:4010",
      "127.0.0.2:4010",
      "example.com:80",
    ]);
  });

  it("the address the browser connects to for localhost:PORT passes; other ports do not", () => {
    const list = allowlistFrom(["localhost:3000"]);
    expect(isBlockedRemoteAddress("127.0.0.1", 3000, list)).toBe(false);
    expect(isBlockedRemoteAddress("::1", 3000, list)).toBe(false);
    expect(isBlockedRemoteAddress("127.0.0.1", 3001, list)).toBe(true);
    expect(isBlockedRemoteAddress("::1", 3001, list)).toBe(true);
    expect(isBlockedRemoteAddress("10.0.0.1", 3000, list)).toBe(true);
  });
});
