/**
 * Render links end to end: mint → first GET renders (miss, 1 credit to the owner) → later GETs
 * are free hits with identical bytes; tampering, expiry and hostile queries are 403; concurrent
 * first requests render once; the owner's credits, keys and plan are checked on a miss.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { edgeRequest, forgetKept, readEntry } from "../../src/storage/render-cache";
import { encodePayload, renderCacheKey, signRenderLink } from "../../src/render-links/links";
import { accountDo } from "../helpers/account-do";
import { SMALL_CAPTURE as small } from "../helpers/capture";
import {
  addKey,
  bearer,
  createAccount,
  describeAuthCases,
  revokeKey,
  setAccount,
  type TestAccount,
} from "../helpers/accounts";
import { BASE, call, envelope, FIXTURES, fixtureLog, postJson, runId } from "../helpers/http";
import { outputSize } from "../helpers/images";
import { creditsUsed, expectRefusal } from "../helpers/api";

interface LinkData {
  url: string;
  expiresAt: string;
  format: string;
  cacheTtl: number;
}

/** A public name in the test resolver (test/fixtures/fakes/doh.ts); never fetched here. */
const PUBLIC = "https://public.rebind.example.com/";
const page = (run: string) => ({ ...small, url: `${FIXTURES}/small.html?run=${run}` });
const path = (url: string) => url.slice(url.indexOf("/v1/render"));
const now = () => Math.floor(Date.now() / 1000);

function mintRaw(account: TestAccount, body: Record<string, unknown>): Promise<Response> {
  return postJson("/v1/render/link", body, bearer(account.apiKey));
}

