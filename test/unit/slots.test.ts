/** FairSlots: caps per browser and per account, one FIFO line across accounts, bounded waits. */
import { describe, expect, it } from "vitest";
import { FairSlots, SlotsBusy } from "../../src/capture/slots";

const limits = { total: 4, perAccount: 3, maxWaiting: 3, waitMs: 200 };
const settled = () => new Promise((r) => setTimeout(r, 0));

describe("FairSlots", () => {
  it("one account never holds every slot; another account's caller goes at once", async () => {
    const slots = new FairSlots(limits);
    for (let i = 0; i < 3; i++) await slots.acquire("a");
    let fourth = false;
    void slots.acquire("a").then(() => (fourth = true));
    await slots.acquire("b"); // the free slot, although "a" asked first
    await settled();
    expect(fourth).toBe(false);
    expect(slots.stats()).toEqual({ inFlight: 4, waiting: 1, accounts: 2 });
    slots.release("b");
    await settled();
    expect(fourth).toBe(false); // "a" is still at its cap: the slot stays free for others
    slots.release("a");
    await settled();
    expect(fourth).toBe(true);
  });

  it("freed slots go first-in-first-out across accounts", async () => {
    const slots = new FairSlots(limits);
    await Promise.all([slots.acquire("a"), slots.acquire("a"), slots.acquire("b")]);
    await slots.acquire("c");
    const order: string[] = [];
    const wait = (who: string) => slots.acquire(who).then(() => order.push(who));
    const waits = [wait("d"), wait("e"), wait("f")];
    slots.release("a");
    slots.release("b");
    slots.release("c");
    await Promise.all(waits);
    expect(order).toEqual(["d", "e", "f"]);
  });

  it("a wait past the budget and a full line are refused with SlotsBusy, leaving no trace", async () => {
    const slots = new FairSlots(limits);
    for (const who of ["a", "b", "c", "d"]) await slots.acquire(who);
    const waits = ["e", "f", "g"].map((who) => slots.acquire(who));
    await expect(slots.acquire("h")).rejects.toBeInstanceOf(SlotsBusy); // line full: at once
    for (const wait of waits) await expect(wait).rejects.toBeInstanceOf(SlotsBusy);
    expect(slots.stats()).toEqual({ inFlight: 4, waiting: 0, accounts: 4 });
    slots.release("a");
    await slots.acquire("e"); // the line is empty again: a new caller gets the free slot
    expect(slots.stats().inFlight).toBe(4);
  });

  it("refuses a per-account cap that is not below the pool size", () => {
    expect(() => new FairSlots({ ...limits, perAccount: 4 })).toThrow();
  });
});
