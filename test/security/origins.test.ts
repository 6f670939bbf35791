/**
 * Class A4–A6 (issue 13): where customer secrets go and what the output claims.
 * - Custom `headers` and `cookies` follow the target's ORIGIN (scheme, host AND port): a second
 *   allowlisted port on the same host (FIXTURES_ALT) never sees them, from subresources or
 *   after a redirect.
 * - DNS rebinding: a name the DoH check calls public (public/ttl0.rebind.example.com) that the
 *   browser resolves to 127.0.0.1 (scripts/setup-browser.mjs) must never have its response
 *   rendered. A blind request may still reach the canary (documented residual), so these tests
 *   assert on the OUTPUT, not on the canary's log.
 * - `x-screenshot-url` / `data.url` name the document that was captured, after a redirect or a
 *   navigation by page script.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { CANARY, FIXTURES, FIXTURES_ALT, fixtureLog, runId } from "../helpers/http";
import { expectNoCanaryContent, settle } from "../helpers/security";
import { SMALL } from "./run";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

const CANARY_PORT = new URL(CANARY).port;
const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

describe.concurrent("customer headers and cookies follow the target's origin (class A)", () => {
  it("headers: the target gets them; the second port on the same host never does (subresources, frames, redirects)", async () => {
    const run = runId();
    const secret = `hdr-${run}`;
    const { res } = await cap.post({
      ...SMALL,
      url: `${FIXTURES}/sec/headers-page?run=${run}`,
      headers: { "x-secret": secret },
      delay: 300,
    });
    expect(res.status).toBe(200);
    await settle();
    const target = await fixtureLog(run);
    expect(target.find((r) => r.path === "/sec/headers-page")?.headers["x-secret"]).toBe(secret);
    const alt = await fixtureLog(run, FIXTURES_ALT);
    expect(alt.length, "the page's requests to the second port were made").toBeGreaterThan(0);
    expect(
      alt.filter((r) => r.headers["x-secret"] !== undefined).map((r) => `${r.path} k=${r.query.k}`),
    ).toEqual([]);
  });

  it("headers: a main-frame redirect to the second port does not carry them", async () => {
    const run = runId();
    const secret = `hdr-${run}`;
    const url = `${FIXTURES}/redirect?run=${run}&to=${encodeURIComponent(`${FIXTURES_ALT}/small.html?run=${run}`)}`;
    const { res } = await cap.post({ ...SMALL, url, headers: { "x-secret": secret } });
    expect(res.status).toBe(200);
    expect((await fixtureLog(run)).find((r) => r.path === "/redirect")?.headers["x-secret"]).toBe(
      secret,
    );
    const alt = await fixtureLog(run, FIXTURES_ALT);
    expect(alt.map((r) => r.path)).toContain("/small.html");
    expect(alt.filter((r) => r.headers["x-secret"] !== undefined).map((r) => r.path)).toEqual([]);
  });

  it("cookies: the target gets them; the second port on the same host never does", async () => {
    const run = runId();
    const secret = `ck-${run}`;
    const { res } = await cap.post({
      ...SMALL,
      url: `${FIXTURES}/sec/headers-page?run=${run}`,
      cookies: [{ name: "sid", value: secret }],
      delay: 300,
    });
    expect(res.status).toBe(200);
    await settle();
    expect(
      (await fixtureLog(run)).find((r) => r.path === "/sec/headers-page")?.headers.cookie,
    ).toContain(secret);
    const alt = await fixtureLog(run, FIXTURES_ALT);
    expect(alt.length).toBeGreaterThan(0);
    expect(
      alt
        .filter((r) => String(r.headers.cookie ?? "").includes(secret))
        .map((r) => `${r.path} k=${r.query.k}`),
    ).toEqual([]);
  });
});

describe.concurrent(
  "DNS rebinding: a 'public' name that resolves to loopback is never rendered (class A)",
  () => {
    for (const host of ["public", "ttl0"]) {
      it(`main document: http://${host}.rebind.example.com:<canary> → 400 "Could not reach the target URL."`, async () => {
        const run = runId();
        const since = Date.now();
        const url = `http://${host}.rebind.example.com:${CANARY_PORT}/paint?run=${run}&v=rebind-main`;
        const { res, body } = await cap.json({ ...SMALL, url });
        if (res.status === 200)
          expectNoCanaryContent(
            fromBase64(String(body.data?.image ?? "")),
            "rebinding main document",
          );
        expect(res.status).toBe(400);
        expect(body.error?.message).toBe("Could not reach the target URL.");
        // The document is refused before it commits: the browser never asks the private origin
        // for its favicon either (docs/CRAWL.md counts on it for a crawl's blocked pages).
        await settle();
        const favicons = (await fixtureLog("", CANARY)).filter(
          (r) => r.path === "/favicon.ico" && r.at >= since,
        );
        expect(favicons).toEqual([]);
      });
    }

    it("an allowed page drawing a rebinding name (iframe, img, fetch, css) never shows its content", async () => {
      const run = runId();
      const origin = `http://public.rebind.example.com:${CANARY_PORT}`;
      const t = (path: string, k: string) => `${origin}${path}?run=${run}&v=rebind-sub&k=${k}`;
      const html = `<!doctype html><body style="margin:0;background:#fff">
      <iframe src="${t("/paint", "iframe")}" style="width:100px;height:100px;border:0"></iframe>
      <img src="${t("/paint.png", "img")}" style="width:100px;height:100px">
      <link rel="stylesheet" href="${t("/paint.css", "css")}">
      <script>fetch(${JSON.stringify(t("/paint", "fetch"))}).then((r) => r.text()).then((x) => { if (x.includes("CANARY")) document.body.insertAdjacentHTML("beforeend", '<div style="width:60px;height:60px;background:#ff00ff">CANARY-CONTENT</div>'); }).catch(() => {});</script></body>`;
      for (const source of [
        { html },
        {
          url: `${FIXTURES}/sec/page?vec=${encodeURIComponent("img")}&run=${run}`,
          js: `document.body.insertAdjacentHTML("beforeend", ${JSON.stringify(html)})`,
        },
      ]) {
        // Either the capture fails as unreachable, or it succeeds without the rebound content.
        const { res, bytes } = await cap.post({ ...SMALL, ...source, delay: 800 });
        expect([200, 400]).toContain(res.status);
        if (res.status === 200) expectNoCanaryContent(bytes, "rebinding subresources");
        else
          expect(
            (JSON.parse(new TextDecoder().decode(bytes)) as { error?: { message: string } }).error
              ?.message,
          ).toBe("Could not reach the target URL.");
      }
    });

    it("extraction of a rebinding name never returns its text (400)", async () => {
      const run = runId();
      const url = `http://public.rebind.example.com:${CANARY_PORT}/paint?run=${run}&v=rebind-extract`;
      const res = await cap.postRaw(JSON.stringify({ url }), "/v1/extract");
      const text = await res.text();
      expectNoCanaryContent(text, "extract of a rebinding name");
      expect(res.status).toBe(400);
    });
  },
);

describe.concurrent("the output says which document it shows (class A)", () => {
  it("after a redirect: x-screenshot-url and data.url are the final URL", async () => {
    const run = runId();
    const final = `${FIXTURES}/boxes.html?run=${run}&final=1`;
    const url = `${FIXTURES}/redirect?run=${run}&to=${encodeURIComponent(final)}`;
    const bin = await cap.post({ ...SMALL, url });
    expect(bin.res.status).toBe(200);
    expect(bin.res.headers.get("x-screenshot-url")).toBe(final);
    const json = await cap.json({ ...SMALL, url });
    expect(json.body.data?.url).toBe(final);
  });

  it("after a navigation by page script: the URL of the captured document", async () => {
    const run = runId();
    const final = `${FIXTURES}/boxes.html?run=${run}&from=location`;
    const url = `${FIXTURES}/sec/location?run=${run}`;
    const bin = await cap.post({ ...SMALL, url, delay: 500 });
    expect(bin.res.status).toBe(200);
    expect(bin.res.headers.get("x-screenshot-url")).toBe(final);
    const json = await cap.json({ ...SMALL, url, delay: 500 });
    expect(json.body.data?.url).toBe(final);
  });
});
