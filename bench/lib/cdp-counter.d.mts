// Types for cdp-counter.mjs, for the tests that import it (test/unit/cdp-counter.test.ts).
import type { CdpMessage } from "./ws-frames.mjs";

export const epochMs: () => number;

export function roundTrips(commands: readonly { sent: number; answered: number }[]): number;

export interface CdpCounts {
  connections: number;
  commands: number;
  responses: number;
  events: number;
  slow: number;
  unanswered: number;
}

export type Pending = Map<string, unknown>;

export interface CdpCounter {
  counts(): CdpCounts;
  ownRoundTrips(windows: readonly (readonly [number, number])[]): number[];
  connected(): void;
  command(pending: Pending, m: CdpMessage & { kind: "command" }): void;
  response(pending: Pending, id: string, payload: Buffer): void;
  event(pending: Pending, m: CdpMessage & { kind: "event" }): void;
  dropped(pending: Pending): void;
}

export function cdpCounter(clock?: () => number): CdpCounter;
