/**
 * The plans table: every per-plan number and feature flag of the service, in one place.
 *
 * The numbers are the published plans (README.md lists them): a product decision, so
 * test/accounts/accounts-model.node.test.ts pins each one. Watch counts (active plus paused watches) are
 * our own choice, in proportion to the other caps: Free 3, Basic 10, Starter 25, Pro 100,
 * Enterprise 1,000.
 *
 * Two per-minute limits: `rateLimitPerMinute` counts every call that is not a read (captures,
 * writes); `readRateLimitPerMinute` counts reads — GET/HEAD requests that start no work (polling
 * jobs, batches, watches, account and usage; the rule is in src/http/middleware/authenticate.ts).
 * The read limits are our own choice: at least 60/min (one poll a second, or a dozen jobs polled
 * every 5 s, on Free) and at least 4× the plan's request limit: Free 60, Basic 120, Starter 300,
 * Pro 1,200, Enterprise 5,000. Reads and captures are counted apart: a read never spends a
 * capture's budget.
 *
 * Crawls (docs/CRAWL.md): the page caps of Free, Starter, Pro and Enterprise are published
 * (10, 100, 1,000, 10,000); Basic's 50 and the crawls in flight (1, 2, 3, 5, 20) are ours, in
 * proportion to the active-job caps.
 *
 * Site monitors (docs/MONITORS.md), ours: monitors held 1, 3, 10, 50, 500; the shortest
 * interval between checks 1440, 360, 60, 30, 5 minutes; checks kept 7, 14, 30, 90, 365 days. A
 * check's pages are capped by the plan's crawl page cap.
 */

import { PLAN_IDS, type UpgradeInfo } from "../../schemas/responses";

export type PlanId = (typeof PLAN_IDS)[number];

export const FEATURES = [
  "cookies",
  "headers",
  "urlCredentials",
  "geo",
  "batch",
  "storageDestinations",
] as const;
export type Feature = (typeof FEATURES)[number];

export interface Plan {
  id: PlanId;
  name: string;
  /** Credits per calendar month (UTC); null = unlimited. */
  monthlyCredits: number | null;
  /** Calls per minute that are not reads: captures and writes. */
  rateLimitPerMinute: number;
  /** Reads per minute (GET/HEAD starting no work: polling, account), counted apart. */
  readRateLimitPerMinute: number;
  /** Concurrent async jobs (queued plus processing). */
  activeJobs: number;
  /** Largest batch; 0 = batches not allowed. */
  batchCap: number;
  /** Shortest watch interval allowed, in minutes. */
  watchFloorMinutes: number;
  /** Watches an account may hold (active plus paused). */
  watchCount: number;
  /** Pages one crawl may render (`limit`'s cap; docs/CRAWL.md). */
  crawlPageCap: number;
  /** Crawls queued or running at once. */
  crawlsInFlight: number;
  /** URLs one map may answer (`POST /v1/map` `limit`'s cap; docs/CRAWL.md). */
  mapUrlCap: number;
  /** Site monitors an account may hold (active plus paused; docs/MONITORS.md). */
  monitorCount: number;
  /** Shortest time between two scheduled checks of a monitor, in minutes. */
  monitorFloorMinutes: number;
  /** Days a monitor's checks (and their images) are kept. */
  monitorRetentionDays: number;
  features: Readonly<Record<Feature, boolean>>;
  /** Image outputs carry the tiled watermark (a footer on PDFs). */
  watermark: boolean;
}

