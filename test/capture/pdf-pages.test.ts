/**
 * PDFs say how many pages they have, truthfully: a PDF capture's JSON carries `pages` (what
 * the dashboard labels it with, instead of the viewport's px), and an artifact's PNG prints the
 * document's real page count where its branding says `{{pages}}` — with the PDF beside it or
 * alone (src/capture/outputs/pdf-info.ts, src/capture/outputs/outputs.ts `pagesInto`). Read back with unpdf and
 * by comparing the PNG's header bar with one whose text was written out literally.
 */
import { getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { bearer, createAccount } from "../helpers/accounts";
import { call, envelope, postJson } from "../helpers/http";
import { decodeImage } from "../helpers/images";

let auth: Record<string, string> = {};
beforeAll(async () => {
  auth = bearer((await createAccount("pro")).apiKey);
}, 180_000);

const BREAK = '<div style="break-after: page"></div>';
const threePages = `<h1>One</h1>${BREAK}<h1>Two</h1>${BREAK}<h1>Three</h1>`;
const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

async function pdfJson(body: Record<string, unknown>): Promise<{ pages?: number; image: string }> {
  const res = await postJson("/v1/screenshot/json", { format: "pdf", ...body }, auth);
  expect(res.status).toBe(200);
  const data = (await envelope<{ pages?: number; image: string }>(res)).data;
  if (!data) throw new Error("no data");
  return data;
}

describe("a PDF capture's page count", () => {
  it("JSON `pages` is the PDF's own page count, after pdfPageRanges too", async () => {
    const all = await pdfJson({ html: threePages });
    expect((await getDocumentProxy(fromBase64(all.image))).numPages).toBe(3);
    expect(all.pages).toBe(3);
    const two = await pdfJson({ html: threePages, pdfPageRanges: "2-3", pdfFormat: "Letter" });
    expect((await getDocumentProxy(fromBase64(two.image))).numPages).toBe(2);
    expect(two.pages).toBe(2);
  }, 120_000);

  it("images carry no `pages`", async () => {
    const res = await postJson("/v1/screenshot/json", { html: threePages }, auth);
    const data = (await envelope<Record<string, unknown>>(res)).data ?? {};
    expect(data.format).toBe("png");
    expect("pages" in data).toBe(false);
  }, 120_000);
});

describe("an artifact PNG's {{pages}}", () => {
  const content = "# Report\n\nFirst page.\n\n---pagebreak---\n\n## Appendix\n\nSecond page.";
  /** The header bar (the top 56 px) of an artifact's PNG, as one string of pixels. */
  async function headerBar(header: string, formats: string[]): Promise<string> {
    const res = await postJson("/v1/artifact", { content, formats, branding: { header } }, auth);
    expect(res.status).toBe(200);
    const url = (await envelope<{ pngUrl: string }>(res)).data?.pngUrl ?? "";
    const bytes = new Uint8Array(await (await call(url.slice(url.indexOf("/v1/")))).arrayBuffer());
    const img = decodeImage(bytes);
    const rows: string[] = [];
    for (let y = 0; y < 56; y++) for (let x = 0; x < 400; x++) rows.push(img.pixel(x, y).join(","));
    return rows.join(";");
  }

  it("is the PDF's 2, with the PDF and without it; never 1", async () => {
    const literal = await headerBar("Page 1 of 2", ["png"]);
    const wrong = await headerBar("Page 1 of 1", ["png"]);
    expect(wrong).not.toBe(literal); // the comparison can tell the two apart
    expect(await headerBar("Page {{page}} of {{pages}}", ["pdf", "png"])).toBe(literal);
    expect(await headerBar("Page {{page}} of {{pages}}", ["png"])).toBe(literal);
  }, 240_000);
});
