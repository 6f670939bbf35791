/**
 * Hostile input (the checklist in docs/SECURITY.md, "Hostile input", one `describe` per item):
 * every case gets a clear 4xx in the error envelope naming the field — never a 500, a hang or a side effect.
 *
 * capture-validation.test.ts holds the first table of bad bodies; this file adds what it lacks.
 * Refusals run on accounts of their own (`refuser`), so the last test can prove that none of
 * them spent a credit, stored an object or reached the network. The few cases that must reach
 * the browser use allowlisted fixture pages and their own account.
 *
 * Covered elsewhere: raw-socket cases (chunked bodies, lying Content-Length, raw header bytes)
 * in test/security/hostile-http.e2e.test.ts; generated bodies in hostile-property.timed.test.ts.
 */
import { TUNING } from "../../src/tuning";
import puppeteer from "@cloudflare/puppeteer";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureFields, captureRequestSchema, GEO_COUNTRIES } from "../../schemas/capture";
import { captureQuerySchema, queryRecord } from "../../schemas/capture-query";
import { selectorProblem } from "../../schemas/css-selector";
import { renderLinkRequestSchema } from "../../schemas/render-link";
import { toCaptureSpec } from "../../src/capture-request/spec";
import { accountDo } from "../helpers/account-do";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { Capturer } from "../helpers/capture";
import { call, envelope, FIXTURES, fixtureLog, runId } from "../helpers/http";
import { creditsUsed, expectRefusal } from "../helpers/api";

const RUN = runId();
/** The fixture server's non-allowlisted twin: anything reaching it got past the URL guard. */
const CANARY = FIXTURES.replace(/:(\d+)$/, (_, p: string) => `:${Number(p) + 3}`);
/** Refused before DNS or any browser (a loopback address that is not allowlisted). */
const BLOCKED = `${CANARY}/blocked?run=${RUN}`;
const emoji = "😀";
const KB = 1024;
const MB = 1024 * KB;

/** Accounts for refusals, a new one every 200 calls (rate limit: 1,000 a minute on Enterprise). */
class Refuser {
  readonly accounts: TestAccount[] = [];
  private calls = 0;

  async key(): Promise<string> {
    if (this.calls++ % 200 === 0) this.accounts.push(await createAccount("enterprise"));
    return this.accounts[this.accounts.length - 1]!.apiKey;
  }

  async post(
    body: unknown,
    path = "/v1/screenshot/json",
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const init: RequestInit = {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(await this.key()), ...headers },
      body: typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body),
    };
    return call(path, init);
  }

  async get(query: string): Promise<Response> {
    return call(`/v1/screenshot?${query}${query ? "&" : ""}key=${await this.key()}`);
  }
}
const refuser = new Refuser();
let outputsBefore = 0;

beforeAll(async () => {
  outputsBefore = (await env.OUTPUTS.list()).objects.length;
});

/** The response is the spec's error envelope with this status and code; returns it. */
/** A refusal of hostile input: test/helpers/api.ts `expectRefusal`. */
const refused = expectRefusal;

const invalid = (res: Response, field?: string) => refused(res, 400, "VALIDATION_ERROR", field);

/** Passes the capture schema (no request, no browser). */
function accepted(body: Record<string, unknown>): void {
  const result = captureRequestSchema.safeParse(body);
  expect(result.success, JSON.stringify(result.error?.issues ?? []).slice(0, 300)).toBe(true);
}

/** Each body is refused with 400 VALIDATION_ERROR naming `field`. */
async function allInvalid(cases: Array<[unknown, string]>, path?: string): Promise<void> {
  for (const [body, field] of cases) {
    const res = await refuser.post(body, path);
    await invalid(res, field).catch((err: Error) => {
      throw new Error(`${JSON.stringify(body).slice(0, 120)}: ${err.message}`);
    });
  }
}

const label = (v: unknown) =>
  JSON.stringify(v)
    .slice(0, 70)
    .replace(/[^\x20-\x7e]/g, "?");

// ---- 1, 2. Body size and framing (the raw-socket half is in test/security/hostile-http.e2e.test.ts) ---

describe("1–2. bodies over the cap, without or against Content-Length", () => {
  /** An endless body; counts what the worker pulled. */
  function endless(): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
    let pulled = 0;
    const chunk = new Uint8Array(64 * KB).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return { stream, pulled: () => pulled };
  }
  const streamed = (stream: ReadableStream, headers: Record<string, string>) =>
    call("/v1/screenshot/json", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: stream,
      duplex: "half",
    } as RequestInit);

  // Past the cap the 413 is answered and the rest of the upload drained (discarded) up to
  // TUNING.oversizeDrainBytes, so clients still sending can read it (test/e2e/oversize-body):
  // an endless body is never read further than that.
  const DRAINED = TUNING.oversizeDrainBytes + 1 * MB;

  it("an endless streamed body is refused with 413 once the 6 MB cap is passed, drained only up to the bound", async () => {
    const { stream, pulled } = endless();
    const res = await streamed(stream, bearer(await refuser.key()));
    await refused(res, 413, "PAYLOAD_TOO_LARGE");
    expect(pulled()).toBeGreaterThan(6 * MB);
    expect(pulled()).toBeLessThan(6 * MB + DRAINED);
  });

  it("a declared Content-Length over the cap: 413 without parsing, the upload drained up to the bound", async () => {
    const { stream, pulled } = endless();
    const res = await streamed(stream, {
      ...bearer(await refuser.key()),
      "content-length": String(6 * MB + 1),
    });
    await refused(res, 413, "PAYLOAD_TOO_LARGE");
    expect(pulled()).toBeLessThan(6 * MB + DRAINED);
  });

  it("a declared Content-Length beyond the drain bound: 413 at once, the body left unread", async () => {
    const { stream, pulled } = endless();
    const res = await streamed(stream, {
      ...bearer(await refuser.key()),
      "content-length": String(TUNING.oversizeDrainBytes + 1),
    });
    await refused(res, 413, "PAYLOAD_TOO_LARGE");
    expect(pulled()).toBeLessThan(256 * KB);
  });

  it("a Content-Length that lies low does not lift the cap: what is read is counted", async () => {
    const { stream, pulled } = endless();
    const res = await streamed(stream, { ...bearer(await refuser.key()), "content-length": "100" });
    await refused(res, 413, "PAYLOAD_TOO_LARGE");
    expect(pulled()).toBeLessThan(6 * MB + DRAINED);
  });

  it("without a key the body is never read: 401 first", async () => {
    const { stream, pulled } = endless();
    await refused(await streamed(stream, {}), 401, "MISSING_API_KEY");
    expect(pulled()).toBeLessThan(1 * MB);
  });

  it("a body stream that fails half way is 400 INVALID_JSON", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"url":"http://10.0.0.1/","wid'));
        controller.error(new Error("client went away"));
      },
    });
    await refused(await streamed(stream, bearer(await refuser.key())), 400, "INVALID_JSON");
  });

  it("a 6 MB body of whitespace around a valid object is read (the cap is on bytes, not on content)", async () => {
    const body = `${" ".repeat(6 * MB - 200)}{"url":"${BLOCKED}"}`;
    await refused(await refuser.post(body), 400, "INVALID_URL", "url");
  });
});

// ---- 3. Malformed JSON -----------------------------------------------------------------------

