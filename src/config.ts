/**
 * Deployment configuration, checked once per environment object with zod at the entry:
 * a missing secret fails fast with a clear message in the logs (and a 503 to the caller).
 */
import { z } from "zod";
import { ApiError } from "./errors";
import { allowlistFrom, canonicalHostPattern, normalizeHost } from "./hosts";
import { log } from "./log";
import { TUNING } from "./tuning";

/** The default DoH resolver (DOH_ENDPOINT), for the DNS check of src/security/dns.ts. */
export const DOH_URL = "https://cloudflare-dns.com/dns-query";
/** Safe Browsing Lookup API v4 (SAFE_BROWSING_ENDPOINT), for src/security/reputation.ts. */
export const SAFE_BROWSING_URL = "https://safebrowsing.googleapis.com/v4/threatMatches:find";
/**
 * The geo providers by GEO_PROVIDER name, with where each one's API lives (GEO_ENDPOINT
 * overrides it). Their adapters are src/capture/geo/providers.ts, one per name.
 */
export const GEO_PROVIDER_ENDPOINTS = {
  scrapingbee: "https://app.scrapingbee.com",
} as const;

export type GeoProviderName = keyof typeof GEO_PROVIDER_ENDPOINTS;

const hostPort = /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/;

const schema = z
  .object({
    ADMIN_TOKEN: z.string().min(16, "ADMIN_TOKEN must be set (16+ characters)"),
    URL_SIGNING_SECRET: z.string().min(16, "URL_SIGNING_SECRET must be set (16+ characters)"),
    WEBHOOK_SIGNING_SECRET: z
      .string()
      .min(16, "WEBHOOK_SIGNING_SECRET must be set (16+ characters)"),
    STORAGE_ENCRYPTION_KEY: z
      .string()
      .min(32, "STORAGE_ENCRYPTION_KEY must be set (32+ characters)"),
    SAFE_BROWSING_API_KEY: z.string().optional().default(""),
    SAFE_BROWSING_ENDPOINT: z.url({ protocol: /^https?$/ }).default(SAFE_BROWSING_URL),
    // Past it a lookup fails open; tests give their local fake longer (a loaded machine).
    SAFE_BROWSING_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(100)
      .max(10_000)
      .default(TUNING.safeBrowsingTimeoutMs),
    UNSAFE_HOST_PATTERNS: z
      .string()
      .default("")
      .transform((s, ctx) =>
        s
          .split(",")
          .map((e) => e.trim())
          .filter(Boolean)
          .flatMap((raw) => {
            const pattern = canonicalHostPattern(raw);
            if (pattern === null)
              ctx.addIssue(`entries must be host or *.host patterns: ${JSON.stringify(raw)}`);
            return pattern === null ? [] : [pattern];
          }),
      ),
    DNS_CHECK: z.enum(["on", "off"]).default("on"),
    DOH_ENDPOINT: z.url({ protocol: /^https?$/ }).default(DOH_URL),
    TARGET_ALLOWLIST: z
      .string()
      .default("")
      .transform((s) =>
        s
          .split(",")
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(hostPort, "entries must be host:port"))),
    PUBLIC_BASE_URL: z.string().default(""),
    DOCS_URL: z.string().default("/docs"),
    BROWSER_HOSTS: z.coerce.number().int().min(1).max(32).default(2),
    HEAVY_BROWSER_HOSTS: z.coerce.number().int().min(1).max(32).default(1),
    // Below 30 s a job still being captured (or waiting out a retry backoff) would be taken for
    // stuck; above a day it is not a deadline any more.
    JOB_STUCK_AFTER_SECONDS: z.coerce
      .number()
      .int()
      .min(30)
      .max(86_400)
      .default(TUNING.jobStuckAfterMs / 1000),
    // Shorter backoffs for tests and a quick local loop; longer ones would near the 30 s floor of
    // JOB_STUCK_AFTER_SECONDS (a job waiting out a 3 × base backoff must not look stuck).
    CAPTURE_RETRY_BASE_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(TUNING.captureRetryBaseSeconds)
      .default(TUNING.captureRetryBaseSeconds),
    // The crawl watchdog's windows (src/crawl/frontier.ts `requeueStalled`): a queued page whose
    // message was lost, a rendering page whose renderer died. Shorter ones let a test (and a local
    // loop) see a restart recovered in seconds; the rendering one must outlast a capture's hard
    // deadline in production, or slow pages are loaded twice (still reported and charged once).
    CRAWL_QUEUED_STALL_SECONDS: z.coerce
      .number()
      .int()
      .min(5)
      .max(3600)
      .default(TUNING.crawlQueuedStallMs / 1000),
    CRAWL_RENDER_STALL_SECONDS: z.coerce
      .number()
      .int()
      .min(5)
      .max(3600)
      .default(TUNING.crawlRenderStallMs / 1000),
    WATERMARK_TEXT: z.string().default("edgeshot.dev"),
    AD_BLOCK_EXTRA_HOSTS: z
      .string()
      .default("")
      .transform((s) => s.split(",").map(normalizeHost).filter(Boolean))
      .pipe(z.array(z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)*$/, "entries must be host names"))),
    GEO_PROVIDER: z
      .union([
        z.literal(""),
        z.enum(Object.keys(GEO_PROVIDER_ENDPOINTS) as [GeoProviderName, ...GeoProviderName[]]),
      ])
      .default(""),
    GEO_ENDPOINT: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]).default(""),
    GEO_API_KEY: z.string().optional().default(""),
  })
  .superRefine((e, ctx) => {
    if (e.GEO_PROVIDER !== "" && e.GEO_API_KEY === "") {
      ctx.addIssue({
        code: "custom",
        path: ["GEO_API_KEY"],
        message: "GEO_API_KEY must be set when GEO_PROVIDER is",
      });
    }
  });