async function mint(account: TestAccount, body: Record<string, unknown>): Promise<LinkData> {
  const res = await mintRaw(account, body);
  const json = await envelope<LinkData>(res);
  if (res.status !== 200 || !json.data)
    throw new Error(`mint: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await call(path(url), { headers });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const used = (account: TestAccount) => creditsUsed(account.apiKey);

/** The link's p, uid and exp, to re-sign variants of it. */
function parts(url: string) {
  const q = new URL(url).searchParams;
  return { p: q.get("p") ?? "", uid: q.get("uid") ?? "", exp: Number(q.get("exp")) };
}

let owner: TestAccount;
beforeAll(async () => {
  owner = await createAccount("pro");
});

describe("POST /v1/render/link", () => {
  describeAuthCases((headers) => postJson("/v1/render/link", { url: PUBLIC }, headers));

  it("returns url, expiresAt, format and cacheTtl; costs no credit; equal params give equal links", async () => {
    const before = await used(owner);
    const a = await mint(owner, { url: PUBLIC, width: 400, format: "jpeg", cacheTtl: 7200 });
    expect(a.url).toMatch(
      new RegExp(
        `^${BASE}/v1/render\\?p=[A-Za-z0-9_-]+&uid=${owner.accountId}&exp=\\d+&sig=[0-9a-f]{64}$`,
      ),
    );
    expect(a.format).toBe("jpeg");
    expect(a.cacheTtl).toBe(7200);
    // expiresIn defaults to cacheTtl when given…
    expect(Date.parse(a.expiresAt) / 1000 - now()).toBeGreaterThan(7100);
    expect(Date.parse(a.expiresAt) / 1000 - now()).toBeLessThanOrEqual(7200);
    // …else to 30 days; cacheTtl defaults to a day, format to png.
    const b = await mint(owner, { url: PUBLIC });
    expect(b).toMatchObject({ format: "png", cacheTtl: 86_400 });
    expect(Date.parse(b.expiresAt) / 1000 - now()).toBeGreaterThan(2_592_000 - 100);
    const c = await mint(owner, { url: PUBLIC, expiresIn: 3600 });
    expect(Date.parse(c.expiresAt) / 1000 - now()).toBeLessThanOrEqual(3600);
    // Same parameters in another order and with an explicit default cacheTtl → the same p.
    const d = await mint(owner, { cacheTtl: 86_400, expiresIn: 4000, url: PUBLIC });
    expect(parts(d.url).p).toBe(parts(b.url).p);
    expect(await used(owner)).toBe(before);
  });

  it("refuses async, webhookUrl, extract, extractFormat, hosted and geo options by name (400)", async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ async: true }, ["async"]],
      [{ async: true, webhookUrl: "https://hooks.example.com/x" }, ["async", "webhookUrl"]],
      [{ extract: true, extractFormat: "json" }, ["extract", "extractFormat"]],
      [{ hosted: true }, ["hosted"]],
      [{ geo: "US", geoCity: "Austin" }, ["geo", "geoCity"]],
    ];
    for (const [extra, fields] of cases) {
      const res = await mintRaw(owner, { url: PUBLIC, ...extra });
      const body = await envelope(res);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(body.error?.code).toBe("VALIDATION_ERROR");
      for (const f of fields) expect(body.error?.details?.map((d) => d.path)).toContain(f);
    }
  });

  it("validates like a capture: bounds, conflicts, URL guard, plan gates", async () => {
    const bad: Array<[Record<string, unknown>, number, string]> = [
      [{ url: PUBLIC, expiresIn: 3599 }, 400, "VALIDATION_ERROR"],
      [{ url: PUBLIC, expiresIn: 2_592_001 }, 400, "VALIDATION_ERROR"],
      [{ url: PUBLIC, width: 319 }, 400, "VALIDATION_ERROR"],
      [{ url: PUBLIC, html: "<p>x</p>" }, 400, "VALIDATION_ERROR"],
      [{ url: PUBLIC, data: { a: 1 } }, 400, "VALIDATION_ERROR"],
      [{ url: PUBLIC, widht: 400 }, 400, "VALIDATION_ERROR"],
      [{ url: "http://10.0.0.1/" }, 400, "INVALID_URL"],
      [{ url: "http://169.254.169.254/latest/meta-data/" }, 400, "INVALID_URL"],
      [{ url: "file:///etc/passwd" }, 400, "INVALID_URL"],
      [{ url: "https://ten.rebind.example.com/" }, 400, "INVALID_URL"],
      [{ url: "https://listed.example.org/" }, 400, "UNSAFE_URL"],
    ];
    for (const [body, status, code] of bad) {
      const res = await mintRaw(owner, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect((await envelope(res)).error?.code, JSON.stringify(body)).toBe(code);
    }
    // A link is public: secrets in it would be published, whatever the plan.
    const secrets: Array<[Record<string, unknown>, string]> = [
      [{ url: PUBLIC, cookies: [{ name: "a", value: "b" }] }, "cookies"],
      [{ url: PUBLIC, headers: { Authorization: "Bearer x" } }, "headers"],
      [{ url: PUBLIC.replace("://", "://user:pass@") }, "url"],
    ];
    for (const [body, field] of secrets) {
      const res = await mintRaw(owner, body);
      expect(res.status, field).toBe(400);
      expect((await envelope(res)).error?.details?.map((d) => d.path)).toContain(field);
    }
  });

  it("a link over 8 KB → 413 PAYLOAD_TOO_LARGE; just under it is minted", async () => {
    await expectRefusal(
      await mintRaw(owner, { html: `<p>${"x".repeat(7000)}</p>` }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    const ok = await mint(owner, { html: `<p>${"x".repeat(5000)}</p>` });
    expect(ok.url.length).toBeLessThanOrEqual(8192);
  });
});

describe("GET /v1/render", () => {
  it("miss then hit: byte-identical bodies, capture and cache headers, exactly one credit", async () => {
    const run = runId();
    const link = await mint(owner, { ...page(run), cacheTtl: 7200 });
    const before = await used(owner);

    const first = await get(link.url);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("x-service-cache")).toBe("miss");
    expect(first.res.headers.get("content-type")).toBe("image/png");
    expect(first.res.headers.get("x-screenshot-width")).toBe("320");
    expect(first.res.headers.get("x-service-credits-remaining")).toBeNull();
    expect(outputSize(first.bytes)).toEqual({ width: 320, height: 240 });
    const maxAge = Number(/max-age=(\d+)/.exec(first.res.headers.get("cache-control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(7100);
    expect(maxAge).toBeLessThanOrEqual(7200);
    expect(first.res.headers.get("cache-control")).toMatch(/^public/);

    const second = await get(link.url);
    expect(second.res.status).toBe(200);
    expect(second.res.headers.get("x-service-cache")).toBe("hit");
    expect(second.bytes).toEqual(first.bytes);
    expect(second.res.headers.get("x-screenshot-captured-at")).toBe(
      first.res.headers.get("x-screenshot-captured-at"),
    );
    expect(await used(owner)).toBe(before + 1);
    expect((await fixtureLog(run)).filter((r) => r.path === "/small.html")).toHaveLength(1);

    // Conditional requests: the ETag gives 304 without a body.
    const etag = second.res.headers.get("etag") ?? "";
    expect(etag).not.toBe("");
    const cached = await get(link.url, { "if-none-match": etag });
    expect(cached.res.status).toBe(304);
    expect(cached.bytes.byteLength).toBe(0);
  });

  it("hits come from memory, the edge cache, then KV + R2 when the edge has none; a vanished output renders again", async () => {
    const run = runId();
    const link = await mint(owner, page(run));
    const first = await get(link.url);
    expect(first.res.headers.get("x-service-cache")).toBe("miss");
    const key = await renderCacheKey(parts(link.url));
    const entry = await readEntry(env, key);
    expect(entry?.r2Key).toMatch(/^render\//);

    // Edge tier only (KV entry and R2 object gone): still a hit with the same bytes.
    await waitForEdge(key);
    await env.RENDER_CACHE.delete(`render:${key}`);
    const fromEdge = await get(link.url);
    expect(fromEdge.res.headers.get("x-service-cache")).toBe("hit");
    expect(fromEdge.bytes).toEqual(first.bytes);

    // That edge hit went into this isolate's memory: with the edge entry gone too, still a hit.
    await caches.default.delete(edgeRequest(key));
    const fromMemory = await get(link.url);
    expect(fromMemory.res.headers.get("x-service-cache")).toBe("hit");
    expect(fromMemory.res.headers.get("etag")).toBe(fromEdge.res.headers.get("etag"));
    expect(fromMemory.bytes).toEqual(first.bytes);
    forgetKept(key);

    // KV + R2 tier only.
    await env.RENDER_CACHE.put(`render:${key}`, JSON.stringify(entry));
    const fromKv = await get(link.url);
    expect(fromKv.res.headers.get("x-service-cache")).toBe("hit");
    expect(fromKv.bytes).toEqual(first.bytes);

    // Neither: the link renders again (and is charged again).
    await waitForEdge(key);
    await caches.default.delete(edgeRequest(key));
    forgetKept(key);
    await env.OUTPUTS.delete(entry?.r2Key ?? "");
    const before = await used(owner);
    const again = await get(link.url);
    expect(again.res.headers.get("x-service-cache")).toBe("miss");
    expect(await used(owner)).toBe(before + 1);
    expect((await fixtureLog(run)).filter((r) => r.path === "/small.html")).toHaveLength(2);
  });

  it("50 concurrent first requests render once and cost one credit", async () => {
    const run = runId();
    const link = await mint(owner, page(run));
    const before = await used(owner);
    const shots = await Promise.all(Array.from({ length: 50 }, () => get(link.url)));
    for (const shot of shots) {
      expect(shot.res.status).toBe(200);
      expect(shot.bytes).toEqual(shots[0]?.bytes);
    }
    expect(
      shots.filter((s) => s.res.headers.get("x-service-cache") === "miss").length,
    ).toBeGreaterThanOrEqual(1);
    expect((await fixtureLog(run)).filter((r) => r.path === "/small.html")).toHaveLength(1);
    expect(await used(owner)).toBe(before + 1);
  });

  it("tampering with any of p, uid, exp or sig → 403 FORBIDDEN, nothing rendered", async () => {
    const run = runId();
    const link = await mint(owner, page(run));
    const q = new URL(link.url).searchParams;
    const other = await createAccount("pro");
    const flip = (s: string, i: number) =>
      s.slice(0, i) + (s[i] === "a" ? "b" : "a") + s.slice(i + 1);
    const variants: Record<string, string> = {
      p: flip(q.get("p") ?? "", 10),
      uid: other.accountId,
      exp: String(Number(q.get("exp")) + 1),
      sig: flip(q.get("sig") ?? "", 63),
    };
    for (const [name, value] of Object.entries(variants)) {
      const t = new URLSearchParams(q);
      t.set(name, value);
      await expectRefusal(await call(`/v1/render?${t.toString()}`), 403, "FORBIDDEN");
    }
    expect(await fixtureLog(run)).toHaveLength(0);
  });

  it("hostile queries (hostile-input item 18, docs/SECURITY.md) → 403, never a 500", async () => {
    const link = await mint(owner, page(runId()));
    const { p, uid, exp } = parts(link.url);
    const sig = new URL(link.url).searchParams.get("sig") ?? "";
    const queries = [
      "",
      `p=%%%&uid=${uid}&exp=${exp}&sig=${sig}`,
      `p=${p}&uid=${uid}&exp=abc&sig=${sig}`,
      `p=${p}&uid=${uid}&exp=-1&sig=${sig}`,
      `p=${p}&uid=${uid}&exp=1e10&sig=${sig}`,
      `p=${p}&uid=${uid}&exp=${exp}&sig=${sig.slice(1)}`,
      `p=${p}&uid=${uid}&exp=${exp}&sig=${"z".repeat(64)}`,
      `p=${p}&uid=${uid}&exp=${exp}&sig=${sig}&sig=${sig}`,
      `p=${p}&p=${p}&uid=${uid}&exp=${exp}&sig=${sig}`,
      `p=${p}&uid=${uid}&uid=${uid}&exp=${exp}&sig=${sig}`,
      `p=${p}&uid=${uid}&exp=${exp}&exp=${exp}&sig=${sig}`,
      `p=${"A".repeat(20_000)}&uid=${uid}&exp=${exp}&sig=${sig}`,
      `p=${p}&uid=%00&exp=${exp}&sig=${sig}`,
    ];
    for (const qs of queries) await expectRefusal(await call(`/v1/render?${qs}`), 403, "FORBIDDEN");

    // Correctly signed, but the payload is not base64 JSON of the right shape.
    const sign = (payload: string) => signRenderLink(env, BASE, { p: payload, uid, exp });
    const b64 = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const payloads = [
      "a",
      b64("not json"),
      b64("{}"),
      b64(`{"k":"key_x","r":{}}`),
      b64(`{"k":"${owner.keyId}","r":{"url":"http://10.0.0.1/","async":true}}`),
    ];
    for (const payload of payloads)
      await expectRefusal(await call(path(await sign(payload))), 403, "FORBIDDEN");
  });

  it("an expired link → 403", async () => {
    const link = await mint(owner, page(runId()));
    const expired = await signRenderLink(env, BASE, { ...parts(link.url), exp: now() - 1 });
    await expectRefusal(await call(path(expired)), 403, "FORBIDDEN");
  });

  it("owner out of credits → 429 USAGE_EXCEEDED, nothing rendered or stored", async () => {
    const poor = await createAccount("basic");
    const run = runId();
    const link = await mint(poor, page(run));
    await setAccount(poor.accountId, { creditsUsed: 1000 });
    await expectRefusal(await call(path(link.url)), 429, "USAGE_EXCEEDED");
    expect(await fixtureLog(run)).toHaveLength(0);
    expect(await readEntry(env, await renderCacheKey(parts(link.url)))).toBeNull();
  });

  it("minting key revoked or owner account gone → 403, before any render", async () => {
    const account = await createAccount("pro");
    const second = await addKey(account.accountId);
    const run = runId();
    const revoked = await mint(account, page(run));
    const kept = await mint({ ...account, ...second }, page(run));
    await revokeKey(account.keyId);
    await expectRefusal(await call(path(revoked.url)), 403, "FORBIDDEN");
    expect(await fixtureLog(run)).toHaveLength(0);
    expect((await get(kept.url)).res.status).toBe(200);

    const ghost = `acc_${"Z".repeat(22)}`;
    const orphan = await signRenderLink(env, BASE, {
      p: encodePayload(account.keyId, page(runId())),
      uid: ghost,
      exp: now() + 600,
    });
    await expectRefusal(await call(path(orphan)), 403, "FORBIDDEN");
  });

  it("renders with the owner's current plan: a link minted on Pro is watermarked once the owner is on Free", async () => {
    const account = await createAccount("pro");
    const link = await mint(account, page(runId()));
    await setAccount(account.accountId, { plan: "free" });
    const marked = await get(link.url);
    expect(marked.res.status).toBe(200);
    expect(marked.res.headers.get("x-service-watermarked")).toBe("true");
  });
});

describe("Account.renderOwner", () => {
  it("reports the plan and whether the key is active; null for no account", async () => {
    const account = await createAccount("starter");
    const stub = accountDo(account.accountId);
    expect(await stub.renderOwner(account.keyId)).toEqual({ plan: "starter", keyActive: true });
    expect(await stub.renderOwner(`key_${"q".repeat(22)}`)).toEqual({
      plan: "starter",
      keyActive: false,
    });
    await revokeKey(account.keyId);
    expect(await stub.renderOwner(account.keyId)).toEqual({ plan: "starter", keyActive: false });
    expect(await accountDo(`acc_${"Y".repeat(22)}`).renderOwner(account.keyId)).toBeNull();
  });
});

/** The edge copy is written after the response (waitUntil): wait until it is there. */
async function waitForEdge(key: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const hit = await caches.default.match(edgeRequest(key));
    if (hit) {
      await hit.body?.cancel();
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("edge cache never filled");
}