describe("3. malformed JSON and non-object top levels", () => {
  it.each([
    ['{"url":"http://10.0.0.1/"'],
    ['{"url":"http://10.0.0.1/\\u00'],
    ['{"url":"http://10.0.0.1/",'],
    ['{"url" "x"}'],
    [""],
    ["   \n\t "],
    ["{'url':'x'}"],
    ['{"url":"x",}'],
    ['{"url":"x"} {"url":"y"}'],
    ['{"url":"x"}]'],
    ['{"width":NaN,"url":"x"}'],
    ['{"width":Infinity,"url":"x"}'],
    ['{"width":0x10,"url":"x"}'],
    ['{"width":01,"url":"x"}'],
    ['{"url":"x" /* c */}'],
    ['{"url":"a\u0000b"}'], // a raw control character inside a string
    ['{"url":"\\x41"}'],
  ])("INVALID_JSON ← %j", async (text) => {
    await refused(await refuser.post(text), 400, "INVALID_JSON");
  });

  it("bytes that are not UTF-8 are INVALID_JSON", async () => {
    for (const bytes of [
      [0x7b, 0xff, 0x7d],
      [0x7b, 0x22, 0xc3, 0x22, 0x7d],
      [0xed, 0xa0, 0x80],
    ]) {
      await refused(await refuser.post(new Uint8Array(bytes)), 400, "INVALID_JSON");
    }
  });

  it("no body at all is INVALID_JSON", async () => {
    const res = await call("/v1/screenshot/json", {
      method: "POST",
      headers: bearer(await refuser.key()),
    });
    await refused(res, 400, "INVALID_JSON");
  });

  it("a UTF-8 byte-order mark is allowed before the object", async () => {
    await refused(await refuser.post(`\ufeff{"url":"${BLOCKED}"}`), 400, "INVALID_URL", "url");
  });

  it("top levels other than an object → VALIDATION_ERROR", async () => {
    for (const top of ["true", "false", "0", "-1e999", '""', `[{"url":"${BLOCKED}"}]`, "[[]]"]) {
      await invalid(await refuser.post(top));
    }
  });
});

// ---- 4. Depth and template explosions -------------------------------------------------------

