/**
 * The hand-written part of the SDK: the `Edgeshot` client. Captures and the account are
 * methods here; each other resource is a group of calls from ./resources/. The transport
 * (auth, JSON, retries on 429 honouring Retry-After, typed errors, polling) is ./transport.ts,
 * binary captures with their metadata headers ./captures.ts. Shapes come from the generated types.
 */
import {
  animationBytes,
  captureBytes,
  type AnimationBytes,
  type CaptureBytes,
} from "./captures.js";
import type {
  Account,
  AnimateBatchRequest,
  AnimateRequest,
  Artifact,
  ArtifactRequest,
  BatchAccepted,
  BatchRequest,
  CaptureJson,
  CaptureRequest,
  CredentialCheck,
  Extraction,
  ExtractRequest,
  HostedAnimation,
  HostedCapture,
  JobAccepted,
  ListRequestsData,
  RequestLog,
} from "./generated/index.js";
import { batchesResource } from "./resources/batches.js";
import { crawlResource, mapCall } from "./resources/crawl.js";
import { destinationsResource } from "./resources/destinations.js";
import { jobsResource } from "./resources/jobs.js";
import { monitorsResource } from "./resources/monitors.js";
import { pageContentCalls } from "./resources/page-content.js";
import { renderLinksResource } from "./resources/render-links.js";
import { watchesResource } from "./resources/watches.js";
import { webhooksResource } from "./resources/webhooks.js";
import { Transport, type EdgeshotOptions } from "./transport.js";

type PageContentCalls = ReturnType<typeof pageContentCalls>;

/** Fields of a recording a batch sets per job or at its top level, not in `defaults`. */
type NotInAnimateDefaults =
  | "url"
  | "html"
  | "markdown"
  | "data"
  | "async"
  | "hosted"
  | "webhookUrl"
  | "storage"
  | "cacheTtl"
  | "cookies"
  | "headers"
  | "waitForSelector"
  | "blockResourceTypes";

/** POST /v1/animate/batch's body, its `defaults` typed as a recording's settings. */
export type AnimateBatchInput = Omit<AnimateBatchRequest, "defaults"> & {
  defaults?: Omit<AnimateRequest, NotInAnimateDefaults>;
};

export class Edgeshot {
  readonly #t: Transport;
  readonly jobs: ReturnType<typeof jobsResource>;
  readonly batches: ReturnType<typeof batchesResource>;
  readonly renderLinks: ReturnType<typeof renderLinksResource>;
  readonly destinations: ReturnType<typeof destinationsResource>;
  /** Watches: scheduled captures with change detection (watch.changed / watch.alert / watch.failed webhooks). */
  readonly watches: ReturnType<typeof watchesResource>;
  /** Webhook operations: the delivery log, redelivery, a test send. */
  readonly webhooks: ReturnType<typeof webhooksResource>;
  /** Crawls: `start`, `get`, `pages` (an async iterator over every result), `cancel`, `list`, `wait`. */
  readonly crawl: ReturnType<typeof crawlResource>;
  /**
   * Site monitors: `create`, `dryRun`, `get`, `list`, `update`, `delete`, `pause`, `resume`,
   * `check` (now), `checks`, `getCheck`, `pages` (an async iterator), `waitForCheck`.
   */
  readonly monitors: ReturnType<typeof monitorsResource>;
  /** POST /v1/map: a site's URLs from its sitemaps and its start page's links (one credit). */
  readonly map: ReturnType<typeof mapCall>;
  /** POST /v1/content: the rendered HTML (or visible text) of a page, as JSON. */
  readonly content: PageContentCalls["content"];
  /** POST /v1/scrape: elements of a rendered page by CSS selector. */
  readonly scrape: PageContentCalls["scrape"];
  /** POST /v1/json: typed fields by selector and the page's own product/article/organization. */
  readonly json: PageContentCalls["json"];
  /** POST /v1/links: the links of a rendered page. */
  readonly links: PageContentCalls["links"];
  /** POST /v1/snapshot: the rendered HTML and a screenshot from one page load. */
  readonly snapshot: PageContentCalls["snapshot"];

