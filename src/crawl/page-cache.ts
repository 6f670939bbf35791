/**
 * The account's crawled pages, kept for its later crawls (docs/CRAWL.md, "Incremental crawls"):
 * every page a crawl loads (rendered, in the browser or over HTTP) is written to R2 under
 * `crawl-cache/<accountId>/<sha256 of the URL and the options that shape its result>.json`, with
 * its result, its bodies, its links and the validators its answer carried (ETag, Last-Modified).
 *
 * A later crawl of the same account with the same formats, render mode and page options reads it:
 * within `maxAge` it is reused as it is (no request); older, or with `modifiedSince`, its
 * validators make the page's request conditional, and a 304 reuses it. Why R2: the entry is a
 * page's bodies (up to a few MB), read once per page by the renderer (never in a Durable Object,
 * which would serialise the crawl's pages through one thread), and expires like every hosted
 * output (metadata `expires`, honoured by the hourly sweep) after `CRAWL.pageCacheSeconds`.
 *
 * Not kept: crawls asking for a screenshot (the image's signed URL is the crawl's own, and
 * reusing a page without its screenshot would not be the page asked for) and a monitor's checks
 * (they compare what they load).
 */
import { CRAWL } from "../../schemas/limits";
import { sha256Hex } from "../encoding";
import { log } from "../log";
import { objectLifetime } from "../storage/hosted";
import type { CrawlConfig } from "./config";
import type { PageResult } from "./frontier";
import type { Bodies, Conditional } from "./http-page";
import type { Discovered } from "./links";

export interface CachedPage {
  /** When the page was loaded (epoch ms). */
  loadedAt: number;
  /** Its result as it was loaded, without where its bodies were placed (a crawl's own URLs). */
  result: Omit<PageResult, "contentUrl" | "screenshotUrl" | "cachedAt">;
  bodies: Bodies;
  links: Discovered[];
  /** Validators of the answer: set when the page's document was fetched over HTTP. */
  etag?: string;
  lastModified?: string;
}

/** Whether a crawl's pages are kept for later crawls. */
export function cacheable(config: CrawlConfig): boolean {
  return config.monitor === undefined && !config.formats.includes("screenshot");
}

/** The R2 key of `url`'s entry for the crawl's account and options. */
export async function pageCacheKey(config: CrawlConfig, url: string): Promise<string> {
  const shape = JSON.stringify({
    url,
    formats: [...config.formats].sort(),
    fields: config.fields ?? null,
    kind: config.kind ?? null,
    render: config.render ?? "always",
    options: Object.fromEntries(
      Object.entries(config.options).sort(([a], [b]) => a.localeCompare(b)),
    ),
  });
  return `crawl-cache/${config.accountId}/${await sha256Hex(shape)}.json`;
}

/** The entry under `key`, or null (none, expired, unreadable). */
export async function readCachedPage(env: Env, key: string): Promise<CachedPage | null> {
  try {
    const object = await env.OUTPUTS.get(key);
    if (!object) return null;
    if (objectLifetime(object) <= 0) {
      await object.body.cancel();
      return null;
    }
    const entry = (await object.json()) as CachedPage;
    return typeof entry.loadedAt === "number" ? entry : null;
  } catch (err) {
    log("warn", "crawl: page cache unreadable", { error: String(err) });
    return null;
  }
}

/** Writes a loaded page's entry (a failure is logged: the crawl's page stands without it). */
export async function writeCachedPage(
  env: Env,
  config: CrawlConfig,
  key: string,
  entry: CachedPage,
): Promise<void> {
  const expires = Math.floor(entry.loadedAt / 1000) + CRAWL.pageCacheSeconds;
  try {
    await env.OUTPUTS.put(key, JSON.stringify(entry), {
      httpMetadata: { contentType: "application/json" },
      customMetadata: { expires: String(expires), accountId: config.accountId },
    });
  } catch (err) {
    log("warn", "crawl: page cache not written", { error: String(err) });
  }
}

/** The validators an entry's page answered with, for a conditional request; null without any. */
export function conditionalOf(entry: CachedPage | null): Conditional | undefined {
  if (!entry || (!entry.etag && !entry.lastModified) || !entry.result.finalUrl) return undefined;
  return {
    finalUrl: entry.result.finalUrl,
    ...(entry.etag ? { etag: entry.etag } : {}),
    ...(entry.lastModified ? { lastModified: entry.lastModified } : {}),
  };
}
