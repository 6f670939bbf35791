/** POST /v1/artifact: Markdown or HTML + branding → signed PDF/PNG URLs and a hosted share page. */
import { artifactRequestSchema } from "../../../schemas/artifact";
import { artifactSchema } from "../../../schemas/responses";
import { createArtifact } from "../../artifacts/artifact";
import { publicOrigin } from "../../storage/hosted";
import { endpoint, endpoints } from "../endpoint";
import { charged, successBody } from "../envelope";
import {
  BODY_ERRORS,
  envelopeResponse,
  errorResponses,
  rateLimitHeaders,
} from "../openapi/registry";
import { CAPTURE_ERRORS } from "./capture-contract";

export const artifactRoutes = endpoints(
  endpoint({
    method: "post",
    path: "/v1/artifact",
    auth: "key",
    idempotent: true,
    body: {
      schema: artifactRequestSchema,
      example: {
        content: "# Quarterly report\n\nRevenue grew **12%**.",
        formats: ["pdf", "png"],
        branding: { accentColor: "#0a7cff", footer: "Example Inc." },
      },
    },
    operation: {
      operationId: "createArtifact",
      summary: "Create a branded artifact",
      description:
        "Markdown or HTML plus branding become a PDF and/or PNG (1 credit each, refunded when a render fails) and a hosted share page, as short-lived signed URLs.",
      tags: ["Artifacts"],
      responses: {
        "200": envelopeResponse("The signed URLs.", artifactSchema, rateLimitHeaders),
        ...errorResponses([...BODY_ERRORS, ...CAPTURE_ERRORS]),
      },
    },
    handler: async (c) => {
      const { data, usage } = await createArtifact(c.env, c.get("auth"), c.req.valid("json"), {
        origin: publicOrigin(c.env, c.req.url),
      });
      return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
    },
  }),
);
