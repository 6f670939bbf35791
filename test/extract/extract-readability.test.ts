/**
 * Mozilla Readability's own test pages (test/fixtures/pages/readability/, Apache-2.0) through
 * POST /v1/extract: Readability now runs inside the page on the rendered DOM, and what it finds
 * must be what Readability's own suite expects — title, byline and excerpt from
 * expected-metadata.json, the article's text from expected.html (whitespace collapsed).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ExtractionData } from "../../schemas/responses";
import { collapse } from "../../src/extract/dom";
import { parseDocument } from "../../src/extract/parse";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { envelope, FIXTURES, postJson, runId } from "../helpers/http";

const PAGES = ["ebb-org", "missing-paragraphs", "parsely-metadata", "003-metadata-preferred"];

interface ExpectedMetadata {
  title: string | null;
  byline: string | null;
  excerpt: string | null;
  publishedTime?: string | null;
}

let account: TestAccount;
beforeAll(async () => {
  account = await createAccount("pro");
});

async function extract(name: string, extractFormat: "html" | "json"): Promise<ExtractionData> {
  const url = `${FIXTURES}/readability/${name}/source.html?run=${runId()}`;
  const res = await postJson(
    "/v1/extract",
    { url, extractFormat, waitUntil: "load" },
    bearer(account.apiKey),
  );
  const body = await envelope<ExtractionData>(res);
  expect(res.status, JSON.stringify(body.error)).toBe(200);
  if (!body.data) throw new Error("no extraction data");
  return body.data;
}

async function fixture(name: string, file: string): Promise<string> {
  const res = await fetch(`${FIXTURES}/readability/${name}/${file}`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The text a reader sees in an HTML fragment, whitespace runs collapsed. */
function textOf(html: string): string {
  return collapse(
    parseDocument(`<!doctype html><html><body>${html}</body></html>`).body?.textContent ?? "",
  );
}

describe("POST /v1/extract on Mozilla Readability's test pages", () => {
  for (const name of PAGES) {
    it(`${name}: metadata and article text as Readability's suite expects`, async () => {
      const expected = JSON.parse(
        await fixture(name, "expected-metadata.json"),
      ) as ExpectedMetadata;
      const want = (v: string | null | undefined) => collapse(v ?? "");

      const html = await extract(name, "html");
      expect({ title: html.title, byline: html.byline, excerpt: html.excerpt }).toEqual({
        title: want(expected.title),
        byline: want(expected.byline),
        excerpt: want(expected.excerpt),
      });
      const text = textOf(html.content);
      expect(text.length).toBeGreaterThan(100);
      expect(text).toBe(textOf(await fixture(name, "expected.html")));

      const json = await extract(name, "json");
      const doc = JSON.parse(json.content) as Record<string, unknown>;
      expect(doc).toMatchObject({
        title: want(expected.title),
        byline: want(expected.byline),
        excerpt: want(expected.excerpt),
      });
      if (expected.publishedTime !== undefined)
        expect(doc.publishedTime).toBe(want(expected.publishedTime));
    });
  }
});
