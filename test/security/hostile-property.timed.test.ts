/**
 * Property: whatever JSON (or near-JSON) a caller sends, every JSON-body route answers with
 * the spec's envelope — 2xx or 4xx, a known error code with its own status, a request id —
 * within a few seconds: never a 500, never a hang. The schemas themselves never throw.
 *
 * Bodies come from three generators: arbitrary JSON values, objects over the real field names
 * with hostile values, and mutations (value swaps, unknown keys, text edits) of valid bodies.
 *
 * No generated request may start a capture: on capture routes every body that would pass
 * validation carries a `url` the URL guard refuses (the canary server, checked at the end),
 * and the few others are discarded before sending. Later routes join with one line each in
 * `JSON_ROUTES` / `SCHEMAS`; a route whose bodies carry their targets elsewhere brings its own
 * `Pinning` (as batches do with `PIN_URLS`).
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  captureFields,
  captureRequestSchema,
  DEVICES,
  EXTRACT_FORMATS,
  FORMATS,
  PDF_FORMATS,
  RESOURCE_TYPES,
  WAIT_UNTIL,
} from "../../schemas/capture";
import {
  captureQuerySchema,
  GET_PARAMS,
  POST_ONLY,
  queryRecord,
} from "../../schemas/capture-query";
import { extractRequestSchema } from "../../schemas/extract";
import {
  contentRequestSchema,
  linksRequestSchema,
  scrapeRequestSchema,
  snapshotRequestSchema,
} from "../../schemas/page-content";
import { animateBatchRequestSchema } from "../../schemas/animate";
import { batchRequestSchema } from "../../schemas/batch";
import { renderLinkRequestSchema } from "../../schemas/render-link";
import { jsonRequestSchema } from "../../schemas/structured";
import { ERROR_STATUS } from "../../src/errors";
import { accountDo } from "../helpers/account-do";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { call, FIXTURES, runId } from "../helpers/http";

const RUN = runId();
const CANARY = FIXTURES.replace(/:(\d+)$/, (_, p: string) => `:${Number(p) + 3}`);
/** Loopback, not allowlisted: the URL guard refuses it before DNS or a browser. */
const BLOCKED = `${CANARY}/p?run=${RUN}`;

/** How a capturing route's bodies are kept away from the browser. */
export interface Pinning {
  /** The body text with its target(s) set to BLOCKED (may be left as is when not an object). */
  pin(text: string): string;
  /** Whether validated data targets nothing but BLOCKED (else the body is not sent). */
  safe(data: unknown): boolean;
}

/** `url` first in the object (a later duplicate wins, and is then judged by `safe`). */
export const PIN_URL: Pinning = {
  pin: (text) =>
    text.startsWith("{")
      ? `{"url":${JSON.stringify(BLOCKED)},${text.slice(1)}`.replace(/,\}$/, "}")
      : text,
  safe: (data) => (data as { url?: unknown }).url === BLOCKED,
};

/** A batch: `urls` pinned to one BLOCKED entry. */
export const PIN_URLS: Pinning = {
  pin: (text) =>
    text.startsWith("{")
      ? `{"urls":[${JSON.stringify(BLOCKED)}],${text.slice(1)}`.replace(/,\}$/, "}")
      : text,
  safe: (data) => {
    const urls = (data as { urls?: unknown }).urls;
    return Array.isArray(urls) && urls.every((u) => u === BLOCKED);
  },
};

export interface JsonRoute {
  name: string;
  path: string;
  /** Null for routes that never capture; else how their bodies are pinned (see the file comment). */
  pinning: Pinning | null;
  /** The schema the route validates with, to tell which bodies would pass. */
  schema: z.ZodType;
  /** Error codes the generated bodies must reach (proof they get past the parser and schema). */
  reaches: string[];
}

