/**
 * The capture pipeline: several outputs from ONE page load, one credit per output, each output
 * committed or refunded on its own — with the real browser and the fixture server's log.
 */
import { env } from "cloudflare:workers";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { PLANS } from "../../src/accounts/plans";
import { browserEngine } from "../../src/pipeline/engine";
import { imageOutput, runCapture } from "../../src/pipeline/pipeline";
import { prepareCapture } from "../../src/capture-request/prepare";
import { accountDo } from "../helpers/account-do";
import { createAccount } from "../helpers/accounts";
import { FIXTURES, fixtureLog, runId } from "../helpers/http";
import { decodeImage, sniff } from "../helpers/images";

async function caller() {
  const { accountId, keyId } = await createAccount("pro");
  return { accountId, keyId, plan: PLANS.pro, account: accountDo(accountId) };
}

const usage = async (accountId: string) => (await accountDo(accountId).summary())?.usage;

describe("capture pipeline", () => {
  it("PDF + PNG of the same document: one navigation, two outputs, two credits", async () => {
    const run = runId();
    const auth = await caller();
    const req = {
      url: `${FIXTURES}/boxes.html?run=${run}`,
      width: 400,
      height: 300,
      deviceScaleFactor: 1,
      waitUntil: "load",
      blockAds: false,
    } as const;
    const spec = await prepareCapture(env, auth, req);
    const captured = await runCapture(env, auth, {
      spec,
      outputs: [
        { kind: "image", format: "pdf" },
        { kind: "image", format: "png" },
      ],
      storage: { kind: "none" },
      engine: browserEngine(env),
    });

    expect((await fixtureLog(run)).filter((r) => r.path === "/boxes.html")).toHaveLength(1);
    const pdf = imageOutput(captured, 0);
    const png = imageOutput(captured, 1);
    expect(sniff(pdf.result.bytes)).toBe("pdf");
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const doc = await getDocumentProxy(pdf.result.bytes);
    expect((await extractText(doc, { mergePages: true })).text).toContain("Target");
    expect(png.headers["content-type"]).toBe("image/png");
    expect(decodeImage(png.result.bytes).pixel(10, 10)).toEqual([255, 0, 0]);
    // One loadTimeMs for the run, the same in every output's headers.
    expect(captured.loadTimeMs).toBeGreaterThan(0);
    for (const out of [pdf, png])
      expect(out.headers["x-service-load-time-ms"]).toBe(String(captured.loadTimeMs));

    expect(captured.usage).toEqual({ credits: 2, remaining: 25_000 - 2 });
    expect(await usage(auth.accountId)).toMatchObject({ used: 2, remaining: 25_000 - 2 });
  });

  it("one output fails on its own: its credit is refunded, the other's committed", async () => {
    const run = runId();
    const auth = await caller();
    // The PNG of a missing element fails; the PDF prints the whole document and succeeds.
    const req = {
      url: `${FIXTURES}/boxes.html?run=${run}`,
      selector: "#missing",
      waitUntil: "load",
      blockAds: false,
    } as const;
    const spec = await prepareCapture(env, auth, req);
    const captured = await runCapture(env, auth, {
      spec,
      outputs: [
        { kind: "image", format: "png" },
        { kind: "image", format: "pdf" },
      ],
      storage: { kind: "none" },
      engine: browserEngine(env),
    });

    expect((await fixtureLog(run)).filter((r) => r.path === "/boxes.html")).toHaveLength(1);
    const [png, pdf] = captured.outputs;
    expect(png).toMatchObject({ kind: "image", ok: false, failure: { transient: false } });
    expect(png?.ok === false && png.failure.error).toMatchObject({
      code: "CAPTURE_FAILED",
      status: 400,
      message: "The specified element was not found.",
    });
    expect(() => imageOutput(captured, 0)).toThrow("The specified element was not found.");
    expect(sniff(imageOutput(captured, 1).result.bytes)).toBe("pdf");
    expect(pdf?.ok).toBe(true);

    expect(captured.usage).toEqual({ credits: 1, remaining: 25_000 - 1 });
    expect(await usage(auth.accountId)).toMatchObject({ used: 1, remaining: 25_000 - 1 });
  });

  it("a failed load fails every output and refunds every credit", async () => {
    const auth = await caller();
    const spec = await prepareCapture(env, auth, {
      url: `${FIXTURES}/boxes.html?run=${runId()}`,
      waitForSelector: "#never",
      timeout: 5,
      waitUntil: "load",
      blockAds: false,
    });
    const captured = await runCapture(env, auth, {
      spec,
      outputs: [
        { kind: "image", format: "png" },
        { kind: "image", format: "jpeg" },
      ],
      storage: { kind: "none" },
      engine: browserEngine(env),
    });
    expect(captured.outputs.map((o) => o.ok)).toEqual([false, false]);
    expect(captured.usage).toEqual({ credits: 0, remaining: 25_000 });
    expect(await usage(auth.accountId)).toMatchObject({ used: 0, remaining: 25_000 });
  });
});
