/** The fair-CPU rule (src/capture/host/cpu-rule.ts): which captures are held. */
import { describe, expect, it } from "vitest";
import { capturesToHold, type CpuEntry, type CpuScene } from "../../src/capture/host/cpu-rule";

/** A capture running (not held) since 0, unless told otherwise. */
const entry = (
  accountId: string,
  seq: number,
  heavy: boolean,
  held = false,
  since = 0,
): CpuEntry => ({
  accountId,
  seq,
  heavy,
  held,
  since,
});
const scene = (extra: Partial<CpuScene> = {}): CpuScene => ({
  newcomerWaiting: false,
  now: 10_000,
  running: 1,
  sliceMs: 1_000,
  ...extra,
});
const held = (entries: CpuEntry[], at: Partial<CpuScene> = {}) =>
  [...capturesToHold(entries, scene(at))].map((e) => `${e.accountId}${e.seq}`).sort();

describe("capturesToHold", () => {
  it("never holds an account that is alone on the browser, however heavy", () => {
    expect(held([entry("a", 0, true), entry("a", 1, true), entry("a", 2, true)])).toEqual([]);
  });

  it("holds an account's younger heavy captures while another account is in flight", () => {
    const spinners = [
      ...[0, 1, 2, 3].map((i) => entry("a", i, true)),
      entry("b", 4, true),
      entry("b", 5, true),
      entry("c", 6, true),
    ];
    expect(held(spinners)).toEqual(["a1", "a2", "a3", "b5"]);
  });

  it("lets the oldest heavy capture of each account run: a light one older holds nothing back", () => {
    // a3 waits for its server: a7, the account's only heavy capture, runs.
    expect(held([entry("a", 3, false), entry("a", 7, true), entry("b", 1, false)])).toEqual([]);
    expect(
      held([entry("a", 3, false), entry("a", 7, true), entry("a", 8, true), entry("b", 1, false)]),
    ).toEqual(["a8"]);
    expect(held([entry("a", 3, true), entry("b", 1, true), entry("c", 2, true)])).toEqual([]);
  });

  it("lets a held capture go once it is its account's oldest", () => {
    const before = [entry("a", 0, true), entry("a", 1, true), entry("b", 2, false)];
    expect(held(before)).toEqual(["a1"]);
    expect(held(before.slice(1))).toEqual([]);
  });

  it("runs one account's oldest heavy capture at a time while a light capture is in flight", () => {
    const five = ["a", "b", "c", "d", "e"].map((who, i) => entry(who, i, true, false, i));
    const light = entry("f", 9, false);
    // Every turn is over: the one that started running last (e, since 4) keeps running.
    expect(held([...five, light])).toEqual(["a0", "b1", "c2", "d3"]);
    // A light capture of one of their own accounts counts the same.
    expect(held([...five, entry("a", 9, false)])).toEqual(["a0", "b1", "c2", "d3"]);
  });

  it("a newcomer waiting for a slot is reason enough, even beside one account alone", () => {
    const five = ["a", "b", "c", "d", "e"].map((who, i) => entry(who, i, true, false, i));
    expect(held(five, { newcomerWaiting: true })).toEqual(["a0", "b1", "c2", "d3"]);
    const alone = [entry("a", 0, true), entry("a", 1, true)];
    expect(held(alone, { newcomerWaiting: true })).toEqual(["a1"]);
  });

  it("heavy captures take turns: one keeps its slice, then the one held longest goes", () => {
    const light = entry("f", 9, false);
    const turn = (runningSince: number) => [
      entry("a", 0, true, false, runningSince),
      entry("b", 1, true, true, 8_000), // held since 8 s
      entry("c", 2, true, true, 7_000), // held since 7 s: the longest
      light,
    ];
    expect(held(turn(9_500))).toEqual(["b1", "c2"]); // a's turn began 0.5 s ago
    expect(held(turn(8_900))).toEqual(["a0", "b1"]); // over: c goes
  });

  it("runs as many heavy captures at once as told", () => {
    const three = ["a", "b", "c"].map((who, i) => entry(who, i, true, false, i));
    expect(held([...three, entry("d", 5, false)], { running: 2 })).toEqual(["a0"]);
  });
});
