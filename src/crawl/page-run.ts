/**
 * Crawl pages, from a capture-jobs message: the message's page, then the crawl's next ones as
 * its Crawl DO gives them. Each is claimed in the Crawl DO (only the holder of the page's lease
 * renders it, once), its credits held, rendered through the one capture pipeline, its outcome
 * recorded, and only then its credits committed — or refunded when the page was not rendered or
 * the Crawl DO no longer takes the outcome (a duplicate delivery).
 *
 * Each page is one browser navigation: the type of a document is learnt from its response
 * (src/capture/page/navigate.ts), never from a second request.
 */
import type { CaptureRequest } from "../../schemas/capture";
import { CRAWL } from "../../schemas/limits";
import type { AuthContext } from "../accounts/auth";
import { accountStub } from "../accounts/directory";
import { CreditPool, settleReservation } from "../accounts/credits";
import { PLANS } from "../accounts/plans";
import { prepareCapture } from "../capture-request/prepare";
import { ApiError } from "../errors";
import { UnresolvableTarget } from "../security/target-check";
import { log } from "../log";
import type { CaptureEngine } from "../pipeline/engine";
import {
  runPrepaidCapture,
  type OutputResult,
  type PageFacts,
  type PipelineRun,
  type RequestedOutput,
} from "../pipeline/pipeline";
import type { StorageTarget } from "../pipeline/storage";
import { textOnlySpec } from "../pipeline/extraction";
import type { CaptureSpec } from "../capture/capture-spec";
import { signedImageUrl, storeOutput } from "../storage/hosted";
import { TUNING } from "../tuning";
import {
  crawlConcurrency,
  inlineBytes,
  loadsTextOnly,
  pageCost,
  pageOutputs,
  readConfig,
  type CrawlConfig,
} from "./config";
import type { PageOutcome, PageResult, Taken, TakeNext } from "./frontier";
import { crawlStub } from "./crawl-stub";
import type { CrawlPageMessage } from "./page-message";
import { CRAWLER_USER_AGENT } from "./robots";
import { type Bodies, convertPage, fetchPage } from "./http-page";
import {
  type CachedPage,
  cacheable,
  conditionalOf,
  pageCacheKey,
  readCachedPage,
  writeCachedPage,
} from "./page-cache";
import { needsBrowser } from "../extract/needs-browser";
import { parseDocument } from "../extract/parse";
import { typeFields } from "../extract/fields";
import { readMarkup } from "../extract/markup";

const RETENTION_SECONDS = CRAWL.retentionDays * 86_400;

/**
 * The page of `msg` and, beside it and after it, for up to `TUNING.crawlTakeMoreMs`, the crawl's
 * next pages, taken from its Crawl DO and rendered up to its pages in flight at once (the
 * Crawl DO's limits per crawl and per host decide how many it gives; a page its host's
 * Crawl-delay holds back is waited for). A failure of ours on the message's own page is thrown
 * once the others are done (the message is retried); on a page taken, it is logged (the Crawl
 * DO's watchdog sends that page again).
 */
