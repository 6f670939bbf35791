/**
 * Capturing your own app on this machine: a fixture server standing for a dev server on
 * FIXTURE_PORT + 13 (listening on 127.0.0.1 and [::1]), allowlisted only as `localhost:PORT`, and
 * the fixture server allowlisted only as `127.0.0.1:PORT`, captured as `localhost:PORT`. Each is
 * one capture: the pixels of the boxes page and the app's own request log. A loopback port that
 * is not allowlisted (the canary) stays refused as `localhost` too, and an allowlisted app that
 * is not running is the caller's to fix: a 400 and a warning in the log, not an error.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { Capturer, SMALL_CAPTURE } from "../helpers/capture";
import { CANARY, canaryLog, FIXTURES, fixtureLog, runId } from "../helpers/http";
import { decodeImage } from "../helpers/images";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

const port = (origin: string) => Number(new URL(origin).port);
/** "Your own app" (test/fixtures/global-setup.ts): TARGET_ALLOWLIST has `localhost:` this port. */
const APP_PORT = port(FIXTURES) + 13;

/** Capture the boxes page at `origin`; its log (read at `logOrigin`) saw the page's GET. */
async function capturesBoxes(origin: string, logOrigin: string): Promise<void> {
  const run = runId();
  const { res, bytes } = await cap.post({
    ...SMALL_CAPTURE,
    url: `${origin}/boxes.html?run=${run}`,
  });
  expect(res.status, new TextDecoder().decode(bytes.slice(0, 300))).toBe(200);
  const img = decodeImage(bytes);
  expect(img.pixel(20, 20)).toEqual([255, 0, 0]); // the red box
  expect(img.pixel(220, 20)).toEqual([0, 255, 0]); // the green one at x = 200 CSS px, 1×
  const log = await fixtureLog(run, logOrigin);
  expect(log.map((r) => `${r.method} ${r.path}`)).toContain("GET /boxes.html");
  expect(log.find((r) => r.path === "/boxes.html")?.headers.host).toBe(new URL(origin).host);
}

describe.concurrent("capturing an app on this machine", () => {
  it("allowlisted as localhost:PORT → captured, wherever the browser connects on loopback", () =>
    capturesBoxes(`http://localhost:${APP_PORT}`, `http://127.0.0.1:${APP_PORT}`));

  it("allowlisted as 127.0.0.1:PORT → localhost:PORT is captured too", () =>
    capturesBoxes(`http://localhost:${port(FIXTURES)}`, FIXTURES));

  it("a loopback port not allowlisted stays refused as localhost, nothing fetched", async () => {
    const run = runId();
    const { res, body } = await cap.json({
      ...SMALL_CAPTURE,
      url: `http://localhost:${port(CANARY)}/paint?run=${run}`,
    });
    expect(res.status).toBe(400);
    expect(body.error?.code).toBe("INVALID_URL");
    expect(body.error?.message).toContain("reserved name (.localhost)");
    expect(await canaryLog(run)).toEqual([]);
  });
});

describe("an allowlisted app that is not running", () => {
  it("→ 400 'Could not reach the target URL.', logged as a warning (the caller's to fix)", async () => {
    const lines: Array<[string, string]> = [];
    for (const level of ["warn", "error"] as const)
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) => void lines.push([level, args.map(String).join(" ")]),
      );
    const { res, body } = await cap.json({
      ...SMALL_CAPTURE,
      url: `http://localhost:${APP_PORT + 1}/`, // FIXTURE_PORT + 14: allowlisted, nothing listens
    });
    vi.restoreAllMocks();
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({
      code: "CAPTURE_FAILED",
      message: "Could not reach the target URL.",
    });
    const failed = lines.filter(([, line]) => line.includes('"capture failed"'));
    expect(failed.map(([level]) => level)).toEqual(["warn"]);
    expect(failed[0]?.[1]).toContain("ERR_CONNECTION_REFUSED");
  });
});
