/**
 * Frames pushed by Chromium's compositor (CDP `Page.startScreencast`) while a recording plays,
 * and their resampling to the clip's steady clock (docs/ANIMATE.md, "How a recording runs").
 *
 * The compositor sends a frame only when it draws something new, at its own rate (~10 a second
 * for a scrolling 1280 × 800 page on the loaded 2-core test machine), each stamped with the
 * browser's wall clock; every frame is acknowledged at once so the next one comes. The clip's
 * frame `i` is the newest screencast frame drawn by `start + i / fps` (held while nothing
 * changes), as a screen recorder does.
 */
import type { CDPSession } from "@cloudflare/puppeteer";
import type { Protocol } from "devtools-protocol";

/**
 * One frame as Chromium sent it: a JPEG (base64), when it was drawn (ms since the epoch) and the
 * page's vertical scroll in it (CSS px).
 */
export interface ScreencastShot {
  data: string;
  atMs: number;
  scrollY: number;
}

export interface Screencast {
  /** The frames received so far, in arrival order. */
  shots(): readonly ScreencastShot[];
  /** Stops the screencast; the frames received, oldest first. */
  stop(): Promise<ScreencastShot[]>;
}

export async function startScreencast(
  client: CDPSession,
  size: { width: number; height: number },
  quality: number,
  /** Each frame as it arrives (for encoding while filming). */
  onShot?: (shot: ScreencastShot) => void,
): Promise<Screencast> {
  const shots: ScreencastShot[] = [];
  const onFrame = (event: Protocol.Page.ScreencastFrameEvent) => {
    client.send("Page.screencastFrameAck", { sessionId: event.sessionId }).catch(() => {});
    const at = event.metadata.timestamp;
    if (typeof at !== "number") return;
    const shot = { data: event.data, atMs: at * 1000, scrollY: event.metadata.scrollOffsetY };
    shots.push(shot);
    onShot?.(shot);
  };
  client.on("Page.screencastFrame", onFrame);
  try {
    await client.send("Page.startScreencast", {
      format: "jpeg",
      quality,
      maxWidth: size.width,
      maxHeight: size.height,
      everyNthFrame: 1,
    });
  } catch (err) {
    client.off("Page.screencastFrame", onFrame);
    throw err;
  }
  return {
    shots: () => shots,
    async stop() {
      try {
        await client.send("Page.stopScreencast");
      } finally {
        client.off("Page.screencastFrame", onFrame);
      }
      return shots.sort((a, b) => a.atMs - b.atMs);
    },
  };
}

/**
 * The clip's frames as indexes into `shots`: frame `i` is the newest shot drawn at or before
 * `startMs + i × 1000 / fps` (the oldest shot when none was drawn yet). `frames` ≥ 1, `shots`
 * not empty.
 */
export function resample(
  shots: readonly Pick<ScreencastShot, "atMs">[],
  startMs: number,
  frames: number,
  fps: number,
): number[] {
  const order: number[] = [];
  let at = 0;
  for (let i = 0; i < frames; i++) {
    const clock = startMs + (i * 1000) / fps;
    while (at + 1 < shots.length && (shots[at + 1]?.atMs ?? Infinity) <= clock) at++;
    order.push(at);
  }
  return order;
}

/**
 * A scroll's frames as indexes into `shots`: frame `i` is the shot whose scroll is nearest to
 * `positions[i]` (CSS px), the one drawn nearest its time `startMs + i × 1000 / fps` among equals.
 * The compositor's frames say where the page was scrolled when each was drawn, so the clip shows
 * each position it asks for as closely as the frames drawn allow, however late a frame's clock.
 */
export function resampleScroll(
  shots: readonly Pick<ScreencastShot, "atMs" | "scrollY">[],
  positions: readonly number[],
  startMs: number,
  fps: number,
): number[] {
  return positions.map((y, i) => {
    const clock = startMs + (i * 1000) / fps;
    let best = 0;
    let bestOff = Infinity;
    let bestLate = Infinity;
    shots.forEach((shot, at) => {
      const off = Math.abs(shot.scrollY - y);
      const late = Math.abs(shot.atMs - clock);
      if (off < bestOff || (off === bestOff && late < bestLate)) {
        [best, bestOff, bestLate] = [at, off, late];
      }
    });
    return best;
  });
}

/**
 * While filming: how many of the clip's first frames are settled once a frame drawn at
 * `newestAtMs` has arrived. Frame `i` (at `startMs + i × 1000 / fps`) is settled `lagMs` after its
 * time: its choice among the frames drawn by then stands (a scroll's later frames are scrolled
 * further on, a still's are newer than its time), so it can be encoded before filming ends.
 */
export function settledFrames(
  newestAtMs: number,
  startMs: number,
  frames: number,
  fps: number,
  lagMs: number,
): number {
  const settled = Math.floor(((newestAtMs - lagMs - startMs) * fps) / 1000) + 1;
  return Math.max(0, Math.min(frames, settled));
}