export async function runCrawlPages(
  env: Env,
  msg: CrawlPageMessage,
  engine: CaptureEngine,
  renderers: PageRenderers = {},
): Promise<void> {
  const crawl = crawlStub(env, msg.accountId, msg.crawlId);
  const claim = await crawl.claimPage(msg.seq, msg.lease);
  if (claim.kind !== "run") return;
  const config = readConfig(claim.config);
  const { inFlight } = crawlConcurrency(config);
  // Its pages' credits, held a batch at a time (one Account DO call for up to a batch of pages).
  const pool = new CreditPool(accountStub(env, msg.accountId), pageCost(config), inFlight);
  // A refund that fails leaves them to expire (TUNING.creditReservationTtlMs).
  const release = () =>
    pool.release().catch((error: unknown) => {
      log("error", "crawl: credits held not refunded", {
        crawlId: msg.crawlId,
        error: String(error),
      });
    });
  const until = Date.now() + TUNING.crawlTakeMoreMs;
  const lanes = new Set<Promise<void>>();
  let stop = false;
  const ownFailure: unknown[] = [];
  // A page held back by its host's Crawl-delay: asked for again when it may start, by the timer
  // itself. (A timer the loop below only raced against was lost when a lane set it while the
  // loop waited on the lanes alone: a crawl with a Crawl-delay fell to one lane, and a page
  // waiting 10 s for its server held the whole crawl.) Settles once that ask is done.
  let delayed: Promise<void> | null = null;
  const wait = (next: { waitUntil: number }) => {
    if (delayed) return;
    const ms = Math.max(0, Math.min(next.waitUntil, until) - Date.now());
    delayed = new Promise<void>((r) => setTimeout(r, ms)).then(() => {
      delayed = null;
      return refill();
    });
  };
  // A lane renders its page, then the next one its Crawl DO gave back with the outcome, and so
  // on while this renderer takes more (the lane counts itself among the pages in flight).
  const mayTake = () => !stop && lanes.size <= inFlight && Date.now() < until;
  const start = (first: Taken, own: boolean) => {
    const run = async () => {
      let page: Taken | null = first;
      let isOwn = own;
      while (page) {
        try {
          const after = await runCrawlPage(env, msg, crawl, pool, page, engine, renderers, mayTake);
          if (after === "stop") stop = true;
          page = after !== "stop" && after !== null && "seq" in after ? after : null;
          if (after !== "stop" && after !== null && "waitUntil" in after) wait(after);
          // Room for more than this lane's next page (the crawl found pages to start): asked.
          if (!stop && lanes.size < inFlight) void refill();
        } catch (error: unknown) {
          if (isOwn) ownFailure.push(error);
          else
            log("error", "crawl: a page taken failed", {
              crawlId: msg.crawlId,
              error: String(error),
            });
          page = null;
        }
        isOwn = false;
      }
      // The last lane out gives back what the pool holds: its page may have been the crawl's
      // last, which completes it (more taken later ask again).
      if (lanes.size === 1) await release();
    };
    const lane: Promise<void> = run().finally(() => lanes.delete(lane));
    lanes.add(lane);
  };
  const fill = async () => {
    while (!stop && lanes.size < inFlight && Date.now() < until) {
      const next = await crawl.takeNext();
      if (!next) return;
      if ("waitUntil" in next) {
        wait(next);
        return;
      }
      start(next, false);
    }
  };
  // One fill at a time; a lane that finds room asks for one, failures logged (the alarm and the
  // watchdog dispatch what a renderer does not take).
  let filling: Promise<void> | null = null;
  const refill = () =>
    (filling ??= fill()
      .catch((error: unknown) => {
        log("error", "crawl: taking pages failed", { crawlId: msg.crawlId, error: String(error) });
      })
      .finally(() => {
        filling = null;
      }));
  try {
    start({ ...claim, seq: msg.seq, lease: msg.lease }, true);
    await refill();
    while (lanes.size > 0 || delayed) {
      await Promise.race(delayed ? [...lanes, delayed] : lanes);
      await refill();
    }
  } finally {
    await release();
  }
  if (ownFailure.length > 0) throw ownFailure[0];
}

/**
 * One page its Crawl DO let this renderer claim: its credits held (from `pool`), rendered, its
 * outcome recorded, and only then its credits committed, by the Crawl DO with the outcome; a
 * reservation the page did not spend goes back to the pool. "stop" when the account's credits ran out:
 * nothing more of the crawl starts. Otherwise, when `mayTake()` at the page's end, the next page
 * its Crawl DO gave back with the outcome (`takeNext`'s answer, one call instead of two).
 */
