/**
 * A monitor's check started (now from the API, or when the schedule's queue message arrives):
 * admitted in the Account DO (one check at a time per monitor), its start URL checked again as a
 * capture's (the URL guard, DNS and reputation: a site may have moved since the monitor was
 * made), then run as a crawl — its own Crawl DO, whose pages this feature's renderer compares
 * (./page.ts). Nothing is charged here: each page rendered is, as a crawl's.
 */
import type { CheckView, MonitorSettings } from "../../schemas/monitors";
import { CRAWL_PAGE_OPTIONS, type CrawlPageOptions } from "../../schemas/crawl";
import { MONITOR } from "../../schemas/limits";
import { accountStub } from "../accounts/directory";
import { PLANS } from "../accounts/plans";
import { prepareCapture } from "../capture-request/prepare";
import type { CrawlConfig } from "../crawl/config";
import { crawlStub } from "../crawl/crawl-stub";
import { normalizeUrl } from "../crawl/urls";
import { ApiError, validationError } from "../errors";
import { log } from "../log";
import { type MonitorRecord, readSettings } from "./store";

export type CheckStart =
  { ok: true; check: CheckView } | { ok: false; reason: "not_found" | "busy" };

/** The page options of a monitor's settings: every page's capture options, as a crawl's. */
export function monitorPageOptions(settings: MonitorSettings): CrawlPageOptions {
  const options: Record<string, unknown> = {};
  for (const key of CRAWL_PAGE_OPTIONS)
    if (settings[key] !== undefined) options[key] = settings[key];
  return options as CrawlPageOptions;
}

/** The crawl that is a check of `monitor`. */
function checkConfig(
  monitor: MonitorRecord,
  ids: { checkId: string; accountId: string; plan: CrawlConfig["plan"]; url: string },
): CrawlConfig {
  const s = readSettings(monitor.settings);
  return {
    crawlId: ids.checkId,
    accountId: ids.accountId,
    plan: ids.plan,
    url: ids.url,
    origin: monitor.origin,
    limit: s.limit ?? MONITOR.limit.default,
    maxDepth: s.maxDepth ?? MONITOR.maxDepth.default,
    scope: s.scope ?? "host",
    include: s.include ?? [],
    exclude: s.exclude ?? [],
    sitemap: s.sitemap ?? "include",
    formats: ["text", "screenshot"],
    followNofollow: s.followNofollow ?? false,
    options: monitorPageOptions(s),
    monitor: {
      monitorId: monitor.monitorId,
      checkId: ids.checkId,
      compare: s.compare ?? ["visual", "text", "fields"],
      fields: s.fields ?? [],
      alerts: s.alerts ?? [],
      ignore: s.ignore ?? [],
      ignoreRegions: s.ignoreRegions ?? [],
      learnVolatile: s.learnVolatile ?? true,
      minChangedPixels: s.minChangedPixels ?? MONITOR.minChangedPixels.default,
      minChangedWords: s.minChangedWords ?? MONITOR.minChangedWords.default,
      retentionDays: PLANS[ids.plan].monitorRetentionDays,
    },
  };
}

/**
 * Starts a check of the monitor. A start URL the guard now refuses is the caller's 400 (the
 * check is not recorded); "busy" when a check of the monitor is queued or running.
 */
export async function startCheck(
  env: Env,
  accountId: string,
  monitorId: string,
  trigger: CheckView["trigger"],
): Promise<CheckStart> {
  const account = accountStub(env, accountId);
  const checkId = crypto.randomUUID();
  const admitted = await account.monitors().beginCheck(monitorId, checkId, trigger);
  if (!admitted.ok) return admitted;
  const { monitor, plan } = admitted;
  try {
    const auth = { accountId, keyId: "monitor", plan: PLANS[plan], account };
    const options = monitorPageOptions(readSettings(monitor.settings));
    const spec = await prepareCapture(env, auth, { ...options, url: monitor.url });
    const url = spec.source.kind === "url" ? normalizeUrl(spec.source.url) : null;
    if (url === null) throw validationError("url", "Must be a public http or https URL.");
    const config = checkConfig(monitor, { checkId, accountId, plan, url });
    await account.crawls().admit({
      crawlId: checkId,
      monitorId,
      url,
      limit: config.limit,
      webhookUrl: null,
      webhookEvents: [],
    });
    await crawlStub(env, accountId, checkId).start(config, Date.now());
  } catch (err) {
    await account.monitors().dropCheck(checkId);
    throw err;
  }
  const check = await account.monitors().check(monitorId, checkId);
  if (!check) throw new Error("monitors: a check started and vanished");
  return { ok: true, check };
}

/** The schedule's start (a queue message): a refusal or a busy monitor is logged, not retried. */
export async function startScheduledCheck(
  env: Env,
  accountId: string,
  monitorId: string,
  trigger: "created" | "schedule",
): Promise<void> {
  try {
    const started = await startCheck(env, accountId, monitorId, trigger);
    if (!started.ok)
      log("info", "monitors: scheduled check not started", { monitorId, reason: started.reason });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    log("warn", "monitors: scheduled check refused", { monitorId, code: err.code });
  }
}
