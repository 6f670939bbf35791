/**
 * Every public limit of the service in one place: the spec's Limits table plus our own caps —
 * sizes, counts, ranges, lifetimes a client can run into. Part of the contract, so it imports
 * nothing. Internal tuning (timeouts, retry delays, pool sizes) is src/tuning.ts.
 */
const MB = 1024 * 1024;

export const LIMITS = {
  /** Whole JSON request body; the largest legal body is html/markdown (5 MB) plus data (256 KB). */
  bodyBytes: 6 * MB,
  /** Deepest nesting accepted anywhere in a JSON body (objects and arrays). */
  jsonDepth: 32,
  htmlBytes: 5 * MB,
  markdownBytes: 5 * MB,
  dataBytes: 256 * 1024,
  /** Rendered template output (html after Mustache), guards against section explosions. */
  templateOutputBytes: 8 * MB,
  /** Mustache bounds on time and memory: section nesting, tags in a template, and render steps
   *  (token visits, loop iterations, name-lookup hops) before a template is refused. */
  templateDepth: 64,
  templateTags: 100_000,
  templateSteps: 2_000_000,
  /** Markdown: deepest list/blockquote nesting, and the largest HTML document it may become
   *  (reference links can repeat a long URL many times). */
  markdownDepth: 32,
  markdownHtmlBytes: 16 * MB,
  cssBytes: 50 * 1024,
  jsBytes: 50 * 1024,
  selectorChars: 500,
  hideSelectors: 50,
  cookies: 50,
  cookieNameChars: 256,
  cookieValueChars: 4096,
  cookieDomainChars: 256,
  cookiePathChars: 256,
  headers: 50,
  headerValueChars: 4096,
  userAgentChars: 512,
  geoPlaceChars: 100,
  /** `timezone` (IANA names are at most ~32) and `locale` (BCP 47 tags as browsers use them). */
  timezoneChars: 64,
  localeChars: 35,
  /** `actions`: steps per capture, characters one `type` step types, one `wait` step's ms. */
  actions: 20,
  actionTextChars: 1000,
  actionWaitMs: 10_000,
  /** pdfHeader / pdfFooter templates (UTF-8 bytes), and a pdfPageRanges expression. */
  pdfTemplateBytes: 10 * 1024,
  pdfPageRangesChars: 100,
  /** The Idempotency-Key request header, in characters. */
  idempotencyKeyChars: 255,
  /** `failOnStatus`: status codes and classes listed at most. */
  failOnStatusEntries: 20,
  /** Page metadata returned with a capture (title, Open Graph fields): characters each, cut. */
  pageMetadataChars: 2000,
  width: { min: 320, max: 3840, default: 1280 },
  height: { min: 240, max: 2160, default: 800 },
  resizeWidth: { min: 16, max: 3840 },
  resizeHeight: { min: 16, max: 2160 },
  deviceScaleFactor: { min: 1, max: 3, default: 2 },
  quality: { min: 1, max: 100, default: 80 },
  delayMs: { min: 0, max: 10_000, default: 0 },
  timeoutSeconds: { min: 5, max: 60, default: 30 },
  pdfScale: { min: 0.1, max: 2, default: 1 },
  cacheTtl: { min: 3600, max: 2_592_000, default: 86_400 },
  /** Artifact content (POST /v1/artifact `content`), in UTF-8 bytes: the spec's "about 4 MB". */
  artifactContentBytes: 4 * MB,
  /** Artifact outputs and share page lifetime (`expiresIn`, seconds). */
  artifactExpiry: { min: 3600, max: 2_592_000, default: 86_400 },
  /** Artifact branding: logo bytes fetched at most, header/footer/title text length. */
  logoBytes: 1 * MB,
  artifactTextChars: 500,
  /** Artifact PNG viewport when pageSetup gives none (the common og:image size). */
  artifactPng: { width: 1200, height: 630 },
  /** Render-link lifetime (`expiresIn`, seconds); the default is cacheTtl when given. */
  renderLinkExpiry: { min: 3600, max: 2_592_000, default: 2_592_000 },
  /** Longest render-link URL minted (413 PAYLOAD_TOO_LARGE above): fits browsers, CDNs and
   *  og:image scrapers, which commonly stop at 8 KB. */
  renderLinkChars: 8192,
  /** Full-page captures stop here; taller pages are truncated (x-service-truncated). */
  fullPageMaxCssPx: 16_384,
  /**
   * Largest image side each encoder can write, in device pixels: WebP's format limit is 16,383;
   * JPEG's is libjpeg's JPEG_MAX_DIMENSION, 65,500 (65,501 px failed Page.captureScreenshot).
   */
  encoderMaxDeviceSide: { png: 65_535, jpeg: 65_500, webp: 16_383 },
  /** Largest bitmap one capture may encode, in device pixels (2^28, a 1 GiB RGBA bitmap). */
  encoderMaxDevicePixels: 2 ** 28,
  /** Largest rendered DOM handed to extraction. */
  domBytes: 10 * MB,
  /** Largest extracted content (the `content` string of an extraction, any format). */
  extractedBytes: 2 * MB,
  /**
   * Page content outputs (POST /v1/content, /v1/scrape, /v1/links, /v1/snapshot): the rendered
   * HTML and the visible text a response carries (cut beyond, with `truncated`), scrape
   * selectors per request, matches kept per selector, the strings of all matches together, and
   * links per page (docs/CAPTURE.md, "Page content").
   */
  contentHtmlBytes: 5 * MB,
  contentTextBytes: 2 * MB,
  scrapeSelectors: 20,
  scrapeAttributes: 50,
  attributeNameChars: 256,
  scrapeMatches: 100,
  scrapeBytes: 5 * MB,
  linksMax: 2000,
  linkUrlChars: 2048,
  linkTextChars: 500,
  /**
   * Structured data (POST /v1/json, docs/STRUCTURED-DATA.md): fields a schema names in all (every
   * level counted), the deepest nesting of `fields`, field name length, values kept per list,
   * elements read in all (every match of every field, nested ones too: past it the answer is
   * cut, with `truncated`), the strings read in all, and the page's own markup read at most
   * (JSON-LD, microdata and RDFa items, embedded framework state).
   */
  structuredFields: 200,
  structuredDepth: 5,
  structuredFieldNameChars: 64,
  structuredListItems: 1000,
  structuredReads: 50_000,
  structuredBytes: 5 * MB,
  markupBytes: 4 * MB,
  markupItems: 200,
  /**
   * Animated captures (POST /v1/animate, docs/ANIMATE.md): the widest bounds of any plan
   * (src/accounts/plans.ts `ANIMATION_BOUNDS` narrows them per plan), the largest video or GIF
   * returned, and GIF's own caps (every frame is palette-quantised in the page: CPU grows with
   * pixels × frames).
   */
  animation: {
    durationSeconds: { min: 1, max: 30, default: 5 },
    fps: { min: 1, max: 30, default: 24 },
    startDelayMs: { min: 0, max: 10_000 },
    scrollSpeed: { min: 50, max: 20_000 },
    scrollDurationSeconds: { min: 0.5, max: 30 },
    outputBytes: 15 * MB,
    gifMaxFps: 15,
    gifMaxDevicePixels: 1024 * 768,
    /** Seconds of video one credit buys (credits = ceil(duration / this)). */
    secondsPerCredit: 5,
  },
  /** Largest output we return (images and PDFs). */
  outputBytes: 25 * MB,
  /** Account display names (admin API). */
  accountNameChars: 100,
  /** Dashboard: email length (RFC 5321 path limit), password length, API-key names. */
  emailChars: 254,
  passwordMinChars: 10,
  passwordMaxChars: 256,
  keyNameChars: 64,
  /** Dashboard session lifetime, sliding: every authenticated page view restarts it. */
  sessionTtlMs: 7 * 24 * 60 * 60 * 1000,
  /** Longest target URL (url, logo) the URL guard accepts. */
  urlChars: 8192,
  /** Longest webhookUrl the URL guard accepts. */
  webhookUrlChars: 2048,
  /** Storage destinations: per account, name and key-prefix length, object key after expansion. */
  destinationsPerAccount: 10,
  destinationNameChars: 100,
  destinationPrefixChars: 256,
  objectKeyBytes: 1024,
  /** Cookie name plus value, and a cookie path once percent-encoded (what Chromium accepts). */
  cookieNameValueBytes: 4096,
  cookieAttributeBytes: 1024,
  /** Batch URLs accepted by the schema; each plan caps lower (src/accounts/plans.ts batchCap). */
  batchMaxUrls: 500,
  /** Job and batch listings: page size by default and at most. */
  listDefault: 20,
  listMax: 100,
  /** GET /v1/webhooks/deliveries reaches this many days back. */
  webhookLogDays: 7,
  /** The request log (GET /v1/requests): the newest this many API requests, at most this old. */
  requestLogEntries: 200,
  requestLogDays: 7,
  /** Finished jobs and batches are forgotten after this long (their results expire by then). */
  jobRetentionMs: 30 * 24 * 60 * 60 * 1000,
  /** Watches (docs/WATCHES.md): interval (the plan's floor is the minimum, src/accounts/plans.ts),
   *  change threshold, ignored selectors, history kept, active watches per registrable domain,
   *  and the consecutive failed runs after which a watch pauses itself. */
  watchIntervalMaxMinutes: 43_200,
  watchNameChars: 100,
  watchThresholdPercent: { min: 0, max: 100, default: 1 },
  watchIgnoreSelectors: 50,
  /** Alert rules on a watch's fields. */
  watchAlerts: 20,
  /** Characters of a `becomes`/`stopsBeing` string value. */
  watchAlertValueChars: 500,
  watchRetentionRuns: { min: 1, max: 500, default: 50 },
  watchRetentionDays: { min: 1, max: 365, default: 90 },
  watchActivePerSite: 10,
  watchMaxConsecutiveFailures: 5,
} as const;

