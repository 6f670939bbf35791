/**
 * Internal tuning: timeouts, retry delays, pool sizes, lifetimes of internal records. Not part
 * of the contract (public limits are schemas/limits.ts); change these freely. Queue retry
 * counts must agree with wrangler.toml's `max_retries`.
 */
export const TUNING = {
  /** BrowserHost: contexts in flight per browser (Cloudflare's guidance: a few per browser). */
  browserContextsInFlight: 5,
  /**
   * Hard capture deadline (src/capture/page/deadline.ts): the fixed grace beyond the spec's own waits
   * for encoding and transfer; and how long disposing a context may take before its browser is
   * recycled.
   */
  captureGraceMs: 10_000,
  contextCloseMs: 5_000,
  /**
   * BrowserHost slots (src/capture/host/slots.ts): one account's share of a browser's contexts (below
   * browserContextsInFlight), the longest line of waiting captures, how long one may wait, and
   * the Retry-After of a capture refused for want of a slot.
   */
  browserContextsPerAccount: 4,
  /**
   * BrowserHost slots by weight (src/capture/page/weight.ts: the device pixels a capture may render):
   * one account's captures in flight weigh at most one capture at the encoder limit (2^28 px).
   * A 3840-wide WebP full page at scale 3 weighs 189 M px until measured, so one account's giants
   * run one at a time; a default full page (1280 × 16,384 at the default scale 2) weighs 84 M px,
   * so three run at once per account until their real heights are known.
   */
  browserPixelsPerAccount: 2 ** 28,
  /**
   * A capture that may render more device pixels than this (a full page at its maximum height,
   * before it is measured) goes to the heavy lane: the HEAVY_BROWSER_HOSTS shards, so its raster
   * never shares a browser (and its GPU process) with ordinary captures. 2^27 px keeps a default
   * full page (84 M px at scale 2) and any viewport in the ordinary lane; wide full pages at scale
   * 3 (up to 189 M px as WebP, 268 M px as PNG/JPEG) go heavy.
   */
  heavyCapturePixels: 2 ** 27,
  /**
   * Fair CPU (src/capture/host/cpu-rule.ts, cpu-share.ts): the main-thread busy time after which
   * a capture is heavy, and may be held while other accounts have captures in flight (an
   * account's younger heavy ones always then); how often captures are measured and the holds
   * decided; how long a measurement may take; how long a realm's debugger, asked for once the
   * browser is shared, may take to answer before a capture the rule would hold is restarted.
   */
  cpuHeavyMs: 1_000,
  cpuShareTickMs: 250,
  cpuMeterTimeoutMs: 1_000,
  cpuDebuggerWaitMs: 1_000,
  /**
   * Fair CPU across accounts: while a light capture is in flight or a newcomer waits for a slot,
   * how many heavy captures (each its account's oldest) run at once, and for how long each turn:
   * one spinner takes one core of a 2-core machine, the other is left to the light captures.
   */
  cpuHeavyRunning: 1,
  cpuSliceMs: 1_000,
  /** How often a wait for a selector also checks from outside the page (./capture/page/wait-for-element.ts). */
  selectorRecheckMs: 500,
  browserQueueMax: 32,
  /**
   * One account's callers waiting in a host's line at most (src/capture/host/slots.ts): twice its
   * slots, so a burst of its own waits its turn while the line keeps room for other accounts.
   */
  browserQueuePerAccount: 8,
  browserQueueWaitMs: 30_000,
  /**
   * Background captures (crawl pages) yield their turn for a slot to interactive ones
   * (src/capture/host/slots.ts): while one is in flight or waiting, or ended less than this ago…
   */
  backgroundQuietMs: 1_000,
  /** …for at most this long each, then they wait like any capture. */
  backgroundYieldMs: 5_000,
  busyRetryAfterSeconds: 10,
  /** Retry-After of a 503 URL_CHECK_UNAVAILABLE (the DNS resolver did not answer; not cached). */
  urlCheckRetryAfterSeconds: 5,
  /**
   * Render links (src/storage/render-cache.ts): outputs up to this size are kept in the
   * isolate's memory after their first edge-cache hit, this many bytes in all (of an isolate's
   * 128 MB).
   */
  renderMemoryEntryBytes: 512 * 1024,
  renderMemoryBytes: 16 * 1024 * 1024,
  /** BrowserHost: close the browser after this long without a capture. */
  browserIdleCloseMs: 10 * 60_000,
  /** BrowserHost: session keep-alive asked of the binding (its maximum), and the alarm period. */
  browserKeepAliveMs: 600_000,
  browserAlarmEveryMs: 60_000,
  /** Artifacts: the whole fetch of a branding logo (connect, headers and body). */
  logoFetchMs: 10_000,
  /**
   * Markdown: the most emphasis work (Σ emphasis markers × length of each inline run) one
   * document may cost; about 0.2 s of marked's time. Above it the document is a 400.
   */
  markdownEmphasisWork: 100_000_000,
  /**
   * A request body over its cap is answered 413 at once and the rest of the upload is read and
   * discarded up to this many more bytes, so clients still sending can read the answer.
   */
  oversizeDrainBytes: 64 * 1024 * 1024,
  /** Idempotency-Key: how long a first response is replayed, how long a request in flight
   *  holds its key (past the longest capture), how long a concurrent duplicate waits for it,
   *  and how often it looks. */
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
  idempotencyLeaseMs: 5 * 60_000,
  idempotencyWaitMs: 120_000,
  idempotencyPollMs: 250,
  /** Stored response bodies up to this size live in the Account DO; larger ones in R2. */
  idempotencyInlineBytes: 512 * 1024,
  /** actions: after a click/press/type, how long a navigation it triggers has to start. */
  actionNavigationStartMs: 150,
  /**
   * Full pages and element captures: the most revealing lazy content may take — the scroll, then
   * the requests it started (src/capture/page/complete.ts).
   */
  lazySettleMs: 3_000,
  /** Before an image or PDF: the most fonts and the captured region's images are waited for. */
  settleMs: 2_000,
  /** A shot that looks blank while the page still works: the most waited before it is retaken. */
  blankRetryMs: 2_500,
  /** Size of the per-minute rate-limit window. */
  rateWindowMs: 60_000,
  /** A credit reservation never settled stops holding credits after this long. */
  creditReservationTtlMs: 10 * 60_000,
  /** Credits of a queued job stay held this long if it is never settled. */
  jobReservationTtlMs: 24 * 60 * 60 * 1000,
  /**
   * A queued/processing job that has not moved for this long is stuck (its queue message was
   * lost): re-enqueued once, then failed and refunded (src/jobs/store/sweep.ts). Longer
   * than every delivery of a job with its backoffs (3 × the longest capture + 5 s + 15 s).
   * The default of the JOB_STUCK_AFTER_SECONDS setting (src/config.ts), which is what is used.
   */
  jobStuckAfterMs: 15 * 60_000,
  /**
   * How long a Safe Browsing lookup may take before it fails open (src/security/reputation.ts).
   * The default of the SAFE_BROWSING_TIMEOUT_MS setting (src/config.ts), which is what is used.
   */
  safeBrowsingTimeoutMs: 1_500,
  /** Job R2 documents (the CaptureSpec) expire after this long (the sweep deletes them). */
  jobDocumentTtlSeconds: 7 * 24 * 60 * 60,
  /** A capture job is tried at most this often: the first attempt plus 2 retries (max_retries = 2). */
  captureAttempts: 3,
  /**
   * Backoff before capture retry n (1-based): base × 3^(n−1) seconds. The default of the
   * CAPTURE_RETRY_BASE_SECONDS setting (src/config.ts), which is what is used.
   */
  captureRetryBaseSeconds: 5,
  /** Parallel URL checks and R2 writes while admitting a batch. */
  submitConcurrency: 8,
  /** Messages per Queues sendBatch call (the platform's limit). */
  queueSendBatch: 100,
  /** A dead-letter message whose record could not be updated is retried after this long. */
  deadLetterRetrySeconds: 30,
  /** A webhook delivery emitted but still not queued this long after is taken as stranded. */
  webhookStrandedAfterMs: 60_000,
  /** Uploads to a customer's bucket: tries (5xx, 429, network, timeout retried), backoff base × 2^(n−1), per-try timeout. */
  bucketAttempts: 3,
  bucketRetryBaseMs: 250,
  bucketTimeoutMs: 20_000,
  /**
   * Geo provider: our wait beyond the render budget we hand it (the spec's timeout + delay),
   * for its queueing and the transfer of the PNG; past it the capture is a 408.
   */
  geoProviderGraceMs: 5_000,
  /** BrowserHost: resizing an image rendered elsewhere (a geo PNG) on a blank page. */
  imageResizeTimeoutMs: 15_000,
  /** Objects the hourly sweep looks at per run. */
  sweepMaxObjects: 10_000,
  /** Authoritative key index (accounts/key-directory.ts): shards, by the key hash's first hex digits. */
  keyDirectoryShardDigits: 1,
  /** A key hash neither KV nor the key directory knows is answered 401 from memory this long. */
  unknownKeyCacheMs: 30_000,
  /** Entries of that per-isolate negative cache (cleared whole when full). */
  unknownKeyCacheEntries: 10_000,
  /** Dashboard passwords: PBKDF2-SHA256 iterations for new hashes (the Workers runtime caps it at 100,000). */
  passwordIterations: 100_000,
  /**
   * Crawls (docs/CRAWL.md): pages of one crawl in flight at once (its share of the browsers,
   * beside the account's captures), and of one host (politeness) unless the request's
   * `maxConcurrency` says otherwise (src/crawl/config.ts `crawlConcurrency`).
   */
  crawlInFlight: 4,
  crawlPerHostInFlight: 2,
  /**
   * The same for a crawl whose pages are fetched over HTTP first (`render: "never"`/`"auto"`,
   * src/crawl/config.ts `crawlConcurrency`): a fetch and a conversion hold no browser, and a
   * page's time is mostly its round trips to the Crawl and Account DOs, so more overlap.
   */
  crawlHttpInFlight: 8,
  crawlHttpPerHostInFlight: 4,
  /**
   * A running crawl with no `crawl.page` events tells the account's index (GET /v1/crawls) its
   * progress at most this often, not once a page: one Account DO call a page less. Its final
   * summary is always told at once; GET /v1/crawl/{id} reads the Crawl DO itself.
   */
  crawlProgressMs: 1_000,
  /**
   * The credits of a crawl's rendered pages are committed by its Crawl DO in batches (one Account
   * DO call for this many pages, or for those waiting `crawlProgressMs`; all of them before the
   * crawl ends, and at every alarm); a renderer holds up to its pages in flight at once
   * (src/accounts/credits.ts `CreditPool`). Each page is still charged once: the Crawl DO keeps
   * what it owes in the transaction that takes the page's outcome.
   */
  crawlSettlePages: 8,
  /** The Crawl DO's watchdog while a crawl runs: lost messages and lost renderers are found. */
  crawlWatchdogMs: 30_000,
  /** A queued page whose message has not been claimed for this long is sent again. */
  crawlQueuedStallMs: 60_000,
  /** A page rendering this long lost its renderer (longer than any capture's hard deadline). */
  crawlRenderStallMs: 5 * 60_000,
  /**
   * A renderer of a crawl page takes the crawl's next pages itself for up to this long
   * (src/crawl/page-run.ts), then leaves the rest to queue messages: one queue invocation is not
   * held for ever, and locally other messages of the queue get their turn. Locally each new
   * invocation costs a dip (the batch's wait, a page alone).
   */
  crawlTakeMoreMs: 60_000,
  /**
   * A crawl's pages are rendered in pages kept open between them (src/capture/host/lane-pages.ts):
   * the captures one page serves at most, how long it waits idle for the next, and the idle pages
   * a browser keeps at most. A page retires after 100 captures, as Crawlee retires a browser
   * after 100 pages: a retirement is a new context, renderer and page setup (~5 % of a
   * 131-page crawl's CPU at 25 uses), and a kept renderer grew 157 → 187 MB from its 25th to its
   * 100th page (docs/CRAWL.md).
   */
  lanePageUses: 100,
  laneIdleMs: 15_000,
  lanePagesIdle: 8,
  /** A kept page is frozen once it has waited this long (a busy lane takes it back sooner). */
  laneFreezeMs: 250,
  /** Skipped URLs (out of scope, excluded…) a crawl lists, beyond its rendered pages. */
  crawlSkippedRows: 2_000,
  /**
   * URLs a crawl keeps waiting (src/crawl/frontier.ts `pendingCap`): this many per page of its
   * `limit`, at least `crawlPendingMin`; links found beyond are left out (docs/CRAWL.md, "Scale").
   */
  crawlPendingPerPage: 2,
  crawlPendingMin: 200,
  /**
   * Glob work (src/crawl/glob.ts's meter: DFA lookups and NFA steps) one batch of found links may
   * cost, a page's or the sitemaps'. Measured on a loaded 2-core machine: ~18M steps a second
   * for the worst mix (DFA states built up to the cap, then the NFA), ~33M for the NFA alone,
   * ~40M for lookups, so ~0.2–0.45 s. Links past it are skipped, reason `pattern_budget`.
   * Ordinary globs cost at most a lookup a character and usually stop at the first mismatch.
   */
  crawlPatternSteps: 8_000_000,
  /** robots.txt and sitemap fetches: the time each may take, and sitemap documents a crawl reads. */
  crawlFetchTimeoutMs: 10_000,
  /**
   * The most of a page's document a crawl reads over HTTP (`render: "never"`/`"auto"`): parsing
   * and converting it runs on the Worker's one thread, so it stays well under the 5 MB a rendered
   * page's HTML may be. Past it: `auto` renders the page in the browser, `never` fails it.
   */
  crawlHttpPageBytes: 2 * 1024 * 1024,
  crawlSitemapDocuments: 200,
  /** Dashboard login throttle: failed attempts per email, and per client address, in one window. */
  loginFailuresPerEmail: 5,
  loginFailuresPerAddress: 20,
  loginWindowMs: 15 * 60_000,
} as const;