describe("4. deep nesting and exploding templates", () => {
  const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
  const objects = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);

  it("data nested 10,000 levels (arrays or objects) → 400 naming data, fast", async () => {
    for (const deep of [arrays(10_000), objects(10_000)]) {
      const started = Date.now();
      const res = await refuser.post(`{"html":"{{a}}","data":{"a":${deep}}}`);
      await invalid(res, "data");
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it("deep nesting anywhere else is refused too, naming the top-level field", async () => {
    await allInvalid([
      [`{"url":"${BLOCKED}","headers":{"a":${objects(10_000)}}}`, "headers"],
      [`{"url":"${BLOCKED}","cookies":${arrays(10_000)}}`, "cookies"],
      [`{"url":"${BLOCKED}","pdfMargin":${objects(5_000)}}`, "pdfMargin"],
      [`{"url":"${BLOCKED}","zzz":${arrays(10_000)}}`, "zzz"],
    ]);
  });

  it("nesting within the depth limit is not refused for its depth", async () => {
    const res = await refuser.post(`{"html":"x","width":1,"data":{"a":${objects(29)}}}`);
    const body = await invalid(res, "width");
    expect(body.error?.details?.map((d) => d.path)).toEqual(["width"]);
  });

  it.each([
    [
      "sections over a big array",
      {
        html: "{{#a}}{{#a}}{{#a}}0123456789abcdef{{/a}}{{/a}}{{/a}}",
        data: { a: Array.from({ length: 1000 }, (_, i) => i) },
      },
      "html",
    ],
    [
      "empty sections over a big array (render steps)",
      {
        html: "{{#a}}{{#a}}{{#a}}{{/a}}{{/a}}{{/a}}",
        data: { a: Array.from({ length: 1000 }, (_, i) => i) },
      },
      "html",
    ],
    [
      "sections nested 10,000 deep",
      { html: "{{#a}}".repeat(10_000) + "{{/a}}".repeat(10_000), data: { a: true } },
      "html",
    ],
    ["100,001 tags", { html: "{{a}}".repeat(100_001), data: { a: 1 } }, "html"],
    [
      "a markdown template that explodes",
      {
        markdown: "{{#a}}{{#a}}{{#a}}* item {{.}}\n{{/a}}{{/a}}{{/a}}",
        data: { a: Array.from({ length: 1000 }, (_, i) => i) },
      },
      "markdown",
    ],
    ["markdown nested 10,000 levels", { markdown: `${">".repeat(10_000)} x` }, "markdown"],
  ])("%s → 400 or 413 naming the field, within 3 s", async (_name, body, field) => {
    const started = Date.now();
    const res = await refuser.post(body);
    expect([400, 413]).toContain(res.status);
    const env = await envelope(res);
    expect(["VALIDATION_ERROR", "PAYLOAD_TOO_LARGE"]).toContain(env.error?.code);
    expect(env.error?.details?.map((d) => d.path)).toContain(field);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

// ---- 5. Duplicate keys ------------------------------------------------------------------------

describe("5. duplicate JSON keys: the value checked is the value used (the last one)", () => {
  /** What the route does with a body text: JSON.parse, the schema, then the normaliser. */
  function prepared(text: string) {
    const req = captureRequestSchema.parse(JSON.parse(text));
    return toCaptureSpec(req, { watermark: null });
  }

  it("url given twice: a blocked last value is refused, an allowed last value is captured", async () => {
    const cap = await Capturer.create("pro");
    const page = `${FIXTURES}/boxes.html?run=${RUN}-dup`;
    const base = `"width":320,"height":240,"waitUntil":"load","blockAds":false`;
    await refused(
      await cap.postRaw(`{${base},"url":"${page}","url":"${BLOCKED}"}`, "/v1/screenshot/json"),
      400,
      "INVALID_URL",
      "url",
    );
    expect(await fixtureLog(`${RUN}-dup`)).toEqual([]);

    const res = await cap.postRaw(
      `{${base},"url":"${BLOCKED}","url":"${page}"}`,
      "/v1/screenshot/json",
    );
    expect(res.status).toBe(200);
    expect((await envelope<{ url: string }>(res)).data?.url).toBe(page);
    expect((await fixtureLog(`${RUN}-dup`)).map((r) => r.path)).toEqual(["/boxes.html"]);
  });

  it("width, html, data and headers given twice: the normalised capture holds the last values", () => {
    expect(() => prepared(`{"url":"${BLOCKED}","width":320,"width":99999}`)).toThrow();
    expect(prepared(`{"url":"${BLOCKED}","width":99999,"width":321}`).viewport.width).toBe(321);
    const html = prepared(
      `{"html":"<b>{{a}}</b>","html":"<i>{{a}}</i>","data":{"a":"1"},"data":{"a":"<2>"}}`,
    );
    expect(html.source).toEqual({ kind: "html", html: "<i>&lt;2&gt;</i>" });
    const headers = prepared(
      `{"url":"${BLOCKED}","headers":{"X-A":"a\\r\\nInjected: 1","X-A":"ok"}}`,
    );
    expect(headers.headers).toEqual([["X-A", "ok"]]);
    expect(() =>
      prepared(`{"url":"${BLOCKED}","headers":{"X-A":"ok","X-A":"a\\r\\nInjected: 1"}}`),
    ).toThrow();
  });

  it("a bad last value is refused through the route, naming the field", async () => {
    await allInvalid([
      [`{"url":"${BLOCKED}","width":320,"width":"320"}`, "width"],
      [`{"url":"${BLOCKED}","headers":{"X-A":"ok","X-A":"a\\r\\nb"}}`, "headers.X-A"],
      [
        `{"url":"${BLOCKED}","cookies":[{"name":"a","value":"b","value":"c;d"}]}`,
        "cookies[0].value",
      ],
      [`{"url":"${BLOCKED}","selector":"div","selector":"div[["}`, "selector"],
    ]);
  });
});

// ---- 6. Prototype pollution ---------------------------------------------------------------

describe("6. __proto__ and constructor keys pollute nothing", () => {
  const polluted = () => [
    ({} as Record<string, unknown>).polluted,
    ([] as unknown as Record<string, unknown>).polluted,
    Object.prototype.hasOwnProperty.call(Object.prototype, "polluted"),
  ];

  afterAll(() => {
    expect(polluted()).toEqual([undefined, undefined, false]);
  });

  it("in nested objects they are unknown fields (400 naming them)", async () => {
    await allInvalid([
      [
        `{"url":"${BLOCKED}","cookies":[{"name":"a","value":"b","__proto__":{"secure":true,"polluted":1}}]}`,
        "cookies[0].__proto__",
      ],
      [
        `{"url":"${BLOCKED}","pdfMargin":{"__proto__":{"top":"1in","polluted":1}}}`,
        "pdfMargin.__proto__",
      ],
      [
        `{"url":"${BLOCKED}","pdfMargin":{"constructor":{"prototype":{"polluted":1}}}}`,
        "pdfMargin.constructor",
      ],
      [`{"url":"${BLOCKED}","constructor":{"prototype":{"polluted":1}}}`, "constructor"],
      [`{"url":"${BLOCKED}","prototype":{"polluted":1}}`, "prototype"],
    ]);
    expect(polluted()).toEqual([undefined, undefined, false]);
  });

  it("headers: {__proto__: {x: 1}} is refused and never becomes an x header", async () => {
    await invalid(
      await refuser.post(`{"url":"${BLOCKED}","headers":{"__proto__":{"x":"1","polluted":"1"}}}`),
      "headers.__proto__",
    );
    await invalid(
      await refuser.post(
        `{"url":"${BLOCKED}","headers":{"constructor":{"prototype":{"polluted":"1"}}}}`,
      ),
      "headers.constructor",
    );
    const result = captureRequestSchema.safeParse(
      JSON.parse(`{"url":"${BLOCKED}","headers":{"__proto__":{"x":"1"}}}`),
    );
    expect(result.success).toBe(false);
    // A __proto__ header with a string value is just a (strange) header name: a pair, no pollution.
    const ok = captureRequestSchema.parse(
      JSON.parse(`{"url":"${BLOCKED}","headers":{"__proto__":"1","X-B":"2"}}`),
    );
    expect(ok.headers).toEqual([
      ["__proto__", "1"],
      ["X-B", "2"],
    ]);
    expect(polluted()).toEqual([undefined, undefined, false]);
  });

  it("data: template names resolve through own properties only", () => {
    const text = `{"html":"[{{polluted}}][{{__proto__.polluted}}][{{constructor.name}}][{{toString}}][{{hasOwnProperty}}][{{a.__proto__}}]","data":{"__proto__":{"polluted":"own"},"constructor":{"prototype":{"polluted":"yes"}},"a":{}}}`;
    const req = captureRequestSchema.parse(JSON.parse(text));
    const spec = toCaptureSpec(req, { watermark: null });
    expect(spec.source).toEqual({ kind: "html", html: "[][own][][][][]" });
    expect(polluted()).toEqual([undefined, undefined, false]);
  });

  it("GET: ?__proto__=…, ?constructor=… are unknown parameters", async () => {
    for (const q of [
      "__proto__[polluted]=1",
      "__proto__=x",
      "constructor=x",
      "constructor[prototype][polluted]=1",
      "hasOwnProperty=x",
    ]) {
      await invalid(await refuser.get(`url=${encodeURIComponent(BLOCKED)}&${q}`));
    }
    expect(polluted()).toEqual([undefined, undefined, false]);
  });
});

// ---- 7. Wrong types ---------------------------------------------------------------------------

/** Every capture field by JSON type; the test below fails when a field is added without a row. */
const FIELD_TYPES: Record<
  keyof typeof captureFields,
  "string" | "number" | "boolean" | "array" | "object"
> = {
  url: "string",
  html: "string",
  markdown: "string",
  data: "object",
  format: "string",
  width: "number",
  height: "number",
  fullPage: "boolean",
  darkMode: "boolean",
  blockAds: "boolean",
  quality: "number",
  delay: "number",
  deviceScaleFactor: "number",
  blockResourceTypes: "array",
  timeout: "number",
  waitUntil: "string",
  waitForSelector: "string",
  bestAttempt: "boolean",
  selector: "string",
  device: "string",
  hideSelectors: "array",
  blockCookieBanners: "boolean",
  resizeWidth: "number",
  resizeHeight: "number",
  css: "string",
  js: "string",
  cookies: "array",
  headers: "object",
  userAgent: "string",
  pdfFormat: "string",
  pdfLandscape: "boolean",
  pdfPrintBackground: "boolean",
  pdfScale: "number",
  pdfMargin: "object",
  geo: "string",
  geoCity: "string",
  geoState: "string",
  hosted: "boolean",
  extract: "boolean",
  extractFormat: "string",
  async: "boolean",
  webhookUrl: "string",
  storage: "object",
  cacheTtl: "number",
  clip: "object",
  omitBackground: "boolean",
  timezone: "string",
  locale: "string",
  mediaType: "string",
  reducedMotion: "boolean",
  liveMotion: "boolean",
  requireComplete: "boolean",
  failOnStatus: "array",
  actions: "array",
  pdfHeader: "string",
  pdfFooter: "string",
  pdfPageRanges: "string",
  pdfOutline: "boolean",
  pdfTagged: "boolean",
};
const WRONG: Record<string, unknown[]> = {
  string: [1, true, null, [], {}],
  number: ["1280", true, null, [], {}, "NaN"],
  boolean: ["true", 1, 0, null, "false", []],
  array: ["div", {}, null, 1, true],
  object: ["x", [], null, 1, true],
};

describe("7. wrong types", () => {
  it("FIELD_TYPES lists every capture field", () => {
    expect(Object.keys(FIELD_TYPES).sort()).toEqual(Object.keys(captureFields).sort());
  });

  it.each(Object.entries(FIELD_TYPES))(
    "%s (%s): every wrong JSON type → 400 naming it",
    async (field, type) => {
      for (const wrong of WRONG[type]!) {
        const body =
          field === "url"
            ? { url: wrong }
            : field === "html" || field === "markdown"
              ? { [field]: wrong }
              : field === "data"
                ? { html: "x", data: wrong }
                : { url: BLOCKED, [field]: wrong };
        const res = await refuser.post(body);
        const env = await invalid(res).catch((err: Error) => {
          throw new Error(`${field}=${label(wrong)}: ${err.message}`);
        });
        expect(
          env.error?.details?.map((d) => d.path.split(/[.[]/)[0]),
          `${field}=${label(wrong)}`,
        ).toContain(field);
      }
    },
  );
});

// ---- 8. GET number traps -------------------------------------------------------------------

describe("8. GET: numbers are plain decimals (-?digits[.digits]), each parameter once", () => {
  const url = `url=${encodeURIComponent(BLOCKED)}`;

  it.each([
    ["width=Infinity", "width"],
    ["width=-Infinity", "width"],
    ["quality=%2B5", "quality"],
    ["quality=+5", "quality"],
    ["delay=-1", "delay"],
    ["width=.5", "width"],
    ["width=5.", "width"],
    ["width=1_000", "width"],
    ["width=1,280", "width"],
    ["width=%EF%BC%91%EF%BC%92%EF%BC%98%EF%BC%90", "width"],
    ["width=0b101", "width"],
    ["width=0o777", "width"],
    ["width=1280px", "width"],
    ["width=1280%0A", "width"],
    ["width=%091280", "width"],
    ["width=1e-3", "width"],
    ["width=0x1p3", "width"],
    [`width=${"9".repeat(400)}`, "width"],
    ["width=9007199254740993", "width"],
    ["quality=80.5", "quality"],
    ["deviceScaleFactor=1e0", "deviceScaleFactor"],
    ["pdfScale=--1", "pdfScale"],
    ["timeout=5%00", "timeout"],
    ["width=320&width=320", "width"],
    ["fullPage=TRUE", "fullPage"],
    ["fullPage=on", "fullPage"],
    ["fullPage=", "fullPage"],
    ["fullPage=true%20", "fullPage"],
    ["format=PNG", "format"],
    ["format=png&format=jpeg", "format"],
    ["Width=500", "Width"],
    ["width%00=500", "width\u0000"],
    ["=500", ""],
  ])("%s → 400 naming %j", async (query, field) => {
    await invalid(await refuser.get(`${url}&${query}`), field);
  });

  it("a repeated url is refused even when both values agree", async () => {
    await invalid(await refuser.get(`${url}&${url}`), "url");
  });

  it("plain decimals are accepted as they read: 05 is 5, 80.0 is 80, -0 is 0", () => {
    const parsed = (qs: string) => {
      const { record, issues } = queryRecord(
        new URL(`https://x.test/v1/screenshot?url=${encodeURIComponent(BLOCKED)}&${qs}`),
      );
      expect(issues).toEqual([]);
      return captureQuerySchema.parse(record) as Record<string, unknown>;
    };
    expect(parsed("quality=05").quality).toBe(5);
    expect(parsed("quality=80.0").quality).toBe(80);
    expect(parsed("delay=-0").delay === 0).toBe(true);
    expect(parsed("deviceScaleFactor=1.50").deviceScaleFactor).toBe(1.5);
    expect(parsed("fullPage=1&darkMode=0")).toMatchObject({ fullPage: true, darkMode: false });
  });
});

// ---- 9. Bounds --------------------------------------------------------------------------------

describe("9. out by one at every bound, and huge numbers", () => {
  const BOUNDS: Array<[string, number, number]> = [
    ["width", 320, 3840],
    ["height", 240, 2160],
    ["quality", 1, 100],
    ["delay", 0, 10_000],
    ["deviceScaleFactor", 1, 3],
    ["timeout", 5, 60],
    ["resizeWidth", 16, 3840],
    ["resizeHeight", 16, 2160],
    ["pdfScale", 0.1, 2],
    ["cacheTtl", 3600, 2_592_000],
  ];

  it("both ends of every range are accepted", () => {
    for (const [field, min, max] of BOUNDS) {
      accepted({ url: BLOCKED, [field]: min });
      accepted({ url: BLOCKED, [field]: max });
    }
  });

  it("just outside every range, fractions of whole numbers, and huge values → 400 naming the field", async () => {
    const cases: Array<[unknown, string]> = [];
    for (const [field, min, max] of BOUNDS) {
      const step =
        Number.isInteger(min) && Number.isInteger(max) && field !== "deviceScaleFactor" ? 1 : 0.01;
      cases.push(
        [{ url: BLOCKED, [field]: min - step }, field],
        [{ url: BLOCKED, [field]: max + step }, field],
      );
      for (const huge of [1e21, -1e21, 2 ** 53 + 1, Number.MAX_VALUE, -Number.MAX_VALUE])
        cases.push([{ url: BLOCKED, [field]: huge }, field]);
      if (step === 1) cases.push([{ url: BLOCKED, [field]: min + 0.5 }, field]);
    }
    cases.push(
      [`{"url":"${BLOCKED}","width":1e400}`, "width"],
      [`{"url":"${BLOCKED}","width":-1e400}`, "width"],
      [`{"url":"${BLOCKED}","width":-0}`, "width"],
      [`{"url":"${BLOCKED}","quality":1.0000000000000002}`, "quality"],
      [`{"url":"${BLOCKED}","delay":5e-324}`, "delay"],
      [{ url: BLOCKED, cookies: [{ name: "a", value: "b", expires: -1 }] }, "cookies[0].expires"],
      [{ url: BLOCKED, cookies: [{ name: "a", value: "b", expires: 1.5 }] }, "cookies[0].expires"],
      [
        { url: BLOCKED, cookies: [{ name: "a", value: "b", expires: 1.7e12 }] },
        "cookies[0].expires",
      ],
    );
    await allInvalid(cases);
  });

  it("render links: expiresIn 3599 and 2592001 are refused, 3600 and 2592000 accepted", () => {
    const link = (expiresIn: number) =>
      renderLinkRequestSchema.safeParse({ url: BLOCKED, expiresIn }).success;
    expect([link(3599), link(3600), link(2_592_000), link(2_592_001), link(1e21)]).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
  });
});

// ---- 10. Enums -------------------------------------------------------------------------------

describe("10. enum traps → 400 listing the allowed values", () => {
  const ENUMS: Array<[string, (v: string) => Record<string, unknown>, string, readonly string[]]> =
    [
      ["format", (v) => ({ url: BLOCKED, format: v }), "format", ["png", "jpeg", "webp", "pdf"]],
      [
        "waitUntil",
        (v) => ({ url: BLOCKED, waitUntil: v }),
        "waitUntil",
        ["load", "domcontentloaded", "networkidle0", "networkidle2"],
      ],
      [
        "device",
        (v) => ({ url: BLOCKED, device: v }),
        "device",
        ["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],
      ],
      [
        "pdfFormat",
        (v) => ({ url: BLOCKED, pdfFormat: v }),
        "pdfFormat",
        ["A4", "Letter", "Legal", "Tabloid", "A3"],
      ],
      [
        "extractFormat",
        (v) => ({ url: BLOCKED, extractFormat: v }),
        "extractFormat",
        ["markdown", "json", "html"],
      ],
      [
        "blockResourceTypes",
        (v) => ({ url: BLOCKED, blockResourceTypes: ["font", v] }),
        "blockResourceTypes[1]",
        ["font", "image", "media", "stylesheet", "other"],
      ],
      [
        "sameSite",
        (v) => ({ url: BLOCKED, cookies: [{ name: "a", value: "b", sameSite: v }] }),
        "cookies[0].sameSite",
        ["Strict", "Lax", "None"],
      ],
      ["geo", (v) => ({ url: BLOCKED, geo: v }), "geo", GEO_COUNTRIES],
    ];
  const TRAPS = [
    "",
    " png",
    "png ",
    "Png",
    "PNG\u0000",
    "constructor",
    "__proto__",
    "toString",
    "valueOf",
    "networkidle",
    "iphone_16",
    "a4",
    "script",
    "none",
    "fr",
    "UK",
    "😀",
  ];

  it.each(ENUMS.map(([name, make, field, allowed]) => [name, make, field, allowed] as const))(
    "%s",
    async (_name, make, field, allowed) => {
      for (const trap of TRAPS) {
        if (allowed.includes(trap)) continue;
        const env = await invalid(await refuser.post(make(trap)), field).catch((err: Error) => {
          throw new Error(`${field}=${label(trap)}: ${err.message}`);
        });
        const message = env.error?.details?.find((d) => d.path === field)?.message ?? "";
        for (const value of allowed)
          expect(message, `${field}=${label(trap)}`).toContain(`"${value}"`);
      }
    },
  );

  it("duplicates past the number of resource types are refused", async () => {
    await invalid(
      await refuser.post({ url: BLOCKED, blockResourceTypes: Array(6).fill("font") }),
      "blockResourceTypes",
    );
  });
});

// ---- 11. Conflicts --------------------------------------------------------------------------

describe("11. conflicting parameters", () => {
  it("sources: all three, an empty url beside html, markdown beside url → 400", async () => {
    await allInvalid([
      [{ url: BLOCKED, html: "x", markdown: "y" }, "html"],
      [{ url: "", html: "x" }, "url"],
      [{ url: BLOCKED, markdown: "# x" }, "markdown"],
      [{ html: "" }, "html"],
      [{ markdown: "" }, "markdown"],
      [{ url: BLOCKED, data: {} }, "data"],
      [{ data: { a: 1 } }, "url"],
    ]);
    accepted({ markdown: "# {{a}}", data: { a: 1 } });
  });

  it("webhookUrl without async (absent or false) → 400 naming webhookUrl", async () => {
    await allInvalid([
      [{ url: BLOCKED, webhookUrl: "https://hooks.example.com/x" }, "webhookUrl"],
      [{ url: BLOCKED, webhookUrl: "https://hooks.example.com/x", async: false }, "webhookUrl"],
      [{ url: BLOCKED, webhookUrl: "" }, "webhookUrl"],
    ]);
  });

  it("geoCity or geoState without geo → 400 naming it", async () => {
    await allInvalid([
      [{ url: BLOCKED, geoState: "Texas" }, "geoState"],
      [{ url: BLOCKED, geoCity: "Paris", geoState: "IDF" }, "geoCity"],
    ]);
  });

  it("cookies need a url target (html or markdown cannot carry them)", async () => {
    await allInvalid([
      [{ html: "<p>x</p>", cookies: [{ name: "a", value: "b" }] }, "cookies"],
      [{ markdown: "x", cookies: [{ name: "a", value: "b" }] }, "cookies"],
    ]);
  });

  it("geo with each option it cannot honour → 422 GEO_FEATURE_UNAVAILABLE naming the option", async () => {
    const url = `${FIXTURES}/boxes.html?run=${RUN}-geo`;
    const OPTIONS: Record<string, unknown> = {
      css: "a{}",
      js: "1",
      cookies: [{ name: "a", value: "b" }],
      headers: { "X-A": "1" },
      userAgent: "x",
      selector: "div",
      waitForSelector: "div",
      darkMode: true,
      blockAds: false,
      blockResourceTypes: ["font"],
      fullPage: true,
      deviceScaleFactor: 1,
      pdfFormat: "Letter",
      pdfLandscape: true,
      pdfPrintBackground: false,
      pdfMargin: { top: "1in" },
      pdfScale: 1.5,
    };
    for (const [option, value] of Object.entries(OPTIONS)) {
      await refused(
        await refuser.post({ url, geo: "FR", [option]: value }),
        422,
        "GEO_FEATURE_UNAVAILABLE",
        option,
      );
    }
    await refused(
      await refuser.post({ html: "<p>x</p>", geo: "FR" }),
      422,
      "GEO_FEATURE_UNAVAILABLE",
      "html",
    );
    expect(await fixtureLog(`${RUN}-geo`)).toEqual([]);
  });
});

// ---- 12. Lengths, counted as the spec counts ------------------------------------------------

describe("12. one over every length limit (characters are code points; sizes are UTF-8 bytes)", () => {
  const sel = (n: number) => emoji.repeat(n); // a type selector of n emoji: valid CSS
  const JS_50KB = "€".repeat(8533) + "a".repeat(50 * KB - 8533 * 3); // 3-byte characters and ASCII

  it("at the limit: accepted (500-emoji selectors, 512-emoji userAgent, 50 KB css, 5 MB html, 256 KB data …)", () => {
    accepted({
      url: BLOCKED,
      selector: sel(500),
      waitForSelector: sel(500),
      hideSelectors: [sel(500)],
      userAgent: emoji.repeat(512),
    });
    accepted({ url: BLOCKED, css: "a".repeat(50 * KB), js: JS_50KB });
    accepted({ url: BLOCKED, css: emoji.repeat((50 * KB) / 4) });
    accepted({ url: BLOCKED, headers: { "X-A": "ÿ".repeat(4096) } });
    accepted({ url: BLOCKED, geo: "FR", geoCity: emoji.repeat(100), geoState: emoji.repeat(100) });
    accepted({
      url: BLOCKED,
      cookies: [
        {
          name: emoji.repeat(256),
          value: "x".repeat(4096 - 1024),
          domain: "a".repeat(256),
          path: `/${"a".repeat(255)}`,
        },
      ],
    });
    accepted({ url: BLOCKED, cookies: [{ name: "a", value: "x".repeat(4095) }] });
    accepted({ html: emoji.repeat((5 * MB) / 4) });
    accepted({ markdown: "a".repeat(5 * MB) });
    accepted({ html: "x", data: { k: "a".repeat(256 * KB - 8) } }); // {"k":"…"} is 8 bytes of syntax
  });

  it("one over: 400 naming the field", async () => {
    await allInvalid([
      [{ url: BLOCKED, selector: sel(501) }, "selector"],
      [{ url: BLOCKED, hideSelectors: ["div", sel(501)] }, "hideSelectors[1]"],
      [{ url: BLOCKED, userAgent: `${emoji.repeat(512)}a` }, "userAgent"],
      [{ url: BLOCKED, css: `${emoji.repeat((50 * KB) / 4)}a` }, "css"],
      [{ url: BLOCKED, js: `${JS_50KB}b` }, "js"],
      [{ url: BLOCKED, headers: { "X-A": "ÿ".repeat(4097) } }, "headers.X-A"],
      [{ url: BLOCKED, geo: "FR", geoCity: emoji.repeat(101) }, "geoCity"],
      [{ url: BLOCKED, geo: "FR", geoState: "a".repeat(101) }, "geoState"],
      [{ url: BLOCKED, geo: "FR", geoCity: "" }, "geoCity"],
      [{ url: BLOCKED, cookies: [{ name: emoji.repeat(257), value: "b" }] }, "cookies[0].name"],
      [{ url: BLOCKED, cookies: [{ name: "a", value: emoji.repeat(4097) }] }, "cookies[0].value"],
      [
        { url: BLOCKED, cookies: [{ name: "a", value: "b", domain: "a".repeat(257) }] },
        "cookies[0].domain",
      ],
      [
        { url: BLOCKED, cookies: [{ name: "a", value: "b", path: `/${"a".repeat(256)}` }] },
        "cookies[0].path",
      ],
      [{ html: `${emoji.repeat((5 * MB) / 4)}a` }, "html"],
      [{ markdown: "a".repeat(5 * MB + 1) }, "markdown"],
      [{ html: "x", data: { k: "a".repeat(256 * KB - 7) } }, "data"],
      [{ html: "x", data: { k: "€".repeat(90 * KB) } }, "data"], // 270 KB in UTF-8, fewer characters
    ]);
  });

  it("what Chromium would refuse of a cookie is refused here: name + value over 4,096 bytes, a path over 1 KB encoded", async () => {
    await allInvalid([
      [{ url: BLOCKED, cookies: [{ name: "a", value: "x".repeat(4096) }] }, "cookies[0].value"],
      [{ url: BLOCKED, cookies: [{ name: "abc", value: emoji.repeat(1024) }] }, "cookies[0].value"],
      [
        { url: BLOCKED, cookies: [{ name: "a", value: "b", path: `/${emoji.repeat(86)}` }] },
        "cookies[0].path",
      ],
    ]);
    accepted({
      url: BLOCKED,
      cookies: [{ name: "a", value: "b", path: `/${emoji.repeat(85)}aaa` }],
    });
  });
});

// ---- 13. Counts --------------------------------------------------------------------------------

describe("13. counts", () => {
  it("50 hideSelectors, 50 cookies and 50 headers are accepted; 51 are not", async () => {
    const n = (count: number) => Array.from({ length: count }, (_, i) => i);
    accepted({
      url: BLOCKED,
      hideSelectors: n(50).map((i) => `#h${i}`),
      cookies: n(50).map((i) => ({ name: `c${i}`, value: "v" })),
      headers: Object.fromEntries(n(50).map((i) => [`X-H${i}`, "v"])),
    });
    await allInvalid([
      [{ url: BLOCKED, hideSelectors: n(51).map((i) => `#h${i}`) }, "hideSelectors"],
      [{ url: BLOCKED, cookies: n(51).map((i) => ({ name: `c${i}`, value: "v" })) }, "cookies"],
      [
        { url: BLOCKED, headers: Object.fromEntries(n(51).map((i) => [`X-H${i}`, "v"])) },
        "headers",
      ],
      [{ url: BLOCKED, hideSelectors: [] as string[], cookies: [{}] }, "cookies[0].name"],
    ]);
  });

  it("batches: one bad URL among 100 is named by its index (urls[57]) and nothing is queued", async () => {
    const run = `${RUN}-batch`;
    const urls = Array.from({ length: 100 }, (_, i) =>
      i === 57 ? "http://10.0.0.1/admin" : `${FIXTURES}/boxes.html?run=${run}&i=${i}`,
    );
    const body = await refused(
      await refuser.post({ urls }, "/v1/screenshot/batch"),
      400,
      "INVALID_URL",
    );
    expect(body.error?.details?.map((d) => d.path)).toEqual(["urls[57]"]);
    expect(await fixtureLog(run)).toEqual([]);
  });

  it("batches: empty, 501 URLs, or entries of the wrong type → 400 naming them", async () => {
    await allInvalid(
      [
        [{ urls: [] }, "urls"],
        [{ urls: Array.from({ length: 501 }, () => BLOCKED) }, "urls"],
        [{ urls: BLOCKED }, "urls"],
        [{ urls: [BLOCKED, null] }, "urls[1]"],
        [{ urls: [BLOCKED, ["x"]] }, "urls[1]"],
        [{ urls: [BLOCKED, ""] }, "urls[1]"],
        [
          JSON.parse(`{"urls":["${BLOCKED}"],"defaults":{"__proto__":{"width":1}}}`) as unknown,
          "defaults.__proto__",
        ],
        [{ urls: [BLOCKED], defaults: { width: 319 } }, "defaults.width"],
        [{ urls: [BLOCKED], defaults: { url: "https://example.com/" } }, "defaults.url"],
        [{ urls: [BLOCKED], extra: 1 }, "extra"],
      ],
      "/v1/screenshot/batch",
    );
  });
});

// ---- 14. CR, LF, NUL and header names ------------------------------------------------------

describe("14. control characters and reserved header names", () => {
  it.each([
    [{ headers: { "X-A\r\n": "1" } }, "headers.X-A\r\n"],
    [{ headers: { "X\u0000A": "1" } }, "headers.X\u0000A"],
    [{ headers: { "": "1" } }, "headers."],
    [{ headers: { " X-A": "1" } }, "headers. X-A"],
    [{ headers: { "X-A ": "1" } }, "headers.X-A "],
    [{ headers: { "X:A": "1" } }, "headers.X:A"],
    [{ headers: { "X-A": "a\rb" } }, "headers.X-A"],
    [{ headers: { "X-A": "a\nb" } }, "headers.X-A"],
    [{ headers: { "X-A": "a\u0000b" } }, "headers.X-A"],
    [{ headers: { "X-A": "a\u007fb" } }, "headers.X-A"],
    [{ cookies: [{ name: "a", value: "b\r\nSet-Cookie: x=1" }] }, "cookies[0].value"],
    [{ cookies: [{ name: "a", value: "b\u0000" }] }, "cookies[0].value"],
    [{ cookies: [{ name: "a", value: "b\tc" }] }, "cookies[0].value"],
    [{ cookies: [{ name: "a", value: " b" }] }, "cookies[0].value"],
    [{ cookies: [{ name: "a", value: "b;c=d" }] }, "cookies[0].value"],
    [{ cookies: [{ name: "a\u0000", value: "b" }] }, "cookies[0].name"],
    [{ cookies: [{ name: "a\n", value: "b" }] }, "cookies[0].name"],
    [{ cookies: [{ name: "a=b", value: "c" }] }, "cookies[0].name"],
    [{ cookies: [{ name: "", value: "c" }] }, "cookies[0].name"],
    [{ cookies: [{ name: "a", value: "b", path: "/x\r\n" }] }, "cookies[0].path"],
    [{ cookies: [{ name: "a", value: "b", path: "/x\u0000" }] }, "cookies[0].path"],
    [{ cookies: [{ name: "a", value: "b", path: "/x;y" }] }, "cookies[0].path"],
    [{ cookies: [{ name: "a", value: "b", path: "/x " }] }, "cookies[0].path"],
    [{ cookies: [{ name: "__Host-a", value: "b" }] }, "cookies[0].secure"],
    [{ cookies: [{ name: "__secure-a", value: "b" }] }, "cookies[0].secure"],
    [{ cookies: [{ name: "__Host-a", value: "b", secure: true, path: "/x" }] }, "cookies[0].path"],
    [{ userAgent: "a\r\nX-Injected: 1" }, "userAgent"],
    [{ userAgent: "a\u0000" }, "userAgent"],
  ])("%j → 400 naming %j", async (extra, field) => {
    await invalid(await refuser.post({ url: BLOCKED, ...extra }), field);
  });

  it("Host, Content-Length, Transfer-Encoding, Connection (and the hop-by-hop and Proxy-* headers Chromium will not send) in any case → 400", async () => {
    const names = [
      "Host",
      "HOST",
      "hOsT",
      "content-length",
      "CONTENT-LENGTH",
      "Transfer-Encoding",
      "transfer-ENCODING",
      "Connection",
      "cOnNeCtIoN",
      "Keep-Alive",
      "Upgrade",
      "TE",
      "Trailer",
      "Cookie2",
      "Proxy-Connection",
      "Proxy-Authorization",
      "proxy-anything",
    ];
    for (const name of names)
      await invalid(
        await refuser.post({ url: BLOCKED, headers: { [name]: "x" } }),
        `headers.${name}`,
      );
    // Written with JSON escapes, the name is still Host.
    await invalid(
      await refuser.post(`{"url":"${BLOCKED}","headers":{"\\u0048ost":"evil.com"}}`),
      "headers.Host",
    );
  });
});

// ---- 15. Non-Latin-1 ---------------------------------------------------------------------------

describe("15. non-Latin-1 characters in header values and keys → 4xx, never a Headers API 500", () => {
  it("header values beyond Latin-1 are refused; Latin-1 is allowed", async () => {
    for (const value of [emoji, "\u0100", "a\u2028b", "\ufeff", "漢字", "\ud800"]) {
      await invalid(await refuser.post({ url: BLOCKED, headers: { "X-A": value } }), "headers.X-A");
    }
    await invalid(
      await refuser.post({ url: BLOCKED, headers: { [`X-${emoji}`]: "1" } }),
      `headers.X-${emoji}`,
    );
    accepted({ url: BLOCKED, headers: { "X-A": "café ÿ ©" } });
  });

  it("a query key with non-Latin-1 or control characters → 401 INVALID_API_KEY", async () => {
    for (const key of [
      "%E2%82%AC",
      `svc_${"%E2%82%AC".repeat(43)}`,
      `svc_${"A".repeat(42)}%C3%BF`,
      "svc_%00",
      "%FF%FE",
    ]) {
      await refused(
        await call(`/v1/screenshot?url=${encodeURIComponent(BLOCKED)}&key=${key}`),
        401,
        "INVALID_API_KEY",
      );
    }
  });
});

// ---- 16. Cookie domains and fields ---------------------------------------------------------

describe("16. cookie domains and fields", () => {
  it("domains that are not the target host or a registrable parent → 'Invalid cookie domain.'", async () => {
    const cases: Array<[string, string]> = [
      ["https://www.example.com/", "xample.com"],
      ["https://www.example.com/", "example.com."],
      ["https://www.example.com/", "www.example.com:443"],
      ["https://www.example.com/", ""],
      ["https://www.example.com/", " example.com"],
      ["https://www.example.com/", "*.example.com"],
      ["https://www.example.com/", "..example.com"],
      ["https://www.example.com/", "example.com/"],
      ["https://www.example.com/", "sub.www.example.com"],
      ["https://user.github.io/", "github.io"], // a private public suffix
      [`${FIXTURES}/boxes.html`, "0.0.1"], // a suffix of the IP 127.0.0.1
      [`${FIXTURES}/boxes.html`, "localhost"],
    ];
    for (const [url, domain] of cases) {
      const res = await refuser.post({
        url,
        cookies: [
          { name: "a", value: "b" },
          { name: "c", value: "d", domain },
        ],
      });
      const body = await invalid(res, "cookies[1].domain");
      expect(body.error?.message, `${url} ${domain}`).toBe("Invalid cookie domain.");
    }
  });

  it("sameSite and expires take only their documented shapes", async () => {
    const cookie = (extra: Record<string, unknown>) => ({
      url: BLOCKED,
      cookies: [{ name: "a", value: "b", ...extra }],
    });
    await allInvalid([
      [cookie({ sameSite: "lax" }), "cookies[0].sameSite"],
      [cookie({ sameSite: "" }), "cookies[0].sameSite"],
      [cookie({ expires: "tomorrow" }), "cookies[0].expires"],
      [cookie({ expires: "1700000000" }), "cookies[0].expires"],
      [cookie({ expires: null }), "cookies[0].expires"],
      [cookie({ httpOnly: "true" }), "cookies[0].httpOnly"],
      [cookie({ priority: "High" }), "cookies[0].priority"],
    ]);
  });
});

// ---- 17. Selectors -------------------------------------------------------------------------

/** Selectors css-what accepts and Chromium refuses, and the reverse. */
const SELECTOR_CORPUS = [
  ":foo",
  "a::b",
  ":nth-child(foo)",
  "div >",
  "> div",
  "#1a",
  ".1a",
  "#\\31 a",
  "a|b",
  "*|*",
  "|a",
  "ns|a",
  "[a|=b]",
  "[a=b i]",
  "[a=b s]",
  ":host",
  "::slotted(a)",
  "a:contains(x)",
  "a:first",
  "[a]b",
  ":nth-child(2n+1 of .a)",
  ":has(> a)",
  "a ~",
  "a +",
  "::-webkit-scrollbar",
  ":matches(a)",
  ":where(a)",
  ":is()",
  ":lang(en)",
  ':lang("en")',
  ":checkbox",
  "a:eq(1)",
  "😀😀",
  ".😀",
  "a:nth-last-of-type(-n+3)",
  ":nth-child( 2n + 1 )",
  "--a",
  ".-1",
  "::-moz-selection",
  "a::after:hover",
  "a/**/b",
  "a /* c */ > b",
  "&",
  "[id=1a]",
  "[id=-1]",
  ":before",
  ":nth-child(+ 2n)",
  ":nth-child(2n- 1)",
  "::before::after",
  "::before::marker",
  "::before a",
  ":not(::before)",
  ":has(:has(a))",
  "div:has()",
  ":is(::before)",
  ":nth-of-type(2n of a)",
  "a||b",
  "a*",
  "::slotted(a b)",
  ":host(a b)",
  "\\",
  "a\\\nb",
  "\u0000",
  "a[b='c'",
  ":is(a",
  "a{",
  "a;b",
  "<!--",
  ":state(x)",
  "::part(a b)",
  "a:nth-child(99999999999)",
  "::selection:window-inactive",
  "html|a",
];

describe("17. CSS selectors: what Chromium's querySelector refuses is a 400 before any browser", () => {
  it("the validator agrees with Chromium on a corpus and on 10,000 generated selectors", async () => {
    const FRAGMENTS = [
      "a",
      "div",
      "*",
      "|",
      "#",
      "#a",
      "#1",
      ".",
      ".b",
      ".1",
      "1",
      "2n",
      "-",
      "--",
      "[",
      "]",
      "=",
      "~",
      "^",
      "$",
      "'x'",
      '"y"',
      "(",
      ")",
      ":",
      "::",
      "hover",
      "not(",
      "is(",
      "has(",
      "where(",
      "nth-child(",
      "nth-of-type(",
      "2n+1",
      "of",
      "odd",
      "before",
      "after",
      "marker",
      " ",
      ">",
      "+",
      ",",
      "\\",
      emoji,
      "i",
      "s",
      "&",
      "/*",
      "*/",
      "lang(",
      "en",
      "host(",
      "slotted(",
      "part(",
      "-webkit-scrollbar",
      "first-child",
      "foo",
      "n",
      "\t",
      "%",
      "@",
      "{",
      "}",
      ";",
      "!",
    ];
    const generated = fc.sample(
      fc
        .array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 10 })
        .map((parts) => parts.join("")),
      { numRuns: 10_000, seed: 20261121 },
    );
    const selectors = [...SELECTOR_CORPUS, ...generated];
    const browser = await puppeteer.launch(env.BROWSER);
    try {
      const page = await browser.newPage();
      const chromium = (await page.evaluate(
        (list: string[]) =>
          list.map((s) => {
            try {
              (
                globalThis as unknown as { document: { querySelector(s: string): unknown } }
              ).document.querySelector(s);
              return true;
            } catch {
              return false;
            }
          }),
        selectors,
      )) as boolean[];
      const disagreements = selectors.filter(
        (s, i) => (selectorProblem(s) === null) !== chromium[i],
      );
      expect(disagreements).toEqual([]);
      expect(chromium.filter(Boolean).length).toBeGreaterThan(500); // the sample is not all garbage
    } finally {
      await browser.close();
    }
  });

  it.each(["selector", "waitForSelector", "hideSelectors"])(
    "%s: selectors Chromium would refuse → 400 naming the field",
    async (field) => {
      for (const bad of [
        ":foo",
        "#1a",
        "div >",
        "a|b",
        "[a]b",
        "a:contains(x)",
        "::before a",
        ":has(:has(a))",
        "   ",
        "a\u0000{}",
      ]) {
        const value = field === "hideSelectors" ? ["#fine", bad] : bad;
        const path = field === "hideSelectors" ? "hideSelectors[1]" : field;
        const res = await refuser.post({ url: BLOCKED, [field]: value });
        await invalid(res, path).catch((err: Error) => {
          throw new Error(`${field}=${label(bad)}: ${err.message}`);
        });
      }
    },
  );

  it("a valid selector that matches nothing → CAPTURE_FAILED with the sanitized message, no credit", async () => {
    const cap = await Capturer.create("pro");
    const usedBefore = await usage(cap.account.apiKey);
    const url = `${FIXTURES}/boxes.html?run=${RUN}-sel`;
    for (const selector of ["div:not(div)", `[data-x="${emoji}"]`, ":nth-child(99999999999)"]) {
      const res = await cap.postRaw(
        JSON.stringify({
          url,
          selector,
          width: 320,
          height: 240,
          waitUntil: "load",
          blockAds: false,
        }),
        "/v1/screenshot/json",
      );
      const body = await refused(res, 400, "CAPTURE_FAILED");
      expect(body.error?.message).toBe("The specified element was not found.");
    }
    expect(await usage(cap.account.apiKey)).toBe(usedBefore);
  });
});

// ---- 18. Signed links (hostile queries: render-links.test.ts and hosted.test.ts) -------------

describe("18. signed URLs: a malformed path is a 4xx too", () => {
  it("/v1/images/: a broken percent-escape in the key → 400 INVALID_URL; traversal, NUL or a huge key → 403", async () => {
    const query = `?expires=9999999999&sig=${"a".repeat(64)}`;
    for (const key of ["%ZZ", "%E0%A4%A", "%"])
      await refused(await call(`/v1/images/${key}${query}`), 400, "INVALID_URL");
    for (const key of ["..%2F..%2Fsecret.png", "o/..%2F..%2Fx.png", "%00.png", "a".repeat(5000)]) {
      await refused(await call(`/v1/images/${key}${query}`), 403, "FORBIDDEN");
    }
  });

  it("/v1/render with broken escapes in every parameter → 403 FORBIDDEN", async () => {
    await refused(await call("/v1/render?p=%ZZ&uid=%E0%A4%A&exp=%&sig=%FF"), 403, "FORBIDDEN");
  });
});

// ---- 19. pdfMargin -----------------------------------------------------------------------------

describe("19. pdfMargin traps", () => {
  it("not a CSS length, or margins that leave no page → 400 naming the side", async () => {
    const m = (pdfMargin: unknown, extra: Record<string, unknown> = {}) => ({
      url: BLOCKED,
      format: "pdf",
      pdfMargin,
      ...extra,
    });
    await allInvalid([
      [m({ middle: "1in" }), "pdfMargin.middle"],
      [m("1in"), "pdfMargin"],
      [m(null), "pdfMargin"],
      [m([]), "pdfMargin"],
      [m({ top: "1IN" }), "pdfMargin.top"],
      [m({ top: ".5in" }), "pdfMargin.top"],
      [m({ top: "1in " }), "pdfMargin.top"],
      [m({ top: "" }), "pdfMargin.top"],
      [m({ top: "+1in" }), "pdfMargin.top"],
      [m({ top: "1in\n" }), "pdfMargin.top"],
      [m({ top: "99999in" }), "pdfMargin.top"],
      [m({ top: "1e3px" }), "pdfMargin.top"],
      [m({ top: "NaNin" }), "pdfMargin.top"],
      [m({ top: "1in", top2: "1in" }), "pdfMargin.top2"],
      [m({ top: "9999in" }), "pdfMargin.top"],
      [m({ top: "6in", bottom: "6in" }), "pdfMargin.top"],
      [m({ left: "200mm" }), "pdfMargin.left"],
      [m({ left: "4in", right: "4in" }, { pdfLandscape: false }), "pdfMargin.left"],
      [m({ top: "4in", bottom: "4in" }, { pdfLandscape: true }), "pdfMargin.top"],
      [m({ top: "792pt" }, { pdfFormat: "Letter" }), "pdfMargin.top"],
    ]);
  });

  it("large margins that still leave a page are accepted", () => {
    accepted({
      url: BLOCKED,
      format: "pdf",
      pdfMargin: { top: "5in", bottom: "5in", left: "3.5in", right: "3.5in" },
    });
    accepted({
      url: BLOCKED,
      format: "pdf",
      pdfFormat: "Tabloid",
      pdfLandscape: true,
      pdfMargin: { top: "4in", bottom: "4in", left: "7in", right: "8in" },
    });
    accepted({
      url: BLOCKED,
      format: "pdf",
      pdfMargin: { top: "0", right: "72px", bottom: "20mm", left: "2cm" },
    });
  });

  it("a margin that leaves no page is not a 500 from the browser (html source, no network)", async () => {
    const res = await refuser.post({
      html: "<p>x</p>",
      format: "pdf",
      pdfMargin: { top: "9999in", bottom: "1in" },
    });
    await invalid(res, "pdfMargin.top");
  });
});

// ---- 20. webhookUrl ----------------------------------------------------------------------------

describe("20. webhookUrl", () => {
  const HOOKS = [
    "https://hooks.example.com:99999/x",
    "https://hooks.example.com:0/x",
    `https://hooks.example.com/${"a".repeat(10 * KB)}`,
    "https://[::1]/x",
    "https://0x7f.1/x",
    "https://127.1/x",
    "https://[::ffff:10.0.0.1]/x",
    "javascript:alert(1)",
    "file:///etc/passwd",
    "https://:pw@hooks.example.com/x",
    "//hooks.example.com/x",
    "https:/\\hooks.example.com",
    "http://hooks.example.com:443/x",
  ];

  it("an async capture with a hostile webhookUrl → 400 INVALID_WEBHOOK_URL, nothing queued or captured", async () => {
    const run = `${RUN}-hook`;
    for (const webhookUrl of HOOKS) {
      const res = await refuser.post({
        url: `${FIXTURES}/boxes.html?run=${run}`,
        async: true,
        webhookUrl,
      });
      await refused(res, 400, "INVALID_WEBHOOK_URL", "webhookUrl").catch((err: Error) => {
        throw new Error(`${webhookUrl.slice(0, 60)}: ${err.message}`);
      });
    }
    expect(await fixtureLog(run)).toEqual([]);
  });

  it("a batch with a hostile webhookUrl → 400 INVALID_WEBHOOK_URL", async () => {
    for (const webhookUrl of HOOKS.slice(0, 6)) {
      await refused(
        await refuser.post(
          { urls: [`${FIXTURES}/boxes.html?run=${RUN}-hook`], webhookUrl },
          "/v1/screenshot/batch",
        ),
        400,
        "INVALID_WEBHOOK_URL",
        "webhookUrl",
      );
    }
  });

  it("of the wrong type → 400 naming webhookUrl", async () => {
    await allInvalid([
      [{ url: BLOCKED, async: true, webhookUrl: 42 }, "webhookUrl"],
      [{ url: BLOCKED, async: true, webhookUrl: ["https://a.example.com/"] }, "webhookUrl"],
      [{ url: BLOCKED, async: "true", webhookUrl: "https://a.example.com/" }, "async"],
    ]);
  });
});

// ---- 21. Authentication ----------------------------------------------------------------------

describe("21. authentication before anything else", () => {
  it("a hostile body without a usable key is 401 with a stable code, never a body error", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, "MISSING_API_KEY"],
      [{ authorization: "Bearer" }, "MISSING_API_KEY"],
      [{ authorization: "Basic dXNlcjpwYXNz" }, "MISSING_API_KEY"],
      [{ authorization: `Bearer ${"x".repeat(10 * KB)}` }, "INVALID_API_KEY"],
      [{ authorization: `Bearer svc_${"A".repeat(43)}ÿ` }, "INVALID_API_KEY"],
      [{ "x-api-key": `svc_${"A".repeat(42)}\u00a0` }, "INVALID_API_KEY"],
    ];
    for (const [headers, code] of cases) {
      for (const body of ['{"url":', "[]", `{"widht":1}`]) {
        const res = await call("/v1/screenshot/json", {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body,
        });
        await refused(res, 401, code);
      }
    }
  });
});

// ---- 22. Misspelled fields ------------------------------------------------------------------

describe("22. misspelled and look-alike fields → 400 naming them", () => {
  it.each([
    "URL",
    "Url",
    "widht",
    "full_page",
    "fullpage",
    "device_scale_factor",
    "wіdth" /* Cyrillic і */,
    "width\u200b",
    "width ",
    "hideSelector",
    "cookie",
    "header",
    "webhookURL",
    "pdf_format",
  ])("%j", async (key) => {
    await invalid(await refuser.post({ url: BLOCKED, [key]: 1 }), key);
  });

  it("nested misspellings too", async () => {
    await allInvalid([
      [
        { url: BLOCKED, cookies: [{ name: "a", value: "b", httponly: true }] },
        "cookies[0].httponly",
      ],
      [
        { url: BLOCKED, cookies: [{ name: "a", value: "b", SameSite: "Lax" }] },
        "cookies[0].SameSite",
      ],
      [{ url: BLOCKED, pdfMargin: { Top: "1in" } }, "pdfMargin.Top"],
    ]);
  });
});

// ---- Valid but hostile values reach the page intact ---------------------------------------

describe("values at their limits are honoured, not just accepted", () => {
  it("a 4,095-byte cookie, a 512-emoji user agent, a 4,096-character header and 50 emoji hideSelectors reach the fixture", async () => {
    const cap = await Capturer.create("pro");
    const run = `${RUN}-limits`;
    const res = await cap.postRaw(
      JSON.stringify({
        url: `${FIXTURES}/boxes.html?run=${run}`,
        width: 320,
        height: 240,
        waitUntil: "load",
        blockAds: false,
        cookies: [
          { name: "a", value: "x".repeat(4095) },
          { name: emoji, value: emoji },
        ],
        userAgent: emoji.repeat(512),
        headers: { "X-Long": "y".repeat(4096), "X-Latin": "café" },
        hideSelectors: Array.from({ length: 50 }, (_, i) => `.${emoji.repeat(490)}${i}`),
      }),
      "/v1/screenshot/json",
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const [request] = await fixtureLog(run);
    // The fixture server (node) reads header bytes as Latin-1; Chromium sends UTF-8.
    const utf8 = (s: string) =>
      Array.from(new TextEncoder().encode(s), (b) => String.fromCharCode(b)).join("");
    expect(request?.headers.cookie).toBe(`a=${"x".repeat(4095)}; ${utf8(`${emoji}=${emoji}`)}`);
    expect(request?.headers["user-agent"]).toBe(utf8(emoji.repeat(512)));
    expect(request?.headers["x-long"]).toBe("y".repeat(4096));
    expect(request?.headers["x-latin"]).toBe(utf8("café"));
  });
});

// ---- No side effects --------------------------------------------------------------------------

describe("refusals have no side effects", () => {
  it("no refused request spent a credit, queued a job or batch, stored an output or reached the network", async () => {
    expect(refuser.accounts.length).toBeGreaterThan(0);
    for (const account of refuser.accounts) {
      expect(await usage(account.apiKey)).toBe(0);
      const account_ = accountDo(account.accountId);
      expect((await account_.summary())?.activeJobs).toBe(0);
      expect((await account_.jobs().list({ status: null, limit: 5, before: null })).items).toEqual(
        [],
      );
      expect(
        (await account_.jobs().listBatches({ status: null, limit: 5, before: null })).items,
      ).toEqual([]);
    }
    expect((await env.OUTPUTS.list()).objects.length).toBe(outputsBefore);
    const canary = (await (await fetch(`${CANARY}/__log?run=${RUN}`)).json()) as unknown[];
    expect(canary).toEqual([]);
  });
});

const usage = creditsUsed;
