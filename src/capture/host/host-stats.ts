/**
 * What a BrowserHost reports of itself (`stats()`, for tests and operators): its counters since it
 * started, and the state of its browser and slots now.
 */
export interface HostStats extends HostCounters {
  connected: boolean;
  inFlight: number;
  /** Requests the browser-wide guard refused (pre-fetches, pop-ups, other targets). */
  guardBlocked: number;
  /** Captures waiting for a slot. */
  waiting: number;
  /** The weight (device pixels, weight.ts) of the captures in flight. */
  weight: number;
  /** Captures held for using more than their account's share of CPU (cpu-share.ts), and now. */
  cpuHolds: number;
  cpuHeld: number;
  /**
   * Times a capture's fair-CPU debugger was asked for (only a browser shared by accounts needs
   * it: cpu-share.ts).
   */
  cpuDebugged: number;
}

/** The counters a BrowserHost keeps as it runs. */
export interface HostCounters {
  launches: number;
  reconnects: number;
  /** Kept sessions found gone at startup (not connected to; a fresh browser launched). */
  staleSessions: number;
  captures: number;
  /** Captures that ran in a page their lane kept from its last capture (lane-pages.ts). */
  lanePagesReused: number;
  /** Captures abandoned at their hard deadline; browsers recycled for a context that hung. */
  deadlineKills: number;
  recycles: number;
  /** Captures refused because no slot came free in time. */
  busyRefusals: number;
  /** Captures refused because their account had its share of the line waiting already. */
  accountRefusals: number;
  /** Captures restarted because a realm of theirs could not be given its fair-CPU debugger. */
  cpuRestarts: number;
}

export const hostCounters = (): HostCounters => ({
  launches: 0,
  reconnects: 0,
  staleSessions: 0,
  captures: 0,
  lanePagesReused: 0,
  deadlineKills: 0,
  recycles: 0,
  busyRefusals: 0,
  accountRefusals: 0,
  cpuRestarts: 0,
});
