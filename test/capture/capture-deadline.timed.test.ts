/**
 * One customer cannot hurt the others through the browser (issue 22): every capture has a hard
 * deadline after which its context (and renderer) is gone, a page script holding the main thread
 * is stopped and the page captured, a script's return value never crosses CDP, and one account
 * never holds every slot of a browser. Timings are asserted only as generous upper bounds (the
 * machine is shared): a capture's own timeout + the grace.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { BrowserHost, CaptureOutcome } from "../../src/capture/host/browser-host";
import { captureDeadlineMs } from "../../src/capture/page/deadline";
import type { CaptureSpec } from "../../src/capture/capture-spec";
import { toCaptureSpec } from "../../src/capture-request/spec";
import type { CaptureRequest } from "../../schemas/capture";
import { TUNING } from "../../src/tuning";
import { PLANS } from "../../src/accounts/plans";
import { failures } from "../../src/capture/failures";
import type { CaptureEngine } from "../../src/pipeline/engine";
import { runCapture } from "../../src/pipeline/pipeline";
import { prepareCapture } from "../../src/capture-request/prepare";
import { accountDo } from "../helpers/account-do";
import { createAccount } from "../helpers/accounts";
import { Capturer } from "../helpers/capture";
import { envelope, FIXTURES, runId } from "../helpers/http";
import { decodeImage } from "../helpers/images";

const host = (name: string): DurableObjectStub<BrowserHost> =>
  env.BROWSER_HOST.get(env.BROWSER_HOST.idFromName(name));

const small = { width: 320, height: 240, deviceScaleFactor: 1, blockAds: false } as const;
const spin = (extra: Partial<CaptureRequest> = {}): CaptureSpec =>
  toCaptureSpec(
    { ...small, html: "<p>spinning</p><script>while (true) {}</script>", timeout: 5, ...extra },
    { watermark: null },
  );
/** A full page whose script spins once it is scrolled: only the hard deadline ends it. */
const spinOnScroll = (): CaptureSpec =>
  toCaptureSpec(
    {
      ...small,
      html:
        "<body style='margin:0'><div style='height:5000px'>tall</div>" +
        "<script>addEventListener('scroll', () => { while (true) {} })</script></body>",
      fullPage: true,
      timeout: 5,
    },
    { watermark: null },
  );
/** A target that answers only after 30 s: its capture ends at its timeout (5 s), in 408. */
const neverAnswers = (): CaptureSpec =>
  toCaptureSpec(
    { ...small, url: `${FIXTURES}/slow?ms=30000&run=${runId()}`, timeout: 5 },
    { watermark: null },
  );
const boxes = (): CaptureSpec =>
  toCaptureSpec(
    { ...small, url: `${FIXTURES}/boxes.html?run=${runId()}`, waitUntil: "load", timeout: 5 },
    { watermark: null },
  );

/** A spec's own bound: its deadline, plus disposing the context, plus slack for a busy CPU. */
const bound = (spec: CaptureSpec) => captureDeadlineMs(spec) + TUNING.contextCloseMs + 5_000;

/** One capture on `stub` for `account`, and how long it took. */
async function timed(
  stub: DurableObjectStub<BrowserHost>,
  spec: CaptureSpec,
  account: string,
): Promise<{ value: CaptureOutcome; ms: number }> {
  const started = Date.now();
  const value: CaptureOutcome = await stub.capture(spec, account);
  return { value, ms: Date.now() - started };
}

/**
 * The tests mostly wait out timeouts and deadlines, and share nothing another test counts: the
 * deadline and slot tests name BrowserHost shards of their own (their stats and slots are
 * theirs alone), the others capture through accounts and run ids of their own. So they run side
 * by side, and the file takes its longest test's time instead of their sum.
 */
