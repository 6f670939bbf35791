/**
 * The dashboard's server side through the worker's fetch handler (https origin): signup makes
 * a Free account whose key works at once and is shown once; duplicate emails, weak passwords,
 * cross-site and token-less posts are refused; login is throttled; every page carries the
 * security headers. The browser journey is test/dashboard/dashboard.e2e.test.ts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountStub } from "../../src/accounts/directory";
import { BASE, call, envelope, FIXTURES, postJson } from "../helpers/http";
import { decodeImage } from "../helpers/images";
import { bearer } from "../helpers/accounts";
import { dashboardSession } from "../helpers/dashboard";
import { setClock } from "../helpers/account-do";
import { poll } from "../helpers/jobs";
import { mustCreate, watchBody } from "../helpers/watches";

const CRAWL_SITE = (env as unknown as { CRAWL_SITE_ORIGIN: string }).CRAWL_SITE_ORIGIN;

const ORIGIN = { origin: BASE };
let n = 0;
const freshEmail = () => `user${Date.now()}-${++n}@Example.com`;
const PASSWORD = "correct horse battery";

function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return call(`/dashboard${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...ORIGIN, ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

/** The session cookie pair (`name=value`) a response set. */
function sessionCookie(res: Response): string {
  const header = res.headers.get("set-cookie") ?? "";
  const match = /(__Secure-edgeshot_session=[^;]+)/.exec(header);
  if (!match?.[1]) throw new Error(`no session cookie in ${header}`);
  return match[1];
}

async function signup(email = freshEmail(), address = `198.51.100.${++n % 250}`) {
  const res = await post("/signup", { email, password: PASSWORD }, { "cf-connecting-ip": address });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/dashboard/keys");
  return { email, cookie: sessionCookie(res), res };
}

const get = (path: string, cookie: string) =>
  call(`/dashboard${path}`, { headers: { cookie }, redirect: "manual" });

const csrfOf = (page: string): string => {
  const m = /name="_csrf" value="([0-9a-f]{64})"/.exec(page);
  if (!m?.[1]) throw new Error("no csrf field");
  return m[1];
};

