/** The contract of reader-mode extraction and branded artifacts. */
import { artifactRequestSchema } from "../../../schemas/artifact";
import { extractRequestSchema } from "../../../schemas/extract";
import { artifactSchema, extractionSchema } from "../../../schemas/responses";
import {
  API_KEY,
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  jsonRequest,
  rateLimitHeaders,
  type ApiRoute,
} from "../registry";
import { CAPTURE_ERRORS } from "./capture";

export const contentRoutes: ApiRoute[] = [
  {
    method: "post",
    path: "/v1/extract",
    operation: {
      operationId: "extract",
      summary: "Extract an article",
      description:
        "Reader-mode content (markdown, json or html) of a fully rendered page. 1 credit; 422 EXTRACTION_FAILED when the page has no article-like content.",
      tags: ["Extraction"],
      security: API_KEY,
      requestBody: jsonRequest(extractRequestSchema, {
        url: "https://example.com/blog/post",
        extractFormat: "markdown",
      }),
      responses: {
        "200": envelopeResponse("The article.", extractionSchema, rateLimitHeaders),
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS, "EXTRACTION_FAILED"]),
      },
    },
  },
  {
    method: "post",
    path: "/v1/artifact",
    operation: {
      operationId: "createArtifact",
      summary: "Create a branded artifact",
      description:
        "Markdown or HTML plus branding become a PDF and/or PNG (1 credit each, refunded when a render fails) and a hosted share page, as short-lived signed URLs.",
      tags: ["Artifacts"],
      security: API_KEY,
      requestBody: jsonRequest(artifactRequestSchema, {
        content: "# Quarterly report\n\nRevenue grew **12%**.",
        formats: ["pdf", "png"],
        branding: { accentColor: "#0a7cff", footer: "Example Inc." },
      }),
      responses: {
        "200": envelopeResponse("The signed URLs.", artifactSchema, rateLimitHeaders),
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS]),
      },
    },
  },
];
