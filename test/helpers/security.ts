/**
 * Helpers for test/security: reading the canaries and looking for canary content in outputs.
 * The canary (FIXTURE_PORT + 3) logs every HTTP request and WebSocket handshake; the raw
 * canaries (FIXTURE_PORT + 6 to 9) count bare TCP connections and UDP datagrams.
 */
import { expect } from "vitest";
import { CANARY_MAGENTA, CANARY_TEXT, ctxFor, type Ctx } from "../security/vectors";
import { canaryLog, FIXTURES, type LoggedRequest } from "./http";
import { decodeImage, near, sniff } from "./images";

export const settle = (ms = 400) => new Promise((r) => setTimeout(r, ms));

/** Which raw canary a test file uses (FIXTURE_PORT + offset); one per file. */
export type RawOffset = 6 | 7 | 8 | 9;

export function securityCtx(run: string, raw: RawOffset = 6): Ctx {
  return ctxFor(FIXTURES, run, raw);
}

export interface RawEvent {
  kind: "tcp" | "udp";
  at: number;
  head: string;
}

/** Connections and datagrams the raw canary saw since `since` (ms epoch). */
export async function rawEvents(raw: RawOffset, since: number): Promise<RawEvent[]> {
  const port = Number(new URL(FIXTURES).port) + raw;
  const res = await fetch(`${FIXTURES}/__raw?port=${port}&since=${since}`);
  return (await res.json()) as RawEvent[];
}

/** A canary hit in one line: what reached it and how (Sec-Purpose says prefetch/prerender). */
export function describeHit(r: LoggedRequest): string {
  const h = r.headers;
  const bits = [
    `${r.method} ${r.path}`,
    r.query.v ? `v=${r.query.v}` : "",
    Object.entries(r.query)
      .filter(([k]) => k !== "run" && k !== "v")
      .map(([k, v]) => `${k}=${v}`)
      .join("&"),
    h["sec-purpose"] ? `sec-purpose: ${h["sec-purpose"]}` : "",
    h.upgrade ? `upgrade: ${h.upgrade}` : "",
    h["sec-fetch-dest"] ? `dest: ${h["sec-fetch-dest"]}` : "",
    h["sec-fetch-mode"] ? `mode: ${h["sec-fetch-mode"]}` : "",
  ];
  return bits.filter(Boolean).join(" | ");
}

/** Waits a moment for stragglers, then asserts nothing of `run` reached the canary. */
export async function expectCanaryUntouched(run: string, label = "", wait = 400): Promise<void> {
  await settle(wait);
  const hits = (await canaryLog(run)).map(describeHit);
  expect(hits, `canary reached ${label}`).toEqual([]);
}

/** Asserts the raw canary saw nothing since `since`. */
export async function expectRawUntouched(raw: RawOffset, since: number, label = ""): Promise<void> {
  const events = await rawEvents(raw, since);
  expect(
    events.map((e) => `${e.kind} ${e.head}`),
    `raw canary reached ${label}`,
  ).toEqual([]);
}

/** Pixels of the canary's magenta in a PNG/JPEG output (every pixel is looked at). */
export function magentaPixels(bytes: Uint8Array): number {
  const image = decodeImage(bytes);
  let count = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) if (near(image.pixel(x, y), CANARY_MAGENTA, 24)) count++;
  }
  return count;
}

/** An output holds no canary content: no magenta in an image, no canary text in text. */
export function expectNoCanaryContent(output: Uint8Array | string, label = ""): void {
  if (typeof output === "string") {
    expect(output.includes(CANARY_TEXT), `canary text in output ${label}`).toBe(false);
    return;
  }
  const kind = sniff(output);
  if (kind === "png" || kind === "jpeg") {
    expect(magentaPixels(output), `canary magenta in output ${label}`).toBe(0);
    return;
  }
  const text = new TextDecoder("utf-8").decode(output);
  expect(text.includes(CANARY_TEXT), `canary text in output ${label}`).toBe(false);
}
