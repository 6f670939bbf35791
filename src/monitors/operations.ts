/**
 * What the monitors endpoints, the MCP tools and the dashboard do (docs/MONITORS.md): create
 * (or dry-run), read, list, change, pause and resume, delete, check now, and read the checks,
 * a check's pages and the signed Atom feed. The plan's caps are checked here (src/accounts/plans.ts:
 * monitors held, pages a check, the shortest interval); the store keeps the rows (./store.ts).
 */
import type {
  CheckPage,
  CheckPageStatus,
  CheckView,
  MonitorDryRun,
  MonitorPatch,
  MonitorRequest,
  MonitorSettings,
  MonitorView,
} from "../../schemas/monitors";
import { MONITOR } from "../../schemas/limits";
import type { AuthContext } from "../accounts/auth";
import { accountStub } from "../accounts/directory";
import { prepareCapture } from "../capture-request/prepare";
import { crawlStub } from "../crawl/crawl-stub";
import { siteCoverage } from "../crawl/map";
import { normalizeUrl } from "../crawl/urls";
import { ApiError, validationError } from "../errors";
import type { ListQuery, Page } from "../jobs/store/read";
import type { CaptureEngine } from "../pipeline/engine";
import { requireWebhookUrl } from "../webhooks/url";
import { deleteBaselines } from "./baseline";
import { atomFeed, feedAccess } from "./feed";
import { monitorPageOptions, startCheck } from "./check";
import { BUILT_IN_FIELD_NAMES } from "./page";
import { checksPerMonth, DEFAULT_SCHEDULE, shortestGapMinutes } from "./schedule";
import { type MonitorRecord, readSettings } from "./store";
import { monitorView } from "./views";

const notFound = () =>
  new ApiError("MONITOR_NOT_FOUND", "No monitor with this id on this account.");

/** The plan's caps on settings: pages a check, and the schedule's floor. */
function checkPlan(auth: AuthContext, settings: MonitorSettings): void {
  const limit = settings.limit ?? MONITOR.limit.default;
  if (limit > auth.plan.crawlPageCap)
    throw validationError(
      "limit",
      `Must be at most ${auth.plan.crawlPageCap} on the ${auth.plan.name} plan.`,
    );
  const schedule = settings.schedule ?? DEFAULT_SCHEDULE;
  const gap = shortestGapMinutes(schedule, Date.now());
  if (gap < auth.plan.monitorFloorMinutes)
    throw new ApiError(
      "MONITOR_SCHEDULE_TOO_FAST",
      `The ${auth.plan.name} plan checks a monitor at most every ${auth.plan.monitorFloorMinutes} minutes; this schedule runs checks ${gap} minutes apart.`,
      {
        details: [
          {
            path: schedule.cron !== undefined ? "schedule.cron" : "schedule.intervalMinutes",
            message: `Must run at most every ${auth.plan.monitorFloorMinutes} minutes.`,
          },
        ],
      },
    );
}

/** The start URL checked as a capture's (a refused one is a 400), normalised. */
async function checkedUrl(env: Env, auth: AuthContext, settings: MonitorSettings): Promise<string> {
  const spec = await prepareCapture(env, auth, {
    ...monitorPageOptions(settings),
    url: settings.url,
  });
  const url = spec.source.kind === "url" ? normalizeUrl(spec.source.url) : null;
  if (url === null) throw validationError("url", "Must be a public http or https URL.");
  return url;
}

/** Each alert rule names a field every page has: one of `fields`, or a built-in one. */
function checkAlerts(settings: MonitorSettings): void {
  const names = new Set([...BUILT_IN_FIELD_NAMES, ...(settings.fields ?? []).map((f) => f.name)]);
  (settings.alerts ?? []).forEach((alert, i) => {
    if (!names.has(alert.field))
      throw validationError(
        `alerts[${i}].field`,
        `Not a field of this monitor: one of fields' names or ${BUILT_IN_FIELD_NAMES.join(", ")}.`,
      );
  });
}

