/**
 * What bounds a crawl at scale (docs/CRAWL.md, "Scale"): the waiting URLs it keeps, the bodies
 * its rows hold inline, and its pages in flight by how they load.
 */
import { describe, expect, it } from "vitest";
import { CRAWL } from "../../schemas/limits";
import { crawlConcurrency, inlineBytes } from "../../src/crawl/config";
import { pendingCap } from "../../src/crawl/frontier";
import { TUNING } from "../../src/tuning";

describe("crawl bounds", () => {
  it("keeps 2 waiting URLs a page of its limit, at least 200", () => {
    expect(pendingCap(1)).toBe(200);
    expect(pendingCap(100)).toBe(200);
    expect(pendingCap(20_000)).toBe(40_000);
  });

  it("holds 256 KB of a page's bodies inline up to 4,096 pages, less above: 1 GiB a crawl", () => {
    expect(inlineBytes({ limit: 20 })).toBe(CRAWL.inlineBytes);
    expect(inlineBytes({ limit: 4_096 })).toBe(256 * 1024);
    expect(inlineBytes({ limit: 20_000 })).toBe(53_687);
    expect(inlineBytes({ limit: 20_000 }) * 20_000).toBeLessThanOrEqual(CRAWL.inlineBudget);
  });

  it("has more pages in flight when they are fetched over HTTP first; a monitor's check renders", () => {
    const browser = { inFlight: TUNING.crawlInFlight, perHost: TUNING.crawlPerHostInFlight };
    const http = { inFlight: TUNING.crawlHttpInFlight, perHost: TUNING.crawlHttpPerHostInFlight };
    expect(crawlConcurrency({ render: "always" })).toEqual(browser);
    expect(crawlConcurrency({})).toEqual(browser);
    expect(crawlConcurrency({ render: "never" })).toEqual(http);
    expect(crawlConcurrency({ render: "auto" })).toEqual(http);
    expect(http.perHost).toBeGreaterThan(browser.perHost);
    const monitor = { render: "never", monitor: {} } as Parameters<typeof crawlConcurrency>[0];
    expect(crawlConcurrency(monitor)).toEqual(browser);
  });
});
