/**
 * Structured data's plain code, in Node: numbers in three locales (and the ambiguous ones),
 * dates, typing a schema's strings, normalising markup (JSON-LD @graph and @id, malformed
 * blocks, microdata and RDFa items, Next.js and Nuxt state, meta tags, the source of each
 * value), and the request schema's bounds against hostile schemas.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../schemas/limits";
import { jsonRequestSchema, type FieldMap } from "../../schemas/structured";
import { parseDate, typeFields } from "../../src/extract/fields";
import { readMarkup, unflattenNuxt, type RawMarkup } from "../../src/extract/markup";
import { parseNumber } from "../../src/extract/numbers";

describe("parseNumber", () => {
  it.each([
    ["1.299,00 €", 1299],
    ["€1,299.00", 1299],
    ["$1,299.00", 1299],
    ["1 299,00 kr", 1299],
    ["1\u00a0299,00\u00a0€", 1299],
    ["1\u202f299,50 €", 1299.5],
    ["CHF 1'299.–", 1299],
    ["1.299,-", 1299],
    ["12,50", 12.5],
    ["0,99 €", 0.99],
    ["0.299", 0.299],
    ["1,299", 1299],
    ["1.299", 1299],
    ["1234.567", 1234.567],
    ["1.299.000", 1299000],
    ["1,299,000.25", 1299000.25],
    ["−12,5 %", -12.5],
    ["-3", -3],
    ["Was 20, now 15", 20],
    ["Qty 3 5", 3],
    ["42", 42],
  ])("%s → %s", (text, value) => {
    expect(parseNumber(text)).toBe(value);
  });

  it("takes the caller's decimal separator when the page's locale is known", () => {
    expect(parseNumber("1.299", ".")).toBe(1.299);
    expect(parseNumber("1,299", ",")).toBe(1.299);
    expect(parseNumber("1.299,5", ",")).toBe(1299.5);
    expect(parseNumber("1,299.5", ".")).toBe(1299.5);
  });

  it("is null for text without a number, never NaN", () => {
    expect(parseNumber("free")).toBeNull();
    expect(parseNumber("")).toBeNull();
    fc.assert(
      fc.property(fc.string(), (s) => {
        const n = parseNumber(s);
        return n === null || Number.isFinite(n);
      }),
    );
  });
});

describe("parseDate", () => {
  it.each([
    ["2024-05-01", "2024-05-01"],
    ["1.5.2024", "2024-05-01"],
    ["01. 05. 2024", "2024-05-01"],
    ["May 1, 2024", "2024-05-01"],
    ["2024-05-01T08:00:00+02:00", "2024-05-01T06:00:00.000Z"],
    ["2024-05-01T08:00", "2024-05-01T08:00:00.000Z"],
    ["Wed, 01 May 2024 08:00:00 GMT", "2024-05-01T08:00:00.000Z"],
  ])("%s → %s", (text, iso) => {
    expect(parseDate(text)).toBe(iso);
  });

  it("is null for what is not a date", () => {
    expect(parseDate("2024-02-30")).toBeNull();
    expect(parseDate("soon")).toBeNull();
    expect(parseDate("31.13.2024")).toBeNull();
  });
});

describe("typeFields", () => {
  const BASE = "https://shop.example/list/";
  const schema: FieldMap = {
    title: { selector: "h1" },
    price: { selector: ".p", type: "number", default: 0 },
    euro: { selector: ".e", type: "number", decimal: "," },
    link: { selector: "a", attribute: "href", type: "url" },
    when: { selector: "time", attribute: "datetime", type: "date", default: "unknown" },
    sale: { selector: ".sale", type: "boolean" },
    soldOut: { selector: ".so", attribute: "data-sold-out", type: "boolean" },
    tags: { selector: ".t", list: true },
    rows: {
      selector: "tr",
      list: true,
      fields: { n: { selector: "td", type: "number" }, c: { selector: "b", list: true } },
    },
    box: { selector: ".box", fields: { x: { selector: "i" } } },
  };

  it("types each value, resolves URLs, applies defaults, keeps lists and objects", () => {
    expect(
      typeFields(
        schema,
        {
          title: "Shoes",
          price: "n/a",
          euro: "1.299",
          link: "../item/1",
          when: null,
          sale: "",
          soldOut: "false",
          tags: ["a", "b"],
          rows: [
            { n: "1,5", c: ["x"] },
            { n: null, c: [] },
          ],
          box: null,
        },
        BASE,
      ),
    ).toEqual({
      title: "Shoes",
      price: 0,
      euro: 1299,
      link: "https://shop.example/item/1",
      when: "unknown",
      sale: true,
      soldOut: false,
      tags: ["a", "b"],
      rows: [
        { n: 1.5, c: ["x"] },
        { n: null, c: [] },
      ],
      box: null,
    });
  });

  it("a field the budget left unread is its default, a list []", () => {
    expect(typeFields(schema, {}, BASE)).toEqual({
      title: null,
      price: 0,
      euro: null,
      link: null,
      when: "unknown",
      sale: false,
      soldOut: false,
      tags: [],
      rows: [],
      box: null,
    });
  });
});

const NO_MARKUP: RawMarkup = {
  base: "https://shop.example/p/1",
  jsonLd: [],
  microdata: [],
  rdfa: [],
  meta: [],
  nextData: null,
  nuxtData: null,
  truncated: false,
};

describe("readMarkup", () => {
  it("JSON-LD: @graph, prefixed types and keys, @id references, ranges, a malformed block skipped", () => {
    const graph = {
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "Brand", "@id": "#b", name: "Peak" },
        {
          "@type": ["schema:Product"],
          "http://schema.org/name": "Boot",
          brand: { "@id": "#b" },
          offers: {
            "@type": "AggregateOffer",
            lowPrice: 80,
            highPrice: 120,
            priceCurrency: "EUR",
            availability: "http://schema.org/PreOrder",
          },
          image: "/img/boot.jpg",
        },
      ],
    };
    const data = readMarkup(
      { ...NO_MARKUP, jsonLd: ["{ nope", `<!--${JSON.stringify(graph)}-->`] },
      "product",
    );
    expect(data).toMatchObject({
      kind: "product",
      values: {
        name: "Boot",
        brand: "Peak",
        price: 80,
        currency: "EUR",
        availability: "PreOrder",
        images: ["https://shop.example/img/boot.jpg"],
      },
      sources: { name: "json-ld", price: "json-ld" },
      skippedJsonLd: 1,
    });
  });

  it("takes each value from the first source that has it, and says which", () => {
    const data = readMarkup(
      {
        ...NO_MARKUP,
        microdata: [
          {
            types: ["https://schema.org/Product"],
            props: {
              name: ["Lamp"],
              offers: [{ types: ["Offer"], props: { price: ["1.299,00"] } }],
            },
          },
        ],
        meta: [
          { key: "og:title", value: "Lamp (og)" },
          { key: "og:description", value: "A lamp." },
          { key: "product:price:currency", value: "EUR" },
          { key: "twitter:image", value: "/t.png" },
        ],
      },
      "product",
    );
    expect(data).toMatchObject({
      kind: "product",
      values: {
        name: "Lamp",
        description: "A lamp.",
        price: 1299,
        images: ["https://shop.example/t.png"],
      },
      sources: {
        name: "microdata",
        description: "opengraph",
        price: "microdata",
        images: "twitter",
      },
    });
    // The currency is Open Graph's: microdata's offer has none.
    expect(data.sources.currency).toBe("opengraph");
  });

  it("auto: product before article before organization; null when the page describes none", () => {
    const org = { "@type": "Organization", name: "Press", logo: { url: "/l.png" } };
    const article = {
      "@type": "NewsArticle",
      headline: "News",
      author: [{ "@type": "Person", name: "A" }, "B"],
      publisher: org,
      datePublished: "2024-05-01",
    };
    const asArticle = readMarkup({ ...NO_MARKUP, jsonLd: [JSON.stringify(article)] }, "auto");
    expect(asArticle).toMatchObject({
      kind: "article",
      values: {
        headline: "News",
        authors: ["A", "B"],
        publisher: "Press",
        datePublished: "2024-05-01",
      },
    });
    const asOrg = readMarkup({ ...NO_MARKUP, jsonLd: [JSON.stringify(article)] }, "organization");
    expect(asOrg).toMatchObject({
      kind: "organization",
      values: { name: "Press", logo: "https://shop.example/l.png" },
    });
    expect(readMarkup({ ...NO_MARKUP, meta: [{ key: "og:title", value: "T" }] }, "auto")).toEqual({
      kind: null,
      values: null,
      sources: {},
      skippedJsonLd: 0,
      truncated: false,
    });
    // og:type alone says what the page is.
    const ogProduct = readMarkup(
      {
        ...NO_MARKUP,
        meta: [
          { key: "og:type", value: "product" },
          { key: "og:title", value: "T" },
        ],
      },
      "auto",
    );
    expect(ogProduct).toMatchObject({
      kind: "product",
      values: { name: "T" },
      sources: { name: "opengraph" },
    });
  });

  it("Nuxt 3 state (devalue's flattened payload) and Next.js state", () => {
    const nuxt = [
      ["Reactive", 1],
      { data: 2 },
      ["ShallowReactive", 3],
      { product: 4 },
      { title: 5, price: 6, currency: 7, stockStatus: 8 },
      "Mug",
      "9,95",
      "EUR",
      "out of stock",
    ];
    expect(unflattenNuxt(JSON.parse(JSON.stringify(nuxt)))).toEqual({
      data: {
        product: { title: "Mug", price: "9,95", currency: "EUR", stockStatus: "out of stock" },
      },
    });
    const fromNuxt = readMarkup({ ...NO_MARKUP, nuxtData: JSON.stringify(nuxt) }, "product");
    expect(fromNuxt).toMatchObject({
      kind: "product",
      values: { name: "Mug", currency: "EUR", availability: "OutOfStock" },
      sources: { name: "nuxt-data" },
    });
    const next = {
      props: { pageProps: { item: { "@type": "Product", name: "Pan", offers: { price: 20 } } } },
    };
    expect(readMarkup({ ...NO_MARKUP, nextData: JSON.stringify(next) }, "auto")).toMatchObject({
      kind: "product",
      values: { name: "Pan", price: 20 },
      sources: { name: "next-data", price: "next-data" },
    });
  });

  it("hostile markup: cycles in Nuxt state, deep JSON, huge arrays are bounded, never thrown", () => {
    const cyclic = [{ self: 0, name: 1, price: 2 }, "Loop", 5];
    expect(() =>
      readMarkup({ ...NO_MARKUP, nuxtData: JSON.stringify(cyclic) }, "auto"),
    ).not.toThrow();
    const deep = "[".repeat(5000) + "]".repeat(5000);
    const wide = JSON.stringify(
      Array.from({ length: 200_000 }, (_, i) => ({ "@type": "Thing", i })),
    );
    const data = readMarkup({ ...NO_MARKUP, jsonLd: [deep, wide], nextData: deep }, "auto");
    expect(data.kind).toBeNull();
  });
});

describe("the request schema against hostile schemas", () => {
  const url = "https://example.com/";
  it("refuses more than the field limit cheaply, before any field is parsed", () => {
    const many = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [`f${i}`, { selector: `div:nth-child(${i})` }]),
    );
    const started = performance.now();
    const result = jsonRequestSchema.safeParse({ url, fields: many });
    expect(performance.now() - started).toBeLessThan(200);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      `At most ${LIMITS.structuredFields} fields in all.`,
    ]);
  });

  it("random schemas are accepted or refused with a path, never thrown", () => {
    const leaf = fc.record(
      {
        selector: fc.oneof(fc.constantFrom("a", "li > b", ":has(", "*:has(*)", ""), fc.string()),
        attribute: fc.string(),
        type: fc.oneof(fc.constantFrom("string", "number", "url", "date", "boolean"), fc.string()),
        list: fc.boolean(),
        default: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean()),
        decimal: fc.constantFrom(".", ",", ";"),
      },
      { requiredKeys: [] },
    );
    const { tree } = fc.letrec<{ tree: Record<string, unknown> }>((tie) => ({
      tree: fc.dictionary(
        fc.oneof(fc.constantFrom("a", "b", "__proto__", "1x", "constructor"), fc.string()),
        fc.oneof(
          { depthSize: "small" },
          leaf,
          fc.record({ selector: fc.constant("div"), list: fc.boolean(), fields: tie("tree") }),
        ),
        { maxKeys: 5 },
      ),
    }));
    fc.assert(
      fc.property(tree, (fields) => {
        const result = jsonRequestSchema.safeParse({ url, fields });
        if (result.success) return true;
        return result.error.issues.every((i) => i.path.length >= 1 && i.path[0] === "fields");
      }),
      { numRuns: 300 },
    );
  });
});
