/**
 * Site monitors (docs/MONITORS.md): a whole site checked on a schedule, each page compared with
 * the last check's — new, removed, changed (visual, text, fields), unchanged or failed. The
 * request bodies, the listing queries and the views. A monitor's site and page options are a
 * crawl's own fields (./crawl.ts: same bounds and messages); the plan's caps (monitors, pages a
 * check, the shortest interval) are checked by the feature (src/monitors/), not here.
 */
import { Cron } from "croner";
import { z } from "zod";
import { listQuery, pagesQuery } from "./jobs";
import { listingSchema } from "./responses/jobs";
import { MONITOR } from "./limits";
import { pageOptions, siteFields, unique } from "./crawl";
import { cssSelector, intIn, maxChars, NOT_EMPTY } from "./primitives";
import { LIMITS as L } from "./limits";
import { alertRuleSchema, firedAlertSchema } from "./watches";
import { completenessSchema } from "./responses/completeness";

export const MONITOR_STATUSES = ["active", "paused"] as const;
export const MONITOR_COMPARE = ["visual", "text", "fields"] as const;
export const MONITOR_EVENTS = [
  "monitor.check.completed",
  "monitor.page.changed",
  "monitor.page.new",
  "monitor.page.removed",
  "monitor.page.failed",
] as const;
export type MonitorEvent = (typeof MONITOR_EVENTS)[number];
export const CHECK_STATUSES = ["queued", "running", "completed", "cancelled", "failed"] as const;
export const CHECK_TRIGGERS = ["created", "schedule", "manual"] as const;
export const CHECK_PAGE_STATUSES = ["new", "removed", "changed", "unchanged", "failed"] as const;
export type CheckPageStatus = (typeof CHECK_PAGE_STATUSES)[number];

/** A cron expression croner reads (5 fields, or 6 with seconds), without its `@` nicknames' oddities. */
export function cronProblem(expression: string): string | null {
  if (expression.trim() === "") return NOT_EMPTY;
  try {
    const cron = new Cron(expression, { paused: true, timezone: "Etc/UTC" });
    if (cron.nextRun() === null) return "Never runs.";
    return null;
  } catch (err) {
    return `Not a cron expression: ${err instanceof Error ? err.message : String(err)}`;
  }
}

export const scheduleSchema = z
  .strictObject({
    intervalMinutes: intIn(MONITOR.intervalMinutes.min, MONITOR.intervalMinutes.max, "minutes")
      .optional()
      .meta({
        description:
          "Minutes between checks: at least the plan's floor (Free 1440, Basic 360, Starter 60, Pro 30, Enterprise 5).",
      }),
    cron: maxChars(MONITOR.cronChars)
      .superRefine((s, ctx) => {
        const problem = cronProblem(s);
        if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
      })
      .optional()
      .meta({
        description:
          "A cron expression in UTC (`0 6 * * 1-5`); two runs may be no closer than the plan's floor.",
      }),
  })
  .superRefine((value, ctx) => {
    const given =
      (value.intervalMinutes !== undefined ? 1 : 0) + (value.cron !== undefined ? 1 : 0);
    if (given !== 1)
      ctx.addIssue({ code: "custom", message: "Give exactly one of intervalMinutes or cron." });
  })
  .meta({ id: "MonitorSchedule", description: "When checks run. Default: every 1440 minutes." });
export type MonitorSchedule = z.output<typeof scheduleSchema>;

const region = z
  .strictObject({
    x: intIn(0, 20_000),
    y: intIn(0, 20_000),
    width: intIn(1, 20_000),
    height: intIn(1, 20_000),
  })
  .meta({ id: "MonitorRegion", description: "A box in CSS px of the captured viewport." });
export type Region = z.output<typeof region>;

const field = z
  .strictObject({
    name: maxChars(MONITOR.fieldNameChars).min(1, NOT_EMPTY),
    selector: cssSelector(L.selectorChars),
    attribute: maxChars(100)
      .regex(/^[A-Za-z_:][-A-Za-z0-9_:.]*$/, "Must be an attribute name.")
      .optional()
      .meta({ description: "Read this attribute instead of the element's text." }),
  })
  .meta({ id: "MonitorField" });

