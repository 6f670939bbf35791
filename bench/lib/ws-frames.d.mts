// Types for ws-frames.mjs, for the tests that import it (test/unit/cdp-counter.test.ts).

export function frameParser(): (chunk: Buffer) => Buffer[];

export type CdpMessage =
  | {
      kind: "command";
      counted: boolean;
      id: string;
      session: string;
      method: string;
      contextId?: string;
      targetId?: string;
    }
  | { kind: "response"; id: string }
  | {
      kind: "event";
      detached?: string;
      target?: { sessionId?: string; targetId?: string; contextId?: string };
    }
  | { kind: "other" };

export function classify(payload: Buffer, fromClient: boolean): CdpMessage;

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
