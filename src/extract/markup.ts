/**
 * A product, an article or an organization from the page's own markup (POST /v1/json `kind`;
 * docs/STRUCTURED-DATA.md): what the page read as strings (src/capture/page/page-structured.ts)
 * normalised to one shape per kind, each value taken from the first source that has it —
 * JSON-LD, microdata, RDFa Lite, Next.js state, Nuxt state, Open Graph, Twitter — and `sources`
 * saying which one that was. Plain code: parsing is bounded, malformed JSON-LD is skipped.
 */
import type { MarkupKind } from "../../schemas/structured";
import type {
  ArticleValues,
  MarkupData,
  MarkupSource,
  OrganizationValues,
  ProductValues,
} from "../../schemas/responses";
import { parseDate, resolveUrl } from "./fields";
import { parseNumber } from "./numbers";

/** A microdata or RDFa Lite item as the page read it: its types and its properties' values. */
export interface RawItem {
  types: string[];
  props: Record<string, Array<string | RawItem>>;
}

/** The page's own markup, as strings (bounded in the page). */
export interface RawMarkup {
  base: string;
  jsonLd: string[];
  microdata: RawItem[];
  rdfa: RawItem[];
  /** og:, product:, article: and twitter: meta tags in document order, keys lower-cased. */
  meta: Array<{ key: string; value: string }>;
  nextData: string | null;
  nuxtData: string | null;
  truncated: boolean;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Nodes visited at most in one parsed document (JSON-LD, framework state): bounds the walk. */
const MAX_VISITS = 50_000;
const MAX_DEPTH = 64;

const TYPES: Record<Exclude<MarkupKind, "auto">, ReadonlySet<string>> = {
  product: new Set([
    "Product",
    "ProductGroup",
    "IndividualProduct",
    "ProductModel",
    "SomeProducts",
  ]),
  article: new Set([
    "Article",
    "NewsArticle",
    "BlogPosting",
    "TechArticle",
    "ScholarlyArticle",
    "Report",
    "LiveBlogPosting",
    "SocialMediaPosting",
    "AnalysisNewsArticle",
    "OpinionNewsArticle",
    "ReportageNewsArticle",
    "ReviewNewsArticle",
    "BackgroundNewsArticle",
  ]),
  organization: new Set([
    "Organization",
    "Corporation",
    "LocalBusiness",
    "Store",
    "OnlineStore",
    "OnlineBusiness",
    "NewsMediaOrganization",
    "EducationalOrganization",
    "NGO",
    "GovernmentOrganization",
    "SportsOrganization",
  ]),
};
const KINDS = ["product", "article", "organization"] as const;
type Kind = (typeof KINDS)[number];

const isObject = (v: Json | undefined): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The last segment of a type or property name: "http://schema.org/Product", "schema:name". */
const shortName = (name: string): string => name.replace(/^.*[/#:]/, "");

// ---- Parsing: JSON-LD, microdata and RDFa items as schema.org nodes ------------------------

/** A JSON text as a page writes it in a script (HTML comments and CDATA around it), or null. */
function parseJson(text: string): Json | null {
  const cleaned = text
    .trim()
    .replace(/^(?:<!--|\/\/\s*<!\[CDATA\[|<!\[CDATA\[)/, "")
    .replace(/(?:-->|\/\/\s*\]\]>|\]\]>)$/, "");
  try {
    return JSON.parse(cleaned) as Json;
  } catch {
    return null;
  }
}

/** A JSON-LD node with its keys and types in short form; `@id` references are kept as they are. */
function shortKeys(value: Json, depth = 0): Json {
  if (depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) return value.map((v) => shortKeys(v, depth + 1));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    const name = key.startsWith("@") ? key : shortName(key);
    out[name] = shortKeys(v, depth + 1);
  }
  return out;
}

/**
 * Visits every object of `doc` in document order, through arrays and nested values (not into
 * `@context`), within MAX_VISITS values and MAX_DEPTH levels: state and JSON-LD are the page's,
 * of any size and shape.
 */
function eachObject(doc: Json, visit: (value: JsonObject) => void): void {
  let visits = 0;
  const walk = (value: Json, depth: number) => {
    if (++visits > MAX_VISITS || depth > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (const v of value) walk(v, depth + 1);
      return;
    }
    if (!isObject(value)) return;
    visit(value);
    for (const [key, v] of Object.entries(value)) if (key !== "@context") walk(v, depth + 1);
  };
  walk(doc, 0);
}

/** Every typed node of a document, in document order (through `@graph` and nested values). */
function typedNodes(doc: Json, into: JsonObject[]): void {
  eachObject(doc, (value) => {
    if (value["@type"] !== undefined) into.push(value);
  });
}

/** A microdata or RDFa item as a node: one value per property, or an array of them. */
function itemNode(item: RawItem, depth = 0): JsonObject {
  const node: JsonObject = { "@type": item.types.map(shortName) };
  if (depth > MAX_DEPTH) return node;
  for (const [name, values] of Object.entries(item.props)) {
    const converted = values.map((v) => (typeof v === "string" ? v : itemNode(v, depth + 1)));
    node[shortName(name)] = converted.length === 1 ? (converted[0] ?? null) : converted;
  }
  return node;
}

function typesOf(node: JsonObject): string[] {
  const type = node["@type"];
  const list = Array.isArray(type) ? type : [type];
  return list.filter((t): t is string => typeof t === "string").map(shortName);
}

const isKind = (node: JsonObject, kind: Kind) => typesOf(node).some((t) => TYPES[kind].has(t));

// ---- Reading values --------------------------------------------------------------------

/** Looks `{ "@id": … }` references up among the document's nodes. */
type Resolve = (value: Json | undefined) => Json | undefined;

function first(value: Json | undefined): Json | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function all(value: Json | undefined): Json[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** A value's text: a string, a number written out, or the `name` / `@value` of an object. */
function textOf(value: Json | undefined, resolve: Resolve): string | null {
  const v = resolve(first(value));
  if (typeof v === "string") return v.trim() === "" ? null : v.trim();
  if (typeof v === "number") return String(v);
  if (isObject(v)) return textOf(v["@value"] ?? v.name, resolve);
  return null;
}

function numberOf(value: Json | undefined, resolve: Resolve, decimal?: "."): number | null {
  const v = resolve(first(value));
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string") return parseNumber(v, decimal);
  if (isObject(v) && v["@value"] !== undefined) return numberOf(v["@value"], resolve, decimal);
  return null;
}

/** Image URLs: strings, ImageObjects (`url` / `contentUrl`), or lists of either; resolved. */
function urlsOf(value: Json | undefined, resolve: Resolve, base: string): string[] {
  const out: string[] = [];
  for (const item of all(value)) {
    const v = resolve(item);
    const raw = isObject(v) ? textOf(v.url ?? v.contentUrl ?? v.src, resolve) : textOf(v, resolve);
    const url = raw === null ? null : resolveUrl(raw, base);
    if (url !== null && !out.includes(url)) out.push(url);
  }
  return out;
}

function urlOf(value: Json | undefined, resolve: Resolve, base: string): string | null {
  return urlsOf(value, resolve, base)[0] ?? null;
}

const AVAILABILITY: Record<string, string> = {
  instock: "InStock",
  available: "InStock",
  availablefororder: "InStock",
  outofstock: "OutOfStock",
  oos: "OutOfStock",
  soldout: "SoldOut",
  preorder: "PreOrder",
  presale: "PreSale",
  backorder: "BackOrder",
  discontinued: "Discontinued",
  limitedavailability: "LimitedAvailability",
  instoreonly: "InStoreOnly",
  onlineonly: "OnlineOnly",
  madetoorder: "MadeToOrder",
  reserved: "Reserved",
};

/** schema.org's ItemAvailability names, from a URL, an Open Graph word or a boolean. */
export function availabilityOf(value: Json | undefined, resolve: Resolve): string | null {
  const v = resolve(first(value));
  if (typeof v === "boolean") return v ? "InStock" : "OutOfStock";
  const text = textOf(v, resolve);
  if (text === null) return null;
  return (
    AVAILABILITY[
      shortName(text)
        .toLowerCase()
        .replace(/[\s_-]+/g, "")
    ] ?? null
  );
}

const dateOf = (value: Json | undefined, resolve: Resolve): string | null => {
  const text = textOf(value, resolve);
  return text === null ? null : parseDate(text);
};

// ---- schema.org nodes → the normalised shapes ------------------------------------------

function productOf(node: JsonObject, resolve: Resolve, base: string, decimal?: "."): ProductValues {
  const variants = all(node.hasVariant).map(resolve).filter(isObject);
  const offerSource = node.offers ?? variants.find((v) => v.offers !== undefined)?.offers;
  const offers = all(offerSource).map(resolve).filter(isObject);
  const offerList = offers.flatMap((o) => [o, ...all(o.offers).map(resolve).filter(isObject)]);
  const priced = offerList.find(
    (o) =>
      numberOf(o.price ?? o.lowPrice, resolve, decimal) !== null || isObject(o.priceSpecification),
  );
  const spec = priced ? resolve(first(priced.priceSpecification)) : undefined;
  const specObject = isObject(spec) ? spec : undefined;
  const rating = resolve(first(node.aggregateRating));
  const ratingValue = isObject(rating) ? numberOf(rating.ratingValue, resolve, decimal) : null;
  return {
    name: textOf(node.name, resolve),
    description: textOf(node.description, resolve),
    url: urlOf(node.url, resolve, base),
    sku: textOf(node.sku ?? node.mpn, resolve),
    gtin: textOf(node.gtin13 ?? node.gtin ?? node.gtin12 ?? node.gtin14 ?? node.gtin8, resolve),
    brand: textOf(node.brand ?? node.manufacturer, resolve),
    price: priced
      ? numberOf(priced.price ?? priced.lowPrice ?? specObject?.price, resolve, decimal)
      : null,
    currency: priced ? textOf(priced.priceCurrency ?? specObject?.priceCurrency, resolve) : null,
    availability: availabilityOf(
      (priced ?? offerList[0])?.availability ?? node.availability,
      resolve,
    ),
    images: urlsOf(node.image, resolve, base),
    rating:
      isObject(rating) && ratingValue !== null
        ? {
            value: ratingValue,
            count: numberOf(rating.reviewCount ?? rating.ratingCount, resolve, decimal),
            best: numberOf(rating.bestRating, resolve, decimal),
          }
        : null,
  };
}

function namesOf(value: Json | undefined, resolve: Resolve): string[] {
  const out: string[] = [];
  for (const item of all(value)) {
    const name = textOf(item, resolve);
    if (name !== null && !out.includes(name)) out.push(name);
  }
  return out;
}

function articleOf(node: JsonObject, resolve: Resolve, base: string): ArticleValues {
  return {
    headline: textOf(node.headline ?? node.name, resolve),
    description: textOf(node.description, resolve),
    url: urlOf(node.url ?? node.mainEntityOfPage, resolve, base),
    authors: namesOf(node.author, resolve),
    datePublished: dateOf(node.datePublished ?? node.dateCreated, resolve),
    dateModified: dateOf(node.dateModified, resolve),
    images: urlsOf(node.image ?? node.thumbnailUrl, resolve, base),
    publisher: textOf(node.publisher, resolve),
  };
}

function organizationOf(node: JsonObject, resolve: Resolve, base: string): OrganizationValues {
  return {
    name: textOf(node.name ?? node.legalName, resolve),
    description: textOf(node.description, resolve),
    url: urlOf(node.url, resolve, base),
    logo: urlOf(node.logo, resolve, base),
    sameAs: urlsOf(node.sameAs, resolve, base),
  };
}

type Values = ProductValues | ArticleValues | OrganizationValues;

function valuesOf(kind: Kind, node: JsonObject, resolve: Resolve, base: string, decimal?: ".") {
  if (kind === "product") return productOf(node, resolve, base, decimal);
  if (kind === "article") return articleOf(node, resolve, base);
  return organizationOf(node, resolve, base);
}

// ---- Framework state: Next.js and Nuxt -------------------------------------------------

/** Nuxt 3's `__NUXT_DATA__` (devalue's flattened form: values are indices into one array). */
export function unflattenNuxt(payload: Json): Json {
  if (!Array.isArray(payload)) return null;
  const memo = new Map<number, Json>();
  let visits = 0;
  const WRAPPERS = new Set(["Reactive", "ShallowReactive", "Ref", "ShallowRef"]);
  const at = (index: Json, depth: number): Json => {
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0) return null;
    const known = memo.get(index);
    if (known !== undefined) return known;
    if (++visits > MAX_VISITS || depth > MAX_DEPTH) return null;
    const raw = payload[index];
    if (raw === undefined) return null;
    memo.set(index, null); // a cycle reads as null
    let value: Json;
    if (Array.isArray(raw)) {
      const [tag, ...rest] = raw;
      if (typeof tag === "string" && WRAPPERS.has(tag)) value = at(rest[0] ?? null, depth + 1);
      else if (tag === "Date" && typeof rest[0] === "string") value = rest[0];
      else if (typeof tag === "string") value = null;
      else value = raw.map((i) => at(i, depth + 1));
    } else if (isObject(raw)) {
      const obj: JsonObject = {};
      for (const [k, i] of Object.entries(raw)) obj[k] = at(i, depth + 1);
      value = obj;
    } else value = raw;
    memo.set(index, value);
    return value;
  };
  return at(0, 0);
}

const NAME_KEYS = ["name", "title", "productName"];
const PRICE_KEYS = ["price", "salePrice", "currentPrice", "finalPrice", "priceValue"];

/** A price written as a number, a string, or `{ amount | value | current, currency… }`. */
function statePrice(obj: JsonObject): { price: number | null; currency: string | null } {
  const own = (o: JsonObject, keys: string[]) =>
    keys.map((k) => o[k]).find((v) => v !== undefined && v !== null);
  const raw = own(obj, PRICE_KEYS);
  const currencyKeys = ["currency", "currencyCode", "priceCurrency"];
  const direct = (v: Json | undefined) => (typeof v === "string" ? v : null);
  if (isObject(raw)) {
    const amount = own(raw, ["amount", "value", "current", "price"]);
    return {
      price: numberOf(amount, (v) => v, "."),
      currency: direct(own(raw, currencyKeys)) ?? direct(own(obj, currencyKeys)),
    };
  }
  return { price: numberOf(raw, (v) => v, "."), currency: direct(own(obj, currencyKeys)) };
}

/**
 * The product in a framework's state: a schema.org Product if it holds one, else the first
 * object with a name and a price (the one with the most product keys when several have both).
 */
function stateProduct(state: Json, base: string): ProductValues | null {
  const typed: JsonObject[] = [];
  typedNodes(state, typed);
  const product = typed.find((n) => isKind(n, "product"));
  if (product) return productOf(shortKeys(product) as JsonObject, (v) => v, base, ".");
  let best: { obj: JsonObject; score: number } | null = null;
  eachObject(state, (value) => {
    const named = NAME_KEYS.some((k) => typeof value[k] === "string");
    if (named && statePrice(value).price !== null) {
      const score = ["sku", "brand", "image", "images", "currency", "availability"].filter(
        (k) => value[k] !== undefined,
      ).length;
      if (!best || score > best.score) best = { obj: value, score };
    }
  });
  if (!best) return null;
  const { obj } = best as { obj: JsonObject };
  const { price, currency } = statePrice(obj);
  const text = (v: Json | undefined) => textOf(v, (x) => x);
  const stock = obj.availability ?? obj.stockStatus ?? obj.inStock;
  return {
    name: text(obj.name ?? obj.title ?? obj.productName),
    description: text(obj.description),
    url: urlOf(obj.url, (v) => v, base),
    sku: text(obj.sku),
    gtin: text(obj.gtin ?? obj.ean),
    brand: text(obj.brand),
    price,
    currency,
    availability: availabilityOf(stock, (v) => v),
    images: urlsOf(obj.images ?? obj.image ?? obj.imageUrl, (v) => v, base),
    rating: null,
  };
}

// ---- Meta tags --------------------------------------------------------------------------

function metaValues(kind: Kind, meta: RawMarkup["meta"], prefix: "og" | "twitter", base: string) {
  const get = (...keys: string[]) => {
    for (const key of keys)
      for (const { key: k, value } of meta) if (k === key && value !== "") return value;
    return null;
  };
  const every = (...keys: string[]) =>
    meta.filter(({ key }) => keys.includes(key)).map(({ value }) => value);
  const images = every(
    `${prefix}:image`,
    `${prefix}:image:url`,
    `${prefix}:image:secure_url`,
    `${prefix}:image:src`,
  );
  const urls = urlsOf(images, (v) => v, base);
  const title = get(`${prefix}:title`);
  const description = get(`${prefix}:description`);
  if (prefix === "twitter") {
    if (kind === "product") return { name: title, description, images: urls };
    if (kind === "article") return { headline: title, description, images: urls };
    return {};
  }
  const url = get("og:url");
  if (kind === "product")
    return {
      name: title,
      description,
      url: url === null ? null : resolveUrl(url, base),
      sku: get("product:retailer_item_id"),
      brand: get("product:brand", "og:brand"),
      price: numberOf(get("product:price:amount", "og:price:amount"), (v) => v),
      currency: get("product:price:currency", "og:price:currency"),
      availability: availabilityOf(get("product:availability", "og:availability"), (v) => v),
      images: urls,
    };
  if (kind === "article")
    return {
      headline: title,
      description,
      url: url === null ? null : resolveUrl(url, base),
      authors: every("article:author"),
      datePublished: dateOf(get("article:published_time"), (v) => v),
      dateModified: dateOf(get("article:modified_time"), (v) => v),
      images: urls,
      publisher: get("og:site_name"),
    };
  return { name: get("og:site_name") };
}

// ---- Putting it together ----------------------------------------------------------------

const EMPTY: { [K in Kind]: () => Values } = {
  product: () => ({
    name: null,
    description: null,
    url: null,
    sku: null,
    gtin: null,
    brand: null,
    price: null,
    currency: null,
    availability: null,
    images: [],
    rating: null,
  }),
  article: () => ({
    headline: null,
    description: null,
    url: null,
    authors: [],
    datePublished: null,
    dateModified: null,
    images: [],
    publisher: null,
  }),
  organization: () => ({ name: null, description: null, url: null, logo: null, sameAs: [] }),
};

interface Candidate {
  source: MarkupSource;
  values: Partial<Values>;
}

const isEmpty = (v: unknown) =>
  v === null || v === undefined || (Array.isArray(v) && v.length === 0);

/** The page's product, article or organization (`auto`: the first the page describes). */
export function readMarkup(raw: RawMarkup, kind: MarkupKind): MarkupData {
  const base = raw.base;
  let skipped = 0;
  const jsonLdNodes: JsonObject[] = [];
  for (const text of raw.jsonLd) {
    const doc = parseJson(text);
    if (doc === null) skipped++;
    else typedNodes(shortKeys(doc), jsonLdNodes);
  }
  const byId = new Map<string, JsonObject>();
  for (const node of jsonLdNodes) {
    const id = node["@id"];
    if (typeof id === "string" && !byId.has(id)) byId.set(id, node);
  }
  const resolve: Resolve = (value) => {
    if (isObject(value) && typeof value["@id"] === "string" && Object.keys(value).length === 1)
      return byId.get(value["@id"]) ?? value;
    return value;
  };
  const noResolve: Resolve = (v) => v;
  const microdata = raw.microdata.map((item) => itemNode(item));
  const rdfa = raw.rdfa.map((item) => itemNode(item));
  const nextState = raw.nextData === null ? null : parseJson(raw.nextData);
  const nuxtPayload = raw.nuxtData === null ? null : parseJson(raw.nuxtData);
  const nuxtState = nuxtPayload === null ? null : unflattenNuxt(nuxtPayload);
  const ogType = raw.meta.find(({ key }) => key === "og:type")?.value.toLowerCase() ?? "";

  const candidates = (k: Kind): Candidate[] => {
    const out: Candidate[] = [];
    const typed = (source: MarkupSource, nodes: JsonObject[], r: Resolve, decimal?: ".") => {
      const node = nodes.find((n) => isKind(n, k));
      if (node) out.push({ source, values: valuesOf(k, node, r, base, decimal) });
    };
    typed("json-ld", jsonLdNodes, resolve, ".");
    typed("microdata", flatten(microdata), noResolve);
    typed("rdfa", flatten(rdfa), noResolve);
    if (k === "product") {
      for (const [source, state] of [
        ["next-data", nextState],
        ["nuxt-data", nuxtState],
      ] as const) {
        const product = state === null ? null : stateProduct(state, base);
        if (product) out.push({ source, values: product });
      }
    }
    const og = metaValues(k, raw.meta, "og", base);
    if (Object.values(og).some((v) => !isEmpty(v))) out.push({ source: "opengraph", values: og });
    const twitter = metaValues(k, raw.meta, "twitter", base);
    if (Object.values(twitter).some((v) => !isEmpty(v)))
      out.push({ source: "twitter", values: twitter });
    return out;
  };
  /** Whether the page says it is a `k` (a typed node, framework state or og:type), not only meta. */
  const describes = (k: Kind, found: Candidate[]) =>
    found.some((c) => c.source !== "opengraph" && c.source !== "twitter") ||
    (k === "product" && /product/.test(ogType)) ||
    (k === "article" && /article/.test(ogType));

  let chosen: Kind | null = null;
  let found: Candidate[] = [];
  if (kind === "auto") {
    for (const k of KINDS) {
      const c = candidates(k);
      if (describes(k, c)) {
        chosen = k;
        found = c;
        break;
      }
    }
  } else {
    chosen = kind;
    found = candidates(kind);
  }
  const common = { skippedJsonLd: skipped, truncated: raw.truncated };
  if (chosen === null) return { kind: null, values: null, sources: {}, ...common };
  const values: Record<string, unknown> = { ...EMPTY[chosen]() };
  const sources: Record<string, MarkupSource> = {};
  for (const key of Object.keys(values)) {
    const from = found.find((c) => !isEmpty((c.values as Record<string, unknown>)[key]));
    if (!from) continue;
    values[key] = (from.values as Record<string, unknown>)[key];
    sources[key] = from.source;
  }
  return { kind: chosen, values, sources, ...common } as MarkupData;
}

/** Every node of items and the items nested in them, in document order. */
function flatten(nodes: JsonObject[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const node of nodes) typedNodes(node, out);
  return out;
}