/** What a monitor compares and ignores: its settings beyond the site and the schedule. */
const compareFields = {
  compare: z
    .array(z.enum(MONITOR_COMPARE))
    .min(1, "At least one.")
    .superRefine(unique)
    .optional()
    .meta({
      description:
        "What counts as a change: visual (pixels outside masks), text (words of the visible text), fields (title, description, canonical, status code and `fields`).",
      default: [...MONITOR_COMPARE],
    }),
  fields: z
    .array(field)
    .max(MONITOR.fields, `At most ${MONITOR.fields}.`)
    .superRefine((list, ctx) =>
      unique(
        list.map((f) => f.name),
        ctx,
      ),
    )
    .optional()
    .meta({ description: "Named selectors whose first match's text (or attribute) is compared." }),
  alerts: z
    .array(alertRuleSchema)
    .max(L.watchAlerts, `At most ${L.watchAlerts} rules.`)
    .optional()
    .meta({
      description:
        "Rules on a page's fields (a name of `fields`, or title, description, canonical, statusCode), as a watch's alerts: a page where one fires is changed, and its report says which rule fired with the old and new values. Number rules read text as a number in any locale.",
    }),
  ignore: z
    .array(cssSelector(L.selectorChars))
    .max(MONITOR.ignore, `At most ${MONITOR.ignore}.`)
    .optional()
    .meta({
      description: "Selectors hidden before every capture: never a change, in pixels or text.",
    }),
  ignoreRegions: z
    .array(region)
    .max(MONITOR.ignoreRegions, `At most ${MONITOR.ignoreRegions}.`)
    .optional()
    .meta({ description: "Boxes of the viewport whose pixels are never compared." }),
  learnVolatile: z.boolean().optional().meta({
    description:
      "Capture each page twice when first seen and mask what differs between the two (clocks, rotating banners, ads).",
    default: true,
  }),
  minChangedPixels: intIn(MONITOR.minChangedPixels.min, MONITOR.minChangedPixels.max)
    .optional()
    .meta({
      description: "Fewer changed pixels (outside masks) than this are no visual change.",
      default: MONITOR.minChangedPixels.default,
    }),
  minChangedWords: intIn(MONITOR.minChangedWords.min, MONITOR.minChangedWords.max).optional().meta({
    description: "Fewer changed words than this are no text change.",
    default: MONITOR.minChangedWords.default,
  }),
};

const webhookFields = {
  webhookUrl: z.string().min(1).max(L.webhookUrlChars).optional().meta({
    description: "Signed events of this monitor are POSTed here.",
  }),
  webhookEvents: z
    .array(z.enum(MONITOR_EVENTS))
    .min(1, "At least one event.")
    .superRefine(unique)
    .optional()
    .meta({ description: "Events sent to webhookUrl.", default: ["monitor.check.completed"] }),
};

const coverageFields = {
  limit: intIn(MONITOR.limit.min, MONITOR.limit.max).optional().meta({
    description:
      "Pages a check covers at most (each plan caps it: Free 10, Basic 50, Starter 100, Pro 1,000, Enterprise 10,000).",
    default: MONITOR.limit.default,
  }),
  maxDepth: intIn(MONITOR.maxDepth.min, MONITOR.maxDepth.max).optional().meta({
    description: "Links followed from the start page (sitemap URLs enter at depth 1).",
    default: MONITOR.maxDepth.default,
  }),
  followNofollow: z.boolean().optional().meta({
    description: 'Follow links marked rel="nofollow".',
    default: false,
  }),
};

const name = maxChars(MONITOR.nameChars)
  .min(1, NOT_EMPTY)
  .meta({ description: "A label of your choice." });

