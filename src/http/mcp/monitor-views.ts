/**
 * What the monitor tools show a model: a monitor, a dry run, a check, and a check's pages with
 * what changed on each — bounded (`MONITOR_TOOLS_VIEW`): a page's text diff is cut at
 * `diffChars`, a field's value at `valueChars`, a dry run's URLs at `urls`, each cut saying how
 * much was left out and where the whole is. The data is the monitors endpoints' own, unchanged
 * (src/monitors/operations.ts); only its telling is here.
 */
import { MONITOR } from "../../../schemas/limits";
import { MONITOR_TOOLS_VIEW as VIEW } from "../../../schemas/mcp";
import {
  type CheckPage,
  type CheckView,
  MONITOR_COMPARE,
  type MonitorDryRun,
  type MonitorView,
} from "../../../schemas/monitors";
import { cut } from "./crawl-views";

/** `ignore` selectors named in a monitor's summary (the rest counted): up to 50 of 500 characters. */
const IGNORED_SHOWN = 5;

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

function scheduleText(schedule: MonitorView["schedule"]): string {
  return schedule.cron !== undefined
    ? `cron "${schedule.cron}" (UTC)`
    : `every ${plural(schedule.intervalMinutes ?? MONITOR.intervalMinutes.default, "minute")}`;
}

/** A check in one line: its id, why it ran, its status, its counts and credits, its times. */
export function checkLine(check: CheckView): string {
  const c = check.counts;
  const status = `${check.status}${check.stoppedBy ? `, stopped by ${check.stoppedBy}` : ""}`;
  const times = `started ${check.createdAt}${check.completedAt ? `, completed ${check.completedAt}` : ""}`;
  return `Check ${check.checkId} (${check.trigger}, ${status}${check.baseline ? ", baseline" : ""}): ${c.new} new, ${c.removed} removed, ${c.changed} changed, ${c.unchanged} unchanged, ${c.failed} failed; ${plural(check.creditsUsed, "credit")} used; ${times}.`;
}

/**
 * A monitor: what it watches, when, what it compares, its last check and its feed. Its settings
 * come with their defaults filled in; the same defaults stand in for the type's optional fields.
 */
export function monitorText(monitor: MonitorView): string {
  const s = monitor.settings;
  const fields = s.fields ?? [];
  const ignore = s.ignore ?? [];
  const ignored = [
    ...ignore.slice(0, IGNORED_SHOWN),
    ...(ignore.length > IGNORED_SHOWN ? [`… and ${ignore.length - IGNORED_SHOWN} more`] : []),
  ];
  const depth = s.maxDepth ?? MONITOR.maxDepth.default;
  return [
    `Monitor ${monitor.monitorId}${monitor.name === null ? "" : ` "${monitor.name}"`} of ${monitor.url}: ${monitor.status}.`,
    `Schedule: ${scheduleText(monitor.schedule)}; next check: ${monitor.nextCheckAt ?? "none while paused"}.`,
    `A check covers at most ${plural(s.limit ?? MONITOR.limit.default, "page")} (scope ${s.scope ?? "host"}, ${plural(depth, "link")} deep) and compares ${(s.compare ?? MONITOR_COMPARE).join(", ")}${fields.length > 0 ? `; fields: ${fields.map((f) => f.name).join(", ")}` : ""}${ignored.length > 0 ? `; ignored: ${ignored.join(", ")}` : ""}.`,
    monitor.lastCheck === null ? "No check yet." : `Last: ${checkLine(monitor.lastCheck)}`,
    `Atom feed of its changes (no key needed): ${monitor.feedUrl}`,
  ].join("\n");
}

/** What monitor_create answers for a new monitor: the monitor and what to call next. */
export function createdText(monitor: MonitorView): string {
  const id = monitor.monitorId;
  return [
    monitorText(monitor),
    `Its first check runs now and sets the baseline (every page new). Call monitor_changes with monitorId "${id}" in a few seconds to see it; after that it tells what changed. monitor_check checks again now.`,
    "Each page a check renders costs 1 credit; skipped and failed pages cost nothing.",
  ].join("\n");
}

/** A dry run: the credits and the URLs a check would cover (the first `VIEW.urls`). */
export function dryRunText(dryRun: MonitorDryRun): string {
  const more = dryRun.urls.length - VIEW.urls;
  return [
    "Dry run: nothing created, nothing charged.",
    `A check would cover ${plural(dryRun.creditsPerCheck, "page")}${dryRun.truncated ? " (the site has more than limit: the rest are left out)" : ""}: ${plural(dryRun.creditsPerCheck, "credit")} a check, ${count(dryRun.checksPerMonth)} checks in 30 days, ${plural(dryRun.creditsPerMonth, "credit")} a month.`,
    ...dryRun.urls.slice(0, VIEW.urls).map((url) => `- ${url}`),
    ...(more > 0 ? [`- … and ${count(more)} more`] : []),
  ].join("\n");
}

/** A value as a model reads it: quoted (escapes keep it on one line), cut at `max`. */
function quoted(value: string, max: number): string {
  const { shown, cut: wasCut } = cut(value, max);
  return wasCut
    ? `${JSON.stringify(shown)}… (${count(shown.length)} of ${count(value.length)} characters)`
    : JSON.stringify(shown);
}