  constructor(options: EdgeshotOptions) {
    this.#t = new Transport(options);
    this.jobs = jobsResource(this.#t);
    this.batches = batchesResource(this.#t);
    this.renderLinks = renderLinksResource(this.#t);
    this.destinations = destinationsResource(this.#t);
    this.watches = watchesResource(this.#t);
    this.webhooks = webhooksResource(this.#t);
    this.crawl = crawlResource(this.#t);
    this.monitors = monitorsResource(this.#t);
    this.map = mapCall(this.#t);
    ({
      content: this.content,
      scrape: this.scrape,
      json: this.json,
      links: this.links,
      snapshot: this.snapshot,
    } = pageContentCalls(this.#t));
  }

  /** POST /v1/screenshot: the image or PDF bytes and their metadata. */
  async screenshot(request: Omit<CaptureRequest, "hosted" | "async">): Promise<CaptureBytes> {
    return captureBytes(await this.#t.send("POST", "/v1/screenshot", request));
  }

  /** POST /v1/screenshot with hosted: true: a signed URL instead of bytes. */
  screenshotHosted(request: Omit<CaptureRequest, "hosted" | "async">) {
    return this.#t.json<HostedCapture>("POST", "/v1/screenshot", { ...request, hosted: true });
  }

  /** POST /v1/screenshot/json: base64 image (and the article with extract: true). */
  screenshotJson(request: Omit<CaptureRequest, "async">) {
    return this.#t.json<CaptureJson>("POST", "/v1/screenshot/json", request);
  }

  /** POST /v1/screenshot with async: true: a queued job; see `jobs.wait`. */
  screenshotAsync(request: Omit<CaptureRequest, "async" | "hosted">) {
    return this.#t.json<JobAccepted>("POST", "/v1/screenshot", { ...request, async: true });
  }

  /** POST /v1/screenshot/batch (paid plans). */
  batch(request: BatchRequest) {
    return this.#t.json<BatchAccepted>("POST", "/v1/screenshot/batch", request);
  }

  /** POST /v1/animate: a scrolling (or still) video or GIF of a page, its bytes and clip facts. */
  async animate(request: Omit<AnimateRequest, "hosted" | "async">): Promise<AnimationBytes> {
    return animationBytes(await this.#t.send("POST", "/v1/animate", request));
  }

  /** POST /v1/animate with hosted: true: a signed URL to the clip instead of bytes. */
  animateHosted(request: Omit<AnimateRequest, "hosted" | "async">) {
    return this.#t.json<HostedAnimation>("POST", "/v1/animate", { ...request, hosted: true });
  }

  /**
   * POST /v1/animate with async: true: a queued recording job (its result a hosted link, or the
   * object in `storage`; `webhookUrl` for job.completed); see `jobs.wait`.
   */
  animateAsync(request: Omit<AnimateRequest, "async" | "hosted">) {
    return this.#t.json<JobAccepted>("POST", "/v1/animate", { ...request, async: true });
  }

  /**
   * POST /v1/animate/batch (paid plans): one recording job per URL, all with `defaults` (the
   * clip and page settings of `animate`); each job reserves the recording's credits. See
   * `batches.wait`.
   */
  animateBatch(request: AnimateBatchInput) {
    return this.#t.json<BatchAccepted>("POST", "/v1/animate/batch", request);
  }

  /** POST /v1/extract. */
  extract(request: ExtractRequest) {
    return this.#t.json<Extraction>("POST", "/v1/extract", request);
  }

  /** POST /v1/artifact. */
  artifact(request: ArtifactRequest) {
    return this.#t.json<Artifact>("POST", "/v1/artifact", request);
  }

  /** GET /v1/account. */
  account() {
    return this.#t.json<Account>("GET", "/v1/account");
  }

  /** GET /v1/credential-check. */
  credentialCheck() {
    return this.#t.json<CredentialCheck>("GET", "/v1/credential-check");
  }

  /** GET /v1/requests: the account's last 200 API requests (7 days), newest first. */
  requests(query: NonNullable<ListRequestsData["query"]> = {}) {
    return this.#t.json<RequestLog>("GET", "/v1/requests", undefined, query);
  }

  /** Fetch a signed URL of this service (hosted output, job result, render link) as bytes. */
  async fetchSigned(url: string): Promise<CaptureBytes> {
    return captureBytes(await this.#t.fetchSigned(url));
  }
}
