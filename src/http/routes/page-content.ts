/**
 * POST /v1/content, /v1/scrape, /v1/json, /v1/links, /v1/snapshot: what a rendered page holds —
 * its HTML or visible text, the elements a selector points at, typed fields and the page's own
 * structured markup (docs/STRUCTURED-DATA.md), its links, or its HTML and a screenshot —
 * from one page load through the capture pipeline (one credit, refunded on failure). The work
 * and the answers' shapes: src/pipeline/page-content-answers.ts; the answers, shared with the
 * dashboard playground: ../answers.ts.
 */
import { z } from "zod";
import {
  contentRequestSchema,
  linksRequestSchema,
  scrapeRequestSchema,
  snapshotRequestSchema,
} from "../../../schemas/page-content";
import { jsonRequestSchema } from "../../../schemas/structured";
import {
  linksSchema,
  pageContentSchema,
  scrapeSchema,
  snapshotSchema,
  structuredSchema,
  successEnvelope,
} from "../../../schemas/responses";
import { HTML, IMAGE } from "../../pipeline/page-content-answers";
import { pageAnswer } from "../answers";
import { endpoint, endpoints } from "../endpoint";
import {
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  rateLimitHeaders,
} from "../openapi/registry";
import { CAPTURE_ERRORS } from "./capture-contract";

const h = (description: string) => z.string().meta({ description });

/** Headers of the raw (non-JSON) answer of POST /v1/content. */
const contentHeaders = {
  "x-service-final-url": h("Where the page ended up after redirects."),
  "x-service-target-status": h("The main document's HTTP status (url targets).").optional(),
  "x-service-page-title": h("The page's title, percent-encoded (UTF-8).").optional(),
  "x-service-quality": h("full, degraded or best_attempt."),
  "x-service-wait-strategy": h("The wait strategy that succeeded."),
  "x-service-load-time-ms": h("Total load time in milliseconds."),
  "x-service-completeness": h(
    "How complete the page was when it was read: the Completeness object as compact JSON (blankRatio null: no shot).",
  ).optional(),
  "x-service-truncated": h(
    "true when the content was cut at its limit (HTML 5 MB, text 2 MB).",
  ).optional(),
  "x-service-credits-charged": h("Credits this request spent."),
  "x-service-credits-remaining": h("Credits left this month, or unlimited."),
  ...rateLimitHeaders,
};

const ERRORS = [...BODY_ERRORS, ...CAPTURE_ERRORS];
const TAGS = ["Page content"];
const ONE_CREDIT = "1 credit, refunded when the load fails.";

export const pageContentRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/content",
    auth: { key: { reserveFor: [HTML] } },
    idempotent: true,
    body: { schema: contentRequestSchema, example: { url: "https://example.com" } },
    operation: {
      operationId: "content",
      summary: "Get a page's rendered HTML or text",
      description: `The DOM after the page's scripts, waits, page controls and actions, serialized (open shadow roots as declarative shadow DOM; scripts stripped unless stripScripts: false), or with contentFormat: text its visible text. text/html (or text/plain) by default; JSON with Accept: application/json. ${ONE_CREDIT}`,
      tags: TAGS,
      responses: {
        "200": {
          description: "The rendered HTML or the visible text; JSON with Accept: application/json.",
          headers: z.object(contentHeaders).partial(),
          content: {
            "text/html": { schema: { type: "string" } },
            "text/plain": { schema: { type: "string" } },
            "application/json": { schema: successEnvelope(pageContentSchema) },
          },
        },
        ...errorResponses(ERRORS),
      },
    },
    handler: (c) => pageAnswer.content(c, c.req.valid("json")),
  }),
  endpoint({
    method: "post",
    path: "/v1/scrape",
    auth: { key: { reserveFor: [HTML] } },
    idempotent: true,
    body: {
      schema: scrapeRequestSchema,
      example: {
        url: "https://example.com",
        elements: [{ selector: "h1" }, { selector: "a", attributes: ["href"] }],
      },
    },
    operation: {
      operationId: "scrape",
      summary: "Scrape elements of a rendered page",
      description: `Every match of 1 to 20 CSS selectors (at most 100 each): its visible text, outerHTML, attributes and box. ${ONE_CREDIT}`,
      tags: TAGS,
      responses: {
        "200": envelopeResponse("The matches per selector.", scrapeSchema, rateLimitHeaders),
        ...errorResponses(ERRORS),
      },
    },
    handler: (c) => pageAnswer.scrape(c, c.req.valid("json")),
  }),
  endpoint({
    method: "post",
    path: "/v1/json",
    auth: { key: { reserveFor: [HTML] } },
    idempotent: true,
    body: {
      schema: jsonRequestSchema,
      example: {
        url: "https://example.com/product",
        fields: {
          title: { selector: "h1" },
          price: { selector: ".price", type: "number" },
          reviews: {
            selector: ".review",
            list: true,
            fields: {
              author: { selector: ".author" },
              stars: { selector: ".stars", type: "number" },
            },
          },
        },
        kind: "product",
      },
    },
    operation: {
      operationId: "json",
      summary: "Read structured data from a rendered page, without a language model",
      description: `Named fields by CSS selector, typed (string, number read in the page's locale, url, date, boolean), as values, lists and nested lists of objects; and/or with kind a product, article or organization from the page's own markup (JSON-LD, microdata, RDFa Lite, Open Graph and Twitter tags, Next.js and Nuxt state), each value saying where it came from. Deterministic: the same page gives the same answer. ${ONE_CREDIT}`,
      tags: TAGS,
      responses: {
        "200": envelopeResponse(
          "The fields and/or the markup.",
          structuredSchema,
          rateLimitHeaders,
        ),
        ...errorResponses(ERRORS),
      },
    },
    handler: (c) => pageAnswer.json(c, c.req.valid("json")),
  }),
  endpoint({
    method: "post",
    path: "/v1/links",
    auth: { key: { reserveFor: [HTML] } },
    idempotent: true,
    body: {
      schema: linksRequestSchema,
      example: { url: "https://example.com", visibleOnly: true },
    },
    operation: {
      operationId: "links",
      summary: "List the links of a rendered page",
      description: `The page's links, absolute, without fragments, de-duplicated, in document order (then open shadow roots, then same-origin frames), at most 2,000. ${ONE_CREDIT}`,
      tags: TAGS,
      responses: {
        "200": envelopeResponse("The links.", linksSchema, rateLimitHeaders),
        ...errorResponses(ERRORS),
      },
    },
    handler: (c) => pageAnswer.links(c, c.req.valid("json")),
  }),
  endpoint({
    method: "post",
    path: "/v1/snapshot",
    auth: { key: { reserveFor: [IMAGE] } },
    idempotent: true,
    body: { schema: snapshotRequestSchema, example: { url: "https://example.com" } },
    operation: {
      operationId: "snapshot",
      summary: "Get a page's rendered HTML and a screenshot",
      description: `The rendered HTML and a screenshot (base64) of the same one page load. 1 credit (the screenshot), refunded when it fails.`,
      tags: TAGS,
      responses: {
        "200": envelopeResponse("The HTML and the screenshot.", snapshotSchema, rateLimitHeaders),
        ...errorResponses(ERRORS),
      },
    },
    handler: (c) => pageAnswer.snapshot(c, c.req.valid("json")),
  }),
);
