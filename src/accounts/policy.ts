/**
 * Plan gates: features a plan may not use. Routes call these after parsing, before any work.
 */
import { ApiError } from "../errors";
import { type Feature, lowestPlanWith, type Plan } from "./plans";

const FEATURE_NAMES: Readonly<Record<Feature, string>> = {
  cookies: "cookies",
  headers: "custom headers",
  urlCredentials: "URL credentials (user:pass@host)",
  geo: "geo-targeted capture",
  batch: "batch (of captures or recordings)",
  storageDestinations: "storage destinations (delivery to your own bucket)",
};

/** 403 PLAN_UPGRADE_REQUIRED unless the caller's plan has `feature`. */
export function requireFeature(caller: { plan: Plan }, feature: Feature): void {
  if (caller.plan.features[feature]) return;
  const needed = lowestPlanWith(feature);
  throw new ApiError(
    "PLAN_UPGRADE_REQUIRED",
    `The ${FEATURE_NAMES[feature]} feature requires the ${needed.name} plan or higher ` +
      `(current plan: ${caller.plan.name}).`,
  );
}
