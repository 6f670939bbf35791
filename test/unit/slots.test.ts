/**
 * FairSlots: caps per browser and per account, weight budgets per account and per browser, one
 * FIFO line across accounts, bounded waits.
 */
import { describe, expect, it } from "vitest";
import { FairSlots, SlotsBusy, type Slot } from "../../src/capture/slots";

/** Weights far below the budgets: only the counts decide. */
const limits = {
  total: 4,
  perAccount: 3,
  accountWeight: 100,
  totalWeight: 150,
  maxWaiting: 3,
  waitMs: 200,
};
const settled = () => new Promise((r) => setTimeout(r, 0));

describe("FairSlots", () => {
  it("one account never holds every slot; another account's caller goes at once", async () => {
    const slots = new FairSlots(limits);
    const held: Slot[] = [];
    for (let i = 0; i < 3; i++) held.push(await slots.acquire("a", 1));
    let fourth = false;
    void slots.acquire("a", 1).then(() => (fourth = true));
    const b = await slots.acquire("b", 1); // the free slot, although "a" asked first
    await settled();
    expect(fourth).toBe(false);
    expect(slots.stats()).toEqual({ inFlight: 4, waiting: 1, accounts: 2, weight: 4 });
    slots.release(b);
    await settled();
    expect(fourth).toBe(false); // "a" is still at its cap: the slot stays free for others
    slots.release(held[0]!);
    await settled();
    expect(fourth).toBe(true);
  });

  it("freed slots go first-in-first-out across accounts", async () => {
    const slots = new FairSlots(limits);
    const held = await Promise.all([
      slots.acquire("a", 1),
      slots.acquire("a", 1),
      slots.acquire("b", 1),
    ]);
    const c = await slots.acquire("c", 1);
    const order: string[] = [];
    const wait = (who: string) => slots.acquire(who, 1).then(() => order.push(who));
    const waits = [wait("d"), wait("e"), wait("f")];
    slots.release(held[0]!);
    slots.release(held[2]!);
    slots.release(c);
    await Promise.all(waits);
    expect(order).toEqual(["d", "e", "f"]);
  });

  it("a freed slot goes to the waiting account holding the fewest, not to one already served", async () => {
    const slots = new FairSlots(limits);
    const a = await Promise.all([slots.acquire("a", 1), slots.acquire("a", 1)]);
    const b = await Promise.all([slots.acquire("b", 1), slots.acquire("b", 1)]);
    const order: string[] = [];
    const wait = (who: string) => slots.acquire(who, 1).then(() => order.push(who));
    const waits = [wait("b"), wait("c")]; // "b" holds two already, "c" nothing
    slots.release(a[0]!);
    await settled();
    expect(order).toEqual(["c"]);
    slots.release(a[1]!);
    await Promise.all(waits);
    expect(order).toEqual(["c", "b"]);
    void b;
  });

  it("a wait past the budget and a full line are refused with SlotsBusy, leaving no trace", async () => {
    const slots = new FairSlots(limits);
    const held: Slot[] = [];
    for (const who of ["a", "b", "c", "d"]) held.push(await slots.acquire(who, 1));
    const waits = ["e", "f", "g"].map((who) => slots.acquire(who, 1));
    await expect(slots.acquire("h", 1)).rejects.toBeInstanceOf(SlotsBusy); // line full: at once
    for (const wait of waits) await expect(wait).rejects.toBeInstanceOf(SlotsBusy);
    expect(slots.stats()).toEqual({ inFlight: 4, waiting: 0, accounts: 4, weight: 4 });
    slots.release(held[0]!);
    await slots.acquire("e", 1); // the line is empty again: a new caller gets the free slot
    expect(slots.stats().inFlight).toBe(4);
  });

  it("refuses a per-account cap that is not below the pool size", () => {
    expect(() => new FairSlots({ ...limits, perAccount: 4 })).toThrow();
  });
});

describe("FairSlots by weight", () => {
  it("one account's heavy captures run one at a time; its light ones and others' pass them", async () => {
    const slots = new FairSlots(limits);
    const heavy = await slots.acquire("a", 80);
    const order: string[] = [];
    const second = slots.acquire("a", 80).then((s) => (order.push("a-heavy"), s));
    const light = await slots.acquire("a", 10); // within a's budget beside the first
    const other = await slots.acquire("b", 50); // the host's budget: 80 + 10 + 50 ≤ 150
    await settled();
    expect(order).toEqual([]); // 80 + 10 + 80 is over a's budget
    expect(slots.stats()).toMatchObject({ inFlight: 3, waiting: 1, weight: 140 });
    slots.release(light);
    slots.release(heavy);
    // a's budget has room again, and the host's too (50 + 80 ≤ 150): it goes.
    expect(await second).toMatchObject({ account: "a", weight: 80 });
    expect(slots.stats()).toMatchObject({ inFlight: 2, waiting: 0, weight: 130 });
    slots.release(other);
  });

  it("the host's budget holds a heavy caller of another account while light ones pass", async () => {
    const slots = new FairSlots(limits);
    await slots.acquire("a", 100);
    let waited = false;
    const heavy = slots.acquire("b", 60).then((s) => ((waited = true), s)); // 160 > 150
    const light = await slots.acquire("c", 5); // passes the waiting heavy one
    await settled();
    expect(waited).toBe(false);
    slots.release(light);
    await settled();
    expect(waited).toBe(false); // 100 + 60 is still over the host's budget
    expect(slots.stats()).toMatchObject({ inFlight: 1, waiting: 1, weight: 100 });
    await expect(heavy).rejects.toBeInstanceOf(SlotsBusy); // it waited out its budget
  });

  it("a capture heavier than a budget runs when nothing else holds it, never never", async () => {
    const slots = new FairSlots(limits);
    const huge = await slots.acquire("a", 500);
    expect(slots.stats()).toMatchObject({ inFlight: 1, weight: 500 });
    const next = slots.acquire("b", 1);
    await settled();
    expect(slots.stats().waiting).toBe(1); // the host's budget is spent
    slots.release(huge);
    await next;
  });

  it("lighten frees what a measured full page will not render, admitting who now fits", async () => {
    const slots = new FairSlots(limits);
    const page = await slots.acquire("a", 90);
    let second = false;
    void slots.acquire("a", 90).then(() => (second = true));
    await settled();
    expect(second).toBe(false);
    slots.lighten(page, 120); // never heavier in flight
    expect(page.weight).toBe(90);
    slots.lighten(page, 5);
    await settled();
    expect(second).toBe(true);
    expect(slots.stats()).toMatchObject({ inFlight: 2, weight: 95 });
    slots.release(page);
    expect(slots.stats()).toMatchObject({ inFlight: 1, weight: 90, accounts: 1 });
  });
});
