/** The fair-CPU rule (src/capture/cpu-share.ts): which captures are held. */
import { describe, expect, it } from "vitest";
import { capturesToHold, type CpuEntry } from "../../src/capture/cpu-share";

const entry = (accountId: string, seq: number, heavy: boolean): CpuEntry => ({
  accountId,
  seq,
  heavy,
});
const held = (entries: CpuEntry[]) =>
  [...capturesToHold(entries)].map((e) => `${e.accountId}${e.seq}`).sort();

describe("capturesToHold", () => {
  it("never holds an account that is alone on the browser, however heavy", () => {
    expect(held([entry("a", 0, true), entry("a", 1, true), entry("a", 2, true)])).toEqual([]);
  });

  it("holds an account's younger heavy captures while another account is in flight", () => {
    const spinners = [
      ...[0, 1, 2, 3].map((i) => entry("a", i, true)),
      entry("b", 4, true),
      entry("b", 5, true),
      entry("c", 6, false),
    ];
    expect(held(spinners)).toEqual(["a1", "a2", "a3", "b5"]);
  });

  it("lets the oldest of each account run, and never holds a light capture", () => {
    expect(held([entry("a", 3, false), entry("a", 7, true), entry("b", 1, false)])).toEqual(["a7"]);
    expect(held([entry("a", 3, true), entry("a", 7, false), entry("b", 1, true)])).toEqual([]);
  });

  it("lets a held capture go once it is its account's oldest", () => {
    const before = [entry("a", 0, true), entry("a", 1, true), entry("b", 2, false)];
    expect(held(before)).toEqual(["a1"]);
    expect(held(before.slice(1))).toEqual([]);
  });
});
