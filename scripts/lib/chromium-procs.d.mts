// Types of chromium-procs.mjs, for the test run's teardown (test/fixtures/global-setup.ts).
export interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  rss: number;
  cmd: string;
}
export function processes(): Proc[];
export function userDataDir(p: Proc): string | null;
export function chromiumUnder(
  rootPid: number,
  all?: Proc[],
): { browsers: Proc[]; all: Proc[]; rss: number; processes: number };
export function stillAlive(seen: Proc[], all?: Proc[]): { browsers: Proc[]; all: Proc[] };
export function reapChromium(
  seen: Proc[],
  options?: { graceMs?: number },
): Promise<{
  leftBehind: { pid: number; userDataDir: string | null }[];
  killed: number[];
  gone: boolean;
}>;
export function watchChromium(
  rootPid: number,
  everyMs?: number,
): { poll(): void; seen(): Proc[]; stop(): void };
