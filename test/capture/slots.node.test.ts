/**
 * FairSlots: caps per browser and per account, the last free slot kept for a newcomer, a weight
 * budget per account, one line across accounts (least served first, else FIFO) shared per account,
 * bounded waits.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AccountBusy, FairSlots, SlotsBusy, type Slot } from "../../src/capture/host/slots";

/** Weights far below the budgets: only the counts decide. */
const limits = {
  total: 4,
  perAccount: 3,
  accountWeight: 100,
  maxWaiting: 3,
  perAccountWaiting: 2,
  waitMs: 200,
  quietMs: 50,
  backgroundYieldMs: 150,
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
    const slots = new FairSlots({ ...limits, total: 5, perAccount: 4 });
    await Promise.all([slots.acquire("a", 1), slots.acquire("a", 1)]);
    await slots.acquire("b", 1);
    const x = await slots.acquire("x", 1);
    const y = await slots.acquire("y", 1);
    const order: string[] = [];
    const granted: Slot[] = [];
    const wait = (who: string) =>
      slots.acquire(who, 1).then((s) => (order.push(who), granted.push(s)));
    // In line order: "a" holds two already, "b" one, "c" nothing.
    const waits = [wait("a"), wait("b"), wait("c")];
    slots.release(x);
    await settled();
    expect(order).toEqual(["c"]);
    slots.release(y);
    await settled();
    expect(order).toEqual(["c"]); // the one free slot is the last: kept for a newcomer
    slots.release(granted[0]!);
    await settled();
    expect(order).toEqual(["c", "b"]); // two free: the one holding fewer goes first
    slots.release(granted[1]!);
    await Promise.all(waits);
    expect(order).toEqual(["c", "b", "a"]);
  });

  it("a newcomer always finds a slot: accounts already served never take the last free one", async () => {
    const slots = new FairSlots(limits);
    await slots.acquire("a", 1);
    await slots.acquire("a", 1);
    await slots.acquire("b", 1);
    let more = 0;
    const busy = () => {}; // they wait out their budget (SlotsBusy): nothing came free
    void slots.acquire("a", 1).then(() => more++, busy); // under a's cap, but the last free slot
    void slots.acquire("b", 1).then(() => more++, busy);
    await settled();
    expect(more).toBe(0);
    expect(slots.stats()).toMatchObject({ inFlight: 3, waiting: 2 });
    await slots.acquire("c", 1); // nothing in flight: it gets the last slot at once
    expect(slots.stats()).toMatchObject({ inFlight: 4, waiting: 2, accounts: 3 });
  });

  it("held captures lend their slots to newcomers only, and take them back", async () => {
    const slots = new FairSlots(limits);
    for (const who of ["a", "a", "a", "b"]) await slots.acquire(who, 1);
    let a = false;
    let c = false;
    void slots.acquire("a", 1).then(
      () => (a = true),
      () => {},
    );
    void slots.acquire("c", 1).then(
      () => (c = true),
      () => {},
    );
    await settled();
    expect([a, c]).toEqual([false, false]); // every slot taken
    slots.lend(2); // two of a's captures are held for their CPU
    await settled();
    expect([a, c]).toEqual([false, true]); // the newcomer goes, a waits for a slot of its own
    slots.lend(0);
    expect(slots.stats()).toMatchObject({ inFlight: 5, waiting: 1 });
    await slots.acquire("d", 1).then(
      () => expect.unreachable("nothing is lent any more"),
      (err: unknown) => expect(err).toBeInstanceOf(SlotsBusy),
    );
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

  it("an account's callers beyond its share of the line are refused at once; others still wait", async () => {
    const slots = new FairSlots(limits);
    for (const who of ["a", "a", "a", "b"]) await slots.acquire(who, 1);
    const waits = [slots.acquire("a", 1), slots.acquire("a", 1)];
    await expect(slots.acquire("a", 1)).rejects.toBeInstanceOf(AccountBusy);
    const c = slots.acquire("c", 1); // the line has room for another account
    expect(slots.stats().waiting).toBe(3);
    for (const wait of [...waits, c]) await expect(wait).rejects.toBeInstanceOf(SlotsBusy);
  });

  it("a full line makes room for an account with fewer waiting: the most-waiting one's newest is pushed out", async () => {
    const slots = new FairSlots({ ...limits, perAccountWaiting: 3 });
    for (const who of ["a", "a", "a", "b"]) await slots.acquire(who, 1);
    const outcome = (p: Promise<Slot>) =>
      p.then(
        () => "granted",
        (err: unknown) => (err as Error).name,
      );
    const a = [1, 2, 3].map(() => outcome(slots.acquire("a", 1))); // the line is full
    const c = outcome(slots.acquire("c", 1));
    expect(await a[2]).toBe("AccountBusy"); // a's newest made room for c
    const d = outcome(slots.acquire("d", 1));
    expect(await a[1]).toBe("AccountBusy");
    // One each now: a fourth account is refused, nobody is pushed out.
    await expect(slots.acquire("e", 1)).rejects.toBeInstanceOf(SlotsBusy);
    expect(slots.stats().waiting).toBe(3);
    expect(await Promise.all([a[0], c, d])).toEqual(["SlotsBusy", "SlotsBusy", "SlotsBusy"]);
  });

  it("tells when a caller with nothing in flight waits (held captures would make room for it)", async () => {
    const slots = new FairSlots(limits);
    const held: Slot[] = [];
    for (const who of ["a", "a", "a", "b"]) held.push(await slots.acquire(who, 1));
    const a = slots.acquire("a", 1);
    expect(slots.newcomerWaiting()).toBe(false); // a waits for a slot of its own
    const c = slots.acquire("c", 1);
    expect(slots.newcomerWaiting()).toBe(true);
    slots.lend(1);
    await c;
    expect(slots.newcomerWaiting()).toBe(false);
    slots.lend(0);
    await expect(a).rejects.toBeInstanceOf(SlotsBusy);
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
    const other = await slots.acquire("b", 90); // b's own budget: a's weight is not b's
    await settled();
    expect(order).toEqual([]); // 80 + 10 + 80 is over a's budget
    expect(slots.stats()).toMatchObject({ inFlight: 3, waiting: 1, weight: 180 });
    slots.release(light);
    await settled();
    expect(order).toEqual([]); // 80 + 80 still is
    slots.release(heavy);
    expect(await second).toMatchObject({ account: "a", weight: 80 });
    expect(slots.stats()).toMatchObject({ inFlight: 2, waiting: 0, weight: 170 });
    slots.release(other);
  });

  it("one account's giants queue behind each other, never in front of other accounts", async () => {
    const slots = new FairSlots({ ...limits, maxWaiting: 8 });
    const first = await slots.acquire("a", 90);
    const order: string[] = [];
    const giants = [2, 3].map((n) => slots.acquire("a", 90).then((s) => (order.push(`a${n}`), s)));
    // Other accounts arrive after a's giants and go at once, a slot each.
    const others = await Promise.all(["b", "c", "d"].map((who) => slots.acquire(who, 1)));
    expect(slots.stats()).toMatchObject({ inFlight: 4, waiting: 2 });
    slots.release(first);
    const second = await giants[0]!;
    await settled();
    expect(order).toEqual(["a2"]); // the next giant, alone: the third still waits behind it
    slots.release(second);
    slots.release((await giants[1])!);
    expect(order).toEqual(["a2", "a3"]);
    for (const slot of others) slots.release(slot);
    expect(slots.stats()).toMatchObject({ inFlight: 0, waiting: 0, weight: 0 });
  });

  it("a capture heavier than the budget runs when its account holds nothing, never never", async () => {
    const slots = new FairSlots(limits);
    const huge = await slots.acquire("a", 500);
    expect(slots.stats()).toMatchObject({ inFlight: 1, weight: 500 });
    const next = slots.acquire("a", 1);
    await settled();
    expect(slots.stats().waiting).toBe(1); // a's budget is spent
    await slots.acquire("b", 1); // another account's budget is not
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

  describe("background captures yield to interactive ones", () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });
    /** A caller's promise, and whether it has its slot yet. */
    function track(p: Promise<Slot>) {
      const t = { slot: null as Slot | null };
      void p.then((slot) => (t.slot = slot));
      return t;
    }

    it("with no interactive capture about, a background one goes at once", async () => {
      const slots = new FairSlots(limits);
      const crawl = await slots.acquire("c", 1, true);
      expect(crawl.background).toBe(true);
      expect(slots.stats().inFlight).toBe(1);
    });

    it("waits while an interactive capture runs and for quietMs after it, then goes", async () => {
      const slots = new FairSlots(limits);
      const shot = await slots.acquire("a", 1);
      const crawl = track(slots.acquire("c", 1, true));
      await vi.advanceTimersByTimeAsync(10);
      expect(crawl.slot).toBeNull(); // three slots free, yet it waits
      // An interactive caller passes it, whatever its account.
      const other = await slots.acquire("c", 1);
      slots.release(shot);
      slots.release(other);
      await vi.advanceTimersByTimeAsync(limits.quietMs - 5);
      expect(crawl.slot).toBeNull(); // the customer may send his next capture
      await vi.advanceTimersByTimeAsync(10);
      expect(crawl.slot).not.toBeNull();
    });

    it("an interactive capture waiting in line keeps it waiting too", async () => {
      const slots = new FairSlots({ ...limits, quietMs: 0 });
      const crawls = [
        await slots.acquire("c", 1, true),
        await slots.acquire("c", 1, true),
        await slots.acquire("c", 1, true),
      ];
      const shot = track(slots.acquire("c", 1)); // "c" is at its cap: it waits in line
      const other = track(slots.acquire("e", 1, true)); // would fit the free slot, but yields
      await vi.advanceTimersByTimeAsync(1);
      expect([shot.slot, other.slot]).toEqual([null, null]);
      slots.release(crawls[0]!);
      await vi.advanceTimersByTimeAsync(1);
      expect(shot.slot).not.toBeNull();
      expect(other.slot).toBeNull(); // an interactive capture is in flight now
    });

    it("a background caller held by its account's cap, nothing interactive about, sets no timer loop", async () => {
      const slots = new FairSlots(limits);
      const crawls = [
        await slots.acquire("c", 1, true),
        await slots.acquire("c", 1, true),
        await slots.acquire("c", 1, true),
      ];
      const timers = vi.spyOn(globalThis, "setTimeout");
      const fourth = track(slots.acquire("c", 1, true)); // "c" is at its cap
      await vi.advanceTimersByTimeAsync(100);
      expect(fourth.slot).toBeNull();
      // Its own two (the wait's bound, the yield's end); a quiet timer re-armed at 0 ms was 100s.
      expect(timers.mock.calls.length).toBeLessThanOrEqual(3);
      timers.mockRestore();
      slots.release(crawls[0]!);
      await vi.advanceTimersByTimeAsync(1);
      expect(fourth.slot?.background).toBe(true);
    });

    it("yields for backgroundYieldMs at most: then it waits like any capture, and goes", async () => {
      const slots = new FairSlots(limits);
      await slots.acquire("a", 1); // never released: interactive traffic all along
      const crawl = track(slots.acquire("c", 1, true));
      await vi.advanceTimersByTimeAsync(limits.backgroundYieldMs - 5);
      expect(crawl.slot).toBeNull();
      await vi.advanceTimersByTimeAsync(10);
      expect(crawl.slot?.background).toBe(true);
      expect(slots.stats()).toMatchObject({ inFlight: 2, waiting: 0 });
    });
  });
});