/** The text diff's parts, `-` removed and `+` added, within `VIEW.diffChars` characters. */
function textDiff(diff: NonNullable<CheckPage["text"]>, where: string): string[] {
  const out = [
    `Text: ${plural(diff.added, "word")} added, ${plural(diff.removed, "word")} removed${diff.truncated ? " (the stored diff is itself cut: at most 100 parts of 500 characters)" : ""}:`,
  ];
  let budget: number = VIEW.diffChars;
  let shown = 0;
  for (const part of diff.parts) {
    if (budget <= 0) break;
    out.push(`${part.op === "added" ? "+" : "-"} ${quoted(part.text, budget)}`);
    budget -= part.text.length;
    shown++;
  }
  const left = diff.parts.slice(shown);
  if (left.length > 0)
    out.push(
      `[Cut at ${count(VIEW.diffChars)} characters: ${plural(left.length, "more part")} (${count(left.reduce((n, p) => n + p.text.length, 0))} characters) not shown. The whole diff: GET ${where}.]`,
    );
  return out;
}

function fieldValue(value: string | null): string {
  return value === null ? "(none)" : quoted(value, VIEW.valueChars);
}

/**
 * One page of a check: a heading with its status (and a failed page's reason), then what
 * changed — pixels with their regions and the diff image, words, fields, what was masked — or a
 * new page's screenshot. `where` is the REST path of the check's pages, named where a cut is.
 */
export function checkPageText(page: CheckPage, where: string): string {
  const code = page.statusCode === undefined ? "" : ` (HTTP ${page.statusCode})`;
  const why =
    page.reason !== undefined ? `: ${page.reason}${code}` : page.status === "removed" ? code : "";
  const out = [`## ${page.url} — ${page.status}${why}`];
  if (page.screenshotUrl) out.push(`Screenshot: ${page.screenshotUrl}`);
  if (page.visual) {
    const v = page.visual;
    const boxes = v.regions.map((r) => `${r.width}×${r.height} at (${r.x}, ${r.y})`);
    out.push(
      `Visual: ${plural(v.changedPixels, "pixel")} changed (${v.changedPercent}%) in ${plural(v.regions.length, "region")}${boxes.length > 0 ? `: ${boxes.join("; ")}` : ""}.`,
      `Diff image (changes in red): ${v.diffUrl}`,
    );
  }
  if (page.text) out.push(...textDiff(page.text, where));
  if (page.fields && page.fields.length > 0)
    out.push(
      "Fields:",
      ...page.fields.map((f) => `- ${f.name}: ${fieldValue(f.before)} → ${fieldValue(f.after)}`),
    );
  if (page.masked && (page.masked.regions.length > 0 || page.masked.lines > 0))
    out.push(
      `Not compared (volatile or ignored): ${plural(page.masked.regions.length, "region")}, ${plural(page.masked.lines, "line")} of text.`,
    );
  return out.join("\n");
}

/** monitor_changes' head: the monitor, the check, how many pages follow, what to call next. */
export function changesHeader(
  monitor: MonitorView,
  check: CheckView,
  shown: number,
  next: { cursor: string | undefined; nextCursor: string | null },
): string {
  const call = `monitor_changes with monitorId "${monitor.monitorId}" and checkId "${check.checkId}"`;
  const running = check.status === "queued" || check.status === "running";
  const latest = monitor.lastCheck;
  return [
    `Monitor ${monitor.monitorId} of ${monitor.url}.`,
    checkLine(check),
    check.baseline &&
      "This check set the baseline: every page it saw is new; changes are told from the next check on.",
    latest !== null &&
      latest.checkId !== check.checkId &&
      `A later check, ${latest.checkId}, is ${latest.status}.`,
    shown === 0
      ? "No pages in this range."
      : `${plural(shown, "page")} below (unchanged pages are only counted), in the order they were checked.`,
    next.nextCursor !== null
      ? `More pages: call ${call} and cursor "${next.nextCursor}".`
      : running
        ? `The check is ${check.status}: call ${call}${next.cursor ? ` and cursor "${next.cursor}"` : ""} again in a few seconds for the pages checked since.`
        : "That is the last page.",
  ]
    .filter((line): line is string => typeof line === "string")
    .join("\n");
}

/** monitor_changes before any check completed: the recent checks, and when to call again. */
export function noCompletedCheckText(monitor: MonitorView, checks: CheckView[]): string {
  const head = `Monitor ${monitor.monitorId} of ${monitor.url}: no completed check yet.`;
  if (checks.length === 0)
    return [
      head,
      monitor.nextCheckAt === null
        ? "It is paused and has no check: monitor_check checks now."
        : `No check has started; the next is due ${monitor.nextCheckAt} (monitor_check checks now).`,
    ].join("\n");
  return [
    head,
    "Its latest checks, newest first:",
    ...checks.map((c) => `- ${checkLine(c)}`),
    `Call monitor_changes with monitorId "${monitor.monitorId}" again in a few seconds, or with a checkId to read a running check's pages so far.`,
  ].join("\n");
}
