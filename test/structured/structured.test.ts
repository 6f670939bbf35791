/**
 * POST /v1/json against fixture pages rendered by the real browser — ONE capture per page, many
 * assertions: a product in JSON-LD with @graph (and a malformed block), one in microdata only,
 * an article in RDFa Lite, a Next.js page whose product is only in __NEXT_DATA__, and a listing
 * of 50 items built by script after load with prices in three locales. Refusals of bad schemas
 * need no browser: they are answered before any page loads.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { StructuredData } from "../../schemas/responses";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { envelope, FIXTURES, postJson, runId } from "../helpers/http";

let account: TestAccount;
beforeAll(async () => {
  account = await createAccount("pro");
});

const page = (name: string) => `${FIXTURES}/${name}?run=${runId()}`;
const SMALL = { width: 640, height: 480, deviceScaleFactor: 1 };

async function json(body: Record<string, unknown>) {
  const res = await postJson("/v1/json", { ...SMALL, ...body }, bearer(account.apiKey));
  return { res, body: await envelope<StructuredData>(res) };
}

async function read(body: Record<string, unknown>): Promise<StructuredData> {
  const { res, body: answer } = await json(body);
  expect(res.status, JSON.stringify(answer.error)).toBe(200);
  expect(answer.meta.usage?.credits).toBe(1);
  return answer.data as StructuredData;
}

describe("POST /v1/json from the page's own markup", () => {
  it("JSON-LD with @graph: the product, @id references resolved, a malformed block skipped", async () => {
    const url = page("structured-product-graph.html");
    const data = await read({
      url,
      kind: "auto",
      fields: { title: { selector: "h1" }, price: { selector: ".price", type: "number" } },
    });
    expect(data.fields).toEqual({ title: "Trail shoe TR-2", price: 1299 });
    expect(data.truncated).toBe(false);
    expect(data.markup).toEqual({
      kind: "product",
      values: {
        name: "Trail shoe TR-2",
        description: "Light trail running shoe.",
        url: null,
        sku: "TR-2-42",
        gtin: "4006381333931",
        brand: "Peakline",
        price: 1299,
        currency: "EUR",
        availability: "InStock",
        images: [`${FIXTURES}/img/shoe-1.jpg`, `${FIXTURES}/img/shoe-2.jpg`],
        rating: { value: 4.6, count: 128, best: null },
      },
      sources: {
        name: "json-ld",
        description: "opengraph",
        sku: "json-ld",
        gtin: "json-ld",
        brand: "json-ld",
        price: "json-ld",
        currency: "json-ld",
        availability: "json-ld",
        images: "json-ld",
        rating: "json-ld",
      },
      skippedJsonLd: 1,
      truncated: false,
    });
    expect(data.url).toBe(url);
  });

  it("microdata only: nested items and content attributes", async () => {
    const data = await read({ url: page("structured-microdata.html"), kind: "product" });
    expect(data.fields).toBeUndefined();
    expect(data.markup).toMatchObject({
      kind: "product",
      values: {
        name: "Desk lamp Lumo",
        sku: "LUMO-1",
        brand: "Lumo",
        price: 49.9,
        currency: "EUR",
        availability: "OutOfStock",
        images: [`${FIXTURES}/lamp.png`],
        rating: { value: 4.1, count: 37, best: null },
      },
      sources: { name: "microdata", price: "microdata", images: "microdata" },
      skippedJsonLd: 0,
    });
  });

  it("RDFa Lite: the article, its authors and its date in UTC", async () => {
    const data = await read({ url: page("structured-rdfa.html"), kind: "auto" });
    expect(data.markup).toEqual({
      kind: "article",
      values: {
        headline: "Field notes from the ridge",
        description: "Notes on a long walk.",
        url: null,
        authors: ["Ada Ridge", "Bo Stone"],
        datePublished: "2024-05-01T06:00:00.000Z",
        dateModified: null,
        images: [`${FIXTURES}/img/ridge.jpg`],
        publisher: "Ridge Press",
      },
      sources: {
        headline: "rdfa",
        description: "rdfa",
        authors: "rdfa",
        datePublished: "rdfa",
        images: "rdfa",
        publisher: "rdfa",
      },
      skippedJsonLd: 0,
      truncated: false,
    });
  });

  it("Next.js: a price that is only in __NEXT_DATA__", async () => {
    const data = await read({ url: page("structured-next.html"), kind: "product" });
    expect(data.markup).toMatchObject({
      kind: "product",
      values: {
        name: "Kettle K1",
        sku: "K1-STEEL",
        brand: "Boilr",
        price: 34.5,
        currency: "GBP",
        availability: "InStock",
        images: [`${FIXTURES}/img/k1.png`],
      },
      sources: { name: "next-data", price: "next-data", currency: "next-data" },
    });
  });
});

describe("POST /v1/json fields by selector", () => {
  it("a listing built after load: 50 objects, three locales, urls, dates, booleans, nested lists", async () => {
    const data = await read({
      url: page("structured-listing.html"),
      waitForSelector: "body[data-ready]",
      fields: {
        heading: { selector: "h1" },
        missing: { selector: ".nope", default: "n/a" },
        missingPrice: { selector: ".nope", type: "number" },
        items: {
          selector: "#items > li",
          list: true,
          fields: {
            name: { selector: ".name" },
            link: { selector: ".name", attribute: "href", type: "url" },
            price: { selector: ".price", type: "number" },
            raw: { selector: ".price" },
            date: { selector: "time", attribute: "datetime", type: "date" },
            inStock: { selector: ".stock", type: "boolean" },
            tags: { selector: ".tags li", list: true },
          },
        },
      },
    });
    expect(data.truncated).toBe(false);
    const fields = data.fields as Record<string, unknown>;
    expect(fields.heading).toBe("Listing");
    expect(fields.missing).toBe("n/a");
    expect(fields.missingPrice).toBeNull();
    const items = fields.items as Array<Record<string, unknown>>;
    expect(items).toHaveLength(50);
    items.forEach((item, i) => {
      expect(item).toEqual({
        name: `Item ${i}`,
        link: `${FIXTURES}/shop/p/${i}.html`,
        price: 1000 + i + 0.5,
        raw: expect.any(String),
        date: `2024-06-${String((i % 28) + 1).padStart(2, "0")}`,
        inStock: i % 2 === 0,
        tags: [`t${i}a`, `t${i}b`],
      });
    });
    // Whitespace is collapsed: the French narrow no-break space reads as a space.
    expect(items.slice(0, 3).map((i) => i.raw)).toEqual(["1.000,50 €", "$1,001.50", "1 002,50 €"]);
  });
});

describe("POST /v1/json refusals (no page load)", () => {
  const url = "https://example.com/";
  const detailsOf = async (body: Record<string, unknown>) => {
    const { res, body: answer } = await json(body);
    expect(res.status).toBe(400);
    expect(answer.error?.code).toBe("VALIDATION_ERROR");
    return answer.error?.details ?? [];
  };

  it("names the path of a bad field, a bad default, an unknown key", async () => {
    expect(
      await detailsOf({
        url,
        fields: {
          price: { selector: "div >", type: "number", default: "free" },
          list: { selector: "li", list: true, fields: { x: { selector: "b", typo: 1 } } },
        },
      }),
    ).toEqual([
      { path: "fields.price.selector", message: "Invalid CSS selector: empty compound selector." },
      { path: "fields.price.default", message: "Must be a number (or null) for a number field." },
      { path: "fields.list.fields.x.typo", message: expect.stringContaining("Unknown field") },
    ]);
  });

  it("needs fields or kind; refuses 10,000 fields and deep nesting as 400s", async () => {
    expect(await detailsOf({ url })).toEqual([
      { path: "fields", message: "fields or kind is required." },
    ]);
    const many = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [`f${i}`, { selector: `.c${i}:not(:has(*))` }]),
    );
    expect(await detailsOf({ url, fields: many })).toEqual([
      { path: "fields", message: "At most 200 fields in all." },
    ]);
    let deep: Record<string, unknown> = { selector: "a" };
    for (let i = 0; i < 6; i++) deep = { selector: "div", fields: { x: deep } };
    const [detail] = await detailsOf({ url, fields: { d: deep } });
    expect(detail).toEqual({
      path: "fields.d.fields.x.fields.x.fields.x.fields.x.fields",
      message: "Objects nest at most 5 levels deep.",
    });
  });
});
