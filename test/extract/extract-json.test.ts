/** `extract` on POST /v1/screenshot/json: the screenshot and its article from ONE page load. */
import { beforeAll, describe, expect, it } from "vitest";
import type { ExtractionData } from "../../schemas/responses";
import { Capturer } from "../helpers/capture";
import { envelope, FIXTURES, fixtureLog, runId } from "../helpers/http";
import { sniff } from "../helpers/images";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

const page = (name: string, run = runId()) => `${FIXTURES}/${name}?run=${run}`;
const base = { width: 640, height: 480, deviceScaleFactor: 1 } as const;

interface CaptureWithExtract {
  image: string;
  url: string;
  extracted?: ExtractionData | null;
  extractionError?: { code: string; message: string };
}

describe("POST /v1/screenshot/json with extract", () => {
  it("returns the image and `extracted` from a single load of the page", async () => {
    const run = runId();
    const url = page("extract-article.html", run);
    const { res, body } = await cap.json<CaptureWithExtract>({ ...base, url, extract: true });
    expect(res.status).toBe(200);
    const data = body.data as CaptureWithExtract;
    expect(sniff(Uint8Array.from(atob(data.image), (c) => c.charCodeAt(0)))).toBe("png");
    expect(data.extracted).toMatchObject({
      url,
      format: "markdown",
      title: "Reading the Edge",
      byline: "Grace Hopper",
      siteName: "Fixture Gazette",
    });
    expect(Object.keys(data.extracted ?? {}).sort()).toEqual([
      "byline",
      "content",
      "excerpt",
      "format",
      "length",
      "loadTimeMs",
      "siteName",
      "title",
      "url",
    ]);
    expect(data.extracted?.content).toContain("```python");
    expect(data.extractionError).toBeUndefined();
    expect(body.meta.usage?.credits).toBe(1);

    const log = await fixtureLog(run);
    expect(log.filter((e) => e.path === "/extract-article.html")).toHaveLength(1);
    // A screenshot loads the page's images (extraction alone does not): the log does see them.
    expect(log.filter((e) => e.path.startsWith("/img/")).length).toBeGreaterThan(0);
  });

  it("extractFormat picks the format of `extracted`", async () => {
    const { body } = await cap.json<CaptureWithExtract>({
      ...base,
      url: page("extract-article.html"),
      extract: true,
      extractFormat: "json",
    });
    expect(body.data?.extracted?.format).toBe("json");
    const doc = JSON.parse(body.data?.extracted?.content ?? "{}") as {
      blocks?: Array<{ type: string }>;
    };
    expect(doc.blocks?.some((b) => b.type === "table")).toBe(true);
  });

  it("a page without an article keeps its screenshot: extracted null + extractionError, 1 credit", async () => {
    const { res, body } = await cap.json<CaptureWithExtract>({
      ...base,
      url: page("extract-none.html"),
      extract: true,
    });
    expect(res.status).toBe(200);
    expect(body.data?.image.length).toBeGreaterThan(100);
    expect(body.data?.extracted).toBeNull();
    expect(body.data?.extractionError?.code).toBe("EXTRACTION_FAILED");
    expect(body.meta.usage?.credits).toBe(1);
  });

  it("without extract there is no `extracted` field", async () => {
    const { body } = await cap.json<CaptureWithExtract>({
      ...base,
      url: page("extract-article.html"),
    });
    expect(body.success).toBe(true);
    expect(body.data).not.toHaveProperty("extracted");
    expect(body.data).not.toHaveProperty("extractionError");
  });

  it("extractFormat without extract: true → 400 naming extractFormat", async () => {
    const { res, body } = await cap.json({
      ...base,
      url: page("extract-article.html"),
      extractFormat: "html",
    });
    expect(res.status).toBe(400);
    expect(body.error?.details?.map((d) => d.path)).toEqual(["extractFormat"]);
  });
});

describe("the binary endpoint refuses extract", () => {
  for (const field of [{ extract: true }, { extractFormat: "markdown" }]) {
    const name = Object.keys(field)[0] ?? "";
    it(`POST /v1/screenshot with ${name} → 400 naming ${name}`, async () => {
      const { res, bytes } = await cap.post({
        ...base,
        url: page("extract-article.html"),
        ...field,
      });
      expect(res.status).toBe(400);
      const body = await envelope(new Response(bytes));
      expect(body.error?.code).toBe("VALIDATION_ERROR");
      expect(body.error?.details?.map((d) => d.path)).toEqual([name]);
    });
  }
});