function webhookEventsNeedUrl(
  value: { webhookEvents?: unknown; webhookUrl?: unknown },
  ctx: z.RefinementCtx,
): void {
  if (value.webhookEvents !== undefined && value.webhookUrl === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["webhookEvents"],
      message: "webhookEvents requires webhookUrl.",
    });
}

/** What a monitor keeps: every field of its request but the one-shot `paused` and `dryRun`. */
const settingsFields = {
  ...siteFields,
  name: name.optional(),
  schedule: scheduleSchema.optional(),
  ...coverageFields,
  ...compareFields,
  ...pageOptions,
  ...webhookFields,
};

/** POST /v1/monitors. */
export const monitorCreateSchema = z
  .strictObject({
    ...settingsFields,
    paused: z.boolean().optional().meta({
      description: "Create it paused: no check runs until it is resumed.",
      default: false,
    }),
    dryRun: z.boolean().optional().meta({
      description:
        "Create nothing and charge nothing: answer the URLs a check would cover and its credits per check and per month.",
      default: false,
    }),
  })
  .superRefine(webhookEventsNeedUrl)
  .meta({ id: "MonitorRequest" });
export type MonitorRequest = z.output<typeof monitorCreateSchema>;

/** The settings a monitor keeps: its request without the one-shot flags. */
export type MonitorSettings = Omit<MonitorRequest, "paused" | "dryRun">;

/** PATCH /v1/monitors/{id}: any of these (the site — url, scope, sitemap — is fixed). */
export const monitorPatchSchema = z
  .strictObject({
    name: name.nullable().optional(),
    schedule: scheduleSchema.optional(),
    include: siteFields.include,
    exclude: siteFields.exclude,
    ...coverageFields,
    ...compareFields,
    ...pageOptions,
    webhookUrl: webhookFields.webhookUrl.unwrap().nullable().optional(),
    webhookEvents: webhookFields.webhookEvents,
    paused: z.boolean().optional(),
  })
  .meta({ id: "MonitorPatch" });
export type MonitorPatch = z.output<typeof monitorPatchSchema>;

export const monitorListQuery = listQuery("monitor", MONITOR_STATUSES);
export const checkListQuery = listQuery("check", CHECK_STATUSES);

/** GET …/checks/{checkId}/pages: `status` (default: every page that is not unchanged), paging. */
export const checkPagesQuery = pagesQuery(CHECK_PAGE_STATUSES, MONITOR.pagesPerList.max);

// ---- Views ---------------------------------------------------------------------------------

const iso = z.string().meta({ description: "ISO 8601" });
const box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const checkCountsSchema = z.object({
  new: z.number().int(),
  removed: z.number().int(),
  changed: z.number().int(),
  unchanged: z.number().int(),
  failed: z.number().int(),
});
export type CheckCounts = z.output<typeof checkCountsSchema>;

export const checkSchema = z
  .object({
    checkId: z.string(),
    monitorId: z.string(),
    trigger: z.enum(CHECK_TRIGGERS),
    status: z.enum(CHECK_STATUSES),
    stoppedBy: z.enum(["limit", "credits", "cancelled"]).optional(),
    counts: checkCountsSchema,
    identical: z.number().int().meta({
      description:
        "Of the unchanged pages, those whose capture was byte-identical to the baseline: no pixel or text diff was needed.",
    }),
    creditsUsed: z.number().int(),
    /** The first check of a monitor (or of a page) sets the baseline: every page is new. */
    baseline: z.boolean(),
    createdAt: iso,
    completedAt: iso.optional(),
  })
  .meta({ id: "MonitorCheck" });
export type CheckView = z.output<typeof checkSchema>;

