import { describe, expect, it } from "vitest";
import type { AuthContext } from "../../src/accounts/auth";
import { presentedKey } from "../../src/http/middleware/authenticate";
import { usageHeaders } from "../../src/accounts/credits";
import * as keys from "../../src/accounts/keys";
import { PLAN_IDS } from "../../schemas/responses";
import { PLANS, lowestPlanWith, upgradeFor } from "../../src/accounts/plans";
import { requireFeature } from "../../src/accounts/policy";
import { creditPeriod, periodResetsAt, rateWindow, secondsUntil } from "../../src/accounts/windows";
import { ApiError } from "../../src/errors";

describe("plans", () => {
  it("carry the published plan numbers (README.md, src/accounts/plans.ts)", () => {
    const pick = (f: (id: (typeof PLAN_IDS)[number]) => unknown) => PLAN_IDS.map(f);
    expect(pick((id) => PLANS[id].monthlyCredits)).toEqual([100, 1000, 5000, 25000, null]);
    expect(pick((id) => PLANS[id].rateLimitPerMinute)).toEqual([3, 20, 60, 300, 1000]);
    expect(pick((id) => PLANS[id].readRateLimitPerMinute)).toEqual([60, 120, 300, 1200, 5000]);
    expect(pick((id) => PLANS[id].activeJobs)).toEqual([10, 25, 50, 200, 1000]);
    expect(pick((id) => PLANS[id].batchCap)).toEqual([0, 10, 25, 100, 500]);
    expect(pick((id) => PLANS[id].watchFloorMinutes)).toEqual([1440, 180, 60, 30, 5]);
    expect(pick((id) => PLANS[id].watchCount)).toEqual([3, 10, 25, 100, 1000]);
    expect(pick((id) => PLANS[id].crawlPageCap)).toEqual([10, 50, 100, 1000, 20000]);
    expect(pick((id) => PLANS[id].mapUrlCap)).toEqual([5000, 5000, 5000, 10000, 100000]);
    expect(pick((id) => PLANS[id].crawlsInFlight)).toEqual([1, 2, 3, 5, 20]);
    expect(pick((id) => PLANS[id].watermark)).toEqual([true, false, false, false, false]);
  });

  it("gate features: cookies/headers/credentials/batch from Basic, geo from Pro", () => {
    expect(lowestPlanWith("cookies").id).toBe("basic");
    expect(lowestPlanWith("headers").id).toBe("basic");
    expect(lowestPlanWith("urlCredentials").id).toBe("basic");
    expect(lowestPlanWith("batch").id).toBe("basic");
    expect(lowestPlanWith("geo").id).toBe("pro");
  });

  it("recommend the next plan up, none on Enterprise", () => {
    expect(upgradeFor("free", "https://api.example")).toEqual({
      recommendedPlan: "basic",
      recommendedPlanCredits: 1000,
      upgradeUrl: "https://api.example/dashboard/plans?plan=basic",
      manageBillingUrl: "https://api.example/dashboard/plans",
    });
    expect(upgradeFor("pro", "")?.recommendedPlan).toBe("enterprise");
    expect(upgradeFor("pro", "")?.recommendedPlanCredits).toBeNull();
    expect(upgradeFor("enterprise", "")).toBeNull();
  });
});

