/**
 * Refusals are not crashes: a target URL the guard, the DNS check or the reputation check
 * refuses answers its documented 4xx naming the field and saying why — on a sync capture, on
 * render-link minting and per URL in a batch — and a DNS check that itself failed is ours, a
 * 503 URL_CHECK_UNAVAILABLE with Retry-After (never "Screenshot capture failed."). Every error
 * body links its code's section of GET /docs/errors, which exists and names the code. And a
 * missing field is "Required", in our words, on every route (one place: src/http/body.ts).
 *
 * DNS answers come from the fake resolver (test/fixtures/fakes/doh.ts), reputation from the
 * fake Safe Browsing and UNSAFE_HOST_PATTERNS (listed.example.org).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { call, envelope, FIXTURES, postJson, runId, type Envelope } from "../helpers/http";

const PORT = new URL(FIXTURES).port;
const via = (host: string) =>
  `http://${host}.rebind.example.com:${PORT}/pages/small.html?run=${runId()}`;

interface Case {
  name: string;
  url: () => string;
  status: number;
  code: string;
  /** What the message must say: what was refused and why. */
  says: RegExp;
}

const CASES: Case[] = [
  {
    name: "a private address (guard)",
    url: () => "http://10.0.0.1/admin",
    status: 400,
    code: "INVALID_URL",
    says: /not a public http\(s\) URL: blocked host: .*private/i,
  },
  {
    name: "a reserved name (guard)",
    url: () => "https://intranet.localhost/",
    status: 400,
    code: "INVALID_URL",
    says: /not a public http\(s\) URL: blocked host: reserved name \(\.localhost\)/,
  },
  {
    name: "a scheme other than http(s) (guard)",
    url: () => "ftp://example.com/x",
    status: 400,
    code: "INVALID_URL",
    says: /scheme ftp: is not allowed/,
  },
  {
    name: "a name resolving to a private address (DNS)",
    url: () => via("ten"),
    status: 400,
    code: "INVALID_URL",
    says: /ten\.rebind\.example\.com resolves to a private or reserved address/,
  },
  {
    name: "a name that does not resolve (DNS)",
    url: () => via("nx"),
    status: 400,
    code: "INVALID_URL",
    says: /nx\.rebind\.example\.com does not resolve \(NXDOMAIN/,
  },
  {
    name: "a name flagged by Safe Browsing (reputation)",
    url: () => via("malware"),
    status: 400,
    code: "UNSAFE_URL",
    says: /flagged as unsafe/,
  },
  {
    name: "a host on UNSAFE_HOST_PATTERNS (reputation)",
    url: () => "https://listed.example.org/",
    status: 400,
    code: "UNSAFE_URL",
    says: /flagged as unsafe/,
  },
  {
    name: "a resolver that fails (ours)",
    url: () => via("http500"),
    status: 503,
    code: "URL_CHECK_UNAVAILABLE",
    says: /could not be checked: the DNS resolver could not be reached/,
  },
];

let account: TestAccount;
let auth: Record<string, string>;
beforeAll(async () => {
  account = await createAccount("pro");
  auth = bearer(account.apiKey);
});

function expectRefusal(res: Response, body: Envelope, c: Case, path: string): void {
  expect(res.status, c.name).toBe(c.status);
  expect(body.error?.code, c.name).toBe(c.code);
  expect(body.error?.message, c.name).toMatch(c.says);
  expect(body.error?.message, c.name).not.toMatch(/Screenshot capture failed/);
  expect(body.error?.details?.[0]?.path, c.name).toBe(path);
  expect(body.error?.docs, c.name).toBe(`/docs/errors#${c.code}`);
  if (c.status === 503) expect(res.headers.get("retry-after"), c.name).toMatch(/^\d+$/);
}

describe("a refused target answers its code, naming the field and saying why", () => {
  it.each(CASES)("sync capture: $name → $status $code", async (c) => {
    const res = await postJson("/v1/screenshot", { url: c.url() }, auth);
    expectRefusal(res, await envelope(res), c, "url");
  });

  it.each(CASES)("render-link minting: $name → $status $code", async (c) => {
    const res = await postJson("/v1/render/link", { url: c.url() }, auth);
    expectRefusal(res, await envelope(res), c, "url");
  });

  it.each(CASES)("batch, as urls[1]: $name → $status $code", async (c) => {
    const ok = `${FIXTURES}/pages/small.html?run=${runId()}`;
    const res = await postJson("/v1/screenshot/batch", { urls: [ok, c.url()] }, auth);
    const body = await envelope(res);
    expectRefusal(res, body, c, "urls[1]");
    expect(body.error?.message, c.name).toMatch(/^urls\[1\]/);
  });

  it("a batch with several refusals names each index and its own reason", async () => {
    const res = await postJson(
      "/v1/screenshot/batch",
      { urls: [via("nx"), `${FIXTURES}/pages/small.html`, "http://127.0.0.1/"] },
      auth,
    );
    const body = await envelope(res);
    expect(res.status).toBe(400);
    expect(body.error?.message).toMatch(
      /^urls\[0\] is not a public http\(s\) URL: .*does not resolve.*\(2 URLs were refused; see details\)$/,
    );
    expect(body.error?.details).toEqual([
      { path: "urls[0]", message: expect.stringMatching(/does not resolve/) },
      { path: "urls[2]", message: expect.stringMatching(/blocked host: .*loopback/i) },
    ]);
  });
});

describe("GET /docs/errors", () => {
  it("is an HTML page with a section per code: status, whose fault, meaning, what to do", async () => {
    const res = await call("/docs/errors");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    const section = html.match(/<section id="URL_CHECK_UNAVAILABLE">[\s\S]*?<\/section>/)?.[0];
    expect(section).toMatch(/<dt>HTTP status<\/dt><dd>503<\/dd>/);
    expect(section).toMatch(/<dt>Whose fault<\/dt><dd>Ours/);
    expect(section).toMatch(/<dt>What it means<\/dt><dd>The URL could not be checked/);
    expect(section).toMatch(/<dt>What to do<\/dt><dd>Retry after <code>Retry-After<\/code>/);
    expect(html).toMatch(/<section id="CAPTURE_FAILED">[\s\S]*?<dd>500, 400, 502<\/dd>/);
  });

  it("every error body's docs link lands on a section naming its code", async () => {
    const html = await (await call("/docs/errors")).text();
    const answers = [
      await call("/v1/nope"),
      await call("/v1/account"),
      await postJson("/v1/screenshot", { url: "http://10.0.0.1/" }, auth),
      await postJson("/v1/screenshot", { url: "https://x.test/", width: 5 }, auth),
    ];
    for (const res of answers) {
      const { error } = await envelope(res);
      const [path, anchor] = (error?.docs ?? "").split("#");
      expect(path).toBe("/docs/errors");
      expect(anchor).toBe(error?.code);
      expect(html).toContain(`<section id="${anchor}">`);
    }
  });
});

describe("zod's raw messages never reach the caller", () => {
  it("POST /v1/extract without url: 400 naming url, Required", async () => {
    const res = await postJson("/v1/extract", { extractFormat: "markdown" }, auth);
    expect(res.status).toBe(400);
    const { error } = await envelope(res);
    expect(error?.code).toBe("VALIDATION_ERROR");
    expect(error?.message).toBe("Invalid request: url: Required (string).");
    expect(error?.details).toEqual([{ path: "url", message: "Required (string)." }]);
    expect(JSON.stringify(error)).not.toMatch(/received undefined/);
  });

  it("the message spells out each field's problem (width: Must be at least 320)", async () => {
    const res = await postJson("/v1/screenshot", { url: "https://x.test/", width: 5 }, auth);
    const { error } = await envelope(res);
    expect(error?.message).toBe("Invalid request: width: Must be at least 320.");
    const many = await postJson(
      "/v1/screenshot",
      { url: "https://x.test/", width: 5, height: 5, delay: -1, timeout: 1 },
      auth,
    );
    const body = await envelope(many);
    expect(body.error?.message).toMatch(
      /^Invalid request: width: .+; height: .+; delay: .+; and 1 more \(see details\)\.$/,
    );
    expect(body.error?.details).toHaveLength(4);
  });
});
