/** Alert rules on a watch's fields: which fire, against the last good run, and only on a crossing. */
import { describe, expect, it } from "vitest";
import type { AlertRule } from "../../schemas/watches";
import { firedAlerts } from "../../src/watches/alerts";

const rule = (r: Partial<AlertRule> & Pick<AlertRule, "rule">): AlertRule => ({
  field: "price",
  onFirstRun: false,
  ...r,
});
const fired = (r: AlertRule, before: unknown, now: unknown, first = false) =>
  firedAlerts([r], first ? null : { price: before as number }, { price: now as number }).length ===
  1;

describe("firedAlerts", () => {
  it("decreased / increased by at least N % of the last value", () => {
    const drop = rule({ rule: "decreased", byPercent: 10 });
    expect(fired(drop, 100, 90)).toBe(true);
    expect(fired(drop, 100, 90.01)).toBe(false);
    expect(fired(drop, 100, 98)).toBe(false);
    expect(fired(drop, 100, 110)).toBe(false);
    expect(fired(rule({ rule: "increased", byPercent: 5 }), 100, 105)).toBe(true);
    expect(fired(rule({ rule: "increased" }), 100, 100)).toBe(false);
    expect(fired(rule({ rule: "increased" }), 0, 1)).toBe(true);
    // A value that is not a number (not found, unreadable) is no move.
    expect(fired(drop, null, 50)).toBe(false);
    expect(fired(drop, 100, null)).toBe(false);
  });

  it("above / below fire when the value crosses, not while it stays", () => {
    const below = rule({ rule: "below", value: 50 });
    expect(fired(below, 60, 40)).toBe(true);
    expect(fired(below, 40, 30)).toBe(false);
    expect(fired(below, 40, 60)).toBe(false);
    expect(fired(rule({ rule: "above", value: 50 }), 50, 50.5)).toBe(true);
    expect(fired(rule({ rule: "above", value: 50 }), null, 51)).toBe(true);
  });

  it("becomes / stopsBeing fire once: back in stock, then in stock again is nothing", () => {
    const back = rule({ field: "price", rule: "becomes", value: "In stock" });
    expect(fired(back, "Sold out", "In stock")).toBe(true);
    expect(fired(back, "In stock", "In stock")).toBe(false);
    const gone = rule({ rule: "stopsBeing", value: true });
    expect(fired(gone, true, false)).toBe(true);
    expect(fired(gone, false, false)).toBe(false);
  });

  it("changed compares values; the first run fires only with onFirstRun and a holding condition", () => {
    expect(fired(rule({ rule: "changed" }), 1, 2)).toBe(true);
    expect(fired(rule({ rule: "changed" }), "a", "a")).toBe(false);
    expect(fired(rule({ rule: "changed", onFirstRun: true }), null, 2, true)).toBe(false);
    expect(fired(rule({ rule: "below", value: 50 }), null, 40, true)).toBe(false);
    expect(fired(rule({ rule: "below", value: 50, onFirstRun: true }), null, 40, true)).toBe(true);
    expect(fired(rule({ rule: "below", value: 50, onFirstRun: true }), null, 60, true)).toBe(false);
  });

  it("says which rule fired, with the old and new values", () => {
    const rules: AlertRule[] = [
      rule({ rule: "decreased", byPercent: 10 }),
      rule({ field: "stock", rule: "becomes", value: "In stock" }),
      rule({ rule: "above", value: 1000 }),
    ];
    expect(
      firedAlerts(rules, { price: 100, stock: "Sold out" }, { price: 80, stock: "In stock" }),
    ).toEqual([
      { field: "price", rule: "decreased", byPercent: 10, previous: 100, current: 80 },
      {
        field: "stock",
        rule: "becomes",
        value: "In stock",
        previous: "Sold out",
        current: "In stock",
      },
    ]);
  });
});