describe("requireFeature", () => {
  const authOn = (id: (typeof PLAN_IDS)[number]) => ({ plan: PLANS[id] }) as AuthContext;

  it("403 PLAN_UPGRADE_REQUIRED naming the feature and the lowest plan with it", () => {
    const cases = [
      ["free", "cookies", /cookies.*Basic/],
      ["free", "urlCredentials", /URL credentials.*Basic/],
      ["starter", "geo", /geo-targeted.*Pro/],
      ["free", "batch", /batch.*Basic/],
    ] as const;
    for (const [plan, feature, message] of cases) {
      let thrown: unknown;
      try {
        requireFeature(authOn(plan), feature);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      const error = thrown as ApiError;
      expect(error.code).toBe("PLAN_UPGRADE_REQUIRED");
      expect(error.status).toBe(403);
      expect(error.message).toMatch(message);
    }
  });

  it("lets plans with the feature through", () => {
    expect(() => requireFeature(authOn("basic"), "headers")).not.toThrow();
    expect(() => requireFeature(authOn("pro"), "geo")).not.toThrow();
    expect(() => requireFeature(authOn("enterprise"), "batch")).not.toThrow();
  });
});

describe("keys", () => {
  it("are svc_ + 43 base62 characters, all distinct, and pass the format check", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const key = keys.generateApiKey();
      expect(key).toMatch(/^svc_[0-9A-Za-z]{43}$/);
      expect(keys.isWellFormedKey(key)).toBe(true);
      seen.add(key);
    }
    expect(seen.size).toBe(2000);
  });

  it("ids are acc_/key_ + 22 base62 characters", () => {
    expect(keys.isAccountId(keys.generateAccountId())).toBe(true);
    expect(keys.isKeyId(keys.generateKeyId())).toBe(true);
    expect(keys.isAccountId("acc_../../x")).toBe(false);
    expect(keys.isKeyId(keys.generateAccountId())).toBe(false);
  });

  it("the format check refuses near misses", () => {
    const key = keys.generateApiKey();
    for (const bad of [
      `${key}\n`,
      ` ${key}`,
      key.slice(4),
      `svc-${key.slice(4)}`,
      `${key}A`,
      key.slice(0, -1),
    ]) {
      expect(keys.isWellFormedKey(bad)).toBe(false);
    }
  });

  it("hash with sha256 hex; display only a short prefix", async () => {
    expect(await keys.hashApiKey("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(keys.displayPrefix("svc_AbCdEfGh")).toBe("svc_AbCd…");
  });
});

describe("key extraction", () => {
  const req = (headers: Record<string, string>, query = "") =>
    new Request(`https://x.test/p${query}`, { headers });

  it("prefers Bearer, then x-api-key, then ?key= only when allowed", () => {
    expect(presentedKey(req({ authorization: "Bearer a", "x-api-key": "b" }), true)).toBe("a");
    expect(presentedKey(req({ authorization: "Basic zz", "x-api-key": "b" }), true)).toBe("b");
    expect(presentedKey(req({}, "?key=c"), true)).toBe("c");
    expect(presentedKey(req({}, "?key=c"), false)).toBeNull();
    expect(presentedKey(req({ authorization: "Bearer " }), false)).toBeNull();
  });
});

describe("windows", () => {
  it("rate windows align to the minute", () => {
    const t = Date.UTC(2026, 10, 21, 10, 15, 42, 123);
    expect(rateWindow(t, 60_000)).toEqual({
      start: Date.UTC(2026, 10, 21, 10, 15),
      resetAt: Date.UTC(2026, 10, 21, 10, 16),
    });
    const boundary = Date.UTC(2026, 10, 21, 10, 16);
    expect(rateWindow(boundary, 60_000).start).toBe(boundary);
    expect(rateWindow(boundary - 1, 60_000).resetAt).toBe(boundary);
  });

  it("credit periods are UTC months resetting on the 1st", () => {
    expect(creditPeriod(Date.UTC(2026, 0, 31, 23, 59, 59, 999))).toBe("2026-01");
    expect(creditPeriod(Date.UTC(2026, 1, 1))).toBe("2026-02");
    expect(new Date(periodResetsAt(Date.UTC(2026, 11, 15))).toISOString()).toBe(
      "2027-01-01T00:00:00.000Z",
    );
  });

  it("Retry-After rounds up and is at least one second", () => {
    expect(secondsUntil(10_000, 9_999)).toBe(1);
    expect(secondsUntil(10_000, 10_000)).toBe(1);
    expect(secondsUntil(60_000, 15_000)).toBe(45);
    expect(secondsUntil(60_000, 14_500)).toBe(46);
  });
});

describe("usageHeaders", () => {
  it("mirror meta.usage, 'unlimited' when there is no limit", () => {
    expect(usageHeaders({ credits: 1, remaining: 41 })).toEqual({
      "x-service-credits-charged": "1",
      "x-service-credits-remaining": "41",
    });
    expect(usageHeaders({ credits: 3, remaining: null })["x-service-credits-remaining"]).toBe(
      "unlimited",
    );
  });
});
