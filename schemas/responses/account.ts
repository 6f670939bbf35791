/** Responses about the account: plan, credit usage, upgrade offer, the credential check. */
import { z } from "zod";

const iso = z.iso.datetime();

export const PLAN_IDS = ["free", "basic", "starter", "pro", "enterprise"] as const;

export const creditUsageSchema = z
  .object({
    /** Credits committed this month. */
    used: z.number().int(),
    /** Monthly credits of the plan; null = unlimited. */
    limit: z.number().int().nullable(),
    /** Credits still available (limit minus used minus those held); null = unlimited. */
    remaining: z.number().int().nullable(),
    unlimited: z.boolean(),
    /** ISO time of the monthly reset (first day of next UTC month). */
    resetsAt: iso,
  })
  .meta({ id: "CreditUsage" });
export type CreditUsage = z.output<typeof creditUsageSchema>;

export const upgradeSchema = z
  .object({
    recommendedPlan: z.enum(PLAN_IDS),
    /** Monthly credits of the recommended plan; null when it is unlimited. */
    recommendedPlanCredits: z.number().int().nullable(),
    upgradeUrl: z.string(),
    manageBillingUrl: z.string(),
  })
  .meta({ id: "Upgrade" });
export type UpgradeInfo = z.output<typeof upgradeSchema>;

/** GET /v1/account (alias /v1/usage). */
export const accountSchema = z
  .object({
    plan: z.enum(PLAN_IDS),
    usage: creditUsageSchema,
    /** Captures and writes per minute. */
    rateLimitPerMinute: z.number().int(),
    /** Reads per minute (polling jobs, batches, watches; this account), counted apart. */
    readRateLimitPerMinute: z.number().int(),
    upgrade: upgradeSchema.nullable(),
    webhooks: z.object({ signingSecret: z.string() }),
  })
  .meta({ id: "Account" });
export type AccountData = z.output<typeof accountSchema>;

/** GET /v1/credential-check. */
export const credentialCheckSchema = z
  .object({
    valid: z.literal(true),
    accountId: z.string(),
    plan: z.enum(PLAN_IDS),
    keyId: z.string(),
  })
  .meta({ id: "CredentialCheck" });
export type CredentialCheckData = z.output<typeof credentialCheckSchema>;
