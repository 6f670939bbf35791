/**
 * The usage chart: credits committed per UTC day over the previous and the current month, as
 * an SVG drawn on the server (no script, no library). One bar per day; each bar carries its
 * day and count (`data-day`, `data-credits`, a <title> tooltip).
 */
import { html } from "hono/html";
import type { Html } from "./layout";

const WIDTH = 720;
const HEIGHT = 200;
const AXIS = 24;

export interface DayCount {
  day: string;
  used: number;
}

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Every day from the first of the previous month to the last of the current one (UTC). */
export function chartDays(now: number): string[] {
  const d = new Date(now);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  const days: string[] = [];
  for (let t = start; t < end; t += 86_400_000) days.push(isoDay(t));
  return days;
}

export function usageChart(counts: DayCount[], now: number): Html {
  const days = chartDays(now);
  const byDay = new Map(counts.map((c) => [c.day, c.used]));
  const max = Math.max(1, ...days.map((day) => byDay.get(day) ?? 0));
  const slot = WIDTH / days.length;
  const plot = HEIGHT - AXIS;
  const today = isoDay(now);
  const monthStarts = days.filter((day) => day.endsWith("-01"));
  return html`<svg
    class="chart"
    role="img"
    aria-label="Credits used per day, previous and current month (most in one day: ${max})"
    viewBox="0 0 ${WIDTH} ${HEIGHT}"
    preserveAspectRatio="none"
    xmlns="http://www.w3.org/2000/svg"
  >
    <line x1="0" y1="${plot}" x2="${WIDTH}" y2="${plot}" class="axis" />
    ${days.map((day, i) => {
      const used = byDay.get(day) ?? 0;
      const h = used === 0 ? 0 : Math.max(2, (used / max) * (plot - 8));
      const x = (i * slot + slot * 0.15).toFixed(2);
      return html`<rect
        class="bar${day === today ? " today" : ""}"
        data-day="${day}"
        data-credits="${used}"
        x="${x}"
        y="${(plot - h).toFixed(2)}"
        width="${(slot * 0.7).toFixed(2)}"
        height="${h.toFixed(2)}"
        ><title>${day}: ${used} credit${used === 1 ? "" : "s"}</title></rect
      >`;
    })}
    ${monthStarts.map((day) => {
      const x = (days.indexOf(day) * slot).toFixed(2);
      return html`<text x="${x}" y="${HEIGHT - 6}" class="label">${day.slice(0, 7)}</text>`;
    })}
    <text x="${WIDTH}" y="12" class="label end">max ${max}/day</text>
  </svg>`;
}
