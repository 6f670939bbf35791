/**
 * POST /v1/content, /v1/scrape, /v1/links, /v1/snapshot: what a rendered page holds — its HTML or
 * visible text, the elements a selector points at, its links, or its HTML and a screenshot —
 * from one page load through the capture pipeline (one credit, refunded on failure). The work
 * and the answers' shapes: src/pipeline/page-content-answers.ts.
 */
import { Hono, type Context } from "hono";
import {
  contentRequestSchema,
  linksRequestSchema,
  scrapeRequestSchema,
  snapshotRequestSchema,
} from "../../../schemas/page-content";
import {
  HTML,
  IMAGE,
  pageLinks,
  rawContentHeaders,
  readContent,
  scrapePage,
  snapshotPage,
} from "../../pipeline/page-content-answers";
import { jsonBody } from "../body";
import { charged, successBody } from "../envelope";
import { authenticate } from "../middleware/authenticate";
import { idempotent } from "../middleware/idempotency";
import type { AppEnv } from "../types";

const wantsJson = (c: Context<AppEnv>) =>
  /\bapplication\/json\b/i.test(c.req.header("accept") ?? "");

/** Each route's work after authentication: also the dashboard playground's actions. */
export const PAGE_ACTIONS = {
  content: async (c: Context<AppEnv>): Promise<Response> => {
    const parsed = await jsonBody(c, contentRequestSchema);
    const { captured, read, data } = await readContent(c.env, c.get("auth"), parsed);
    if (wantsJson(c))
      return c.json(successBody(c.get("requestId"), data, charged(c, captured.usage)));
    const body = read.kind === "html" ? read.html : read.text;
    charged(c, captured.usage);
    return c.body(body, 200, rawContentHeaders(captured, read));
  },
  scrape: async (c: Context<AppEnv>): Promise<Response> => {
    const parsed = await jsonBody(c, scrapeRequestSchema);
    const { data, usage } = await scrapePage(c.env, c.get("auth"), parsed);
    return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
  },
  links: async (c: Context<AppEnv>): Promise<Response> => {
    const parsed = await jsonBody(c, linksRequestSchema);
    const { data, usage } = await pageLinks(c.env, c.get("auth"), parsed);
    return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
  },
  snapshot: async (c: Context<AppEnv>): Promise<Response> => {
    const parsed = await jsonBody(c, snapshotRequestSchema);
    const { data, usage } = await snapshotPage(c.env, c.get("auth"), parsed);
    return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
  },
};
export type PageAction = keyof typeof PAGE_ACTIONS;

export const pageContentRoutes = new Hono<AppEnv>()
  .post("/content", authenticate({ reserveFor: [HTML] }), idempotent(), PAGE_ACTIONS.content)
  .post("/scrape", authenticate({ reserveFor: [HTML] }), idempotent(), PAGE_ACTIONS.scrape)
  .post("/links", authenticate({ reserveFor: [HTML] }), idempotent(), PAGE_ACTIONS.links)
  .post("/snapshot", authenticate({ reserveFor: [IMAGE] }), idempotent(), PAGE_ACTIONS.snapshot);
