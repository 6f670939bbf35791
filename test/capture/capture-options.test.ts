/**
 * Capture options beyond the original contract (docs/CAPTURE-OPTIONS.md), each proven by its
 * effect: pixels for clip, omitBackground, mediaType and reducedMotion; the page's own read-back
 * for timezone and locale (plus the Accept-Language the fixture server logged); status codes,
 * credits and headers for failOnStatus and the page metadata.
 */
import { decode as decodePng } from "fast-png";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { Capturer } from "../helpers/capture";
import { call, envelope, FIXTURES, fixtureLog, postJson, runId } from "../helpers/http";
import { decodeImage, near, type Decoded, type Rgb } from "../helpers/images";
import { creditsUsed } from "../helpers/api";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

const small = { waitUntil: "load", width: 400, height: 300, deviceScaleFactor: 1 } as const;
const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];
const BLUE: Rgb = [0, 0, 255];

async function shot(body: Record<string, unknown>): Promise<Decoded> {
  const { res, bytes } = await cap.post(body);
  if (res.status !== 200)
    throw new Error(`capture failed: ${res.status} ${new TextDecoder().decode(bytes)}`);
  return decodeImage(bytes);
}

/** Every pixel of `img` is near `color`. */
function allNear(img: Decoded, color: Rgb): boolean {
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) if (!near(img.pixel(x, y), color)) return false;
  return true;
}

const used = () => creditsUsed(cap.auth);

