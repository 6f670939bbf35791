/**
 * A monitor as the API shows it: its stored record with every setting's default filled in (what
 * a check applies), its schedule, and its signed feed URL.
 */
import { MONITOR } from "../../schemas/limits";
import type { MonitorSettings, MonitorView } from "../../schemas/monitors";
import { feedUrl } from "./feed";
import { DEFAULT_SCHEDULE } from "./schedule";
import { type MonitorRecord, readSettings } from "./store";

export async function monitorView(
  env: Env,
  accountId: string,
  record: MonitorRecord,
): Promise<MonitorView> {
  const settings = readSettings(record.settings);
  return {
    monitorId: record.monitorId,
    name: record.name,
    url: record.url,
    status: record.paused ? "paused" : "active",
    schedule: settings.schedule ?? DEFAULT_SCHEDULE,
    nextCheckAt: record.nextCheckAt === null ? null : new Date(record.nextCheckAt).toISOString(),
    lastCheck: record.lastCheck,
    feedUrl: await feedUrl(env, record.origin, accountId, record.monitorId),
    settings: withDefaults(settings),
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
}

/** Every setting with its default filled in (what a check applies). */
function withDefaults(s: MonitorSettings): MonitorSettings {
  return {
    ...s,
    scope: s.scope ?? "host",
    include: s.include ?? [],
    exclude: s.exclude ?? [],
    sitemap: s.sitemap ?? "include",
    schedule: s.schedule ?? DEFAULT_SCHEDULE,
    limit: s.limit ?? MONITOR.limit.default,
    maxDepth: s.maxDepth ?? MONITOR.maxDepth.default,
    followNofollow: s.followNofollow ?? false,
    compare: s.compare ?? ["visual", "text", "fields"],
    fields: s.fields ?? [],
    ignore: s.ignore ?? [],
    ignoreRegions: s.ignoreRegions ?? [],
    learnVolatile: s.learnVolatile ?? true,
    minChangedPixels: s.minChangedPixels ?? MONITOR.minChangedPixels.default,
    minChangedWords: s.minChangedWords ?? MONITOR.minChangedWords.default,
    ...(s.webhookUrl !== undefined
      ? { webhookEvents: s.webhookEvents ?? ["monitor.check.completed"] }
      : {}),
  };
}