async function runCrawlPage(
  env: Env,
  msg: CrawlPageMessage,
  crawl: ReturnType<typeof crawlStub>,
  pool: CreditPool,
  page: Taken,
  engine: CaptureEngine,
  renderers: PageRenderers,
  mayTake: () => boolean,
): Promise<TakeNext | "stop"> {
  const config = readConfig(page.config);
  const cost = pageCost(config);
  const render = config.monitor ? renderers.monitor : renderPage;
  if (!render) throw new Error("crawl: no renderer for a monitor's check");
  const held = await pool.take();
  if (!held) {
    await crawl.outOfCredits(page.seq, page.lease);
    return "stop";
  }
  let outcome: PageOutcome;
  try {
    outcome = await render(env, config, page.url, engine, cost);
  } catch (err) {
    log("error", "crawl: page failed", { crawlId: msg.crawlId, error: String(err) });
    outcome = failed("capture_failed");
  }
  let done: { accepted: boolean; next: TakeNext } | null = null;
  try {
    done = await crawl.completePage(page.seq, page.lease, outcome, held.reservationId, mayTake());
  } finally {
    // A rendered page's credits are committed by its Crawl DO; a reservation it did not take is
    // held for the next page. No answer: it may have been taken, so it is refunded (a no-op for
    // one already settled).
    if (done === null) await settleReservation(accountStub(env, msg.accountId), held, false);
    else if (!done.accepted || outcome.status !== "rendered") pool.giveBack(held);
  }
  if (!done.accepted && outcome.r2Keys.length > 0) await env.OUTPUTS.delete(outcome.r2Keys);
  return done.next;
}

function failed(reason: PageOutcome["reason"], statusCode?: number): PageOutcome {
  const result = statusCode !== undefined ? { statusCode } : {};
  return { status: "failed", reason, result, links: [], r2Keys: [], credits: 0 };
}

function skipped(reason: PageOutcome["reason"]): PageOutcome {
  return { status: "skipped", reason, result: {}, links: [], r2Keys: [], credits: 0 };
}

/**
 * How a page of a crawl becomes its outcome: the crawl's own (`renderPage`, below), or the
 * renderer of a crawl's kind passed in by the queue handler (a monitor's check:
 * src/monitors/page.ts), which loads the page with `loadPage` as this file does.
 */
export type PageRenderer = (
  env: Env,
  config: CrawlConfig,
  url: string,
  engine: CaptureEngine,
  cost: number,
) => Promise<PageOutcome>;

/** Renderers of the crawls that are not plain crawls, by kind. */
export interface PageRenderers {
  monitor?: PageRenderer;
}

/**
 * One page loaded as a crawl loads it — the start origin's headers and cookies, the crawler's
 * user agent, the URL guard, the capture pipeline as background work — into `outputs`
 * (`storage`: where images go, none by default; `tune` adjusts the prepared spec). A page that
 * is not a rendered HTML document is its outcome already: skipped or failed, with the reason.
 */
export async function loadPage(
  env: Env,
  config: CrawlConfig,
  url: string,
  engine: CaptureEngine,
  load: {
    outputs: RequestedOutput[];
    storage?: StorageTarget;
    tune?: (spec: CaptureSpec) => CaptureSpec;
    /** The capture's lane (src/capture/host/lane-pages.ts); none: a page of its own. */
    lane?: { key: string; width: number };
  },
): Promise<
  { ok: true; run: PipelineRun & { page: PageFacts } } | { ok: false; outcome: PageOutcome }
