/** Hosted outputs: hosted: true → signed /v1/images URL; signature, expiry, HEAD, 304, sweep. */
import { env } from "cloudflare:workers";
import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { ApiError } from "../../src/errors";
import { storeResult } from "../../src/pipeline/storage";
import { signedImageUrl, storeOutput, sweepExpired } from "../../src/storage/hosted";
import { Capturer } from "../helpers/capture";
import { BASE, call, envelope, FIXTURES, runId } from "../helpers/http";
import { outputSize } from "../helpers/images";

let cap: Capturer;
let hosted: { url: string; expiresAt: string };
beforeAll(async () => {
  cap = await Capturer.create("pro");
  const { res, bytes } = await cap.post({
    url: `${FIXTURES}/boxes.html?run=${runId()}`,
    hosted: true,
    cacheTtl: 7200,
    width: 320,
    height: 240,
    deviceScaleFactor: 1,
    waitUntil: "load",
    blockAds: false,
  });
  expect(res.status).toBe(200);
  hosted = JSON.parse(new TextDecoder().decode(bytes)).data;
});

const path = (url: string) => url.slice(url.indexOf("/v1/images/"));

describe("hosted outputs", () => {
  it("returns a signed URL on this origin that expires after cacheTtl", () => {
    expect(hosted.url.startsWith(`${BASE}/v1/images/`)).toBe(true);
    const lifetime = (Date.parse(hosted.expiresAt) - Date.now()) / 1000;
    expect(lifetime).toBeGreaterThan(7100);
    expect(lifetime).toBeLessThanOrEqual(7200);
  });

  it("serves the bytes with content type, ETag and a cache lifetime from the remaining expiry", async () => {
    const res = await call(path(hosted.url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get("cache-control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(7000);
    expect(maxAge).toBeLessThanOrEqual(7200);
    expect(res.headers.get("etag")).toBeTruthy();
    expect(outputSize(new Uint8Array(await res.arrayBuffer()))).toEqual({
      width: 320,
      height: 240,
    });
  });

  it("HEAD gives the headers without a body; If-None-Match gives 304", async () => {
    const head = await call(path(hosted.url), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const etag = head.headers.get("etag") ?? "";
    const cached = await call(path(hosted.url), { headers: { "if-none-match": etag } });
    expect(cached.status).toBe(304);
    expect((await cached.arrayBuffer()).byteLength).toBe(0);
  });

  it("tampered key, expiry or signature → 403 FORBIDDEN", async () => {
    const u = new URL(hosted.url);
    const sig = u.searchParams.get("sig") ?? "";
    const flipped = sig.slice(0, -1) + (sig.endsWith("0") ? "1" : "0");
    const variants = [
      `${u.pathname.replace(/[0-9a-f](?=\.png$)/, (d) => (d === "a" ? "b" : "a"))}${u.search}`,
      `${u.pathname}?expires=${Number(u.searchParams.get("expires")) + 1}&sig=${sig}`,
      `${u.pathname}?expires=${u.searchParams.get("expires")}&sig=${flipped}`,
    ];
    for (const v of variants) {
      const res = await call(v);
      expect(res.status, v).toBe(403);
      expect((await envelope(res)).error?.code).toBe("FORBIDDEN");
    }
  });

  it("missing or malformed parameters → 400 INVALID_URL", async () => {
    const u = new URL(hosted.url);
    const e = u.searchParams.get("expires");
    const s = u.searchParams.get("sig");
    for (const q of [
      "",
      `?expires=${e}`,
      `?sig=${s}`,
      `?expires=abc&sig=${s}`,
      `?expires=-1&sig=${s}`,
      `?expires=1e10&sig=${s}`,
      `?expires=${e}&sig=xyz`,
      `?expires=${e}&sig=${s}&sig=${s}`,
      `?expires=${e}&sig=${s?.slice(1)}`,
    ]) {
      const res = await call(`${u.pathname}${q}`);
      expect(res.status, q).toBe(400);
      expect((await envelope(res)).error?.code).toBe("INVALID_URL");
    }
  });

  it("an expired signature → 403, a deleted or expired object → 404", async () => {
    const past = {
      key: "o/00000000-0000-4000-8000-000000000000.png",
      expires: Math.floor(Date.now() / 1000) - 5,
    };
    const expiredSig = await call(path(await signedImageUrl(env, BASE, past)));
    expect(expiredSig.status).toBe(403);

    const stored = await storeOutput(env, {
      bytes: new Uint8Array([1, 2, 3]),
      contentType: "image/png",
      ttlSeconds: 3600,
      accountId: "acc_t",
    });
    const url = path(await signedImageUrl(env, BASE, stored));
    expect((await call(url)).status).toBe(200);
    await env.OUTPUTS.delete(stored.key);
    expect((await call(url)).status).toBe(404);

    // An object whose own expiry has passed is refused even before the sweep.
    const stale = await storeOutput(env, {
      bytes: new Uint8Array([1]),
      contentType: "image/png",
      ttlSeconds: 3600,
      accountId: "acc_t",
    });
    await env.OUTPUTS.put(stale.key, new Uint8Array([1]), {
      httpMetadata: { contentType: "image/png" },
      customMetadata: { expires: "1" },
    });
    expect((await call(path(await signedImageUrl(env, BASE, stale)))).status).toBe(404);
  });

  it("hosted is POST-only (refused on GET) and refused on the JSON route", async () => {
    const get = await cap.get({ url: "https://example.com/", hosted: "true" });
    expect(get.res.status).toBe(400);
    const json = await cap.json({ url: "https://example.com/", hosted: true });
    expect(json.res.status).toBe(400);
    expect(json.body.error?.details?.map((d) => d.path)).toContain("hosted");
  });
});

describe("storing a capture", () => {
  it("a storage failure is the spec's 500 'Failed to store capture result.', never the raw error", async () => {
    const broken = {
      ...env,
      OUTPUTS: {
        put: () => Promise.reject(new Error("R2 internal: bucket edgeshot-outputs unavailable")),
      },
    } as unknown as Env;
    const target = { kind: "hosted", ttlSeconds: 3600, prefix: "o", context: "test" } as const;
    const err = await storeResult(broken, target, {
      result: { bytes: new Uint8Array([1]), contentType: "image/png" },
      accountId: "acc_t",
      headers: {},
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      code: "CAPTURE_FAILED",
      status: 500,
      message: "Failed to store capture result.",
    });
  });
});

describe("expired-output sweep", () => {
  it("deletes expired objects and keeps live ones (also through the cron handler)", async () => {
    const live = await storeOutput(env, {
      bytes: new Uint8Array([1]),
      contentType: "image/png",
      ttlSeconds: 3600,
      accountId: "acc_s",
    });
    const dead = await storeOutput(env, {
      bytes: new Uint8Array([1]),
      contentType: "image/png",
      ttlSeconds: 3600,
      accountId: "acc_s",
    });
    await env.OUTPUTS.put(dead.key, new Uint8Array([1]), { customMetadata: { expires: "1" } });
    expect(await sweepExpired(env)).toBeGreaterThanOrEqual(1);
    expect(await env.OUTPUTS.head(dead.key)).toBeNull();
    expect(await env.OUTPUTS.head(live.key)).not.toBeNull();

    const again = await storeOutput(env, {
      bytes: new Uint8Array([1]),
      contentType: "image/png",
      ttlSeconds: 3600,
      accountId: "acc_s",
    });
    await env.OUTPUTS.put(again.key, new Uint8Array([1]), { customMetadata: { expires: "1" } });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await env.OUTPUTS.head(again.key)).toBeNull();
  });
});
