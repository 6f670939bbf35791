// Types for ws-frames.mjs, for the TypeScript that imports it (test/unit/cdp-counter.test.ts).

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