> {
  const account = accountStub(env, config.accountId);
  const auth: AuthContext = {
    accountId: config.accountId,
    keyId: "crawl",
    plan: PLANS[config.plan],
    account,
  };
  // Headers and cookies go to the start URL's origin only; the crawler says who it is.
  const { headers, cookies, ...options } = config.options;
  const home = new URL(url).origin === new URL(config.url).origin;
  const req: CaptureRequest = {
    ...options,
    ...(home && headers ? { headers } : {}),
    ...(home && cookies ? { cookies } : {}),
    ...(options.device === undefined ? { userAgent: CRAWLER_USER_AGENT } : {}),
    url,
  };
  let run: PipelineRun;
  try {
    const prepared = await prepareCapture(env, auth, req);
    run = await runPrepaidCapture(env, config.accountId, {
      spec: load.tune ? load.tune(prepared) : prepared,
      outputs: load.outputs,
      storage: load.storage ?? { kind: "none" },
      engine,
      background: true,
      ...(load.lane ? { lane: load.lane } : {}),
    });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { ok: false, outcome: refusal(err) };
  }
  const facts = run.page;
  if (facts === null) {
    const first = run.outputs[0];
    const failure = first && !first.ok ? first.failure : null;
    if (failure?.cause === "blocked") return { ok: false, outcome: skipped("blocked") };
    if (failure?.cause === "not_html") return { ok: false, outcome: skipped("not_html") };
    return { ok: false, outcome: failure ? refusal(failure.error) : failed("capture_failed") };
  }
  const statusCode = facts.page.targetStatus ?? undefined;
  if (statusCode !== undefined && statusCode >= 400)
    return { ok: false, outcome: failed("http_error", statusCode) };
  if (
    facts.contentType !== null &&
    !/^(text\/html|application\/xhtml\+xml)$/.test(facts.contentType)
  )
    return { ok: false, outcome: skipped("not_html") };
  return { ok: true, run: { ...run, page: facts } };
}

/**
 * A crawl's page: its formats, its screenshot stored for the crawl's retention. With `render:
 * "never"` its document is fetched and converted without a browser; with `"auto"` too, unless
 * that document needs the browser (./http-page.ts `needsBrowser`) or could not be read that way
 * (no answer in time, over the byte cap) — then it is rendered in the browser (a page with a
 * screenshot or the json format always is). A page refused, answering 4xx/5xx or not HTML is that outcome either way.
 *
 * Incremental crawls (`maxAge`, `modifiedSince`: ./page-cache.ts): the account's entry of the
 * page, within `maxAge`, is reused with no request (`cached`); otherwise its validators make the
 * fetch conditional and a 304 reuses it (`not_modified`); a Last-Modified no later than
 * `modifiedSince` skips the page (`not_modified`, its links followed). Every page loaded is
 * written to the account's entries.
 */