async function refused(body: Record<string, unknown>, path: string): Promise<void> {
  const { res, bytes } = await cap.post(body);
  const text = new TextDecoder().decode(bytes);
  expect(res.status, text).toBe(400);
  const parsed = JSON.parse(text) as { error: { code: string; details?: Array<{ path: string }> } };
  expect(parsed.error.code).toBe("VALIDATION_ERROR");
  // The field itself or a part of it (`actions[0]` → `actions[0].wait`).
  const paths = parsed.error.details?.map((d) => d.path) ?? [];
  expect(
    paths.some((p) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[`)),
    paths.join(", "),
  ).toBe(true);
}

/** Left half red, right half blue (at x = 200), a green band at page y 2000..2100 of 3000. */
const SPLIT = `<!doctype html><style>html,body{margin:0}
  #l{position:absolute;left:0;top:0;width:200px;height:3000px;background:#f00}
  #r{position:absolute;left:200px;top:0;width:200px;height:3000px;background:#00f}
  #g{position:absolute;left:0;top:2000px;width:400px;height:100px;background:#0f0}</style>
  <div id="l"></div><div id="r"></div><div id="g"></div>`;

describe("clip", () => {
  it("captures exactly the rectangle (viewport coordinates), scaled by deviceScaleFactor", async () => {
    const img = await shot({
      ...small,
      html: SPLIT,
      clip: { x: 180, y: 10, width: 40, height: 30 },
    });
    expect([img.width, img.height]).toEqual([40, 30]);
    expect(img.pixel(0, 0)).toEqual(RED);
    expect(img.pixel(19, 29)).toEqual(RED);
    expect(img.pixel(20, 0)).toEqual(BLUE);
    expect(img.pixel(39, 29)).toEqual(BLUE);

    const hi = await shot({
      ...small,
      deviceScaleFactor: 2,
      html: SPLIT,
      clip: { x: 180, y: 10, width: 40, height: 30 },
    });
    expect([hi.width, hi.height]).toEqual([80, 60]);
    expect(hi.pixel(38, 30)).toEqual(RED);
    expect(hi.pixel(42, 30)).toEqual(BLUE);
  });

  it("with fullPage the coordinates are page coordinates (below the fold)", async () => {
    const img = await shot({
      ...small,
      html: SPLIT,
      fullPage: true,
      clip: { x: 0, y: 2000, width: 400, height: 100 },
    });
    expect([img.width, img.height]).toEqual([400, 100]);
    expect(allNear(img, GREEN)).toBe(true);
  });

  it("outside the viewport, or below the page with fullPage → 400 naming clip; no credit", async () => {
    await refused(
      { ...small, html: SPLIT, clip: { x: 0, y: 290, width: 10, height: 20 } },
      "clip.height",
    );
    await refused(
      { ...small, html: SPLIT, clip: { x: 395, y: 0, width: 10, height: 10 } },
      "clip.width",
    );
    await refused(
      { ...small, html: SPLIT, clip: { x: 0, y: 0, width: 10, height: 10 }, selector: "#g" },
      "clip",
    );
    await refused(
      { ...small, html: SPLIT, format: "pdf", clip: { x: 0, y: 0, width: 10, height: 10 } },
      "clip",
    );
    await refused(
      { ...small, html: SPLIT, clip: { x: -1, y: 0, width: 10, height: 10 } },
      "clip.x",
    );
    const before = await used();
    const { res, bytes } = await cap.post({
      ...small,
      html: SPLIT,
      fullPage: true,
      clip: { x: 0, y: 2990, width: 10, height: 20 },
    });
    expect(res.status).toBe(400);
    const body = JSON.parse(new TextDecoder().decode(bytes)) as {
      error: { message: string; details: Array<{ path: string }> };
    };
    expect(body.error.message).toBe("The clip lies outside the page.");
    expect(body.error.details[0]?.path).toBe("clip.height");
    expect(await used()).toBe(before);
  });
});

describe("omitBackground", () => {
  const PAGE = `<!doctype html><style>html,body{margin:0}</style>
    <div style="width:50px;height:50px;background:#f00"></div>`;

  it("PNG: alpha 0 where the page paints nothing, opaque where it paints", async () => {
    const { res, bytes } = await cap.post({ ...small, html: PAGE, omitBackground: true });
    expect(res.status).toBe(200);
    const png = decodePng(bytes);
    expect(png.channels).toBe(4);
    const alpha = (x: number, y: number) => Number(png.data[(y * png.width + x) * 4 + 3]);
    expect(alpha(200, 200)).toBe(0);
    expect(alpha(10, 10)).toBe(255);
    expect(Number(png.data[(10 * png.width + 10) * 4])).toBe(255); // red

    const plain = decodePng((await cap.post({ ...small, html: PAGE })).bytes);
    const plainAlpha =
      plain.channels === 4 ? Number(plain.data[(200 * plain.width + 200) * 4 + 3]) : 255;
    expect(plainAlpha).toBe(255); // white, opaque
  });

  it("is refused for jpeg", async () => {
    await refused({ ...small, html: PAGE, omitBackground: true, format: "jpeg" }, "omitBackground");
  });
});

describe("mediaType and reducedMotion", () => {
  const MEDIA = `<!doctype html><style>html,body{margin:0;height:100%}
    @media screen { body { background: #f00 } }
    @media print { body { background: #0f0 } }</style><body></body>`;
  const MOTION = `<!doctype html><style>html,body{margin:0;height:100%} body { background: #f00 }
    @media (prefers-reduced-motion: reduce) { body { background: #00f } }</style><body></body>`;

  it("mediaType: print applies @media print rules to the screenshot; screen is the default", async () => {
    expect((await shot({ ...small, html: MEDIA, mediaType: "print" })).pixel(200, 150)).toEqual(
      GREEN,
    );
    expect((await shot({ ...small, html: MEDIA })).pixel(200, 150)).toEqual(RED);
    expect((await shot({ ...small, html: MEDIA, mediaType: "screen" })).pixel(200, 150)).toEqual(
      RED,
    );
  });

  it("reducedMotion: prefers-reduced-motion matches reduce only when asked", async () => {
    expect((await shot({ ...small, html: MOTION, reducedMotion: true })).pixel(200, 150)).toEqual(
      BLUE,
    );
    expect((await shot({ ...small, html: MOTION })).pixel(200, 150)).toEqual(RED);
  });

  it("mediaType, reducedMotion and darkMode hold together, and none outlives its capture", async () => {
    // Blue only where all three match. A capture's settings also prime the page of the capture
    // after it on the same browser: that one must see none of them.
    const ALL = `<!doctype html><style>html,body{margin:0;height:100%} body { background: #f00 }
      @media print and (prefers-reduced-motion: reduce) and (prefers-color-scheme: dark) {
        body { background: #00f } }</style><body></body>`;
    const all = { ...small, html: ALL, mediaType: "print", reducedMotion: true, darkMode: true };
    expect((await shot(all)).pixel(200, 150)).toEqual(BLUE);
    expect((await shot({ ...small, html: ALL })).pixel(200, 150)).toEqual(RED);
    expect((await shot(all)).pixel(200, 150)).toEqual(BLUE);
  });

  it("both work on GET", async () => {
    const { res, bytes } = await cap.get({
      url: `${FIXTURES}/status?code=200`,
      ...Object.fromEntries(Object.entries(small).map(([k, v]) => [k, String(v)])),
      mediaType: "print",
      reducedMotion: "true",
      omitBackground: "false",
      timezone: "Asia/Tokyo",
      locale: "ja-JP",
    });
    expect(res.status, new TextDecoder().decode(bytes)).toBe(200);
  });
});

describe("timezone and locale", () => {
  interface Report {
    date: string;
    intl: { locale: string; timeZone: string };
    number: string;
    language: string;
    languages: string[];
  }
  async function report(extra: Record<string, unknown>, run: string): Promise<Report> {
    const { res, body } = await cap.json<{ metadata: { title: string } }>({
      ...small,
      url: `${FIXTURES}/emulation.html?run=${run}`,
      ...extra,
    });
    expect(res.status, JSON.stringify(body.error)).toBe(200);
    return JSON.parse(body.data?.metadata.title ?? "{}") as Report;
  }

  it("the page sees the time zone and locale asked for; the server sees Accept-Language", async () => {
    const run = runId();
    const r = await report({ timezone: "America/New_York", locale: "de-DE" }, run);
    expect(r.intl.timeZone).toBe("America/New_York");
    expect(r.date).toMatch(/^Mon Jan 15 2024 07:00:00 GMT-0500/);
    expect(r.intl.locale).toBe("de-DE");
    expect(r.number).toBe("1.234.567,5");
    expect(r.language).toBe("de-DE");
    expect(r.languages[0]).toBe("de-DE");
    const log = await fixtureLog(run);
    const doc = log.find((e) => e.path === "/emulation.html");
    expect(doc?.headers["accept-language"]).toMatch(/^de-DE/);

    const tokyo = await report({ timezone: "Asia/Tokyo" }, runId());
    expect(tokyo.intl.timeZone).toBe("Asia/Tokyo");
    expect(tokyo.date).toMatch(/^Mon Jan 15 2024 21:00:00 GMT\+0900/);
  });

  it("unknown zones and malformed tags → 400 naming the field", async () => {
    const url = `${FIXTURES}/status`;
    await refused({ url, timezone: "Mars/Olympus_Mons" }, "timezone");
    await refused({ url, timezone: "+01:00" }, "timezone");
    await refused({ url, timezone: "x".repeat(65) }, "timezone");
    await refused({ url, locale: "de_DE" }, "locale");
    await refused({ url, locale: "not a locale" }, "locale");
    await refused({ url, locale: "" }, "locale");
  });
});

describe("failOnStatus", () => {
  it("a matching status fails the capture (400 naming the status), without a credit", async () => {
    const before = await used();
    for (const failOnStatus of [["4xx"], [404], ["5xx", 404]]) {
      const { res, bytes } = await cap.post({
        ...small,
        url: `${FIXTURES}/status?code=404`,
        failOnStatus,
      });
      expect(res.status).toBe(400);
      const body = JSON.parse(new TextDecoder().decode(bytes)) as {
        error: { code: string; message: string; details: Array<{ path: string; message: string }> };
      };
      expect(body.error.code).toBe("CAPTURE_FAILED");
      expect(body.error.message).toBe("The target answered with HTTP 404.");
      expect(body.error.details).toEqual([
        { path: "failOnStatus", message: "HTTP 404 matches failOnStatus." },
      ]);
    }
    expect(await used()).toBe(before);
  });

  it("a status not listed (and the default) captures the error page and reports its status", async () => {
    for (const failOnStatus of [undefined, ["5xx"], [403]]) {
      const { res, bytes } = await cap.post({
        ...small,
        url: `${FIXTURES}/status?code=404`,
        ...(failOnStatus ? { failOnStatus } : {}),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-service-target-status")).toBe("404");
      expect(decodeImage(bytes).pixel(200, 150)).toEqual(GREEN);
    }
  });

  it("judges the final status after redirects", async () => {
    const to = encodeURIComponent("/status?code=503");
    const { res } = await cap.post({
      ...small,
      url: `${FIXTURES}/redirect?code=302&to=${to}`,
      failOnStatus: ["3xx"],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-target-status")).toBe("503");
    const failed = await cap.post({
      ...small,
      url: `${FIXTURES}/redirect?code=302&to=${to}`,
      failOnStatus: ["5xx"],
    });
    expect(failed.res.status).toBe(400);
  });

  it("bad entries and html sources → 400 naming failOnStatus", async () => {
    const url = `${FIXTURES}/status`;
    await refused({ url, failOnStatus: ["6xx"] }, "failOnStatus[0]");
    await refused({ url, failOnStatus: [99] }, "failOnStatus[0]");
    await refused({ url, failOnStatus: [] }, "failOnStatus");
    await refused({ url, failOnStatus: Array.from({ length: 21 }, () => 404) }, "failOnStatus");
    await refused({ html: "<p>x</p>", failOnStatus: [404] }, "failOnStatus");
    const { res } = await cap.get({ url, failOnStatus: "404" });
    expect(res.status).toBe(400);
  });
});

describe("page metadata", () => {
  const to = encodeURIComponent("/status?code=201");
  const url = `${FIXTURES}/redirect?code=302&to=${to}`;

  it("JSON: title, final URL, target status and Open Graph tags", async () => {
    const { res, body } = await cap.json<{ url: string; metadata: Record<string, unknown> }>({
      ...small,
      url,
    });
    expect(res.status).toBe(200);
    expect(body.data?.metadata).toEqual({
      title: "Status 201 – Ünïcode",
      finalUrl: `${FIXTURES}/status?code=201`,
      targetStatus: 201,
      openGraph: {
        title: "OG title 201",
        description: "A page that answered 201.",
        image: "/img/og-201.png",
        siteName: "Fixture site",
      },
    });
  });

  it("binary: x-service-final-url, x-service-target-status, x-service-page-title", async () => {
    const { res } = await cap.post({ ...small, url });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-final-url")).toBe(`${FIXTURES}/status?code=201`);
    expect(res.headers.get("x-service-target-status")).toBe("201");
    expect(decodeURIComponent(res.headers.get("x-service-page-title") ?? "")).toBe(
      "Status 201 – Ünïcode",
    );
  });

  it("html sources: no target status, empty Open Graph", async () => {
    const { body } = await cap.json<{ metadata: Record<string, unknown> }>({
      ...small,
      html: "<title>Inline</title><p>x</p>",
    });
    expect(body.data?.metadata).toMatchObject({
      title: "Inline",
      targetStatus: null,
      openGraph: { title: "", description: "", image: "", siteName: "" },
    });
  });
});

describe("actions", () => {
  const RED_PAGE = `<!doctype html><style>html,body{margin:0;height:100%;background:#f00}</style>`;

  it("click, hover, type and press change the page before the capture", async () => {
    const click = `${RED_PAGE}<button id="b" style="width:80px;height:40px"
      onclick="document.body.style.background='#0f0'">go</button>`;
    expect(
      (await shot({ ...small, html: click, actions: [{ click: "#b" }] })).pixel(300, 200),
    ).toEqual(GREEN);
    expect((await shot({ ...small, html: click })).pixel(300, 200)).toEqual(RED);

    const hover = `${RED_PAGE}<style>#h{width:400px;height:300px} #h:hover{background:#00f}</style><div id="h"></div>`;
    expect(
      (await shot({ ...small, html: hover, actions: [{ hover: "#h" }] })).pixel(300, 200),
    ).toEqual(BLUE);

    const typed = `${RED_PAGE}<input id="i" oninput="if (this.value === 'héllo wörld') document.body.style.background='#0f0'">
      <script>addEventListener("keydown", (e) => { if (e.key === "Enter") document.body.style.background = "#00f"; });</script>`;
    const img = await shot({
      ...small,
      html: typed,
      actions: [{ type: { selector: "#i", text: "héllo wörld" } }],
    });
    expect(img.pixel(300, 200)).toEqual(GREEN);
    const pressed = await shot({ ...small, html: typed, actions: [{ press: "Enter" }] });
    expect(pressed.pixel(300, 200)).toEqual(BLUE);
  });

  it("scroll to y or to an element; waitForSelector and wait let the page change", async () => {
    const tall = `<!doctype html><style>html,body{margin:0}</style>
      <div style="height:1000px;background:#f00"></div><div id="g" style="height:1000px;background:#0f0"></div>`;
    expect(
      (await shot({ ...small, html: tall, actions: [{ scroll: { y: 1000 } }] })).pixel(10, 10),
    ).toEqual(GREEN);
    expect(
      (await shot({ ...small, html: tall, actions: [{ scroll: { selector: "#g" } }] })).pixel(
        10,
        10,
      ),
    ).toEqual(GREEN);
    expect((await shot({ ...small, html: tall })).pixel(10, 10)).toEqual(RED);

    const late = `${RED_PAGE}<script>setTimeout(() => {
      document.body.style.background = "#0f0";
      document.body.appendChild(Object.assign(document.createElement("p"), { id: "late" }));
    }, 700);</script>`;
    const waited = await shot({ ...small, html: late, actions: [{ waitForSelector: "#late" }] });
    expect(waited.pixel(300, 200)).toEqual(GREEN);
    // The page changes 700 ms in; a wait well past that shows the change (5 s only waited longer).
    const slept = await shot({ ...small, html: late, actions: [{ wait: 2000 }] });
    expect(slept.pixel(300, 200)).toEqual(GREEN);
  });

  it("a click that follows a link captures the new page (through the same guard, logged)", async () => {
    const run = runId();
    const html = `<!doctype html><a id="go" href="${FIXTURES}/status?code=200&run=${run}">next</a>`;
    const { res, bytes } = await cap.post({ ...small, html, actions: [{ click: "#go" }] });
    expect(res.status, new TextDecoder().decode(bytes)).toBe(200);
    expect(res.headers.get("x-service-final-url")).toBe(`${FIXTURES}/status?code=200&run=${run}`);
    expect(decodeImage(bytes).pixel(200, 150)).toEqual(GREEN);
    expect((await fixtureLog(run)).map((e) => e.path)).toEqual(["/status"]);
  });

  it("a selector that matches nothing fails naming the step; no credit", async () => {
    const before = await used();
    const html = `${RED_PAGE}<button id="b">b</button>`;
    for (const actions of [
      [{ click: "#b" }, { click: "#missing" }],
      [{ wait: 10 }, { hover: "#missing" }],
      [{ click: "#b" }, { type: { selector: "#missing", text: "x" } }],
    ]) {
      const { res, bytes } = await cap.post({ ...small, html, actions });
      expect(res.status).toBe(400);
      const body = JSON.parse(new TextDecoder().decode(bytes)) as {
        error: { code: string; message: string; details: Array<{ path: string }> };
      };
      expect(body.error.code).toBe("CAPTURE_FAILED");
      expect(body.error.message).toBe("The specified element was not found.");
      expect(body.error.details.map((d) => d.path)).toEqual(["actions[1]"]);
    }
    const { res } = await cap.post({
      ...small,
      timeout: 5,
      html,
      actions: [{ waitForSelector: "#never" }],
    });
    expect(res.status).toBe(400);
    expect(await used()).toBe(before);
  });

  it("malformed actions → 400 naming the step; actions are POST-only", async () => {
    const html = "<p>x</p>";
    await refused({ html, actions: Array.from({ length: 21 }, () => ({ wait: 1 })) }, "actions");
    await refused({ html, actions: [{ click: "#a", hover: "#b" }] }, "actions[0]");
    await refused({ html, actions: [{ wait: 10_001 }] }, "actions[0]");
    await refused({ html, actions: [{ press: "NotAKey" }] }, "actions[0]");
    await refused({ html, actions: [{ click: "a[" }] }, "actions[0]");
    await refused(
      { html, actions: [{ type: { selector: "#i", text: "x".repeat(1001) } }] },
      "actions[0]",
    );
    await refused({ html, actions: [{ scroll: { x: 5 } }] }, "actions[0]");
    const { res } = await cap.get({ url: `${FIXTURES}/status`, actions: "[]" });
    expect(res.status).toBe(400);
  });
});

describe("PDF: header/footer templates, page ranges, outline, tagged", () => {
  const DOC = `<!doctype html><title>Quarterly</title><style>section{page-break-after:always}</style>
    <section><h1>Alpha chapter</h1><p>Content one.</p></section>
    <section><h2>Beta chapter</h2><p>Content two.</p></section>
    <section><h2>Gamma chapter</h2><p>Content three.</p></section>`;

  async function pdf(extra: Record<string, unknown>) {
    const { res, bytes } = await cap.post({
      html: DOC,
      format: "pdf",
      waitUntil: "load",
      ...extra,
    });
    expect(res.status, new TextDecoder().decode(bytes.slice(0, 400))).toBe(200);
    const doc = await getDocumentProxy(bytes);
    const { text } = await extractText(doc, { mergePages: false });
    return { doc, pages: text as string[], bytes };
  }

  it("pdfHeader and pdfFooter print on every page with their placeholders filled", async () => {
    const { pages } = await pdf({
      pdfHeader: "<span>HEAD {{title}}</span>",
      pdfFooter: "<span>Page {{page}} of {{pages}}</span>",
    });
    expect(pages).toHaveLength(3);
    pages.forEach((text, i) => {
      expect(text).toContain("HEAD Quarterly");
      expect(text).toContain(`Page ${i + 1} of 3`);
    });
    const plain = await pdf({});
    expect(plain.pages.join(" ")).not.toContain("Page 1 of 3");
  });

  it("pdfPageRanges keeps the pages named; a range past the end → 400", async () => {
    const { pages } = await pdf({ pdfPageRanges: "1,3" });
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain("Alpha chapter");
    expect(pages[1]).toContain("Gamma chapter");
    const { res, bytes } = await cap.post({ html: DOC, format: "pdf", pdfPageRanges: "7-9" });
    expect(res.status).toBe(400);
    const body = JSON.parse(new TextDecoder().decode(bytes)) as {
      error: { details: Array<{ path: string }> };
    };
    expect(body.error.details[0]?.path).toBe("pdfPageRanges");
  });

  it("pdfOutline bookmarks the headings; pdfTagged marks the document", async () => {
    const outlined = await pdf({ pdfOutline: true });
    const titles = ((await outlined.doc.getOutline()) ?? []).flatMap(function flat(o: {
      title: string;
      items?: unknown[];
    }): string[] {
      return [
        o.title,
        ...((o.items ?? []) as Array<{ title: string; items?: unknown[] }>).flatMap(flat),
      ];
    });
    expect(titles).toEqual(
      expect.arrayContaining(["Alpha chapter", "Beta chapter", "Gamma chapter"]),
    );
    expect((await (await pdf({})).doc.getOutline()) ?? []).toEqual([]);

    const marked = async (extra: Record<string, unknown>) =>
      ((await (await pdf(extra)).doc.getMarkInfo()) as { Marked?: boolean } | null)?.Marked ??
      false;
    expect(await marked({})).toBe(true); // Chromium's default
    expect(await marked({ pdfTagged: true })).toBe(true);
    expect(await marked({ pdfTagged: false })).toBe(false);
    await refused({ html: DOC, format: "pdf", pdfOutline: true, pdfTagged: false }, "pdfTagged");
  });

  it("templates that would load anything, oversized ones and bad ranges → 400 naming the field", async () => {
    const html = DOC;
    for (const t of [
      `<img src="${FIXTURES}/pixel.png">`,
      "<script>1</script>",
      `<div style="background:url(${FIXTURES}/x.png)">x</div>`,
      "<style>@import 'x.css';</style>",
      '<img src="data:x" onerror="1">',
      "<svg></svg>",
      "x".repeat(10 * 1024 + 1),
    ]) {
      await refused({ html, format: "pdf", pdfHeader: t }, "pdfHeader");
      await refused({ html, format: "pdf", pdfFooter: t }, "pdfFooter");
    }
    for (const r of ["0", "3-1", "a", "1;2", ""])
      await refused({ html, pdfPageRanges: r }, "pdfPageRanges");
  });
});

describe("render links and batch defaults take the options", () => {
  it("a render link renders with mediaType, clip and actions", async () => {
    const html = `<!doctype html><style>html,body{margin:0;height:100%}
      @media screen { body { background: #f00 } } @media print { body { background: #0f0 } }
      .clicked { background: #00f !important }</style>
      <button id="b" style="position:absolute;left:300px;top:200px"
        onclick="document.body.classList.add('clicked')">b</button>`;
    const mint = await postJson(
      "/v1/render/link",
      {
        ...small,
        html,
        mediaType: "print",
        clip: { x: 0, y: 0, width: 100, height: 50 },
        actions: [{ wait: 1 }],
      },
      cap.auth,
    );
    const link = (await envelope<{ url: string }>(mint)).data?.url ?? "";
    expect(mint.status).toBe(200);
    const res = await call(link.slice(link.indexOf("/v1/render")));
    expect(res.status).toBe(200);
    const img = decodeImage(new Uint8Array(await res.arrayBuffer()));
    expect([img.width, img.height]).toEqual([100, 50]);
    expect(allNear(img, GREEN)).toBe(true);

    const bad = await postJson(
      "/v1/render/link",
      { ...small, html, actions: [{ press: "Nope" }] },
      cap.auth,
    );
    expect(bad.status).toBe(400);
  });

  it("batch defaults are validated like a request", async () => {
    const res = await postJson(
      "/v1/screenshot/batch",
      { urls: [`${FIXTURES}/status`], defaults: { timezone: "Nowhere/Town" } },
      cap.auth,
    );
    expect(res.status).toBe(400);
    const paths = (await envelope(res)).error?.details?.map((d) => d.path) ?? [];
    expect(
      paths.some((p) => p.includes("timezone")),
      paths.join(","),
    ).toBe(true);
  });
});
