/**
 * guardedFetch inside workerd, against the crawl fixture site (allowlisted) and the canary (NOT
 * allowlisted): every hop through the outbound rule before it is requested — a redirect to the
 * canary, a private address, an unsafe host or a name resolving to loopback is refused and no
 * request reaches it — any status answered, a byte cap on bodies of known and unknown length,
 * one deadline, five redirects at most; and a gzipped sitemap read where it runs.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { guardedFetch, MAX_REDIRECTS } from "../../src/security/guarded-fetch";
import { CRAWLER_USER_AGENT } from "../../src/crawl/robots";
import { CANARY, FIXTURES, runId, type LoggedRequest } from "../helpers/http";
import { readWhole } from "../helpers/sitemaps";

const SITE = (env as unknown as { CRAWL_SITE_ORIGIN: string }).CRAWL_SITE_ORIGIN;
const OPTS = { maxBytes: 1024 * 1024, timeoutMs: 10_000 };

interface SiteRequest {
  path: string;
  headers: Record<string, string | undefined>;
  at: number;
}
async function siteLog(since: number): Promise<SiteRequest[]> {
  return (await (await fetch(`${SITE}/__log?since=${since}`)).json()) as SiteRequest[];
}
/** Everything the canary received since `since` (any path, any run). */
async function canarySince(since: number): Promise<LoggedRequest[]> {
  const all = (await (await fetch(`${CANARY}/__log`)).json()) as Array<
    LoggedRequest & { at: number }
  >;
  return all.filter((r) => r.at >= since);
}
/** The fixture server's redirect to `to`. */
const redirectTo = (to: string, run = runId()) =>
  `${FIXTURES}/redirect?run=${run}&to=${encodeURIComponent(to)}`;

describe("guardedFetch: answers", () => {
  it("robots.txt: 200, its type, its bytes, the final URL, our User-Agent", async () => {
    const since = Date.now();
    const result = await guardedFetch(env, `${SITE}/robots.txt`, OPTS);
    expect(result.kind).toBe("ok");
    if (result.kind !== "ok") return;
    expect(result.status).toBe(200);
    expect(result.contentType).toBe("text/plain");
    expect(new TextDecoder().decode(result.body)).toContain("User-agent: Edgeshot");
    expect(result.finalUrl).toBe(`${SITE}/robots.txt`);
    const [request] = (await siteLog(since)).filter((r) => r.path === "/robots.txt");
    expect(request?.headers["user-agent"]).toBe(CRAWLER_USER_AGENT);
  });

  it("any status is an answer: 404 and 500 come back as they are", async () => {
    for (const [path, status] of [
      ["/missing", 404],
      ["/broken", 500],
      ["/no-such-robots.txt", 404],
    ] as const) {
      const result = await guardedFetch(env, `${SITE}${path}`, OPTS);
      expect(result, path).toMatchObject({ kind: "ok", status, finalUrl: `${SITE}${path}` });
    }
  });

  it("follows a redirect on the site: the final URL and its body", async () => {
    const result = await guardedFetch(env, `${SITE}/redirect-ok`, OPTS);
    expect(result).toMatchObject({ kind: "ok", status: 200, finalUrl: `${SITE}/landing` });
    if (result.kind === "ok") expect(new TextDecoder().decode(result.body)).toContain("Landing");
  });

  it(`follows ${MAX_REDIRECTS} redirects, not ${MAX_REDIRECTS + 1}`, async () => {
    // Each chain ends at a target of its own (its query): crawls elsewhere in the run fetch
    // /robots.txt too, and a time window would race the log's clock against workerd's.
    const chain = (hops: number) => {
      const target = `/robots.txt?hops=${hops}-${crypto.randomUUID()}`;
      let url = `${SITE}${target}`;
      for (let i = 0; i < hops; i++) url = redirectTo(url);
      return { url, target };
    };
    const allowed = chain(MAX_REDIRECTS);
    expect(await guardedFetch(env, allowed.url, OPTS)).toMatchObject({
      kind: "ok",
      status: 200,
      finalUrl: `${SITE}${allowed.target}`,
    });
    const tooMany = chain(MAX_REDIRECTS + 1);
    expect(await guardedFetch(env, tooMany.url, OPTS)).toEqual({ kind: "error" });
    const log = await siteLog(0);
    expect(log.filter((r) => r.path === allowed.target)).toHaveLength(1);
    expect(log.filter((r) => r.path === tooMany.target)).toEqual([]);
  });

  it("a gzipped sitemap arrives as gzip bytes and reads (DecompressionStream in workerd)", async () => {
    const result = await guardedFetch(env, `${SITE}/sitemap-more.xml.gz`, OPTS);
    expect(result.kind).toBe("ok");
    if (result.kind !== "ok") return;
    expect([result.body[0], result.body[1]]).toEqual([0x1f, 0x8b]);
    expect(await readWhole(result.body, result.finalUrl, result.contentType)).toEqual({
      kind: "urlset",
      urls: [45, 46, 47, 48].map((n) => `${SITE}/articles/${n}`).concat(`${SITE}/orphan-gz`),
    });
  });
});

