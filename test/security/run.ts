/**
 * Running catalogue vectors (vectors.ts) through the sync capture route, as a target page the
 * fixture server serves ("url") and as user HTML ("html"), and checking that nothing reached
 * the canaries and nothing of theirs is in the output.
 */
import { describe, expect, it } from "vitest";
import type { Capturer } from "../helpers/capture";
import { FIXTURES, FIXTURES_BY_NAME, runId } from "../helpers/http";
import {
  expectCanaryUntouched,
  expectNoCanaryContent,
  expectRawUntouched,
  securityCtx,
  settle,
  type RawOffset,
} from "../helpers/security";
import { securityPage, type Vector } from "./vectors";

export const SMALL = {
  width: 320,
  height: 240,
  deviceScaleFactor: 1,
  waitUntil: "load",
  blockAds: false,
  timeout: 15,
} as const;

/** The fixture URL serving `names` as one target page, at `origin`. */
export function vectorPageUrl(
  names: readonly string[],
  run: string,
  raw: RawOffset,
  origin = FIXTURES,
): string {
  return `${origin}/sec/page?${names.map((n) => `vec=${encodeURIComponent(n)}`).join("&")}&run=${run}&raw=${raw}`;
}

export type Variant = "url" | "html";

/** One vector, one sync capture: status sane, no canary content, canaries untouched. */
export async function runVector(
  cap: Capturer,
  v: Vector,
  variant: Variant,
  raw: RawOffset,
): Promise<void> {
  const run = runId();
  const since = Date.now();
  const source =
    variant === "url"
      ? { url: vectorPageUrl([v.name], run, raw, v.byName ? FIXTURES_BY_NAME : FIXTURES) }
      : { html: securityPage([v], securityCtx(run, raw)) };
  const { res, bytes } = await cap.post({ ...SMALL, ...source, delay: v.delay ?? 0 });
  // A vector that ends the page may make the capture fail as unreachable; nothing may 500.
  expect(
    [200, 400, 408],
    `status ${res.status}: ${new TextDecoder().decode(bytes.slice(0, 300))}`,
  ).toContain(res.status);
  if (res.status === 200) expectNoCanaryContent(bytes, v.name);
  else expect(v.navigates, `a non-navigating vector failed the capture (${res.status})`).toBe(true);
  await expectCanaryUntouched(run, `by "${v.name}" (${variant})`);
  if (v.raw) {
    await settle(300);
    await expectRawUntouched(raw, since, `by "${v.name}" (${variant})`);
  }
}

/**
 * Table-driven suites for `vectors`: each vector once through the sync route as a target page;
 * then every vector that does not end the page together in ONE user-HTML capture (the
 * setContent path). Raw-canary vectors run one at a time (the raw canary cannot tell runs
 * apart); the others run a few at a time.
 */
export function describeVectors(
  title: string,
  cap: () => Capturer,
  vectors: readonly Vector[],
  raw: RawOffset,
): void {
  describe.concurrent(`${title} — target page`, () => {
    for (const v of vectors.filter((x) => !x.raw))
      it(v.name, () => runVector(cap(), v, "url", raw));
  });
  const rawOnes = vectors.filter((x) => x.raw);
  if (rawOnes.length > 0) {
    describe(`${title} — target page, raw canary`, () => {
      for (const v of rawOnes) it(v.name, () => runVector(cap(), v, "url", raw));
    });
  }
  const together = vectors.filter((v) => !v.navigates && !v.solo && !v.servedOnly);
  if (together.length > 0) {
    it(`${title} — user html: ${together.length} vectors in one page`, async () => {
      const run = runId();
      const since = Date.now();
      const delay = Math.max(0, ...together.map((v) => v.delay ?? 0));
      const { res, bytes } = await cap().post({
        ...SMALL,
        html: securityPage(together, securityCtx(run, raw)),
        fullPage: true,
        delay,
      });
      expect(res.status, new TextDecoder().decode(bytes.slice(0, 300))).toBe(200);
      expectNoCanaryContent(bytes, title);
      await expectCanaryUntouched(run, `by user html (${title})`);
      if (together.some((v) => v.raw))
        await expectRawUntouched(raw, since, `by user html (${title})`);
    });
  }
}
