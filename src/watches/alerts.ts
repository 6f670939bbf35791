/**
 * Alert rules on a watch's fields (docs/WATCHES.md "Alerts on a field"): each run's field values
 * against the last good run's. A rule fires on the run where its condition starts to hold, not
 * on every run while it holds, so a price that stays low or a product that stays in stock is
 * one alert, not one per run. `onFirstRun` fires a condition that already holds on the first run
 * that reads the fields (there is no earlier value to cross from).
 */
import type { AlertRule, FiredAlert } from "../../schemas/watches";
import type { FieldValue, FieldValues } from "../../schemas/structured";

const isNumber = (v: FieldValue | undefined): v is number =>
  typeof v === "number" && Number.isFinite(v);

/** A rule's field is a single value (the schema refuses lists and objects): that value. */
const scalar = (v: FieldValue | undefined): string | number | boolean | null =>
  v === undefined || v === null || typeof v === "object" ? null : v;

/** Field values are JSON: equal when their JSON is. */
const same = (a: FieldValue | undefined, b: FieldValue | undefined): boolean =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Whether `rule`'s condition holds of one value (above, below, becomes, stopsBeing). */
function holds(rule: AlertRule, value: FieldValue | undefined): boolean {
  switch (rule.rule) {
    case "above":
      return isNumber(value) && typeof rule.value === "number" && value > rule.value;
    case "below":
      return isNumber(value) && typeof rule.value === "number" && value < rule.value;
    case "becomes":
      return same(value, rule.value);
    case "stopsBeing":
      return !same(value, rule.value);
    default:
      return false;
  }
}

/** Whether a move from `before` to `now` is a change of at least `byPercent` in `direction`. */
function moved(
  before: FieldValue | undefined,
  now: FieldValue | undefined,
  direction: 1 | -1,
  byPercent: number,
): boolean {
  if (!isNumber(before) || !isNumber(now)) return false;
  const delta = (now - before) * direction;
  if (delta <= 0) return false;
  if (before === 0) return true; // from zero, any move is past every percentage
  return (delta / Math.abs(before)) * 100 >= byPercent - 1e-9;
}

function fires(
  rule: AlertRule,
  before: FieldValue | undefined,
  now: FieldValue | undefined,
): boolean {
  switch (rule.rule) {
    case "changed":
      return !same(before, now);
    case "increased":
      return moved(before, now, 1, rule.byPercent ?? 0);
    case "decreased":
      return moved(before, now, -1, rule.byPercent ?? 0);
    default:
      // Crossing a bound, or back in stock: the condition holds now and did not before.
      return holds(rule, now) && !holds(rule, before);
  }
}

/**
 * The rules that fire on a run whose fields read `now`, against the last good run's `before`
 * (null when no earlier run read these fields).
 */
export function firedAlerts(
  rules: readonly AlertRule[],
  before: FieldValues | null,
  now: FieldValues,
): FiredAlert[] {
  const fired: FiredAlert[] = [];
  for (const rule of rules) {
    const previous = before === null ? null : scalar(before[rule.field]);
    const current = scalar(now[rule.field]);
    const hit =
      before === null ? rule.onFirstRun && holds(rule, current) : fires(rule, previous, current);
    if (!hit) continue;
    fired.push({
      field: rule.field,
      rule: rule.rule,
      ...(rule.byPercent !== undefined ? { byPercent: rule.byPercent } : {}),
      ...(rule.value !== undefined ? { value: rule.value } : {}),
      previous,
      current,
    });
  }
  return fired;
}