describe.concurrent("capture deadlines, fairness and slots", () => {
  describe("hard per-capture deadline", () => {
    it("the deadline is timeout + each waiting action + delay + the completeness waits + the grace", () => {
      const settle = TUNING.settleMs + TUNING.blankRetryMs;
      expect(captureDeadlineMs(spin())).toBe(5_000 + settle + TUNING.captureGraceMs);
      const busy = spin({ js: "1", waitForSelector: "p", delay: 2000, fullPage: true });
      expect(captureDeadlineMs(busy)).toBe(
        3 * 5_000 + 2_000 + TUNING.lazySettleMs + settle + TUNING.captureGraceMs,
      );
    });

    it("a capture held past its deadline answers 408 within it; the host then captures normally", async () => {
      const stub = host(`t-spin-${runId()}`);
      // The browser is launched first: the bounds below are the capture's, not a launch's, which
      // takes seconds of its own on a loaded machine.
      expect((await stub.capture(boxes(), "acct-spin")).ok).toBe(true);
      const spec = spinOnScroll();
      const { value: outcome, ms } = await timed(stub, spec, "acct-spin");
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.failure.code).toBe("TIMEOUT");
      expect(ms).toBeLessThan(bound(spec));
      const stats = await stub.getStats();
      expect(stats.deadlineKills).toBe(1);
      expect(stats.inFlight).toBe(0);
      // The renderer is gone with its context: the same browser serves the next capture.
      const next = await timed(stub, boxes(), "acct-spin");
      expect(next.value.ok).toBe(true);
      expect(next.ms).toBeLessThan(bound(boxes()));
      expect((await stub.getStats()).launches).toBe(1);
    });

    it("over HTTP: a target that never answers is a refunded 408 within timeout + grace", async () => {
      const cap = await Capturer.create("pro");
      const started = Date.now();
      const res = await cap.postRaw(
        JSON.stringify({ ...small, url: `${FIXTURES}/slow?ms=30000&run=${runId()}`, timeout: 5 }),
      );
      expect(res.status).toBe(408);
      expect((await envelope(res)).error?.code).toBe("TIMEOUT");
      expect(Date.now() - started).toBeLessThan(bound(neverAnswers()));
      expect((await accountDo(cap.account.accountId).summary())?.usage).toMatchObject({ used: 0 });
    });
  });

  describe("page results are bounded before they cross CDP", () => {
    it("a js returning a 100 MB string costs nothing: the capture succeeds within its bound", async () => {
      const cap = await Capturer.create("pro");
      const js = `document.body.style.background = "rgb(0, 128, 255)"; "x".repeat(100 * 1024 * 1024)`;
      const started = Date.now();
      const { res, bytes } = await cap.post({
        ...small,
        html: "<body style='margin:0'>x</body>",
        js,
        timeout: 5,
      });
      expect(res.status).toBe(200);
      expect(decodeImage(bytes).pixel(300, 200)).toEqual([0, 128, 255]);
      expect(Date.now() - started).toBeLessThan(bound(spin({ js })));
    });

    it("js still runs on a page whose CSP forbids eval and demands Trusted Types", async () => {
      const cap = await Capturer.create("pro");
      const csp = `<meta http-equiv="Content-Security-Policy" content="script-src 'none'; require-trusted-types-for 'script'">`;
      const { res, bytes } = await cap.post({
        ...small,
        html: `<html><head>${csp}</head><body style='margin:0'>x</body></html>`,
        js: `document.body.style.background = "rgb(200, 0, 100)"; 1`,
      });
      expect(res.status).toBe(200);
      expect(decodeImage(bytes).pixel(10, 10)).toEqual([200, 0, 100]);
    });
  });

  describe("per-account fairness in the browser pool", () => {
    it("a capture of one account in every slot it may take leaves one for another account", async () => {
      const stub = host(`t-fair-${runId()}`);
      const slots = TUNING.browserContextsInFlight;
      // The browser's launch is not what is bounded here: it is warm before the greedy account asks.
      expect((await timed(stub, boxes(), "acct-polite")).value.ok).toBe(true);
      const held = Array.from({ length: slots }, () => timed(stub, neverAnswers(), "acct-greedy"));
      await new Promise((r) => setTimeout(r, 500)); // the greedy account asked first
      const other = boxes();
      const { value: outcome, ms } = await timed(stub, other, "acct-polite");
      expect(outcome.ok).toBe(true);
      if (outcome.ok) {
        const [shot] = outcome.result.outputs;
        expect(shot?.ok && decodeImage(shot.output.bytes).pixel(10, 10)).toEqual([255, 0, 0]);
      }
      // Within its own timeout + grace, although the greedy account asked first for every slot.
      expect(ms).toBeLessThan(other.timeoutMs + TUNING.captureGraceMs);
      const done = await Promise.all(held);
      expect(done.every(({ value: o }) => !o.ok && o.failure.code === "TIMEOUT")).toBe(true);
      expect(await stub.getStats()).toMatchObject({ inFlight: 0, waiting: 0 });
    });
  });

  describe("no slot in time", () => {
    it("the pipeline answers 503 SERVICE_BUSY with Retry-After and charges nothing", async () => {
      const { accountId, keyId } = await createAccount("pro");
      const auth = { accountId, keyId, plan: PLANS.pro, account: accountDo(accountId) };
      const spec = await prepareCapture(env, auth, { url: `${FIXTURES}/boxes.html`, ...small });
      const refused: CaptureEngine = {
        capture: async () => ({ ok: false, failure: failures.busy() }),
      };
      const run = await runCapture(env, auth, {
        spec,
        outputs: [{ kind: "image", format: "png" }],
        storage: { kind: "none" },
        engine: refused,
      });
      const [output] = run.outputs;
      expect(output?.ok).toBe(false);
      if (output && !output.ok) {
        const { error } = output.failure;
        expect([error.status, error.code]).toEqual([503, "SERVICE_BUSY"]);
        expect(error.extraHeaders).toEqual({
          "Retry-After": String(TUNING.busyRetryAfterSeconds),
        });
        expect(output.failure.transient).toBe(true);
      }
      expect(run.usage.credits).toBe(0);
      expect((await accountDo(accountId).summary())?.usage).toMatchObject({ used: 0 });
    });
  });
});