describe("guardedFetch: refused before any request", () => {
  it("a redirect to the canary is refused (blocked); the canary sees nothing", async () => {
    const since = Date.now();
    const run = runId();
    expect(await guardedFetch(env, `${SITE}/redirect-private`, OPTS)).toEqual({
      kind: "refused",
      reason: "blocked",
    });
    expect(
      await guardedFetch(env, redirectTo(`${CANARY}/crawl-canary?run=${run}`, run), OPTS),
    ).toEqual({ kind: "refused", reason: "blocked" });
    // Two hops in: site → fixture → canary.
    expect(await guardedFetch(env, redirectTo(`${SITE}/redirect-private`, run), OPTS)).toEqual({
      kind: "refused",
      reason: "blocked",
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await canarySince(since)).map((r) => r.path)).toEqual([]);
  });

  it("private, non-http(s), credentialed and loopback-resolving URLs are blocked", async () => {
    const since = Date.now();
    for (const url of [
      `${CANARY}/crawl-canary`,
      "http://10.0.0.1/robots.txt",
      "http://169.254.169.254/latest/meta-data/",
      "http://[::1]/robots.txt",
      "http://localhost/robots.txt",
      "file:///etc/passwd",
      "ftp://example.com/robots.txt",
      "not a url",
      `${SITE.replace("http://", "http://user:secret@")}/robots.txt`,
      "http://a.rebind.example.com/robots.txt", // resolves to 127.0.0.1 (the DoH fake)
      redirectTo("http://a.rebind.example.com/robots.txt"),
      redirectTo("http://10.0.0.1/"),
      redirectTo("file:///etc/passwd"),
    ]) {
      expect(await guardedFetch(env, url, OPTS), url).toEqual({
        kind: "refused",
        reason: "blocked",
      });
    }
    expect((await canarySince(since)).map((r) => r.path)).toEqual([]);
    expect(
      (await siteLog(since)).filter((r) => r.path === "/robots.txt"),
      "credentials are refused before the request",
    ).toEqual([]);
  });

  it("an unsafe host, directly or through a redirect, is refused as unsafe", async () => {
    for (const url of [
      "http://listed.example.org/robots.txt",
      "http://deep.wild.example.org/sitemap.xml",
      redirectTo("http://listed.example.org/robots.txt"),
    ]) {
      expect(await guardedFetch(env, url, OPTS), url).toEqual({
        kind: "refused",
        reason: "unsafe",
      });
    }
  });

  it("a name that does not resolve is an error, not a refusal", async () => {
    expect(await guardedFetch(env, "http://no-such-name.example.com/robots.txt", OPTS)).toEqual({
      kind: "error",
    });
  });
});

describe("guardedFetch: limits", () => {
  it("a body past maxBytes is an error, with or without a Content-Length", async () => {
    const declared = await guardedFetch(env, `${SITE}/sitemap-pages.xml`, OPTS);
    expect(declared.kind).toBe("ok");
    if (declared.kind !== "ok") return;
    const size = declared.body.byteLength;
    expect(
      await guardedFetch(env, `${SITE}/sitemap-pages.xml`, { ...OPTS, maxBytes: size }),
    ).toMatchObject({ kind: "ok" });
    expect(
      await guardedFetch(env, `${SITE}/sitemap-pages.xml`, { ...OPTS, maxBytes: size - 1 }),
    ).toEqual({ kind: "error" });

    const chunked = await guardedFetch(env, `${SITE}/sitemap-chunked.xml`, {
      ...OPTS,
      maxBytes: 4 * 1024 * 1024,
    });
    expect(chunked.kind).toBe("ok");
    if (chunked.kind === "ok") expect(chunked.body.byteLength).toBeGreaterThan(1_000_000);
    expect(
      await guardedFetch(env, `${SITE}/sitemap-chunked.xml`, { ...OPTS, maxBytes: 100_000 }),
    ).toEqual({ kind: "error" });
  });

  it("one deadline: a 3 s page with 500 ms is an error, well before 3 s", async () => {
    const started = Date.now();
    expect(await guardedFetch(env, `${SITE}/slow`, { ...OPTS, timeoutMs: 500 })).toEqual({
      kind: "error",
    });
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});