export const checkPageSchema = z
  .object({
    url: z.string(),
    status: z.enum(CHECK_PAGE_STATUSES),
    reason: z.string().optional().meta({ description: "Why a page failed (as a crawl page's)." }),
    statusCode: z.number().int().optional(),
    screenshotUrl: z.string().optional().meta({ description: "A new page's capture (signed)." }),
    completeness: completenessSchema.optional().meta({
      description: "New and changed pages: how complete this check's capture of the page was.",
    }),
    visual: z
      .object({
        changedPixels: z.number().int(),
        changedPercent: z.number(),
        regions: z.array(box).meta({ description: "Bounding boxes of the changed areas, CSS px." }),
        beforeUrl: z.string(),
        afterUrl: z.string(),
        diffUrl: z.string(),
      })
      .optional(),
    text: z
      .object({
        added: z.number().int().meta({ description: "Words added." }),
        removed: z.number().int().meta({ description: "Words removed." }),
        parts: z.array(z.object({ op: z.enum(["added", "removed"]), text: z.string() })),
        truncated: z.boolean(),
      })
      .optional(),
    fields: z
      .array(
        z.object({ name: z.string(), before: z.string().nullable(), after: z.string().nullable() }),
      )
      .optional(),
    alerts: z
      .array(firedAlertSchema)
      .optional()
      .meta({ description: "The monitor's alert rules that fired on this page." }),
    masked: z
      .object({
        regions: z
          .array(box)
          .meta({ description: "Volatile and ignored boxes left out of the pixel diff." }),
        lines: z.number().int().meta({ description: "Volatile lines left out of the text diff." }),
      })
      .optional(),
  })
  .meta({ id: "MonitorCheckPage" });
export type CheckPage = z.output<typeof checkPageSchema>;

export const checkPagesSchema = z.object({
  pages: z.array(checkPageSchema),
  nextCursor: z.string().nullable(),
});

export const monitorSchema = z
  .object({
    monitorId: z.string(),
    name: z.string().nullable(),
    url: z.string(),
    status: z.enum(MONITOR_STATUSES),
    schedule: z.object({
      intervalMinutes: z.number().int().optional(),
      cron: z.string().optional(),
    }),
    nextCheckAt: iso
      .nullable()
      .meta({ description: "The next scheduled check; null while paused." }),
    lastCheck: checkSchema.nullable(),
    feedUrl: z.string().meta({ description: "A signed Atom feed of this monitor's changes." }),
    settings: z
      .object(settingsFields)
      .meta({ id: "MonitorSettings", description: "Every setting, defaults filled in." }),
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: "Monitor" });
export type MonitorView = z.output<typeof monitorSchema>;

export const monitorDryRunSchema = z
  .object({
    dryRun: z.literal(true),
    urls: z.array(z.string()).meta({ description: "The URLs a check would cover now." }),
    truncated: z.boolean().meta({ description: "The site has more URLs than the limit." }),
    creditsPerCheck: z.number().int(),
    checksPerMonth: z.number(),
    creditsPerMonth: z.number().int(),
  })
  .meta({ id: "MonitorDryRun" });
export type MonitorDryRun = z.output<typeof monitorDryRunSchema>;

export const monitorDeletedSchema = z
  .object({ monitorId: z.string(), deleted: z.literal(true) })
  .meta({
    description: "The monitor, its checks, their pages and images, and its baselines are deleted.",
  });

export const monitorListingSchema = listingSchema(monitorSchema);
export const checkListingSchema = listingSchema(checkSchema);

/** `monitor.check.completed`: the check's summary and the pages that were not unchanged (at most 100). */
export const monitorCheckCompletedEventSchema = z
  .object({
    event: z.literal("monitor.check.completed"),
    monitorId: z.string(),
    check: checkSchema,
    pages: z.array(z.object({ url: z.string(), status: z.enum(CHECK_PAGE_STATUSES) })),
  })
  .meta({ id: "MonitorCheckCompletedEvent" });

/** `monitor.page.changed`, `.new`, `.removed`, `.failed`: one page, as the check's pages list it. */
export const monitorPageEventSchema = z
  .object({
    event: z.enum([
      "monitor.page.changed",
      "monitor.page.new",
      "monitor.page.removed",
      "monitor.page.failed",
    ]),
    monitorId: z.string(),
    checkId: z.string(),
    page: checkPageSchema,
  })
  .meta({ id: "MonitorPageEvent" });