async function checkedSettings(
  env: Env,
  auth: AuthContext,
  settings: MonitorSettings,
): Promise<MonitorSettings> {
  checkPlan(auth, settings);
  checkAlerts(settings);
  if (settings.webhookUrl === undefined) return settings;
  return { ...settings, webhookUrl: await requireWebhookUrl(env, settings.webhookUrl) };
}

/**
 * POST /v1/monitors: the monitor, its first check due now (unless paused). With `dryRun`,
 * nothing is created or charged: the URLs a check would cover and its credits.
 */
export async function createMonitor(
  env: Env,
  auth: AuthContext,
  req: MonitorRequest,
  origin: string,
  engine: CaptureEngine,
): Promise<{ kind: "created"; monitor: MonitorView } | { kind: "dryRun"; dryRun: MonitorDryRun }> {
  const { paused, dryRun, ...given } = req;
  const settings = await checkedSettings(env, auth, given);
  const url = await checkedUrl(env, auth, settings);
  if (dryRun === true)
    return { kind: "dryRun", dryRun: await dryRunOf(env, auth, { ...settings, url }, engine) };
  const created = await auth.account.monitors().create({
    monitorId: crypto.randomUUID(),
    name: settings.name ?? null,
    url,
    settings: JSON.stringify({ ...settings, url }),
    origin,
    paused: paused === true,
  });
  if (!created.ok)
    throw new ApiError(
      "MONITOR_LIMIT_REACHED",
      `The ${auth.plan.name} plan holds ${created.cap} monitor${created.cap === 1 ? "" : "s"}; delete one or upgrade.`,
    );
  return { kind: "created", monitor: await monitorView(env, auth.accountId, created.monitor) };
}

async function dryRunOf(
  env: Env,
  auth: AuthContext,
  settings: MonitorSettings,
  engine: CaptureEngine,
): Promise<MonitorDryRun> {
  const { urls, truncated } = await siteCoverage(
    env,
    auth,
    {
      url: settings.url,
      ...(settings.scope ? { scope: settings.scope } : {}),
      ...(settings.include ? { include: settings.include } : {}),
      ...(settings.exclude ? { exclude: settings.exclude } : {}),
      ...(settings.sitemap ? { sitemap: settings.sitemap } : {}),
      limit: settings.limit ?? MONITOR.limit.default,
      maxDepth: settings.maxDepth ?? MONITOR.maxDepth.default,
    },
    engine,
  );
  const perMonth = checksPerMonth(settings.schedule ?? DEFAULT_SCHEDULE, Date.now());
  return {
    dryRun: true,
    urls,
    truncated,
    creditsPerCheck: urls.length,
    checksPerMonth: perMonth,
    creditsPerMonth: Math.ceil(urls.length * perMonth),
  };
}

async function record(auth: AuthContext, monitorId: string): Promise<MonitorRecord> {
  const found = await auth.account.monitors().get(monitorId);
  if (!found) throw notFound();
  return found;
}

export async function getMonitor(
  env: Env,
  auth: AuthContext,
  monitorId: string,
): Promise<MonitorView> {
  return monitorView(env, auth.accountId, await record(auth, monitorId));
}

export async function listMonitors(
  env: Env,
  auth: AuthContext,
  query: ListQuery,
): Promise<Page<MonitorView>> {
  const page = await auth.account.monitors().list(query);
  const items = await Promise.all(page.items.map((r) => monitorView(env, auth.accountId, r)));
  return { items, nextBefore: page.nextBefore };
}

