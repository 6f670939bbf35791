/**
 * Answers shared by a REST route and the dashboard playground: the page content routes'
 * (POST /v1/content, /scrape, /json, /links, /snapshot; the playground's /api/page/:action) and the
 * render link's (POST /v1/render/link; the playground's /api/render-link). Each takes a request
 * already parsed — by the endpoint's validation (./endpoint.ts) or by the playground itself —
 * and the caller already set as `auth`, so a playground run is answered by the route's own code.
 */
import type { Context } from "hono";
import type { z } from "zod";
import {
  contentRequestSchema,
  linksRequestSchema,
  scrapeRequestSchema,
  snapshotRequestSchema,
  type ContentRequest,
  type LinksRequest,
  type ScrapeRequest,
  type SnapshotRequest,
} from "../../schemas/page-content";
import type { RenderLinkRequest } from "../../schemas/render-link";
import { jsonRequestSchema, type JsonRequest } from "../../schemas/structured";
import {
  pageLinks,
  rawContentHeaders,
  readContent,
  scrapePage,
  snapshotPage,
  structuredData,
} from "../pipeline/page-content-answers";
import { mintLinkFor } from "../render-links/mint";
import { publicOrigin } from "../storage/hosted";
import { charged, successBody } from "./envelope";
import type { AppEnv } from "./types";

interface PageRequests {
  content: ContentRequest;
  scrape: ScrapeRequest;
  json: JsonRequest;
  links: LinksRequest;
  snapshot: SnapshotRequest;
}
export type PageAction = keyof PageRequests;

/** Each page content action's request schema, for a caller that reads the body itself. */
export const pageRequest: { [A in PageAction]: z.ZodType<PageRequests[A]> } = {
  content: contentRequestSchema,
  scrape: scrapeRequestSchema,
  json: jsonRequestSchema,
  links: linksRequestSchema,
  snapshot: snapshotRequestSchema,
};

const wantsJson = (c: Context<AppEnv>) =>
  /\bapplication\/json\b/i.test(c.req.header("accept") ?? "");

/** Each page content action's answer to its parsed request. */
export const pageAnswer: {
  [A in PageAction]: (c: Context<AppEnv>, req: PageRequests[A]) => Promise<Response>;
} = {
  content: async (c, req) => {
    const { captured, read, data } = await readContent(c.env, c.get("auth"), req);
    if (wantsJson(c))
      return c.json(successBody(c.get("requestId"), data, charged(c, captured.usage)));
    const body = read.kind === "html" ? read.html : read.text;
    charged(c, captured.usage);
    return c.body(body, 200, rawContentHeaders(captured, read));
  },
  scrape: async (c, req) => {
    const { data, usage } = await scrapePage(c.env, c.get("auth"), req);
    return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
  },
  json: async (c, req) => {
    const { data, usage } = await structuredData(c.env, c.get("auth"), req);
    return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
  },
  links: async (c, req) => {
    const { data, usage } = await pageLinks(c.env, c.get("auth"), req);
    return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
  },
  snapshot: async (c, req) => {
    const { data, usage } = await snapshotPage(c.env, c.get("auth"), req);
    return c.json(successBody(c.get("requestId"), data, charged(c, usage)));
  },
};

/**
 * A render link minted for the caller's key (the playground's: a key of its account). `sent` is
 * the body as sent, of which `req` is the parse: the link keeps its fields as written.
 */
export async function renderLinkAnswer(
  c: Context<AppEnv>,
  req: RenderLinkRequest,
  sent: unknown,
): Promise<Response> {
  // An object of known keys: `req` is its parse by a strict object schema.
  const fields = sent as Record<string, unknown>;
  const origin = publicOrigin(c.env, c.req.url);
  const data = await mintLinkFor(c.env, c.get("auth"), origin, req, fields);
  return c.json(successBody(c.get("requestId"), data));
}