/**
 * Crawl and map (docs/CRAWL.md): the contract's bounds. Each plan caps `limit` lower
 * (src/accounts/plans.ts `crawlPageCap`); these are the schema's outer bounds.
 */
export const CRAWL = {
  limit: { min: 1, max: 20_000, default: 20 },
  maxDepth: { min: 0, max: 10, default: 2 },
  /** Pages of one host loaded at once (politeness), and its default for browser-rendered crawls. */
  maxConcurrency: { min: 1, max: 10, default: 2 },
  /** include / exclude: patterns each, and characters a pattern. */
  patterns: 20,
  patternChars: 200,
  /** GET /v1/crawl/{id}/pages: results a page (default and most). */
  pagesPerList: { default: 20, max: 100 },
  /** A page's markdown, html or text past this is served from R2 through a signed contentUrl. */
  inlineBytes: 256 * 1024,
  /**
   * A crawl's pages' bodies kept inline, all pages together: past `limit × inlineBytes` of it a
   * page's inline share shrinks (src/crawl/config.ts `inlineBytes`; 20,000 pages: 52 KB each).
   */
  inlineBudget: 1024 * 1024 * 1024,
  /** POST /v1/map: URLs at most (and its default); each plan caps it lower (`mapUrlCap`). */
  mapLimit: { min: 1, max: 100_000, default: 100 },
  /** POST /v1/map: the answer's URLs, in characters all together; past it the map is truncated. */
  mapChars: 16 * 1024 * 1024,
  /** Results are kept this long after a crawl ends, then deleted with their R2 objects. */
  retentionDays: 7,
  /**
   * A page a crawl loaded is kept for the account's later crawls (`maxAge` reuses it; its
   * validators make conditional requests) this long, in seconds: `maxAge`'s bound.
   */
  pageCacheSeconds: 7 * 86_400,
} as const;

