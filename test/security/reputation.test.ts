/**
 * The reputation checker: the host-pattern blocklist (pure), and Safe Browsing Lookup API v4
 * against a local fake that speaks the real protocol and is strict about it
 * (test/fixtures/fakes/safe-browsing.ts): the key, the request body, `{matches}` / `{}`;
 * fail-open with a bounded wait and a back-off; verdicts cached in KV (`reputation:`) and memory.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  clearReputationCache,
  hostPatternMatcher,
  lookupBody,
  lookupUrl,
  safeBrowsingLookup,
  type SafeBrowsingOptions,
} from "../../src/security/reputation";
import { config, SAFE_BROWSING_URL } from "../../src/config";
import { canonicalHostPattern } from "../../src/hosts";
import { runId } from "../helpers/http";

describe("UNSAFE_HOST_PATTERNS entries", () => {
  const CANONICAL: Array<[string, string | null]> = [
    ["example.bad", "example.bad"],
    ["  Example.BAD. ", "example.bad"],
    ["*.example.bad", "*.example.bad"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["*.BÜCHER.example", "*.xn--bcher-kva.example"],
    ["0x7f.1", "127.0.0.1"], // the URL parser's IPv4 spellings
    ["[::1]", "[::1]"],
    ["", null],
    ["*.", null],
    ["*.1.2.3.4", null],
    ["example.bad:8080", null],
    ["example.bad/path", null],
    ["http://example.bad", null],
    ["user@example.bad", null],
    ["a..b", null],
    ["ex ample.bad", null],
    ["foo.*.bad", null],
  ];
  it.each(CANONICAL)("%j → %j", (raw, expected) => {
    expect(canonicalHostPattern(raw)).toBe(expected);
  });

  it("`host` matches it and its subdomains; `*.host` only the subdomains; nothing else", () => {
    const match = hostPatternMatcher(["example.bad", "*.wild.test", "127.0.0.1"]);
    expect(match("example.bad")).toBe("example.bad");
    expect(match("EXAMPLE.bad.")).toBe("example.bad");
    expect(match("a.b.example.bad")).toBe("example.bad");
    expect(match("x.wild.test")).toBe("*.wild.test");
    expect(match("wild.test")).toBeNull();
    expect(match("notexample.bad")).toBeNull();
    expect(match("example.bad.evil.com")).toBeNull();
    expect(match("bad")).toBeNull();
    expect(match("127.0.0.1")).toBe("127.0.0.1");
    expect(hostPatternMatcher([])("example.bad")).toBeNull();
  });

  it("configuration: entries canonicalised; an invalid entry, endpoint or DNS_CHECK value is a configuration error", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const cfg = config({ ...env, UNSAFE_HOST_PATTERNS: " Evil.Example , *.WILD.example,, " });
      expect(cfg.unsafeHostPatterns).toEqual(["evil.example", "*.wild.example"]);
      expect(config(env)).toMatchObject({
        dnsCheck: true,
        unsafeHostPatterns: ["listed.example.org", "*.wild.example.org"],
      });
      expect(config({ ...env, DNS_CHECK: "off" }).dnsCheck).toBe(false);
      for (const bad of [
        { UNSAFE_HOST_PATTERNS: "good.example,bad.example/path" },
        { DNS_CHECK: "yes" },
        { DOH_ENDPOINT: "ftp://resolver.example/dns-query" },
        { SAFE_BROWSING_ENDPOINT: "not a url" },
      ]) {
        expect(() => config({ ...env, ...bad }), JSON.stringify(bad)).toThrow(
          "The service is not configured correctly.",
        );
      }
      expect(String(errors.mock.calls[0]?.[0])).toContain("bad.example/path");
    } finally {
      errors.mockRestore();
    }
  });
});

describe("Safe Browsing Lookup API v4", () => {
  const endpoint = env.SAFE_BROWSING_ENDPOINT;
  const fakeOrigin = new URL(endpoint).origin;
  const options = (over: Partial<SafeBrowsingOptions> = {}): SafeBrowsingOptions => ({
    apiKey: env.SAFE_BROWSING_API_KEY,
    endpoint,
    ...over,
  });
  /** The same fake under a path prefix that makes it misbehave; each is its own endpoint. */
  const broken = (mode: "error" | "slow" | "garbage") =>
    `${fakeOrigin}/${mode}/v4/threatMatches:find`;

  interface Lookup {
    mode: string;
    key: string | null;
    urls: string[];
  }
  async function lookups(url: string): Promise<Lookup[]> {
    return (await (
      await fetch(`${fakeOrigin}/__log?url=${encodeURIComponent(url)}`)
    ).json()) as Lookup[];
  }

  /** Every `reputation:` key in `kv`, page by page. */
  async function reputationKeys(kv: KVNamespace): Promise<KVNamespaceListKey<unknown>[]> {
    const keys: KVNamespaceListKey<unknown>[] = [];
    for (let cursor: string | undefined; ;) {
      const page = await kv.list({ prefix: "reputation:", cursor });
      keys.push(...page.keys);
      if (page.list_complete) return keys;
      cursor = page.cursor;
    }
  }

  let errors: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    clearReputationCache();
    errors = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => errors.mockRestore());

  it("is configured against the fake here, and defaults to Google's endpoint", () => {
    expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4\/threatMatches:find$/);
    expect(SAFE_BROWSING_URL).toBe("https://safebrowsing.googleapis.com/v4/threatMatches:find");
  });

  it("sends the API's request body: client, the four threat types, ANY_PLATFORM, URL entries", () => {
    expect(lookupBody("https://a.example/")).toEqual({
      client: { clientId: "edgeshot", clientVersion: "1.0" },
      threatInfo: {
        threatTypes: [
          "MALWARE",
          "SOCIAL_ENGINEERING",
          "UNWANTED_SOFTWARE",
          "POTENTIALLY_HARMFUL_APPLICATION",
        ],
        platformTypes: ["ANY_PLATFORM"],
        threatEntryTypes: ["URL"],
        threatEntries: [{ url: "https://a.example/" }],
      },
    });
    expect(lookupUrl(new URL("https://u:p@a.example/x?q=1#frag"))).toBe("https://a.example/x?q=1");
  });

  it("a match → flagged with its threat type; `{}` → clean; the key goes in the query", async () => {
    const run = runId();
    const malware = `http://malware.rebind.example.com/${run}`;
    const phish = `https://login.phish.rebind.example.com/${run}`;
    const clean = `https://public.rebind.example.com/${run}`;
    expect(await safeBrowsingLookup(new URL(malware), options())).toEqual({
      flagged: true,
      source: "safe-browsing",
      threat: "MALWARE",
    });
    expect(await safeBrowsingLookup(new URL(phish), options())).toEqual({
      flagged: true,
      source: "safe-browsing",
      threat: "SOCIAL_ENGINEERING",
    });
    expect(await safeBrowsingLookup(new URL(clean), options())).toEqual({ flagged: false });
    const [sent] = await lookups(malware);
    expect(sent).toMatchObject({ mode: "ok", key: env.SAFE_BROWSING_API_KEY, urls: [malware] });
    expect(errors).not.toHaveBeenCalled(); // the fake accepted every request body
  });

  it("looks up the URL without its fragment", async () => {
    const run = runId();
    await safeBrowsingLookup(
      new URL(`https://public.rebind.example.com/${run}#section`),
      options(),
    );
    expect(await lookups(`https://public.rebind.example.com/${run}`)).toHaveLength(1);
  });

  it("caches verdicts in memory and in KV under reputation: with a TTL; KV serves a cold isolate", async () => {
    const run = runId();
    const flagged = new URL(`https://malware.rebind.example.com/${run}`);
    const clean = new URL(`https://public.rebind.example.com/${run}`);
    const kv = env.RENDER_CACHE;
    // The workers project's files share one KV: only the keys this test writes are its own.
    const before = new Set((await reputationKeys(kv)).map((key) => key.name));
    for (const url of [flagged, clean]) {
      const first = await safeBrowsingLookup(url, options({ kv }));
      expect(await safeBrowsingLookup(url, options({ kv }))).toEqual(first);
      clearReputationCache(); // a cold isolate: memory is gone, KV is not
      expect(await safeBrowsingLookup(url, options({ kv }))).toEqual(first);
      expect(await lookups(url.href)).toHaveLength(1);
    }
    const keys = (await reputationKeys(kv)).filter((key) => !before.has(key.name));
    expect(keys.length).toBeGreaterThanOrEqual(2);
    const now = Date.now() / 1000;
    for (const key of keys) {
      expect(key.name).toMatch(/^reputation:sb:[0-9a-f]{64}$/);
      expect(key.expiration).toBeGreaterThan(now + 50);
      expect(key.expiration).toBeLessThanOrEqual(now + 601);
    }
  });

  describe("fails open (advisory): outage, slowness, garbage, a rejected key", () => {
    it.each(["error", "garbage"] as const)("/%s/ endpoint → clean, logged", async (mode) => {
      const url = new URL(`https://malware.rebind.example.com/${runId()}`);
      expect(await safeBrowsingLookup(url, options({ endpoint: broken(mode) }))).toEqual({
        flagged: false,
      });
      expect(errors).toHaveBeenCalledOnce();
      expect(String(errors.mock.calls[0]?.[0])).toContain(
        "safe browsing lookup failed; failing open",
      );
    });

    it("no answer within the timeout → clean, without waiting for the API", async () => {
      const started = Date.now();
      const url = new URL(`https://malware.rebind.example.com/${runId()}`);
      expect(
        await safeBrowsingLookup(url, options({ endpoint: broken("slow"), timeoutMs: 300 })),
      ).toEqual({ flagged: false });
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it("a rejected key (HTTP 400) → clean, logged with the status", async () => {
      const url = new URL(`https://malware.rebind.example.com/${runId()}`);
      expect(await safeBrowsingLookup(url, options({ apiKey: "wrong" }))).toEqual({
        flagged: false,
      });
      expect(String(errors.mock.calls[0]?.[0])).toContain("HTTP 400");
    });

    it("after a failure the API is skipped for a while (no request waits on a dead API); nothing is cached", async () => {
      const endpoint = broken("error");
      const first = `https://malware.rebind.example.com/${runId()}`;
      const second = `https://malware.rebind.example.com/${runId()}`;
      await safeBrowsingLookup(new URL(first), options({ endpoint }));
      expect(await safeBrowsingLookup(new URL(second), options({ endpoint }))).toEqual({
        flagged: false,
      });
      expect(await lookups(second)).toHaveLength(0);
      clearReputationCache(); // the back-off over: asked again, since the failure was not cached
      await safeBrowsingLookup(new URL(first), options({ endpoint }));
      expect(await lookups(first)).toHaveLength(2);
    });
  });
});
