/**
 * The screencast's frames resampled to a clip's clock (src/capture/outputs/screencast.ts): frame
 * `i` is the newest frame drawn by `start + i / fps`, held while the compositor draws nothing; a
 * scroll's frame is the one drawn nearest the position its time asks for.
 */
import { describe, expect, it } from "vitest";
import { scrollAt } from "../../src/capture/outputs/animation-scripts";
import { resample, resampleScroll, settledFrames } from "../../src/capture/outputs/screencast";

const at = (...ms: number[]) => ms.map((atMs) => ({ atMs }));

describe("resample", () => {
  it("takes the newest frame drawn by each tick, holding it while nothing new is drawn", () => {
    // 10 fps from 1000 ms: ticks at 1000, 1100, … 1500.
    expect(resample(at(990, 1040, 1090, 1350), 1000, 6, 10)).toEqual([0, 2, 2, 2, 3, 3]);
  });

  it("uses the oldest frame for ticks before any frame was drawn", () => {
    expect(resample(at(1150, 1260), 1000, 4, 10)).toEqual([0, 0, 0, 1]);
  });

  it("a single frame fills the clip", () => {
    expect(resample(at(5), 0, 3, 24)).toEqual([0, 0, 0]);
  });
});

describe("resampleScroll", () => {
  const shot = (atMs: number, scrollY: number) => ({ atMs, scrollY });

  it("picks the frame scrolled nearest each position, whatever its clock says", () => {
    // The frame stamped 1150 shows 300 px, drawn late: still the nearest to 300.
    const shots = [shot(1000, 0), shot(1060, 90), shot(1150, 300), shot(1140, 200)];
    expect(resampleScroll(shots, [0, 100, 210, 290], 1000, 10)).toEqual([0, 1, 3, 2]);
  });

  it("among frames at the same scroll, the one drawn nearest the frame's time (scrolling back)", () => {
    const shots = [shot(1000, 0), shot(1100, 50), shot(1200, 100), shot(1300, 50), shot(1400, 0)];
    expect(resampleScroll(shots, [0, 50, 100, 50, 0], 1000, 10)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe("settledFrames (encoding while filming)", () => {
  it("settles each clip frame once a frame drawn lagMs after its time has arrived", () => {
    // 10 fps from 1000 ms, 500 ms lag: frame i settles at 1500 + 100 i.
    expect(settledFrames(1499, 1000, 30, 10, 500)).toBe(0);
    expect(settledFrames(1500, 1000, 30, 10, 500)).toBe(1);
    expect(settledFrames(1750, 1000, 30, 10, 500)).toBe(3);
  });

  it("never before the clip starts, never past its frames", () => {
    expect(settledFrames(900, 1000, 30, 10, 0)).toBe(0);
    expect(settledFrames(99_000, 1000, 30, 10, 500)).toBe(30);
  });
});

describe("scrollAt", () => {
  it("eases from the top to the target over the scroll's time, and back", () => {
    const motion = { target: 1000, downS: 2, back: false };
    expect([0, 1, 2, 3].map((t) => scrollAt(motion, t))).toEqual([0, 500, 1000, 1000]);
    const back = { target: 1000, downS: 1, back: true };
    expect([0, 0.5, 1, 1.5, 2].map((t) => scrollAt(back, t))).toEqual([0, 500, 1000, 500, 0]);
  });
});