/** Site monitors (docs/MONITORS.md): what a request may state; the plan caps are src/accounts/plans.ts. */
export const MONITOR = {
  /** Pages one check covers (the plan caps it: its crawl page cap). */
  limit: { min: 1, max: 10_000, default: 20 },
  maxDepth: { min: 0, max: 10, default: 2 },
  nameChars: 100,
  /** Minutes between scheduled checks (the plan's floor is higher). */
  intervalMinutes: { min: 5, max: 43_200, default: 1440 },
  cronChars: 100,
  /**
   * `fields`: tracked selectors (with the two built in — description, canonical — a page's 20
   * scraped selectors); a field's value is cut at `fieldValueChars`. `ignore`: hidden selectors;
   * `ignoreRegions`: boxes.
   */
  fields: 18,
  fieldNameChars: 50,
  fieldValueChars: 1000,
  ignore: 50,
  ignoreRegions: 20,
  /** Changed pixels (outside masks) below this are no visual change. */
  minChangedPixels: { min: 0, max: 1_000_000, default: 20 },
  /** Changed words below this are no text change. */
  minChangedWords: { min: 0, max: 10_000, default: 1 },
  /** A check's text diff: parts listed at most, characters of each. */
  textDiffParts: 100,
  textDiffPartChars: 500,
  /** Changed regions listed at most per page. */
  regions: 20,
  /** GET …/checks/{id}/pages and GET …/checks: a page of results (default and most). */
  pagesPerList: { default: 20, max: 100 },
  /** Entries an Atom feed lists (the newest). */
  feedEntries: 50,
} as const;

/** The spec's webhook delivery contract (Events): what a receiver sees and may rely on. */
export const WEBHOOKS = {
  /** First attempt plus up to 3 retries (wrangler.toml max_retries = 3). */
  attempts: 4,
  /** Retry n waits about base × 3^(n−1) s (5, 15, 45), ±20 % jitter, at most capSeconds. */
  retryBaseSeconds: 5,
  retryCapSeconds: 120,
  jitter: 0.2,
  /** Each attempt gives up after this long. */
  timeoutMs: 10_000,
  /** Receivers reject signatures older than this (the verification helper's default). */
  replayWindowSeconds: 300,
  userAgent: "Service-Webhook/1.0",
} as const;

/** "10 MB", "256 KB": a byte limit as messages state it. */
export function formatBytes(bytes: number): string {
  const MB = 1024 * 1024;
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;
}
