/** SparePage: the blank page each browser opens ahead of its next capture. */
import { describe, expect, it } from "vitest";
import { SparePage, type BlankPage } from "../../src/capture/host/blank-page";

/** A stand-in for an opened context and page: numbered, closable, watched. */
function fakeOpener(fail: (n: number) => boolean = () => false) {
  const opened: { n: number; pageClosed: boolean; contextClosed: boolean; watched: boolean }[] = [];
  const open = async (): Promise<BlankPage> => {
    const n = opened.length;
    const state = { n, pageClosed: false, contextClosed: false, watched: true };
    opened.push(state);
    await Promise.resolve();
    if (fail(n)) throw new Error(`open ${n} failed`);
    return {
      context: {
        close: async () => {
          state.contextClosed = true;
        },
      },
      page: { isClosed: () => state.pageClosed },
      watch: {
        ready: Promise.resolve(),
        violation: () => null,
        end: () => {
          state.watched = false;
        },
      },
      n,
    } as unknown as BlankPage;
  };
  return { opened, open };
}

const numberOf = (blank: BlankPage) => (blank as unknown as { n: number }).n;

describe("SparePage", () => {
  it("the first capture opens its own page and the spare; each later one takes the spare", async () => {
    const { opened, open } = fakeOpener();
    const spare = new SparePage(open);
    const first = await spare.take();
    expect(opened).toHaveLength(2); // the spare (0) opened first, then the capture's own (1)
    expect(numberOf(first)).toBe(1);
    const second = await spare.take();
    expect(numberOf(second)).toBe(0); // the spare, opened ahead
    expect(opened).toHaveLength(3); // and the next spare is opening
    expect(numberOf(await spare.take())).toBe(2);
    expect(opened).toHaveLength(4);
  });

  it("a spare whose page was closed meanwhile is closed and replaced, never used", async () => {
    const { opened, open } = fakeOpener();
    const spare = new SparePage(open);
    await spare.take(); // opens 0 (spare) and 1
    opened[0]!.pageClosed = true; // e.g. its renderer went away
    const blank = await spare.take();
    expect(numberOf(blank)).toBe(3); // opened for this capture; 2 is the new spare
    await Promise.resolve();
    expect(opened[0]).toMatchObject({ contextClosed: true, watched: false });
  });

  it("a spare that failed to open is replaced by a page opened for the capture", async () => {
    const { opened, open } = fakeOpener((n) => n === 0);
    const spare = new SparePage(open);
    expect(numberOf(await spare.take())).toBe(1);
    expect(numberOf(await spare.take())).toBe(3); // spare 0 had failed: 2 is the next spare
    expect(numberOf(await spare.take())).toBe(2);
    expect(opened).toHaveLength(5);
  });

  it("a failure to open the capture's own page reaches the capture", async () => {
    const { open } = fakeOpener(() => true);
    await expect(new SparePage(open).take()).rejects.toThrow("open 1 failed");
  });
});
