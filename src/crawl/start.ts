/**
 * POST /v1/crawl's work: the request checked as a capture of its start URL would be (plan gates,
 * the URL guard, DNS and reputation: a refused start URL is a 400 and nothing is created), the
 * plan's page cap, the webhook URL, admission against the plan's crawls in flight (the Account
 * DO), then the crawl's own Durable Object started. Nothing is charged here: pages are, as they
 * are rendered (./page-run.ts).
 */
import type { CaptureRequest } from "../../schemas/capture";
import {
  CRAWL_PAGE_OPTIONS,
  type CrawlDryRun,
  type CrawlPageOptions,
  type CrawlRequest,
} from "../../schemas/crawl";
import { CRAWL } from "../../schemas/limits";
import type { AuthContext } from "../accounts/auth";
import { prepareCapture } from "../capture-request/prepare";
import { ApiError, validationError } from "../errors";
import { requireWebhookUrl } from "../webhooks/url";
import type { CaptureEngine } from "../pipeline/engine";
import { crawlConfig, crawlCredits } from "./config";
import { siteCoverage } from "./map";
import { crawlStub } from "./crawl-stub";
import { normalizeUrl } from "./urls";

export interface CrawlStarted {
  crawlId: string;
  status: "queued";
  statusUrl: string;
}

/** The page options of a crawl request, and the capture request of its start URL. */
export function pageOptionsOf(req: CrawlRequest): CrawlPageOptions {
  const options: Record<string, unknown> = {};
  for (const key of CRAWL_PAGE_OPTIONS) if (req[key] !== undefined) options[key] = req[key];
  return options as CrawlPageOptions;
}

/**
 * Starts the crawl; with `dryRun`, starts and charges nothing and answers what it would render
 * and cost (./map.ts `siteCoverage`).
 */
export async function startCrawl(
  env: Env,
  auth: AuthContext,
  req: CrawlRequest,
  origin: string,
  engine: CaptureEngine,
): Promise<{ kind: "started"; started: CrawlStarted } | { kind: "dryRun"; dryRun: CrawlDryRun }> {
  const limit = req.limit ?? CRAWL.limit.default;
  if (limit > auth.plan.crawlPageCap)
    throw validationError(
      "limit",
      `Must be at most ${auth.plan.crawlPageCap} on the ${auth.plan.name} plan.`,
    );
  const options = pageOptionsOf(req);
  const start: CaptureRequest = { ...options, url: req.url };
  const spec = await prepareCapture(env, auth, start);
  const url = spec.source.kind === "url" ? normalizeUrl(spec.source.url) : null;
  if (url === null) throw validationError("url", "Must be a public http or https URL.");
  const webhookUrl =
    req.webhookUrl === undefined ? null : await requireWebhookUrl(env, req.webhookUrl);
  const ids = {
    crawlId: crypto.randomUUID(),
    accountId: auth.accountId,
    plan: auth.plan.id,
    url,
    origin,
  };
  const config = crawlConfig(req, ids, options);
  if (req.dryRun === true) {
    const { urls, truncated } = await siteCoverage(
      env,
      auth,
      { ...req, url, limit, maxDepth: config.maxDepth },
      engine,
    );
    return {
      kind: "dryRun",
      dryRun: {
        dryRun: true,
        urls,
        truncated,
        credits: crawlCredits(config, urls.length),
        maxCredits: crawlCredits(config, limit),
      },
    };
  }

  const { crawlId } = ids;
  const admitted = await auth.account.crawls().admit({
    crawlId,
    url,
    limit,
    webhookUrl,
    webhookEvents: req.webhookEvents ?? ["crawl.completed"],
  });
  if (!admitted.ok)
    throw new ApiError(
      "CRAWL_LIMIT_REACHED",
      `The ${auth.plan.name} plan runs ${admitted.cap} crawl${admitted.cap === 1 ? "" : "s"} at a time; wait for one to finish or cancel it.`,
    );
  await crawlStub(env, auth.accountId, crawlId).start(config, Date.now());
  return {
    kind: "started",
    started: { crawlId, status: "queued", statusUrl: `${origin}/v1/crawl/${crawlId}` },
  };
}