/** JSON-body routes under test. */
const PAST_THE_SCHEMA = ["INVALID_JSON", "VALIDATION_ERROR", "INVALID_URL"];
export const JSON_ROUTES: JsonRoute[] = [
  {
    name: "POST /v1/screenshot/json",
    path: "/v1/screenshot/json",
    pinning: PIN_URL,
    schema: captureRequestSchema,
    reaches: PAST_THE_SCHEMA,
  },
  {
    name: "POST /v1/screenshot",
    path: "/v1/screenshot",
    pinning: PIN_URL,
    schema: captureRequestSchema,
    reaches: PAST_THE_SCHEMA,
  },
  {
    name: "POST /v1/render/link",
    path: "/v1/render/link",
    pinning: null,
    schema: renderLinkRequestSchema,
    reaches: ["INVALID_JSON", "VALIDATION_ERROR"],
  },
  {
    name: "POST /v1/extract",
    path: "/v1/extract",
    pinning: PIN_URL,
    schema: extractRequestSchema,
    reaches: ["INVALID_JSON", "VALIDATION_ERROR"],
  },
  ...(
    [
      ["/v1/content", contentRequestSchema],
      ["/v1/scrape", scrapeRequestSchema],
      ["/v1/json", jsonRequestSchema],
      ["/v1/links", linksRequestSchema],
      ["/v1/snapshot", snapshotRequestSchema],
    ] as const
  ).map(([path, schema]) => ({
    name: `POST ${path}`,
    path,
    pinning: PIN_URL,
    schema,
    reaches: ["INVALID_JSON", "VALIDATION_ERROR"],
  })),
  {
    name: "POST /v1/screenshot/batch",
    path: "/v1/screenshot/batch",
    pinning: PIN_URLS,
    schema: batchRequestSchema,
    reaches: ["INVALID_JSON", "VALIDATION_ERROR"],
  },
  {
    name: "POST /v1/animate/batch",
    path: "/v1/animate/batch",
    pinning: PIN_URLS,
    schema: animateBatchRequestSchema,
    reaches: ["INVALID_JSON", "VALIDATION_ERROR"],
  },
];

/** Schemas under test directly: `safeParse` must never throw, whatever the value. */
export const SCHEMAS: Array<{ name: string; schema: z.ZodType }> = [
  { name: "captureRequestSchema", schema: captureRequestSchema },
  { name: "renderLinkRequestSchema", schema: renderLinkRequestSchema },
  { name: "extractRequestSchema", schema: extractRequestSchema },
  { name: "batchRequestSchema", schema: batchRequestSchema },
  { name: "animateBatchRequestSchema", schema: animateBatchRequestSchema },
  { name: "contentRequestSchema", schema: contentRequestSchema },
  { name: "scrapeRequestSchema", schema: scrapeRequestSchema },
  { name: "jsonRequestSchema", schema: jsonRequestSchema },
  { name: "linksRequestSchema", schema: linksRequestSchema },
  { name: "snapshotRequestSchema", schema: snapshotRequestSchema },
];

// ---- Accounts and the envelope check ---------------------------------------------------------

/** A new Enterprise account every 200 calls (1,000 a minute is its rate limit). */
const accounts: TestAccount[] = [];
let calls = 0;
async function key(): Promise<string> {
  if (calls++ % 200 === 0) accounts.push(await createAccount("enterprise"));
  return accounts[accounts.length - 1]!.apiKey;
}

const CODES = new Set(Object.keys(ERROR_STATUS));
const TIME_LIMIT_MS = 5000;

/** Sends and checks the response is a well-formed 2xx/4xx envelope in time; returns the status
 *  and the error code (or "OK"). */
