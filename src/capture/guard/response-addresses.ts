/**
 * Where held responses came from. The browser-wide Fetch guard (./fetch-guard.ts) holds every
 * response to a host name until it knows the address space the browser connected to; the network
 * service reports that space, before it hands the response on, as
 * `Network.responseReceivedExtraInfo` on the session of the target that made the request — the
 * page's (puppeteer's client), or a worker's or out-of-process frame's (the target watcher's).
 * This is the meeting point: those sessions report, the guard takes, keyed by the Network request
 * id (the Fetch event's `networkId`).
 *
 * Only requests the guard announced are recorded (every other response of a watched target is
 * ignored), and the announcements are bounded, so a request that never answers cannot grow it.
 */
import type { Protocol } from "devtools-protocol";

/** The address space of one response's connection, and the capture context that asked for it. */
export interface AddressReport {
  space: string;
  contextId: string | undefined;
}

/** Announced requests kept at most: far more than the requests in flight in one browser. */
const MAX_PENDING = 4096;

export class ResponseAddresses {
  /** Announced request id → its report once it arrives (undefined until then). */
  private readonly pending = new Map<string, AddressReport | undefined>();
  /** Request ids whose response is waiting for its report. */
  private readonly waiters = new Map<string, (report: AddressReport) => void>();

  /**
   * @param taint told when a held response is refused, so the capture of that context fails
   *   closed as well (the target watcher's record of violations).
   */
  constructor(readonly taint: (contextId: string | undefined, reason: string) => void) {}

  /** The guard will hold this request's response: forget any earlier hop's report. */
  expect(requestId: string): void {
    this.pending.delete(requestId);
    this.pending.set(requestId, undefined);
    if (this.pending.size > MAX_PENDING) {
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined) this.pending.delete(oldest);
    }
  }

  /** A watched target's session saw where a response came from. */
  report(requestId: string, space: string, contextId: string | undefined): void {
    if (!this.pending.has(requestId)) return;
    const report = { space, contextId };
    const waiter = this.waiters.get(requestId);
    if (waiter) {
      this.waiters.delete(requestId);
      this.pending.delete(requestId);
      waiter(report);
    } else {
      this.pending.set(requestId, report);
    }
  }

  /** A target session's `Network.responseReceivedExtraInfo` handler, for a capture's context. */
  reporter(contextId: string | undefined) {
    return (e: Protocol.Network.ResponseReceivedExtraInfoEvent): void =>
      this.report(e.requestId, e.resourceIPAddressSpace, contextId);
  }

  /** The report for a held response: at once if it came first, else when it comes, or null. */
  take(requestId: string, timeoutMs: number): Promise<AddressReport | null> {
    const known = this.pending.get(requestId);
    if (known !== undefined) {
      this.pending.delete(requestId);
      return Promise.resolve(known);
    }
    if (!this.pending.has(requestId)) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(requestId);
        this.pending.delete(requestId);
        resolve(null);
      }, timeoutMs);
      this.waiters.set(requestId, (report) => {
        clearTimeout(timer);
        resolve(report);
      });
    });
  }

  /** The request ended without a response (failed, cancelled): nothing to wait for. */
  drop(requestId: string): void {
    this.pending.delete(requestId);
    this.waiters.delete(requestId);
  }
}