async function renderPage(
  env: Env,
  config: CrawlConfig,
  url: string,
  engine: CaptureEngine,
  cost: number,
): Promise<PageOutcome> {
  const key = cacheable(config) ? await pageCacheKey(config, url) : null;
  const incremental = config.maxAge !== undefined || config.modifiedSince !== undefined;
  const entry = key !== null && incremental ? await readCachedPage(env, key) : null;
  if (entry && config.maxAge !== undefined && Date.now() - entry.loadedAt <= config.maxAge * 1000)
    return reused(env, config, entry, "cached");
  const keep = async (page: LoadedPage, validators: Validators = {}) => {
    if (key === null) return;
    const { contentUrl: _c, screenshotUrl: _s, cachedAt: _a, ...result } = page.result;
    await writeCachedPage(env, config, key, {
      loadedAt: Date.now(),
      result,
      bodies: page.bodies,
      links: page.links,
      ...validators,
    });
  };
  const mode = config.render ?? "always";
  // A screenshot and the json format are read in the page: under `auto` such a crawl's pages all
  // go to the browser (`never` refuses them at the start).
  const browserOnly = config.formats.some((f) => f === "screenshot" || f === "json");
  let validators: Validators = {};
  if (mode === "never" || (mode === "auto" && !browserOnly)) {
    const fetched = await fetchPage(env, config, url, conditionalOf(entry));
    switch (fetched.kind) {
      case "blocked":
        return skipped("blocked");
      case "not_html":
        return skipped("not_html");
      case "http_error":
        return failed("http_error", fetched.status);
      case "not_modified":
        // Only ever answered to the validators of `entry`.
        return entry ? reused(env, config, entry, "not_modified") : failed("http_error", 304);
      case "error":
        if (mode === "never") return failed("unreachable");
        break;
      case "document": {
        validators = {
          ...(fetched.etag ? { etag: fetched.etag } : {}),
          ...(fetched.lastModified ? { lastModified: fetched.lastModified } : {}),
        };
        const doc = parseDocument(fetched.html);
        const unchanged = unchangedSince(fetched.lastModified, config.modifiedSince);
        if (unchanged || mode === "never" || !needsBrowser(doc)) {
          const page: LoadedPage = { ...convertPage(config, fetched, doc), r2Keys: [] };
          await keep(page, validators);
          if (!unchanged) return finishRendered(env, config, page, cost);
          const { statusCode, finalUrl } = page.result;
          const result = {
            ...(statusCode ? { statusCode } : {}),
            ...(finalUrl ? { finalUrl } : {}),
          };
          return { ...skipped("not_modified"), result, links: page.links };
        }
      }
    }
  }
  const loaded = await loadPage(env, config, url, engine, {
    outputs: pageOutputs(config),
    ...(loadsTextOnly(config) ? { tune: textOnlySpec } : {}),
    storage: {
      kind: "hosted",
      ttlSeconds: RETENTION_SECONDS,
      prefix: "crawl",
      context: "crawl page",
    },
    // A crawl's pages run one after another in a page kept open between them.
    lane: {
      key: `crawl:${config.accountId}:${config.crawlId}`,
      // Its pages of one host at once: a crawl's usual parallelism (most crawls are of one host).
      width: crawlConcurrency(config).perHost,
    },
  });
  if (!loaded.ok) return loaded.outcome;
  const page = await rendered(env, config, loaded.run);
  if ("status" in page) return page;
  await keep(page, validators);
  return finishRendered(env, config, page, cost);
}

type Validators = Pick<CachedPage, "etag" | "lastModified">;

/** A Last-Modified no later than `since` (HTTP's "not modified since"). */
function unchangedSince(lastModified: string | null, since: number | undefined): boolean {
  if (since === undefined || lastModified === null) return false;
  const at = Date.parse(lastModified);
  return !Number.isNaN(at) && at <= since;
}

/** A page loaded, before its bodies are placed: its result, bodies, links and R2 objects. */
interface LoadedPage {
  result: PageResult;
  bodies: Bodies;
  links: PageOutcome["links"];
  r2Keys: string[];
}

/** A loaded page's outcome: its bodies kept inline or in R2 as a rendered one's. */
async function finishRendered(
  env: Env,
  config: CrawlConfig,
  page: LoadedPage,
  cost: number,
): Promise<PageOutcome> {
  const r2Keys = [...page.r2Keys];
  const result = { ...page.result, ...(await placeBodies(env, config, page.bodies, r2Keys)) };
  return { status: "rendered", reason: null, result, links: page.links, r2Keys, credits: cost };
}

/**
 * An entry of the account's pages reused (`cached`: within maxAge; `not_modified`: a 304 to its
 * validators): skipped — nothing loaded, nothing charged — with the result it carries, its
 * bodies placed for this crawl, `cachedAt`, and its links followed.
 */
async function reused(
  env: Env,
  config: CrawlConfig,
  entry: CachedPage,
  reason: "cached" | "not_modified",
): Promise<PageOutcome> {
  const r2Keys: string[] = [];
  const result: PageResult = {
    ...entry.result,
    cachedAt: new Date(entry.loadedAt).toISOString(),
    ...(await placeBodies(env, config, entry.bodies, r2Keys)),
  };
  return { status: "skipped", reason, result, links: entry.links, r2Keys, credits: 0 };
}

