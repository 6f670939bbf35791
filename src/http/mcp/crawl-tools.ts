/**
 * The crawl tools of the MCP server (docs/MCP.md): `crawl_start`, `crawl_status` and `map`, each
 * the work of its REST route (`startCrawl`, `crawlView`, `mapSite`) with its answer shaped for a
 * model (./crawl-views.ts).
 */
import { CRAWL_STATUS_VIEW } from "../../../schemas/mcp";
import { CRAWL } from "../../../schemas/limits";
import { mapSite } from "../../crawl/map";
import { startCrawl } from "../../crawl/start";
import { browserEngine } from "../../pipeline/engine";
import { crawlView } from "../../crawl/views";
import { crawlHeader, mapText, pageText } from "./crawl-views";
import { lines, type Runners, text, usageLine } from "./tool-kit";

export const CRAWL_RUN: Pick<Runners, "crawl_start" | "crawl_status" | "map"> = {
  async crawl_start(ctx, args) {
    const made = await startCrawl(ctx.env, ctx.auth, args, ctx.origin, browserEngine(ctx.env));
    if (made.kind === "dryRun") {
      const { urls, truncated, credits, maxCredits } = made.dryRun;
      return {
        content: [
          text(
            lines(
              `Dry run: nothing started, nothing charged. ${urls.length} URLs are known now${truncated ? " (more were found than the limit)" : ""}; rendering them costs ${credits} credits, and the crawl at most ${maxCredits}.`,
              ...urls,
            ),
          ),
        ],
        structuredContent: { ...made.dryRun },
      };
    }
    const { started } = made;
    return {
      content: [
        text(
          lines(
            `Crawl ${started.crawlId} started (${started.status}): at most ${args.limit ?? CRAWL.limit.default} pages from ${args.url}.`,
            `Follow it with crawl_status and crawlId "${started.crawlId}" every few seconds until its status is completed; results appear as pages finish.`,
            "Each rendered page is charged as it completes; skipped and failed pages cost nothing.",
          ),
        ),
      ],
      structuredContent: { ...started },
    };
  },
  async crawl_status(ctx, args) {
    const view = await crawlView(
      ctx.env,
      ctx.auth,
      args.crawlId,
      args.cursor ?? 0,
      CRAWL_STATUS_VIEW.results,
    );
    const { pages, ...summary } = view;
    const cursor = args.cursor === undefined ? undefined : String(args.cursor);
    return {
      content: [
        text(crawlHeader(view, cursor)),
        ...pages.map((page) => text(pageText(page, view.crawlId))),
      ],
      structuredContent: {
        ...summary,
        results: pages.map(({ url, depth, status, reason, statusCode }) => ({
          url,
          depth,
          status,
          ...(reason === undefined ? {} : { reason }),
          ...(statusCode === undefined ? {} : { statusCode }),
        })),
      },
    };
  },
  async map(ctx, args) {
    const { data, usage } = await mapSite(ctx.env, ctx.auth, args, browserEngine(ctx.env));
    return {
      content: [text(mapText(data)), text(usageLine(usage))],
      structuredContent: { ...data },
    };
  },
};
