/** Ad-host matching and the curated list's hygiene. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adHostMatcher, isAdHost } from "../../src/capture/page/ad-block";
import { normalizeHost } from "../../src/hosts";
import { config } from "../../src/config";
import { AD_HOSTS } from "../../src/data/ad-hosts";

describe("isAdHost", () => {
  it.each([
    "doubleclick.net",
    "securepubads.g.doubleclick.net",
    "x.doubleclick.net",
    "DoubleClick.NET",
    "ad.DOUBLECLICK.net.",
    "www.google-analytics.com",
    "static.hotjar.com",
    "imasdk.googleapis.com",
    "a.b.c.d.adnxs.com",
    "snap.licdn.com",
  ])("blocks %s", (host) => {
    expect(isAdHost(host)).toBe(true);
  });

  it.each([
    "notdoubleclick.net",
    "doubleclick.net.example.com",
    "doubleclick.com",
    "googleapis.com",
    "fonts.googleapis.com",
    "licdn.com",
    "media.licdn.com",
    "example.com",
    "net",
    "",
    ".",
    "127.0.0.1",
    "[::1]",
    "localhost",
  ])("lets %j through", (host) => {
    expect(isAdHost(host)).toBe(false);
  });
});

describe("adHostMatcher (operator extra hosts)", () => {
  it("adds hosts with the same rules and keeps the curated list", () => {
    const match = adHostMatcher(["Ads.Example.ORG.", " tracker.test "]);
    expect(match("ads.example.org")).toBe(true);
    expect(match("cdn.ADS.example.org")).toBe(true);
    expect(match("example.org")).toBe(false);
    expect(match("myads.example.org")).toBe(false);
    expect(match("x.tracker.test")).toBe(true);
    expect(match("doubleclick.net")).toBe(true);
  });

  it("with no extras it is the curated matcher itself", () => {
    expect(adHostMatcher([])).toBe(isAdHost);
    expect(adHostMatcher(["", "  "])).toBe(isAdHost);
  });

  it("AD_BLOCK_EXTRA_HOSTS is parsed into normalised host names; a malformed entry fails the config", () => {
    expect(config(env).adBlockExtraHosts).toEqual(["ads.localhost"]); // the test binding
    expect(
      config({ ...env, AD_BLOCK_EXTRA_HOSTS: " Ads.Example.ORG. ,, tracker.test " })
        .adBlockExtraHosts,
    ).toEqual(["ads.example.org", "tracker.test"]);
    expect(config({ ...env, AD_BLOCK_EXTRA_HOSTS: "" }).adBlockExtraHosts).toEqual([]);
    for (const bad of [
      "ads.example.org/path",
      "*.example.org",
      "ads example.org",
      "ads.example.org:443",
    ]) {
      expect(() => config({ ...env, AD_BLOCK_EXTRA_HOSTS: bad }), bad).toThrow(
        "The service is not configured correctly.",
      );
    }
  });

  it("normalizeHost lower-cases and drops one trailing dot", () => {
    expect(normalizeHost("A.B.C.")).toBe("a.b.c");
    expect(normalizeHost("a.b")).toBe("a.b");
  });
});

describe("the curated ad-host list", () => {
  it("has a few hundred well-formed, lower-case host names", () => {
    expect(AD_HOSTS.length).toBeGreaterThanOrEqual(300);
    for (const host of AD_HOSTS) expect(host).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
  });

  it("has no duplicates and no entry already covered by a parent entry", () => {
    const all = new Set(AD_HOSTS);
    expect(all.size).toBe(AD_HOSTS.length);
    const covered = AD_HOSTS.filter((host) => {
      const labels = host.split(".");
      return labels.slice(1).some((_, i) => all.has(labels.slice(i + 1).join(".")));
    });
    expect(covered).toEqual([]);
  });

  it("never lists hosts that serve ordinary page content", () => {
    for (const host of [
      "googleapis.com",
      "gstatic.com",
      "cloudfront.net",
      "akamaihd.net",
      "facebook.net",
      "licdn.com",
      "twimg.com",
      "jsdelivr.net",
      "unpkg.com",
      "cloudflare.com",
      "google.com",
    ]) {
      expect(AD_HOSTS).not.toContain(host);
    }
  });
});
