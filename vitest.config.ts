import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { unstable_readConfig } from "wrangler";
import { buildAssets } from "./scripts/lib/assets.mjs";

// The static assets wrangler.toml [assets] points at (public/): workerd's ASSETS binding and the
// e2e project's `wrangler dev` serve them, so they are in place before either starts.
buildAssets();

/**
 * The fixture server's port (FIXTURE_PORT overrides it, so parallel runs do not collide) and
 * the loopback origins the URL guard lets through in tests (and nowhere else): the fixture
 * server and the port above it, which tests use as a "second site".
 */
const FIXTURE_PORT = Number(process.env.FIXTURE_PORT ?? 4010);
process.env.FIXTURE_PORT = String(FIXTURE_PORT);
const FIXTURES = `127.0.0.1:${FIXTURE_PORT},127.0.0.1:${FIXTURE_PORT + 1}`;
/** The S3-compatible test server (s3rver, test/fixtures/s3.ts): storage destinations' endpoint. */
const S3_FIXTURE = `127.0.0.1:${FIXTURE_PORT + 2}`;
/** The crawl fixture site (test/fixtures/crawl-site.ts), its own server with its own log. */
const CRAWL_SITE = `127.0.0.1:${FIXTURE_PORT + 11}`;
/** The crawl site at scale (a sitemap index of 100,000 URLs, generated when asked): maps. */
const SCALE_SITE = `127.0.0.1:${FIXTURE_PORT + 15}`;
/**
 * "Your own app": a fixture server on FIXTURE_PORT + 13, listening on both loopback addresses
 * as a dev server does, allowlisted by the name a developer types (docs/SECURITY.md).
 */
const LOCAL_APP = `localhost:${FIXTURE_PORT + 13}`;
/** An app that is not running: allowlisted, and nothing listens on FIXTURE_PORT + 14. */
const STOPPED_APP = `localhost:${FIXTURE_PORT + 14}`;
/** A third-party name for the fixture server (Chromium resolves *.localhost to loopback itself). */
const AD_FIXTURE_HOST = "ads.localhost";

export const TEST_SECRETS = {
  ADMIN_TOKEN: "test-admin-token-0123456789abcdef",
  URL_SIGNING_SECRET: "test-url-signing-secret-0123456789",
  WEBHOOK_SIGNING_SECRET: "test-webhook-signing-secret-0123456",
  STORAGE_ENCRYPTION_KEY: "test-storage-encryption-key-0123456789abcdef",
  SAFE_BROWSING_API_KEY: "",
};

/**
 * Tests live by feature (test/capture/, test/crawl/, …); a file's name says where it runs:
 *
 *   *.node.test.ts    plain code, in Node (no workerd, no browser);
 *   *.test.ts         inside workerd, with the worker's bindings and Chromium behind BROWSER;
 *   *.timed.test.ts   inside workerd, alone after everything else, one file at a time: its
 *                     assertions bound wall time (CPU bounds of Mustache and Markdown, the
 *                     capture deadline, "fast" refusals of hostile bodies, the fair-CPU hold) or
 *                     it renders the largest outputs, so no other file's load may stretch its clocks;
 *   *.e2e.test.ts     in Node, against one `wrangler dev` (and a real browser where it needs one).
 */
const NODE = "test/**/*.node.test.ts";
const TIMED = "test/**/*.timed.test.ts";
const E2E = "test/**/*.e2e.test.ts";

/**
 * wrangler.toml's queue consumers with one `max_batch_timeout` (seconds). Local Queues
 * (miniflare) deliver a queue's next batch only when the one before has finished, and wait up
 * to this long for a batch to fill first: with wrangler.toml's 1 s (5 s for the dead-letter
 * queues) a default crawl, or a chain of watch runs, waited about that long between every two
 * batches (docs/CRAWL.md, "Known limits"). Long enough still to gather the pages a crawl
 * dispatches together (its Crawl-delay is 0.1 s), and the same for every queue (capture-jobs,
 * 0 in wrangler.toml, included: the tests were written against it); batch sizes, retries and
 * dead-letter queues stay as wrangler.toml has them. Tests only: production Queues have no such gap.
 */
