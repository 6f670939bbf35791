/**
 * POST /v1/extract: reader-mode content of a rendered page (markdown, json or html). The work:
 * src/pipeline/extract-page.ts; here the request is read and the answer shaped.
 */
import { extractRequestSchema } from "../../../schemas/extract";
import { extractionSchema } from "../../../schemas/responses";
import { EXTRACTION, extractPage } from "../../pipeline/extract-page";
import { endpoint, endpoints } from "../endpoint";
import { charged, successBody } from "../envelope";
import {
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  rateLimitHeaders,
} from "../openapi/registry";
import { CAPTURE_ERRORS } from "./capture-contract";

export const extractRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/extract",
    // The extraction is the route's one billable output: reserved with authentication.
    auth: { key: { reserveFor: [EXTRACTION] } },
    idempotent: true,
    body: {
      schema: extractRequestSchema,
      example: { url: "https://example.com/blog/post", extractFormat: "markdown" },
    },
    operation: {
      operationId: "extract",
      summary: "Extract an article",
      description:
        "Reader-mode content (markdown, json or html) of a fully rendered page. 1 credit; 422 EXTRACTION_FAILED when the page has no article-like content.",
      tags: ["Extraction"],
      responses: {
        "200": envelopeResponse("The article.", extractionSchema, rateLimitHeaders),
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS, "EXTRACTION_FAILED"]),
      },
    },
    handler: async (c) => {
      const { data, usage } = await extractPage(c.env, c.get("auth"), c.req.valid("json"));
      return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
    },
  }),
);
