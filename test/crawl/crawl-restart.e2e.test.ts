/**
 * A crawl survives a restart of the Worker (docs/CRAWL.md, "How it runs"): a `wrangler dev` of
 * its own is stopped mid-crawl — its local queue's messages are lost with it — and started again
 * on the same storage. The Crawl DO's alarm persists; its watchdog (5 s windows here, through
 * CRAWL_QUEUED_STALL_SECONDS / CRAWL_RENDER_STALL_SECONDS) sends the lost pages again, and the
 * crawl completes with every page listed once and charged once. `render: "never"`: no browser,
 * so the restart is the test's only slow part. The crawl fixture site is its own too, so its
 * request log holds this crawl's requests only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import type { Server } from "node:http";
import { freePort, startService } from "../../scripts/lib/service.mjs";
import { TEST_SECRETS } from "../../vitest.config";
import { startCrawlSite } from "../fixtures/crawl-site";
import { createAccount } from "../helpers/e2e";

const dir = mkdtempSync(join(tmpdir(), "edgeshot-restart-"));
let site: Server | null = null;
let service: Awaited<ReturnType<typeof startService>> | null = null;
afterAll(async () => {
  await service?.stop(5000);
  site?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Summary {
  status: string;
  counts: { rendered: number; failed: number; skipped: number };
  creditsUsed: number;
}

it("a crawl stopped mid-run by a restart completes; every page listed once, charged once", async () => {
  // A crawl site of its own: the shared one's log also holds the other e2e files' crawls.
  const sitePort = await freePort();
  site = await startCrawlSite(sitePort);
  const origin = `http://127.0.0.1:${sitePort}`;
  service = await startService({
    persistTo: join(dir, "state"),
    output: join(dir, "wrangler.log"),
    timeoutMs: 120_000,
    vars: {
      ...TEST_SECRETS,
      BROWSER_HOSTS: "1",
      TARGET_ALLOWLIST: `127.0.0.1:${sitePort}`,
      CRAWL_QUEUED_STALL_SECONDS: "5",
      CRAWL_RENDER_STALL_SECONDS: "5",
    },
  });
  const { port } = service;
  const account = await createAccount(service.base, "pro");
  const auth = { authorization: `Bearer ${account.apiKey}` };
  const api = async <T>(path: string, init: RequestInit = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      ...init,
      headers: { ...auth, "content-type": "application/json" },
    });
    return { status: res.status, data: ((await res.json()) as { data: T }).data };
  };
  const since = Date.now();
  const started = await api<{ crawlId: string }>("/v1/crawl", {
    method: "POST",
    body: JSON.stringify({ url: `${origin}/`, render: "never", limit: 100 }),
  });
  expect(started.status).toBe(202);
  const path = `/v1/crawl/${started.data.crawlId}`;

  // Stopped while /slow (answered after 3 s) is being fetched: a page surely in flight.
  const siteLog = async () =>
    (await (await fetch(`${origin}/__log?since=${since}`)).json()) as {
      method: string;
      path: string;
    }[];
  for (let i = 0; i < 1200 && !(await siteLog()).some((e) => e.path === "/slow"); i++)
    await new Promise((r) => setTimeout(r, 50));
  const before = (await api<Summary>(path)).data;
  expect(before.status).toBe("running");
  await service.stop(5000);
  await service.start();

  let after: Summary | null = null;
  for (let i = 0; i < 240; i++) {
    after = (await api<Summary>(path)).data;
    if (after.status !== "running" && after.status !== "queued") break;
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(after?.status).toBe("completed");
  // /slow was in flight when it stopped: the watchdog sent it again.
  expect(service.output()).toContain("crawl: page stalled, sending again");
  expect(after?.counts.rendered).toBeGreaterThan(before.counts.rendered);

  // Every page once in the listing, and the credits those pages cost, charged once.
  const pages: Array<{ url: string; status: string }> = [];
  let cursor: string | null = "";
  while (cursor !== null) {
    const q: string = cursor ? `&cursor=${cursor}` : "";
    const page = await api<{ pages: typeof pages; nextCursor: string | null }>(
      `${path}/pages?limit=100${q}`,
    );
    pages.push(...page.data.pages);
    cursor = page.data.nextCursor;
  }
  expect(pages.length).toBe(new Set(pages.map((p) => p.url)).size);
  const rendered = pages.filter((p) => p.status === "rendered").length;
  expect(rendered).toBe(after?.counts.rendered);
  // HTTP pages cost half a credit: n pages, ⌈n/2⌉.
  expect(after?.creditsUsed).toBe(Math.ceil(rendered / 2));
  const account_ = await api<{ usage: { used: number } }>("/v1/account");
  expect(account_.data.usage.used).toBe(Math.ceil(rendered / 2));

  // The site saw each page (robots.txt is read again after a restart) at most twice — once, or
  // again when the restart lost it — and /slow
  // twice; it is listed once, rendered.
  const gets = new Map<string, number>();
  for (const e of await siteLog())
    if (e.method === "GET" && e.path !== "/robots.txt")
      gets.set(e.path, (gets.get(e.path) ?? 0) + 1);
  expect(Math.max(...gets.values())).toBeLessThanOrEqual(2);
  expect(gets.get("/slow")).toBe(2);
  expect(pages.filter((p) => new URL(p.url).pathname === "/slow")).toMatchObject([
    { status: "rendered" },
  ]);
}, 300_000);