const QUEUE_BATCH_TIMEOUT_S = 0.25;
interface QueueConsumer {
  queue: string;
  max_batch_size?: number;
  max_batch_timeout?: number;
  max_retries?: number;
  dead_letter_queue?: string;
  retry_delay?: number;
}
const consumers: QueueConsumer[] =
  unstable_readConfig({ config: "./wrangler.toml" }).queues.consumers ?? [];
const queueConsumers = Object.fromEntries(
  consumers.map((c) => [
    c.queue,
    {
      maxBatchSize: c.max_batch_size,
      maxBatchTimeout: QUEUE_BATCH_TIMEOUT_S,
      maxRetries: c.max_retries,
      deadLetterQueue: c.dead_letter_queue,
      retryDelay: c.retry_delay,
    },
  ]),
);

/** One workerd with the worker's bindings; each workers project starts its own. */
const inWorkerd = () =>
  cloudflareTest({
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      queueConsumers,
      bindings: {
        ...TEST_SECRETS,
        // Capture retries back off 1 s, 3 s instead of 5 s, 15 s: watch and job tests that fail
        // through the real queue wait out every retry (jobs-consumer.test.ts checks the default).
        CAPTURE_RETRY_BASE_SECONDS: "1",
        // wrangler.toml ships the production pool (8); one local browser is enough here.
        BROWSER_HOSTS: "1",
        TARGET_ALLOWLIST: `${FIXTURES},${AD_FIXTURE_HOST}:${FIXTURE_PORT},${S3_FIXTURE},${CRAWL_SITE},${SCALE_SITE},${LOCAL_APP},${STOPPED_APP}`,
        S3_ORIGIN: `http://${S3_FIXTURE}`,
        AD_BLOCK_EXTRA_HOSTS: AD_FIXTURE_HOST,
        FIXTURE_ORIGIN: `http://127.0.0.1:${FIXTURE_PORT}`,
        CRAWL_SITE_ORIGIN: `http://${CRAWL_SITE}`,
        SCALE_SITE_ORIGIN: `http://${SCALE_SITE}`,
        // Unsafe URLs and the DNS check against local fakes (test/fixtures/fakes/).
        SAFE_BROWSING_API_KEY: "test-safe-browsing-key-0123456789", // = SAFE_BROWSING_TEST_KEY of the fake
        SAFE_BROWSING_ENDPOINT: `http://127.0.0.1:${FIXTURE_PORT + 4}/v4/threatMatches:find`,
        // The fake answers at once, but a loaded machine once kept it past the default 1.5 s:
        // the lookup failed open (then skipped for 30 s) and a flagged URL was captured.
        SAFE_BROWSING_TIMEOUT_MS: "10000",
        UNSAFE_HOST_PATTERNS: "listed.example.org,*.wild.example.org",
        DNS_CHECK: "on",
        DOH_ENDPOINT: `http://127.0.0.1:${FIXTURE_PORT + 5}/dns-query`,
        // Geo captures through the local ScrapingBee fake (test/fixtures/fakes/scrapingbee.ts).
        GEO_PROVIDER: "scrapingbee",
        GEO_ENDPOINT: `http://127.0.0.1:${FIXTURE_PORT + 10}`,
        GEO_API_KEY: "test-geo-provider-key-0123456789", // = GEO_TEST_KEY of the fake
      },
    },
  });

export default defineConfig({
  test: {
    globalSetup: ["./test/fixtures/global-setup.ts"],
    // Files at a time: two by default (TEST_WORKERS overrides it). Most of a capture test's time
    // is waiting (the page, the network-idle window, delays, queues), so a second file fills the
    // idle core; a third gains little on two cores (docs/TESTING.md).
    // The timed project runs alone afterwards either way.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: [NODE],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [inWorkerd()],
        test: {
          name: "workers",
          // One workerd (and one Chromium, through the BROWSER binding) for all these files,
          // rather than a fresh pair per file: their data is apart by account and run id
          // (docs/TESTING.md).
          isolate: false,
          include: ["test/**/*.test.ts"],
          exclude: [NODE, TIMED, E2E],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [inWorkerd()],
        test: {
          name: "timed",
          isolate: false,
          include: [TIMED],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: [E2E],
          // One `wrangler dev` for every e2e file (scripts/lib/service.mjs).
          globalSetup: ["./test/fixtures/e2e-service.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
