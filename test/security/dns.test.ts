/**
 * The DNS check against a local fake DoH resolver speaking the JSON API
 * (test/fixtures/fakes/doh.ts): every blocked address in an answer blocks the name, CNAME chains
 * are followed through the resolver's answer, anything but a clean answer fails closed, and
 * verdicts are cached for the answer's TTL (capped) — never when the resolver failed.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import {
  checkHostDns,
  clearDnsCache,
  DNS_CACHE_MAX_SECONDS,
  parseAnswer,
  type DnsVerdict,
} from "../../src/security/dns";

const endpoint = env.DOH_ENDPOINT;
const resolverOrigin = new URL(endpoint).origin;
const check = (name: string, timeoutMs?: number) => checkHostDns(name, { endpoint, timeoutMs });

interface Query {
  name: string;
  type: string;
  accept: string | undefined;
}
async function queries(name: string): Promise<Query[]> {
  return (await (await fetch(`${resolverOrigin}/__log?name=${name}`)).json()) as Query[];
}

beforeEach(() => clearDnsCache());

describe("classification of the answer", () => {
  const BLOCKED: Array<[name: string, address: string]> = [
    ["a.rebind.example.com", "127.0.0.1"],
    ["ten.rebind.example.com", "10.1.2.3"],
    ["metadata.rebind.example.com", "169.254.169.254"],
    ["cgnat.rebind.example.com", "100.64.0.1"],
    ["zero.rebind.example.com", "0.0.0.0"],
    ["v6loop.rebind.example.com", "::1"],
    ["v6ula.rebind.example.com", "fd00:ec2::254"],
    ["mapped.rebind.example.com", "::ffff:127.0.0.1"],
    ["mappedhex.rebind.example.com", "::ffff:7f00:1"],
    ["nat64.rebind.example.com", "64:ff9b::a9fe:a9fe"],
    // One private address among public ones: the browser may pick it.
    ["mixed.rebind.example.com", "192.168.1.10"],
    ["v6private.rebind.example.com", "fe80::1"],
    // CNAME → CNAME → A 172.16.5.4: the chain the resolver returns is followed.
    ["cname.rebind.example.com", "172.16.5.4"],
    // An address that does not parse is never read as public.
    ["garbage.rebind.example.com", "not-an-address"],
  ];
  it.each(BLOCKED)("%s → blocked (%s)", async (name, address) => {
    expect(await check(name)).toEqual({ kind: "blocked", address });
  });

  it("public A and AAAA answers → public, CNAME to a public address too", async () => {
    expect(await check("public.rebind.example.com")).toEqual({
      kind: "public",
      addresses: ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    });
    expect(await check("cname-public.rebind.example.com")).toEqual({
      kind: "public",
      addresses: ["93.184.216.34"],
    });
  });

  it("no address → unresolvable: NXDOMAIN, an empty NOERROR, SERVFAIL — and SERVFAIL for AAAA alone", async () => {
    const results: DnsVerdict[] = await Promise.all(
      [
        "nx.rebind.example.com",
        "empty.rebind.example.com",
        "servfail.rebind.example.com",
        "aaaa-servfail.rebind.example.com",
      ].map((n) => check(n)),
    );
    expect(results).toEqual([
      { kind: "unresolvable", reason: "NXDOMAIN" },
      { kind: "unresolvable", reason: "no A or AAAA records" },
      { kind: "unresolvable", reason: "SERVFAIL for A" },
      // The A answer is public, but the AAAA one is unknown: fail closed.
      { kind: "unresolvable", reason: "SERVFAIL for AAAA" },
    ]);
  });

  it("asks A and AAAA for the lower-cased name without its trailing dot, with accept: application/dns-json", async () => {
    const before = (await queries("public.rebind.example.com")).length;
    expect((await check("PUBLIC.Rebind.example.com.")).kind).toBe("public");
    const asked = (await queries("public.rebind.example.com")).slice(before);
    expect(asked.map((q) => q.type).sort()).toEqual(["A", "AAAA"]);
    expect(asked.every((q) => q.accept === "application/dns-json")).toBe(true);
  });
});

describe("fail closed when the resolver cannot answer", () => {
  it("HTTP 500, a body that is not JSON, an unreachable resolver → error", async () => {
    expect(await check("http500.rebind.example.com")).toMatchObject({
      kind: "error",
      reason: expect.stringContaining("HTTP 500"),
    });
    expect(await check("badjson.rebind.example.com")).toMatchObject({ kind: "error" });
    const down = await checkHostDns("public.rebind.example.com", {
      endpoint: "http://127.0.0.1:1/dns-query",
    });
    expect(down).toMatchObject({ kind: "error", reason: expect.stringContaining("unreachable") });
  });

  it("a resolver that does not answer in time → error within the bound", async () => {
    const started = Date.now();
    expect(await check("slow.rebind.example.com", 300)).toMatchObject({
      kind: "error",
      reason: expect.stringContaining("timed out"),
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("failures are not cached: the next check asks again", async () => {
    const before = (await queries("http500.rebind.example.com")).length;
    await check("http500.rebind.example.com");
    await check("http500.rebind.example.com");
    expect((await queries("http500.rebind.example.com")).length - before).toBe(4);
  });

  it("malformed answers (pure): no Status, Answer not a list, a record that is not an object → error", () => {
    expect(parseAnswer({}, "A")).toMatchObject({ kind: "error" });
    expect(parseAnswer("x", "A")).toMatchObject({ kind: "error" });
    expect(parseAnswer({ Status: 0, Answer: {} }, "A")).toMatchObject({ kind: "error" });
    expect(parseAnswer({ Status: 0, Answer: [null] }, "A")).toMatchObject({ kind: "error" });
    // A record whose data is not a string is kept as "" so that the check refuses it.
    expect(
      parseAnswer({ Status: 0, Answer: [{ type: 1, TTL: 5, data: 2130706433 }] }, "A"),
    ).toEqual({
      kind: "answer",
      addresses: [{ address: "", ttl: 5 }],
      minTtl: 5,
    });
  });
});

describe("cache", () => {
  async function asked(name: string, run: () => Promise<unknown>): Promise<number> {
    const before = (await queries(name)).length;
    await run();
    return (await queries(name)).length - before;
  }

  it("reuses a verdict within its TTL (capped at 5 minutes) and shares concurrent lookups", async () => {
    const name = "ttl-long.rebind.example.com";
    expect(await asked(name, () => Promise.all([check(name), check(name), check(name)]))).toBe(2); // one A + one AAAA
    expect(await asked(name, () => check(name))).toBe(0);
    expect(DNS_CACHE_MAX_SECONDS).toBe(300); // the 86 400 s TTL is not honoured past this
  });

  it("TTL 0 is never cached; TTL 1 expires after a second", async () => {
    expect(
      await asked("ttl0.rebind.example.com", async () => {
        await check("ttl0.rebind.example.com");
        await check("ttl0.rebind.example.com");
      }),
    ).toBe(4);
    const name = "ttl1.rebind.example.com";
    expect(
      await asked(name, async () => {
        await check(name);
        await check(name);
      }),
    ).toBe(2);
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await asked(name, () => check(name))).toBe(2);
  });

  it("blocked verdicts are cached too (the rebinding name is not asked twice in a row)", async () => {
    const name = "loop.rebind.example.com";
    expect(
      await asked(name, async () => {
        expect((await check(name)).kind).toBe("blocked");
        expect((await check(name)).kind).toBe("blocked");
      }),
    ).toBe(2);
  });
});
