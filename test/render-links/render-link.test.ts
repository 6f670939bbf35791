/** Render-link tokens: canonical payloads, strict decoding, signature and expiry checks. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderLinkRequestSchema, renderParamsSchema } from "../../schemas/render-link";
import { toBase64 } from "../../src/encoding";
import {
  canonicalJson,
  decodePayload,
  encodePayload,
  mintRenderLink,
  renderCacheKey,
  signRenderLink,
  verifyRenderLink,
} from "../../src/render-links/links";

const KEY = `key_${"a".repeat(22)}`;
const UID = `acc_${"B".repeat(22)}`;
const ORIGIN = "https://edgeshot.test";
const b64url = (text: string) =>
  toBase64(new TextEncoder().encode(text))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const query = (url: string) => new URL(url).searchParams;
const now = () => Math.floor(Date.now() / 1000);

describe("canonical payload", () => {
  it("sorts keys at every level, keeps array order, skips undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("equal parameters in any key order give the same p; different ones a different p", () => {
    const a = encodePayload(KEY, { url: "https://example.com/", width: 400, data: undefined });
    const b = encodePayload(KEY, { width: 400, url: "https://example.com/" });
    expect(a).toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encodePayload(KEY, { width: 401, url: "https://example.com/" })).not.toBe(a);
  });

  it("a __proto__ key is data, never a prototype", () => {
    const params = JSON.parse(
      '{"html":"<p>{{x}}</p>","data":{"__proto__":{"polluted":true},"x":1}}',
    ) as Record<string, unknown>;
    const decoded = decodePayload(encodePayload(KEY, params));
    const data = decoded?.r.data as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(["__proto__", "x"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("round-trips non-ASCII text", () => {
    const params = { html: "<p>héllo 👋 — ✓</p>" };
    expect(decodePayload(encodePayload(KEY, params))).toEqual({ k: KEY, r: params });
  });

  it("decoding refuses bad base64, non-UTF-8, non-JSON and the wrong shape", () => {
    const bad = [
      "%%%",
      "ab+c",
      "ab/c",
      "a",
      "abcde",
      b64url("not json"),
      b64url("[1,2]"),
      b64url('{"k":"key_x","r":{}}'),
      b64url(`{"k":"${KEY}"}`),
      b64url(`{"k":"${KEY}","r":[]}`),
      b64url(`{"k":"${KEY}","r":{},"x":1}`),
      toBase64(new Uint8Array([0xff, 0xfe, 0x7b])).replace(/=+$/, ""),
    ];
    for (const p of bad) expect(decodePayload(p), p).toBeNull();
  });
});

describe("render link parameters", () => {
  it("refuse async, webhookUrl, extract, extractFormat, hosted and geo* by name", () => {
    const body = {
      url: "https://example.com/",
      async: false,
      webhookUrl: "https://h.example/",
      extract: true,
      extractFormat: "json",
      hosted: false,
      geo: "US",
      geoCity: "Austin",
      geoState: "TX",
    };
    const result = renderLinkRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((i) => i.path.join(".")) ?? [];
    for (const k of [
      "async",
      "webhookUrl",
      "extract",
      "extractFormat",
      "hosted",
      "geo",
      "geoCity",
      "geoState",
    ])
      expect(paths).toContain(k);
  });

  it("expiresIn is bounded (3600–2592000) and only accepted on the mint body", () => {
    for (const expiresIn of [3599, 2_592_001, 3600.5, "3600"]) {
      expect(
        renderLinkRequestSchema.safeParse({ url: "https://example.com/", expiresIn }).success,
        String(expiresIn),
      ).toBe(false);
    }
    expect(
      renderLinkRequestSchema.safeParse({ url: "https://example.com/", expiresIn: 3600 }).success,
    ).toBe(true);
    expect(
      renderParamsSchema.safeParse({ url: "https://example.com/", expiresIn: 3600 }).success,
    ).toBe(false);
  });

  it("obey the capture rules (exactly one source, data only with html/markdown, strict keys)", () => {
    for (const body of [
      {},
      { url: "https://a.example/", html: "<p>x</p>" },
      { url: "https://a.example/", data: {} },
      { url: "https://a.example/", widht: 1 },
    ]) {
      expect(renderParamsSchema.safeParse(body).success, JSON.stringify(body)).toBe(false);
    }
  });
});

describe("verifyRenderLink", () => {
  const p = encodePayload(KEY, { url: "https://example.com/" });

  it("accepts a minted link and returns its parts", async () => {
    const { url, exp } = await mintRenderLink(env, ORIGIN, {
      uid: UID,
      keyId: KEY,
      params: { url: "https://example.com/" },
      expiresIn: 3600,
    });
    expect(url.startsWith(`${ORIGIN}/v1/render?`)).toBe(true);
    expect(exp - now()).toBeGreaterThan(3590);
    expect(await verifyRenderLink(env, query(url))).toEqual({ p, uid: UID, exp });
  });

  it("refuses any changed byte of p, uid, exp or sig", async () => {
    const url = await signRenderLink(env, ORIGIN, { p, uid: UID, exp: now() + 3600 });
    for (const name of ["p", "uid", "exp", "sig"]) {
      const q = query(url);
      const value = q.get(name) ?? "";
      for (const i of [0, Math.floor(value.length / 2), value.length - 1]) {
        const ch = value[i] === "1" ? "2" : "1";
        q.set(name, value.slice(0, i) + ch + value.slice(i + 1));
        expect(await verifyRenderLink(env, q), `${name}[${i}]`).toBeNull();
      }
    }
  });

  it("refuses expired links, malformed values and duplicated or missing parameters", async () => {
    const exp = now() + 3600;
    const good = query(await signRenderLink(env, ORIGIN, { p, uid: UID, exp }));
    expect(
      await verifyRenderLink(
        env,
        query(await signRenderLink(env, ORIGIN, { p, uid: UID, exp: now() - 1 })),
      ),
    ).toBeNull();
    expect(await verifyRenderLink(env, good, (exp + 1) * 1000)).toBeNull();
    const sig = good.get("sig") ?? "";
    const variants: Array<[string, string]> = [
      ["exp", "abc"],
      ["exp", "-1"],
      ["exp", "1e10"],
      ["exp", ""],
      ["exp", `0${exp}`],
      ["exp", `${exp}.0`],
      ["sig", sig.slice(1)],
      ["sig", `${sig}0`],
      ["sig", sig.toUpperCase()],
      ["sig", `${sig.slice(2)}zz`],
      ["p", "%%%"],
      ["p", `${p}=`],
      ["uid", "acc_short"],
      ["uid", ""],
    ];
    for (const [name, value] of variants) {
      const q = new URLSearchParams(good);
      q.set(name, value);
      expect(await verifyRenderLink(env, q), `${name}=${value}`).toBeNull();
    }
    for (const name of ["p", "uid", "exp", "sig"]) {
      const dup = new URLSearchParams(good);
      dup.append(name, good.get(name) ?? "");
      expect(await verifyRenderLink(env, dup), `duplicated ${name}`).toBeNull();
      const missing = new URLSearchParams(good);
      missing.delete(name);
      expect(await verifyRenderLink(env, missing), `missing ${name}`).toBeNull();
    }
  });

  it("the cache key depends on uid and p only", async () => {
    const a = await renderCacheKey({ uid: UID, p });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await renderCacheKey({ uid: UID, p })).toBe(a);
    expect(await renderCacheKey({ uid: `acc_${"C".repeat(22)}`, p })).not.toBe(a);
  });
});