/** The geo provider's adapter, where it is asked and with which key; null = geo not offered. */
export interface GeoConfig {
  provider: GeoProviderName;
  endpoint: string;
  apiKey: string;
}

export interface Config {
  adminToken: string;
  urlSigningSecret: string;
  webhookSigningSecret: string;
  /** Seals customers' storage-destination secrets at rest (src/storage/secrets.ts). */
  storageEncryptionKey: string;
  safeBrowsingApiKey: string;
  /** Safe Browsing Lookup API v4 `threatMatches:find` URL (a local fake in tests). */
  safeBrowsingEndpoint: string;
  /** How long a Safe Browsing lookup may take before it fails open. */
  safeBrowsingTimeoutMs: number;
  /** Canonical host patterns flagged as unsafe (`host` = it and subdomains, `*.host`). */
  unsafeHostPatterns: readonly string[];
  /** Resolve target names over DoH and refuse those with blocked addresses (fail closed). */
  dnsCheck: boolean;
  dohEndpoint: string;
  targetAllowlist: ReadonlySet<string>;
  publicBaseUrl: string;
  docsUrl: string;
  browserHosts: number;
  /** The heavy lane's BrowserHost shards (pipeline/engine.ts): captures of giant rasters. */
  heavyBrowserHosts: number;
  /** A queued/processing job that has not moved for this long is swept (src/jobs/store/sweep.ts). */
  jobStuckAfterMs: number;
  /** Backoff before capture retry n (1-based): this × 3^(n−1) seconds. */
  captureRetryBaseSeconds: number;
  /** How long a crawl page may stay queued or rendering before the watchdog sends it again. */
  crawlStall: { queuedMs: number; renderingMs: number };
  watermarkText: string;
  /** Hosts blocked with blockAds on top of the curated list (src/data/ad-hosts.ts). */
  adBlockExtraHosts: readonly string[];
  /** Geo-targeted captures (docs/GEO.md); null when GEO_PROVIDER is empty. */
  geo: GeoConfig | null;
  deploymentId: string;
}

const cache = new WeakMap<object, Config>();

export function config(env: Env): Config {
  const hit = cache.get(env);
  if (hit) return hit;
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    log("error", "invalid configuration", {
      issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
    });
    throw new ApiError("CONFIGURATION_ERROR", "The service is not configured correctly.");
  }
  const e = parsed.data;
  const cfg: Config = {
    adminToken: e.ADMIN_TOKEN,
    urlSigningSecret: e.URL_SIGNING_SECRET,
    webhookSigningSecret: e.WEBHOOK_SIGNING_SECRET,
    storageEncryptionKey: e.STORAGE_ENCRYPTION_KEY,
    safeBrowsingApiKey: e.SAFE_BROWSING_API_KEY,
    safeBrowsingEndpoint: e.SAFE_BROWSING_ENDPOINT,
    safeBrowsingTimeoutMs: e.SAFE_BROWSING_TIMEOUT_MS,
    unsafeHostPatterns: e.UNSAFE_HOST_PATTERNS,
    dnsCheck: e.DNS_CHECK === "on",
    dohEndpoint: e.DOH_ENDPOINT,
    targetAllowlist: allowlistFrom(e.TARGET_ALLOWLIST),
    publicBaseUrl: e.PUBLIC_BASE_URL.replace(/\/+$/, ""),
    docsUrl: e.DOCS_URL,
    browserHosts: e.BROWSER_HOSTS,
    heavyBrowserHosts: e.HEAVY_BROWSER_HOSTS,
    jobStuckAfterMs: e.JOB_STUCK_AFTER_SECONDS * 1000,
    captureRetryBaseSeconds: e.CAPTURE_RETRY_BASE_SECONDS,
    crawlStall: {
      queuedMs: e.CRAWL_QUEUED_STALL_SECONDS * 1000,
      renderingMs: e.CRAWL_RENDER_STALL_SECONDS * 1000,
    },
    watermarkText: e.WATERMARK_TEXT,
    adBlockExtraHosts: e.AD_BLOCK_EXTRA_HOSTS,
    geo:
      e.GEO_PROVIDER === ""
        ? null
        : {
            provider: e.GEO_PROVIDER,
            endpoint: (e.GEO_ENDPOINT || GEO_PROVIDER_ENDPOINTS[e.GEO_PROVIDER]).replace(
              /\/+$/,
              "",
            ),
            apiKey: e.GEO_API_KEY,
          },
    deploymentId: env.CF_VERSION_METADATA?.id || "local",
  };
  cache.set(env, cfg);
  return cfg;
}