/** PATCH: the settings merged and checked again as a new monitor's would be. */
export async function patchMonitor(
  env: Env,
  auth: AuthContext,
  monitorId: string,
  patch: MonitorPatch,
): Promise<MonitorView> {
  const current = await record(auth, monitorId);
  const { paused, name, webhookUrl, ...rest } = patch;
  const merged: MonitorSettings = { ...readSettings(current.settings), ...rest };
  if (name !== undefined) {
    if (name === null) delete merged.name;
    else merged.name = name;
  }
  if (webhookUrl === null) {
    delete merged.webhookUrl;
    delete merged.webhookEvents;
  } else if (webhookUrl !== undefined) merged.webhookUrl = webhookUrl;
  const settings = await checkedSettings(env, auth, merged);
  const updated = await auth.account.monitors().update(monitorId, {
    settings: JSON.stringify(settings),
    ...(name !== undefined ? { name } : {}),
    ...(paused !== undefined ? { paused } : {}),
  });
  if (!updated) throw notFound();
  return monitorView(env, auth.accountId, updated);
}

export async function setPaused(
  env: Env,
  auth: AuthContext,
  monitorId: string,
  paused: boolean,
): Promise<MonitorView> {
  const updated = await auth.account.monitors().update(monitorId, { paused });
  if (!updated) throw notFound();
  return monitorView(env, auth.accountId, updated);
}

/**
 * DELETE: the monitor, its checks and their pages, and its baselines in R2. A check in flight is
 * cancelled: nothing more of it starts, or is charged.
 */
export async function deleteMonitor(env: Env, auth: AuthContext, monitorId: string): Promise<void> {
  const running = await auth.account.monitors().remove(monitorId);
  if (running === null) throw notFound();
  await Promise.all(running.map((checkId) => crawlStub(env, auth.accountId, checkId).cancel()));
  await deleteBaselines(env, auth.accountId, monitorId);
}

/** POST …/checks: a check now, beside the schedule. */
export async function checkNow(env: Env, auth: AuthContext, monitorId: string): Promise<CheckView> {
  const started = await startCheck(env, auth.accountId, monitorId, "manual");
  if (started.ok) return started.check;
  if (started.reason === "not_found") throw notFound();
  throw new ApiError("CHECK_IN_PROGRESS", "A check of this monitor is already queued or running.");
}

export async function listChecks(
  auth: AuthContext,
  monitorId: string,
  query: ListQuery,
): Promise<Page<CheckView>> {
  const page = await auth.account.monitors().checks(monitorId, query);
  if (!page) throw notFound();
  return page;
}

export async function getCheck(
  auth: AuthContext,
  monitorId: string,
  checkId: string,
): Promise<CheckView> {
  const check = await auth.account.monitors().check(monitorId, checkId);
  if (!check) {
    await record(auth, monitorId);
    throw new ApiError("CHECK_NOT_FOUND", "No check with this id on this monitor.");
  }
  return check;
}

export async function checkPages(
  auth: AuthContext,
  monitorId: string,
  checkId: string,
  query: { status: CheckPageStatus | null; cursor: number; limit: number },
): Promise<{ pages: CheckPage[]; nextCursor: string | null }> {
  await getCheck(auth, monitorId, checkId);
  const { pages, next } = await auth.account
    .monitors()
    .checkPages(checkId, { status: query.status, after: query.cursor, limit: query.limit });
  return { pages, nextCursor: next === null ? null : String(next) };
}

/** GET …/feed: the signature checked (403), then the monitor's Atom feed (404 once deleted). */
export async function monitorFeed(
  env: Env,
  monitorId: string,
  params: URLSearchParams,
): Promise<string> {
  const accountId = await feedAccess(env, monitorId, params);
  if (accountId === null)
    throw new ApiError("FORBIDDEN", "The feed's signature is missing or invalid.");
  const monitors = accountStub(env, accountId).monitors();
  const [found, entries] = await Promise.all([monitors.get(monitorId), monitors.feed(monitorId)]);
  if (!found || !entries) throw notFound();
  const view = await monitorView(env, accountId, found);
  return atomFeed(view, view.feedUrl, entries);
}
