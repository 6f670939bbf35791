/**
 * The in-page reader's isolation: it reads a CLONE of the document in its own isolated world.
 * - The live page is not mutated: a JSON capture with `extract: true` screenshots the page after
 *   the article was read, and its pixels are those of the same capture without extraction
 *   (Readability on the live DOM would strip the <style>, the header and the classes).
 * - The page's main world cannot steer it: built-ins and DOM prototypes replaced by the page's
 *   script do not change the article.
 * - A huge DOM is refused in the page (413) before anything crosses CDP.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ExtractionData } from "../../schemas/responses";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { Capturer } from "../helpers/capture";
import { envelope, FIXTURES, postJson, runId } from "../helpers/http";
import { decodeImage, type Rgb } from "../helpers/images";

let cap: Capturer;
let account: TestAccount;
beforeAll(async () => {
  [cap, account] = await Promise.all([Capturer.create("pro"), createAccount("pro")]);
});

const page = (name: string) => `${FIXTURES}/${name}?run=${runId()}`;
const view = { width: 640, height: 480, deviceScaleFactor: 1, waitUntil: "load" } as const;
const BLUE: Rgb = [0, 0, 255];
const RED: Rgb = [255, 0, 0];

interface CaptureWithExtract {
  image: string;
  extracted?: ExtractionData | null;
}

async function shot(body: Record<string, unknown>) {
  const { res, body: env } = await cap.json<CaptureWithExtract>({ ...view, ...body });
  expect(res.status, JSON.stringify(env.error)).toBe(200);
  const data = env.data as CaptureWithExtract;
  return { data, image: decodeImage(Uint8Array.from(atob(data.image), (c) => c.charCodeAt(0))) };
}

async function extract(url: string, extractFormat: "markdown" | "json" = "markdown") {
  const res = await postJson(
    "/v1/extract",
    { url, extractFormat, waitUntil: "load" },
    bearer(account.apiKey),
  );
  return { res, body: await envelope<ExtractionData>(res) };
}

describe("in-page extraction leaves the live page alone", () => {
  it("a JSON capture with extract: true screenshots the page exactly as without extraction", async () => {
    const hideSelectors = [".promo"];
    const url = page("extract-live.html");
    const withExtract = await shot({ url, hideSelectors, extract: true });
    const without = await shot({ url: page("extract-live.html"), hideSelectors });

    // The article was read, without the hidden promo…
    expect(withExtract.data.extracted).toMatchObject({
      title: "The Live Page",
      byline: "Katherine Johnson",
    });
    const md = withExtract.data.extracted?.content ?? "";
    expect(md).toContain("Reading happens inside the page now");
    expect(md).not.toContain("PROMOTED WIDGETS");
    expect(without.data.extracted).toBeUndefined();

    // …and the screenshot after it still has the page's styles and header: the red band on
    // top, the blue background (the hidden promo's place shows it, as hideSelectors mean).
    const img = withExtract.image;
    expect(img.pixel(5, 5)).toEqual(RED);
    expect(img.pixel(5, 120)).toEqual(BLUE);
    expect(img.pixel(630, 300)).toEqual(BLUE);
    for (let y = 0; y < 480; y += 16)
      for (let x = 0; x < 640; x += 16) expect(img.pixel(x, y)).toEqual(without.image.pixel(x, y));
  });
});

describe("inline HTML", () => {
  it("its article is read too: its document keeps no reader, so the reader is sent", async () => {
    const para =
      "Inline pages are written into a blank document, which the page kit never saw. ".repeat(12);
    const html = `<!doctype html><html lang="en"><head><title>Inline Article</title></head><body><article><h1>Inline Article</h1><p>${para}</p><p>${para}</p></article></body></html>`;
    const { data } = await shot({ html, extract: true });
    expect(data.extracted?.title).toBe("Inline Article");
    expect(data.extracted?.content).toContain("Inline pages are written into a blank document");
  });
});

describe("a hostile page cannot steer or stall extraction", () => {
  it("DOM prototypes and built-ins replaced in the page's world do not change the article", async () => {
    const { res, body } = await extract(page("extract-hostile.html"), "json");
    expect(res.status, JSON.stringify(body.error)).toBe(200);
    expect(body.data).toMatchObject({ title: "Hostile Prototypes", byline: "Mallory Hopper" });
    const doc = JSON.parse(body.data?.content ?? "{}") as { text: string };
    expect(doc.text).toContain("The page above replaced the DOM and language built-ins");
    expect(doc.text).not.toContain("HIJACKED");
    expect(body.data?.length).toBeGreaterThan(500);
  });

  it("nor the title and tags answered beside the page content (read in the same world)", async () => {
    // The page's String.prototype.trim answers "HIJACKED": read in its own world, the title was.
    const url = page("extract-hostile.html");
    const res = await postJson(
      "/v1/content",
      { url, waitUntil: "load" },
      { ...bearer(account.apiKey), accept: "application/json" },
    );
    const body = await envelope<{ html: string; metadata: { title: string } }>(res);
    expect(res.status, JSON.stringify(body.error)).toBe(200);
    expect(body.data?.metadata.title).toBe("Hostile Prototypes");
    expect(body.data?.html).toContain("The page above replaced the DOM");
  });

  it("a rendered DOM over the 10 MB limit → 413 PAYLOAD_TOO_LARGE", async () => {
    const { res, body } = await extract(page("extract-huge.html"));
    expect(res.status).toBe(413);
    expect(body.error?.code).toBe("PAYLOAD_TOO_LARGE");
    expect(body.error?.message).toMatch(/rendered page is larger than the 10 MB limit/);
  });
});