/**
 * A page's Markdown, HTML, text and json as its result carries them: inline, or past
 * `inlineBytes` together (./config.ts: less per page in a large crawl), one JSON object in R2 behind `contentUrl` (its key in `r2Keys`).
 */
async function placeBodies(
  env: Env,
  config: CrawlConfig,
  bodies: Bodies,
  r2Keys: string[],
): Promise<PageResult> {
  const json = JSON.stringify(bodies);
  if (new TextEncoder().encode(json).byteLength <= inlineBytes(config)) return { ...bodies };
  const stored = await storeOutput(env, {
    bytes: new TextEncoder().encode(json),
    contentType: "application/json",
    ttlSeconds: RETENTION_SECONDS,
    accountId: config.accountId,
    prefix: "crawl",
  });
  r2Keys.push(stored.key);
  return { contentUrl: await signedImageUrl(env, config.origin, stored) };
}

/** The json format of a page: its fields typed and its markup normalised, as POST /v1/json's. */
function structuredResult(
  config: CrawlConfig,
  output: Extract<OutputResult, { kind: "structured"; ok: true }>,
): NonNullable<PageResult["json"]> {
  const json: NonNullable<PageResult["json"]> = {};
  if (config.fields && output.fields) {
    json.fields = typeFields(config.fields, output.fields.values, output.fields.base);
    json.truncated = output.fields.truncated;
  }
  if (config.kind && output.markup) json.markup = readMarkup(output.markup, config.kind);
  return json;
}

/** A capture's refusal as a page's fate: the guard's are skips, the rest failures. */
function refusal(err: ApiError): PageOutcome {
  if (err instanceof UnresolvableTarget) return failed("unreachable");
  if (err.code === "INVALID_URL" || err.code === "UNSAFE_URL") return skipped("blocked");
  if (err.code === "TIMEOUT") return failed("timeout");
  return failed(err.status === 400 ? "unreachable" : "capture_failed");
}

/** A page the browser loaded as the crawl's result, before its bodies are placed (or its failure). */
async function rendered(
  env: Env,
  config: CrawlConfig,
  run: PipelineRun & { page: PageFacts },
): Promise<LoadedPage | PageOutcome> {
  const facts = run.page;
  const formats = new Set(config.formats);
  const result: PageResult = { rendered: "browser" };
  const r2Keys: string[] = [];
  const statusCode = facts.page.targetStatus;
  if (statusCode !== null) result.statusCode = statusCode;
  result.finalUrl = facts.finalUrl;
  if (facts.completeness) result.completeness = facts.completeness;
  const bodies: Bodies = {};
  let links: PageOutcome["links"] = [];
  for (const output of run.outputs) {
    if (!output.ok) {
      // A screenshot that failed alone fails the page (it was asked for and paid with it).
      if (output.kind === "image") return refusal(output.failure.error);
      continue;
    }
    await take(output);
  }
  async function take(output: Extract<OutputResult, { ok: true }>): Promise<void> {
    switch (output.kind) {
      case "links":
        links = output.links.map((l) => ({ url: l.url, nofollow: /\bnofollow\b/i.test(l.rel) }));
        if (formats.has("links"))
          result.links = output.links.map(({ url, text }) => ({ url, text }));
        return;
      case "extraction":
        bodies.markdown = output.data.content;
        return;
      case "html":
        bodies.html = output.html;
        return;
      case "text":
        if (formats.has("text")) bodies.text = output.text;
        return;
      case "structured":
        bodies.json = structuredResult(config, output);
        return;
      case "image":
        if (output.stored) {
          r2Keys.push(output.stored.key);
          result.screenshotUrl = await signedImageUrl(env, config.origin, output.stored);
        }
        return;
    }
  }
  if (formats.has("metadata")) {
    const { title, openGraph } = facts.page;
    result.metadata = { title, statusCode: statusCode ?? null, openGraph };
  }
  return { result, bodies, links, r2Keys };
}