async function expectEnvelope(request: () => Promise<Response>, what: string): Promise<string> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer in ${TIME_LIMIT_MS} ms: ${what}`)),
      TIME_LIMIT_MS,
    );
  });
  try {
    const res = await Promise.race([request(), timeout]);
    const type = res.headers.get("content-type") ?? "";
    if (res.status === 200 && !type.includes("json")) {
      await res.body?.cancel(); // bytes (only a route that captures could send them)
      throw new Error(`unexpected bytes: ${what}`);
    }
    const text = await Promise.race([res.text(), timeout]);
    const context = `${res.status} ${text.slice(0, 300)} ← ${what}`;
    expect(res.status < 500 && (res.status < 300 || res.status >= 400), context).toBe(true);
    const body = JSON.parse(text) as {
      success: unknown;
      data?: unknown;
      error?: {
        code: string;
        message: unknown;
        details?: Array<{ path: unknown; message: unknown }>;
      };
      meta: { requestId: unknown; timestamp: unknown };
    };
    expect(
      typeof body.meta?.requestId === "string" && body.meta.requestId.startsWith("req_"),
      context,
    ).toBe(true);
    expect(Number.isNaN(Date.parse(String(body.meta.timestamp))), context).toBe(false);
    if (res.status < 300) {
      expect(body.success, context).toBe(true);
      expect(typeof body.data, context).toBe("object");
    } else {
      expect(body.success, context).toBe(false);
      const code = body.error?.code ?? "";
      expect(CODES.has(code), context).toBe(true);
      const status = ERROR_STATUS[code as keyof typeof ERROR_STATUS];
      expect(
        res.status === status || (code === "CAPTURE_FAILED" && res.status === 400),
        context,
      ).toBe(true);
      expect(typeof body.error?.message, context).toBe("string");
      if (code === "VALIDATION_ERROR") {
        expect(body.error?.details?.length, context).toBeGreaterThan(0);
        for (const d of body.error?.details ?? [])
          expect([typeof d.path, typeof d.message], context).toEqual(["string", "string"]);
      }
    }
    expect(Date.now() - started, context).toBeLessThan(TIME_LIMIT_MS);
    return body.error?.code ?? `${res.status}`;
  } finally {
    clearTimeout(timer);
  }
}

// ---- Generators ---------------------------------------------------------------------------

const FIELDS = [
  ...Object.keys(captureFields),
  ...["urls", "defaults", "expiresIn"],
  ...["elements", "stripScripts", "contentFormat", "visibleOnly", "internalOnly", "includeNonHttp"],
];
const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "\r\n",
  "\ud800",
  "\ufeff",
  "😀",
  "é",
  "\u202e",
  "%",
  "%00",
  "${x}",
  "{{x}}",
  "{{#a}}",
  "</script>",
  "__proto__",
  "constructor",
  "toString",
  "NaN",
  "Infinity",
  "-0",
  "1e309",
  "0x10",
  "true",
  "null",
  "[]",
  "{}",
  "div[[",
  ":has(",
  "}",
  "#1a",
  "div >",
  "a|b",
  "1 in",
  "9999in",
  "PNG",
  "A4",
  "a4",
  "iphone_16",
  "networkidle",
  "javascript:alert(1)",
  "file:///etc/passwd",
  "http://169.254.169.254/",
  "http://[::1]/",
  "http://0x7f.1/",
  "https://user:pass@10.0.0.1/",
  "x".repeat(600),
  "😀".repeat(600),
];
const NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  15,
  16,
  239,
  240,
  319,
  320,
  3599,
  3600,
  3840,
  3841,
  10_001,
  2_592_001,
  1e21,
  2 ** 53 + 1,
  -1e21,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
];

const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.oneof(hostileString, fc.constantFrom("__proto__", "constructor", "Host", "X-A")),
      hostileString,
      { maxKeys: 4 },
    ),
  },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record(
        { name: hostileString, value: hostileString, domain: hostileString },
        { requiredKeys: [] },
      ),
      { maxLength: 3 },
    ),
  },
);

/** Valid values per field (a few each): the material the mutations start from. */
const VALID: Record<string, fc.Arbitrary<unknown>> = {
  format: fc.constantFrom(...FORMATS),
  width: fc.integer({ min: 320, max: 3840 }),
  height: fc.integer({ min: 240, max: 2160 }),
  fullPage: fc.boolean(),
  darkMode: fc.boolean(),
  blockAds: fc.boolean(),
  bestAttempt: fc.boolean(),
  blockCookieBanners: fc.boolean(),
  pdfLandscape: fc.boolean(),
  pdfPrintBackground: fc.boolean(),
  quality: fc.integer({ min: 1, max: 100 }),
  delay: fc.integer({ min: 0, max: 10_000 }),
  deviceScaleFactor: fc.double({ min: 1, max: 3, noNaN: true }),
  blockResourceTypes: fc.subarray([...RESOURCE_TYPES]),
  timeout: fc.integer({ min: 5, max: 60 }),
  waitUntil: fc.constantFrom(...WAIT_UNTIL),
  waitForSelector: fc.constantFrom("div", "#a > .b", ":is(p, li)"),
  selector: fc.constantFrom("main", "a[href^='x']", ":nth-child(2n+1 of .x)"),
  device: fc.constantFrom(...DEVICES),
  hideSelectors: fc.array(fc.constantFrom(".ad", "#cookie", "[aria-hidden]"), { maxLength: 3 }),
  resizeWidth: fc.integer({ min: 16, max: 3840 }),
  resizeHeight: fc.integer({ min: 16, max: 2160 }),
  css: fc.string({ maxLength: 30 }),
  userAgent: fc.constantFrom("Bot/1.0", "😀"),
  cookies: fc.array(
    fc.record({ name: fc.constantFrom("a", "sid"), value: fc.constantFrom("1", "x y") }),
    { maxLength: 2 },
  ),
  headers: fc.dictionary(fc.constantFrom("X-A", "Accept-Language"), fc.constantFrom("1", "en")),
  pdfFormat: fc.constantFrom(...PDF_FORMATS),
  pdfScale: fc.double({ min: 0.1, max: 2, noNaN: true }),
  pdfMargin: fc.record(
    { top: fc.constantFrom("0", "1in", "20mm"), left: fc.constantFrom("72px", "2cm") },
    { requiredKeys: [] },
  ),
  extractFormat: fc.constantFrom(...EXTRACT_FORMATS),
  cacheTtl: fc.integer({ min: 3600, max: 2_592_000 }),
  elements: fc.array(
    fc.record(
      {
        selector: fc.constantFrom("h1", "a[href]", ":is(p, li)"),
        attributes: fc.constant(["href"]),
      },
      { requiredKeys: ["selector"] },
    ),
    { minLength: 1, maxLength: 3 },
  ),
  stripScripts: fc.boolean(),
  contentFormat: fc.constantFrom("html", "text"),
  visibleOnly: fc.boolean(),
  internalOnly: fc.boolean(),
  includeNonHttp: fc.boolean(),
};

const validBody = fc.record(VALID, { requiredKeys: [] });
const fieldBody = fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { maxKeys: 6 });

type Mutation = (text: string) => string;
const textMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.nat().map(
    (n): Mutation =>
      (t) =>
        t.slice(0, n % (t.length + 1)),
  ), // truncate
  fc
    .tuple(
      fc.nat(),
      fc.constantFrom(",", "}", "{", "[", '"', "\\", ":", "\u0000", "😀", "\n", "1e309", "null"),
    )
    .map(
      ([n, c]): Mutation =>
        (t) => {
          const i = n % (t.length + 1);
          return t.slice(0, i) + c + t.slice(i);
        }, // insert
    ),
  fc.nat().map((n): Mutation => (t) => {
    const i = n % Math.max(1, t.length);
    return t.slice(0, i) + t.slice(i + 1);
  }), // delete
  fc.tuple(fc.constantFrom(...FIELDS.filter((f) => f !== "url")), hostileValue).map(
    ([field, value]): Mutation =>
      (t) =>
        t.replace(/^\{/, `{${JSON.stringify(field)}:${JSON.stringify(value) ?? "null"},`), // a duplicate key, first
  ),
);
const mutatedBody = fc.oneof(
  fc
    .tuple(validBody, fc.constantFrom(...FIELDS), hostileValue)
    .map(([body, field, value]) => JSON.stringify({ ...body, [field]: value })),
  fc
    .tuple(validBody, hostileString, hostileValue)
    .map(([body, k, value]) => JSON.stringify({ ...body, [k]: value })),
  fc.tuple(validBody, textMutation).map(([body, mutate]) => mutate(JSON.stringify(body))),
);

/** Batch-shaped bodies (the other routes refuse `defaults` by name). */
const batchBody = fc.record(
  {
    defaults: fc.oneof(validBody, fieldBody),
    webhookUrl: hostileString,
    cacheTtl: fc.constantFrom(...NUMBERS),
  },
  { requiredKeys: [] },
);

/** Body texts: any JSON, field objects, mutations; each a text as it would go on the wire. */
const bodyText: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fieldBody.map((v) => JSON.stringify(v)),
  mutatedBody,
  batchBody.map((v) => JSON.stringify(v)),
);

/** The text the worker will decode (lone surrogates become U+FFFD on the way). */
const wire = (text: string) => new TextDecoder().decode(new TextEncoder().encode(text));

/** The body to send: pinned for a capturing route, or null when it would capture after all. */
function pinned(route: JsonRoute, text: string): string | null {
  if (route.pinning === null) return wire(text);
  const body = route.pinning.pin(wire(text));
  let value: unknown;
  try {
    value = JSON.parse(body.replace(/^\ufeff/, ""));
  } catch {
    return body; // the route refuses it as INVALID_JSON
  }
  const result = route.schema.safeParse(value);
  if (!result.success) return body;
  return route.pinning.safe(result.data) ? body : null; // would capture: not sent
}

// ---- Properties -----------------------------------------------------------------------------

describe("generated bodies never break a JSON route", () => {
  afterAll(async () => {
    // Nothing got past the URL guard; no capture was charged, no job or batch queued.
    const canary = (await (await fetch(`${CANARY}/__log?run=${RUN}`)).json()) as unknown[];
    expect(canary).toEqual([]);
    for (const account of accounts) {
      const res = await call("/v1/account", { headers: bearer(account.apiKey) });
      const body = (await res.json()) as { data: { usage: { used: number } } };
      expect(body.data.usage.used).toBe(0);
      const stub = accountDo(account.accountId);
      expect((await stub.summary())?.activeJobs).toBe(0);
      expect(
        (await stub.jobs().listBatches({ status: null, limit: 5, before: null })).items,
      ).toEqual([]);
    }
  });

  it.each(JSON_ROUTES.map((r) => [r.name, r] as const))(
    "%s: always an envelope, 2xx or 4xx, in time",
    async (_name, route) => {
      let sent = 0;
      const seen = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(bodyText, async (text) => {
          const body = pinned(route, text);
          fc.pre(body !== null);
          sent++;
          const apiKey = await key();
          const outcome = await expectEnvelope(
            () =>
              call(route.path, {
                method: "POST",
                headers: { "content-type": "application/json", ...bearer(apiKey) },
                body: body!,
              }),
            `${route.name} ${JSON.stringify(body).slice(0, 200)}`,
          );
          seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
        }),
        { numRuns: 200, seed: 0x5eed, endOnFailure: true },
      );
      expect(sent).toBeGreaterThan(160);
      // The generators reach past the JSON parser and the schema, not only into one of them.
      for (const code of route.reaches)
        expect(seen.get(code) ?? 0, JSON.stringify([...seen])).toBeGreaterThan(5);
    },
  );

  it("GET /v1/screenshot: generated query strings → always an envelope, 4xx, in time", async () => {
    const name = fc.oneof(
      fc.constantFrom(...GET_PARAMS, ...POST_ONLY, "key", "__proto__", "Width", ""),
      fc.string({ maxLength: 8 }),
    );
    const value = fc.oneof(
      fc.constantFrom(
        "1",
        "0",
        "-0",
        "05",
        "1e3",
        "0x10",
        "Infinity",
        "NaN",
        " 1",
        "true",
        "TRUE",
        "",
      ),
      fc.string({ unit: "binary", maxLength: 12 }),
      fc.constantFrom(...NUMBERS.map(String)),
    );
    const raw = fc.string({ unit: "binary", maxLength: 30 }); // unencoded: %, &, =, # and all
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc
            .array(fc.tuple(name, value), { maxLength: 6 })
            .map((pairs) => new URLSearchParams(pairs).toString()),
          raw,
        ),
        async (query) => {
          const apiKey = await key();
          const outcome = await expectEnvelope(
            () => call(`/v1/screenshot?${query}&url=${encodeURIComponent(BLOCKED)}&key=${apiKey}`),
            `GET ?${JSON.stringify(query)}`,
          );
          expect(outcome).not.toMatch(/^2/);
        },
      ),
      { numRuns: 150, seed: 0x6e7, endOnFailure: true },
    );
  });
});

describe("the schemas never throw", () => {
  it.each(SCHEMAS.map((s) => [s.name, s.schema] as const))(
    "%s.safeParse on generated values",
    (_name, schema) => {
      const value = fc.oneof(
        fc.jsonValue(),
        fieldBody,
        validBody,
        fc.anything({ withNullPrototype: true, withObjectString: true }),
      );
      fc.assert(
        fc.property(value, (v) => {
          schema.safeParse(v);
        }),
        { numRuns: 3000, seed: 42 },
      );
    },
  );

  it("captureQuerySchema via queryRecord on generated query strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (query) => {
        const { record } = queryRecord(new URL(`https://x.test/v1/screenshot?${query}`));
        captureQuerySchema.safeParse(record);
      }),
      { numRuns: 3000, seed: 43 },
    );
  });
});
