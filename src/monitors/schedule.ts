/**
 * When a monitor's checks run: every `intervalMinutes`, or at the times of a cron expression
 * (UTC; croner reads it — the same library validates it in schemas/monitors.ts), never closer
 * together than the plan's floor (src/accounts/plans.ts).
 */
import { Cron } from "croner";
import type { MonitorSchedule } from "../../schemas/monitors";
import { MONITOR } from "../../schemas/limits";

export const DEFAULT_SCHEDULE: MonitorSchedule = {
  intervalMinutes: MONITOR.intervalMinutes.default,
};

const cronOf = (expression: string) => new Cron(expression, { paused: true, timezone: "Etc/UTC" });

/** The first check time after `from` (epoch ms); null when a cron expression never runs again. */
export function nextCheckAt(schedule: MonitorSchedule, from: number): number | null {
  if (schedule.cron !== undefined)
    return cronOf(schedule.cron).nextRun(new Date(from))?.getTime() ?? null;
  return from + (schedule.intervalMinutes ?? MONITOR.intervalMinutes.default) * 60_000;
}

/** Runs a cron expression's next 50 times are apart at the least, in minutes (Infinity: fewer than two). */
export function shortestGapMinutes(schedule: MonitorSchedule, from: number): number {
  if (schedule.cron === undefined)
    return schedule.intervalMinutes ?? MONITOR.intervalMinutes.default;
  const runs = cronOf(schedule.cron).nextRuns(50, new Date(from));
  let gap = Infinity;
  for (let i = 1; i < runs.length; i++) {
    const a = runs[i - 1];
    const b = runs[i];
    if (a && b) gap = Math.min(gap, (b.getTime() - a.getTime()) / 60_000);
  }
  return gap;
}

/** Scheduled checks a 30-day month holds, for the dry run's credits per month. */
export function checksPerMonth(schedule: MonitorSchedule, from: number): number {
  if (schedule.cron === undefined)
    return (
      Math.round(
        ((30 * 1440) / (schedule.intervalMinutes ?? MONITOR.intervalMinutes.default)) * 100,
      ) / 100
    );
  const until = from + 30 * 86_400_000;
  let n = 0;
  let at: number | null = from;
  const cron = cronOf(schedule.cron);
  while (n < 50_000) {
    const next: Date | null = cron.nextRun(new Date(at));
    if (next === null || next.getTime() > until) break;
    at = next.getTime();
    n++;
  }
  return n;
}