describe("dashboard signup", () => {
  it("creates a Free account whose key is shown once and works at once", async () => {
    const { cookie, res } = await signup();
    const attributes = res.headers.get("set-cookie") ?? "";
    expect(attributes).toMatch(/HttpOnly/i);
    expect(attributes).toMatch(/Secure/);
    expect(attributes).toMatch(/SameSite=Lax/i);
    expect(attributes).toMatch(/Path=\/dashboard/);
    const first = await (await get("/keys", cookie)).text();
    const key = /data-testid="new-api-key">(svc_[0-9A-Za-z]{43})</.exec(first)?.[1];
    expect(key).toBeDefined();
    expect(first).toContain("you will not see this key again");
    const again = await (await get("/keys", cookie)).text();
    expect(again).not.toContain(key);
    expect(again).toContain(`${key?.slice(0, 8)}…`);
    const account = await call("/v1/account", { headers: bearer(key ?? "") });
    expect(account.status).toBe(200);
    const data = (await envelope<{ plan: string; upgrade: { upgradeUrl: string } }>(account)).data;
    expect(data?.plan).toBe("free");
    expect(data?.upgrade.upgradeUrl).toBe(`${BASE}/dashboard/plans?plan=basic`);
  });

  it("refuses a second account for the same email, whatever its case", async () => {
    const email = freshEmail();
    await signup(email);
    const res = await post("/signup", { email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("already exists");
  });

  it("refuses short and common passwords and bad emails, naming the field", async () => {
    const short = await post("/signup", { email: freshEmail(), password: "short" });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Password: must be at least 10 characters");
    const common = await post("/signup", { email: freshEmail(), password: "Password123" });
    expect(await common.text()).toContain("Password: is too common");
    const email = await post("/signup", { email: "not-an-email", password: PASSWORD });
    expect(await email.text()).toContain("Email: enter a valid email address");
  });

  it("refuses a cross-site post", async () => {
    const res = await post(
      "/signup",
      { email: freshEmail(), password: PASSWORD },
      { origin: "https://evil.example" },
    );
    expect(res.status).toBe(403);
    expect((await envelope(res)).error?.code).toBe("FORBIDDEN");
  });
});

describe("dashboard sessions", () => {
  it("a same-origin post without the session's CSRF token is refused", async () => {
    const { cookie } = await signup();
    const res = await post("/keys", { name: "x" }, { cookie });
    expect(res.status).toBe(403);
    const wrong = await post("/keys", { name: "x", _csrf: "0".repeat(64) }, { cookie });
    expect(wrong.status).toBe(403);
  });

  it("revoking in the dashboard disables the key for the API at once", async () => {
    const { cookie } = await signup();
    const page = await (await get("/keys", cookie)).text();
    const key = /data-testid="new-api-key">(svc_[0-9A-Za-z]{43})</.exec(page)?.[1] ?? "";
    const keyId = /data-key-id="(key_[0-9A-Za-z]{22})"/.exec(page)?.[1] ?? "";
    const revoke = await post(`/keys/${keyId}/revoke`, { _csrf: csrfOf(page) }, { cookie });
    expect(revoke.status).toBe(303);
    const res = await call("/v1/account", { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect((await envelope(res)).error?.code).toBe("KEY_DISABLED");
  });

  it("logout ends the session: the cookie no longer opens pages", async () => {
    const { cookie } = await signup();
    const page = await (await get("/usage", cookie)).text();
    const out = await post("/logout", { _csrf: csrfOf(page) }, { cookie });
    expect(out.status).toBe(303);
    const after = await get("/usage", cookie);
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toBe("/dashboard/login");
  });

  it("throttles wrong passwords per email with 429 and Retry-After", async () => {
    const { email } = await signup();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await post(
        "/login",
        { email, password: `wrong password ${i}` },
        { "cf-connecting-ip": `203.0.113.${i}` },
      );
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Even the right password waits out the window.
    const right = await post("/login", { email, password: PASSWORD });
    expect(right.status).toBe(429);
  });

  it("logs in with the right password", async () => {
    const { email } = await signup();
    const res = await post(
      "/login",
      { email, password: PASSWORD },
      { "cf-connecting-ip": "192.0.2.9" },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/usage");
    const usage = await get("/usage", sessionCookie(res));
    expect(usage.status).toBe(200);
  });
});

describe("dashboard hostile input", () => {
  it("the playground refuses API-only options, naming the field", async () => {
    const session = await dashboardSession();
    const res = await session.capture({ url: "https://example.com", async: true });
    expect(res.status).toBe(400);
    const body = await envelope(res);
    expect(body.error?.code).toBe("VALIDATION_ERROR");
    expect(body.error?.details?.[0]?.path).toBe("async");
  });

  it("the playground's recording refuses them too (no browser: refused before the page loads)", async () => {
    const session = await dashboardSession();
    const res = await call("/dashboard/api/animate", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...ORIGIN,
        cookie: session.cookie,
        "x-csrf-token": session.csrf,
      },
      body: JSON.stringify({ url: "https://example.com", async: true }),
    });
    expect(res.status).toBe(400);
    expect((await envelope(res)).error?.details?.[0]?.path).toBe("async");
  });

  it("the playground refuses a request without the CSRF header", async () => {
    const session = await dashboardSession();
    const res = await call("/dashboard/api/capture", {
      method: "POST",
      headers: { "content-type": "application/json", ...ORIGIN, cookie: session.cookie },
      body: JSON.stringify({ url: "https://example.com" }),
    });
    expect(res.status).toBe(403);
  });

  it("refuses an oversized form with 413 and a forged cookie with the login page", async () => {
    const big = await post("/login", { email: "a@b.co", password: "x".repeat(40_000) });
    expect(big.status).toBe(413);
    for (const cookie of [
      `__Secure-edgeshot_session=${"a".repeat(64)}.${"b".repeat(64)}`,
      "__Secure-edgeshot_session=garbage",
      `__Secure-edgeshot_session=${"z".repeat(5000)}`,
    ]) {
      const res = await get("/usage", cookie);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/dashboard/login");
    }
  });
});

describe("dashboard playground render link", () => {
  it("mints a link for the account's newest key that renders; with no active key, it refuses naming key", async () => {
    const session = await dashboardSession();
    const res = await session.renderLink({
      url: `${FIXTURES}/boxes.html?run=dash-link`,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
      waitUntil: "load",
    });
    const body = await envelope<{ url: string; format: string }>(res);
    expect(res.status, JSON.stringify(body.error)).toBe(200);
    expect(body.data?.url).toMatch(/^https:\/\/edgeshot\.test\/v1\/render\?/);
    const path = (u: string) => new URL(u).pathname + new URL(u).search;
    const image = await call(path(body.data?.url ?? ""));
    expect(image.status).toBe(200);
    const decoded = decodeImage(new Uint8Array(await image.arrayBuffer()));
    expect([decoded.width, decoded.height]).toEqual([320, 240]);

    const page = await (await get("/keys", session.cookie)).text();
    const keyId = /data-key-id="(key_[0-9A-Za-z]{22})"/.exec(page)?.[1] ?? "";
    await post(`/keys/${keyId}/revoke`, { _csrf: csrfOf(page) }, { cookie: session.cookie });
    const again = await session.renderLink({ url: `${FIXTURES}/boxes.html?run=dash-link2` });
    expect(again.status).toBe(400);
    expect((await envelope(again)).error?.details?.[0]?.path).toBe("key");
  });
});

describe("dashboard pages", () => {
  it("every page carries the CSP and the other security headers", async () => {
    const { cookie } = await signup();
    for (const path of [
      "/login",
      "/signup",
      "/usage",
      "/keys",
      "/webhooks",
      "/requests",
      "/plans",
      "/playground",
      "/monitors",
      "/mcp",
    ]) {
      const res = await get(path, cookie);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain("unsafe-inline");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
      const text = await res.text();
      expect(text, path).not.toMatch(/<script(?![^>]*\ssrc=)/);
      expect(text, path).not.toContain("localStorage");
    }
  });

  it("MCP shows the account's server URL and each client's configuration for it", async () => {
    const { cookie } = await signup();
    const text = await (await get("/mcp", cookie)).text();
    const url = `${BASE}/mcp`;
    expect(text).toContain(`data-testid="mcp-url">${url}</code>`);
    for (const client of ["Claude Code", "Claude Desktop", "Cursor", "VS Code", "MCP Inspector"])
      expect(text).toContain(`<h2>${client}</h2>`);
    expect(text).toContain(`claude mcp add --transport http edgeshot ${url}`);
    expect(text).toContain("YOUR_API_KEY");
    expect(text).not.toMatch(/svc_[0-9A-Za-z]{43}/);
  });

  it("/dashboard sends a signed-in person to usage, anyone else to login", async () => {
    const { cookie } = await signup();
    expect((await get("", cookie)).headers.get("location")).toBe("/dashboard/usage");
    const anonymous = await call("/dashboard", { redirect: "manual" });
    expect(anonymous.headers.get("location")).toBe("/dashboard/login");
  });

  it("an unknown page is an HTML 404 in the dashboard's frame; every page links the docs and the favicon", async () => {
    const { cookie } = await signup();
    const res = await get("/nope", cookie);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const text = await res.text();
    expect(text).toContain("<title>Page not found · Edgeshot</title>");
    expect(text).toContain('href="/dashboard/usage">Go to the dashboard');
    const anonymous = await call("/dashboard/no/such/page");
    expect(anonymous.status).toBe(404);
    expect(await anonymous.text()).toContain('href="/dashboard/login">Go to the dashboard');
    // The API keeps its JSON 404.
    expect((await envelope(await call("/v1/nope"))).error?.code).toBe("NOT_FOUND");

    const usage = await (await get("/usage", cookie)).text();
    expect(usage).toContain('<a href="/docs" data-testid="docs-link">Docs</a>');
    expect(usage).toContain(
      '<link rel="icon" type="image/svg+xml" href="/dashboard/assets/favicon.svg"',
    );
    const icon = await call("/dashboard/assets/favicon.svg");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(await icon.text()).toMatch(/^<svg /);
  });

  it("pages without a session redirect to login", async () => {
    for (const path of [
      "/usage",
      "/keys",
      "/playground",
      "/plans",
      "/webhooks",
      "/requests",
      "/monitors",
    ]) {
      const res = await call(`/dashboard${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location")).toBe("/dashboard/login");
    }
    const api = await call("/dashboard/api/capture", {
      method: "POST",
      headers: { "content-type": "application/json", ...ORIGIN },
      body: "{}",
    });
    expect(api.status).toBe(401);
  });

  it("the plans page shows the table from plans.ts with the current plan marked", async () => {
    const { cookie } = await signup();
    const text = await (await get("/plans", cookie)).text();
    expect(text).toMatch(/class="current">\s*Free<br \/><small data-testid="current-plan">/);
    expect(text).toContain("25,000"); // Pro's monthly credits
    expect(text).toContain("admin API");
  });

  it("the usage page lists the account's watches, escaped, with status, interval and runs", async () => {
    const { cookie } = await signup();
    const keys = await (await get("/keys", cookie)).text();
    const apiKey = /data-testid="new-api-key">(svc_[0-9A-Za-z]{43})</.exec(keys)?.[1] ?? "";
    const auth = bearer(apiKey);
    const me = await envelope<{ accountId: string }>(await call("/v1/account", { headers: auth }));
    // The DO's clock runs 10 days ahead, so the active watch's first run never fires here.
    const ahead = Date.now() + 10 * 86_400_000;
    await setClock(me.data?.accountId ?? "", () => ahead);
    const named = await mustCreate(
      { auth },
      watchBody({ name: "<b>Pricing</b> & co", intervalMinutes: 1440 }),
    );
    const paused = await mustCreate({ auth }, watchBody({ intervalMinutes: 2880, paused: true }));
    const text = await (await get("/usage", cookie)).text();
    const table = text.slice(text.indexOf('data-testid="watches"'));
    expect(table).toContain("&lt;b&gt;Pricing&lt;/b&gt; &amp; co");
    expect(text).not.toContain("<b>Pricing");
    expect(table).toContain(`title="${named.url}"`);
    expect(table).toContain('<span class="status active">active</span>');
    expect(table).toContain("<td>1 d</td>");
    expect(table).toContain(named.nextRunAt?.slice(0, 16).replace("T", " ") ?? "no next run");
    expect(table).toContain(`>${paused.url}</td>`);
    expect(table).toContain('<span class="status paused">paused</span>');
    expect(table).toContain("<td>2 d</td>");
    expect(table.indexOf(paused.url)).toBeLessThan(table.indexOf("Pricing")); // newest first
  });

  it("the usage page lists the account's crawls, newest first, with status, pages and credits", async () => {
    const { cookie } = await signup();
    const keys = await (await get("/keys", cookie)).text();
    const auth = bearer(/data-testid="new-api-key">(svc_[0-9A-Za-z]{43})</.exec(keys)?.[1] ?? "");
    const check = await call("/v1/credential-check", { headers: auth });
    const me = await envelope<{ accountId: string }>(check);
    const crawls = () => accountStub(env, me.data?.accountId ?? "").crawls();
    const start = async (limit: number) => {
      const body = { url: `${CRAWL_SITE}/`, limit, maxDepth: 1, sitemap: "skip", width: 640 };
      const res = await postJson("/v1/crawl", body, auth);
      expect(res.status).toBe(202);
      return (await envelope<{ crawlId: string }>(res)).data?.crawlId ?? "";
    };
    const first = await start(2);
    const done = await poll(
      () => crawls().get(first),
      (s) => s?.status === "completed",
      120_000,
      250,
    );
    expect(done?.counts.rendered).toBe(2);
    expect(done?.creditsUsed).toBe(2);
    // The Free plan runs one crawl at a time: the second starts once the first is done.
    const second = await start(1);
    const cancel = await call(`/v1/crawl/${second}`, { method: "DELETE", headers: auth });
    expect(cancel.status).toBe(200);

    const text = await (await get("/usage", cookie)).text();
    const table = text.slice(text.indexOf('data-testid="crawls"'));
    const row = (id: string) =>
      table.slice(table.indexOf(`data-crawl-id="${id}"`)).split("</tr>")[0];
    expect(table).toContain(`data-crawl-id="${first}"`);
    expect(row(first)).toContain(`title="${CRAWL_SITE}/"`);
    expect(row(first)).toContain('<span class="status completed">completed</span>');
    expect(row(first)).toContain("stopped by limit");
    expect(row(first)).toContain("<td>2 of 2 rendered");
    expect(row(first)).toContain("<td>2</td>"); // credits
    expect(row(first)).toContain(`<td>${done?.createdAt.slice(0, 16).replace("T", " ")}</td>`);
    expect(row(first)).toContain(`<td>${done?.completedAt?.slice(0, 16).replace("T", " ")}</td>`);
    expect(row(second)).toContain('<span class="status cancelled">cancelled</span>');
    expect(table.indexOf(second)).toBeLessThan(table.indexOf(first)); // newest first
  }, 180_000);

  it("the playground's JavaScript snippet uses @edgeshot/sdk with a placeholder key", async () => {
    const js = await (await call("/dashboard/assets/snippets.js")).text();
    const builder = /js: \(b\) => (.*)/.exec(js)?.[1] ?? "";
    expect(builder).toContain('import { Edgeshot } from "@edgeshot/sdk";');
    expect(builder).toContain('new Edgeshot({ apiKey: "YOUR_API_KEY", baseUrl: ');
    expect(builder).toContain("edgeshot.' + ROUTES[action()][1] + '(");
    expect(builder).not.toContain("fetch(");
    expect(js).toContain(
      'screenshot: ["/v1/screenshot/json", "screenshotJson", "screenshot_json"]',
    );
  });

  it("the playground's Python snippet uses the edgeshot package with a placeholder key", async () => {
    const js = await (await call("/dashboard/assets/snippets.js")).text();
    const builder = /python: \(b\) => (.*)/.exec(js)?.[1] ?? "";
    expect(builder).toContain("from edgeshot import Edgeshot, meta_of");
    expect(builder).toContain('Edgeshot(\\"YOUR_API_KEY\\", base_url=');
    expect(builder).toContain('edgeshot." + ROUTES[action()][2] + "(');
    expect(builder).not.toContain("requests");
    expect(js).toContain('scrape: ["/v1/scrape", "scrape", "scrape"]');
  });
});
