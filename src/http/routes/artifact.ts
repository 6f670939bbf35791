/** POST /v1/artifact: Markdown or HTML + branding → signed PDF/PNG URLs and a hosted share page. */
import { Hono } from "hono";
import { artifactRequestSchema } from "../../../schemas/artifact";
import { createArtifact } from "../../artifacts/artifact";
import { publicOrigin } from "../../storage/hosted";
import { jsonBody } from "../body";
import { charged, successBody } from "../envelope";
import { authenticate } from "../middleware/authenticate";
import { idempotent } from "../middleware/idempotency";
import type { AppEnv } from "../types";

export const artifactRoutes = new Hono<AppEnv>().post(
  "/artifact",
  authenticate(),
  idempotent(),
  async (c) => {
    const req = await jsonBody(c, artifactRequestSchema);
    const { data, usage } = await createArtifact(c.env, c.get("auth"), req, {
      origin: publicOrigin(c.env, c.req.url),
    });
    return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
  },
);