const PAID = { cookies: true, headers: true, urlCredentials: true, batch: true } as const;

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: "free",
    name: "Free",
    monthlyCredits: 100,
    rateLimitPerMinute: 3,
    readRateLimitPerMinute: 60,
    activeJobs: 10,
    batchCap: 0,
    watchFloorMinutes: 1440,
    watchCount: 3,
    crawlPageCap: 10,
    crawlsInFlight: 1,
    mapUrlCap: 5_000,
    monitorCount: 1,
    monitorFloorMinutes: 1440,
    monitorRetentionDays: 7,
    watermark: true,
    features: {
      cookies: false,
      headers: false,
      urlCredentials: false,
      geo: false,
      batch: false,
      storageDestinations: false,
    },
  },
  basic: {
    id: "basic",
    name: "Basic",
    monthlyCredits: 1_000,
    rateLimitPerMinute: 20,
    readRateLimitPerMinute: 120,
    activeJobs: 25,
    batchCap: 10,
    watchFloorMinutes: 180,
    watchCount: 10,
    crawlPageCap: 50,
    crawlsInFlight: 2,
    mapUrlCap: 5_000,
    monitorCount: 3,
    monitorFloorMinutes: 360,
    monitorRetentionDays: 14,
    watermark: false,
    features: { ...PAID, geo: false, storageDestinations: false },
  },
  starter: {
    id: "starter",
    name: "Starter",
    monthlyCredits: 5_000,
    rateLimitPerMinute: 60,
    readRateLimitPerMinute: 300,
    activeJobs: 50,
    batchCap: 25,
    watchFloorMinutes: 60,
    watchCount: 25,
    crawlPageCap: 100,
    crawlsInFlight: 3,
    mapUrlCap: 5_000,
    monitorCount: 10,
    monitorFloorMinutes: 60,
    monitorRetentionDays: 30,
    watermark: false,
    features: { ...PAID, geo: false, storageDestinations: false },
  },
  pro: {
    id: "pro",
    name: "Pro",
    monthlyCredits: 25_000,
    rateLimitPerMinute: 300,
    readRateLimitPerMinute: 1_200,
    activeJobs: 200,
    batchCap: 100,
    watchFloorMinutes: 30,
    watchCount: 100,
    crawlPageCap: 1_000,
    crawlsInFlight: 5,
    mapUrlCap: 10_000,
    monitorCount: 50,
    monitorFloorMinutes: 30,
    monitorRetentionDays: 90,
    watermark: false,
    features: { ...PAID, geo: true, storageDestinations: true },
  },
  enterprise: {
    id: "enterprise",
    name: "Enterprise",
    monthlyCredits: null,
    rateLimitPerMinute: 1_000,
    readRateLimitPerMinute: 5_000,
    activeJobs: 1_000,
    batchCap: 500,
    watchFloorMinutes: 5,
    watchCount: 1_000,
    crawlPageCap: 20_000,
    crawlsInFlight: 20,
    mapUrlCap: 100_000,
    monitorCount: 500,
    monitorFloorMinutes: 5,
    monitorRetentionDays: 365,
    watermark: false,
    features: { ...PAID, geo: true, storageDestinations: true },
  },
};

/** The dashboard's plans page (src/http/dashboard/): where upgrades and billing are explained. */
export const PLANS_PATH = "/dashboard/plans";

/** The lowest plan that has `feature` (every feature exists on some plan). */
export function lowestPlanWith(feature: Feature): Plan {
  const plan = PLAN_IDS.map((id) => PLANS[id]).find((p) => p.features[feature]);
  if (!plan) throw new Error(`no plan has feature ${feature}`);
  return plan;
}

/** The next plan up, or null on the top plan; links point at the dashboard on `origin`. */
export function upgradeFor(id: PlanId, origin: string): UpgradeInfo | null {
  const next = PLAN_IDS[PLAN_IDS.indexOf(id) + 1];
  if (!next) return null;
  return {
    recommendedPlan: next,
    recommendedPlanCredits: PLANS[next].monthlyCredits,
    upgradeUrl: `${origin}${PLANS_PATH}?plan=${next}`,
    manageBillingUrl: `${origin}${PLANS_PATH}`,
  };
}

/**
 * Animated captures (POST /v1/animate; docs/ANIMATE.md), ours: the longest clip, the highest
 * frame rate and the most device pixels a frame (width × height × deviceScaleFactor²) each plan
 * records. Within schemas/limits.ts `LIMITS.animation`, the widest any plan gets.
 */
export interface AnimationBounds {
  durationSeconds: number;
  fps: number;
  devicePixels: number;
}

export const ANIMATION_BOUNDS: Readonly<Record<PlanId, AnimationBounds>> = {
  free: { durationSeconds: 5, fps: 15, devicePixels: 1280 * 800 },
  basic: { durationSeconds: 10, fps: 24, devicePixels: 1280 * 800 },
  starter: { durationSeconds: 15, fps: 30, devicePixels: 1920 * 1080 },
  pro: { durationSeconds: 30, fps: 30, devicePixels: 1920 * 1080 },
  enterprise: { durationSeconds: 30, fps: 30, devicePixels: 2560 * 1600 },
};
