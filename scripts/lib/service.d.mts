// Types of scripts/lib/service.mjs for the TypeScript that uses it (the *.e2e.test.ts files).
import type { ChildProcess } from "node:child_process";

export const ROOT: string;

export function freePort(preferred?: number): Promise<number>;

export function firstFreePort(first: number, count: number): Promise<number | null>;

export function spawnWrangler(
  args: string[],
  options?: {
    cwd?: string;
    output?: "inherit" | "pipe" | string;
    detached?: boolean;
    env?: Record<string, string>;
  },
): ChildProcess;

export function waitForHealth(
  base: string,
  options: { child?: ChildProcess; timeoutMs?: number; failed?: () => string },
): Promise<void>;

export interface ServiceOptions {
  cwd?: string;
  port?: number;
  inspectorPort?: number;
  persistTo?: string;
  vars?: Record<string, string>;
  output?: "pipe" | string;
  args?: string[];
  timeoutMs?: number;
}

export interface Service {
  base: string;
  port: number;
  inspectorPort: number;
  child: ChildProcess | null;
  pid: number;
  output: () => string;
  start: () => Promise<void>;
  kill: () => Promise<void>;
  /** Chromium processes at the stop, those that outlived wrangler's exit, and those still alive. */
  stop: (graceMs?: number) => Promise<{ chromium: number; outlived: number; alive: number }>;
}

export function createService(options?: ServiceOptions): Promise<Service>;

export function startService(options?: ServiceOptions): Promise<Service>;

export interface ChromiumProcess {
  pid: number;
  ppid: number;
  rss: number;
  cmd: string;
}

export function serviceChromium(rootPid: number): {
  browsers: ChromiumProcess[];
  all: ChromiumProcess[];
  rss: number;
  processes: number;
};
