/**
 * POST /v1/artifact against the real browser and the fixture server: the PDF read back (pages,
 * size, running header/footer, title, outline), the PNG decoded (size, accent, logo pixels), one
 * logo fetch and one page load for both outputs, credits per output (and a forced failure
 * refunded), the Free-plan watermark, the share page's headers and inertness, the guard.
 */
import { env } from "cloudflare:workers";
import { parseHTML } from "linkedom";
import { extractText, getDocumentProxy, getResolvedPDFJS } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { artifactRequestSchema } from "../../schemas/artifact";
import { artifactSchema, successEnvelope } from "../../schemas/responses";
import { PLANS } from "../../src/accounts/plans";
import { createArtifact } from "../../src/artifacts/artifact";
import { browserEngine } from "../../src/pipeline/engine";
import { failures } from "../../src/capture/failures";
import { accountDo } from "../helpers/account-do";
import { createAccount, describeAuthCases } from "../helpers/accounts";
import { Capturer } from "../helpers/capture";
import {
  BASE,
  call,
  canaryLog,
  CANARY,
  envelope,
  FIXTURES,
  fixtureLog,
  postJson,
  runId,
} from "../helpers/http";
import { decodeImage, type Decoded, type Rgb } from "../helpers/images";

const ACCENT: Rgb = [10, 124, 255];
const path = (url: string) => url.slice(url.indexOf("/v1/images/"));

interface ArtifactBody {
  pdfUrl?: string;
  pngUrl?: string;
  shareUrl: string;
  expiresAt: string;
  title: string;
  failed?: Array<{ format: string; code: string; message: string }>;
  metadata?: { watermarked: boolean };
}

async function artifact(cap: Capturer, body: Record<string, unknown>) {
  const { res, bytes } = await cap.post(body, "/v1/artifact");
  return {
    res,
    body: JSON.parse(new TextDecoder().decode(bytes)) as Awaited<
      ReturnType<typeof envelope<ArtifactBody>>
    >,
  };
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  const res = await call(path(url));
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

const near = (a: Rgb, b: Rgb, tolerance = 6) =>
  a.every((v, i) => Math.abs(v - (b[i] ?? 0)) <= tolerance);

describe("POST /v1/artifact: a branded PDF and PNG from one page load", () => {
  let cap: Capturer;
  const run = runId();
  let data: ArtifactBody;
  let usage: { credits: number; remaining: number | null } | undefined;

  beforeAll(async () => {
    cap = await Capturer.create("pro");
    const { res, body } = await artifact(cap, {
      content: [
        "# Quarterly report",
        "",
        `Revenue grew. ![chart](${FIXTURES}/img/chart.png?run=${run})`,
        "",
        "## Details",
        "",
        "| Region | Sales |",
        "| --- | --- |",
        "| EU | 10 |",
        "",
        "---pagebreak---",
        "",
        "## Appendix",
        "",
        "Second page text.",
      ].join("\n"),
      branding: {
        logo: `${FIXTURES}/pixel.png?run=${run}`,
        accentColor: "#0a7cff",
        font: "serif",
        header: "{{company}} & Co — Page {{page}} of {{pages}}",
        footer: "Confidential {{company}}",
      },
      data: { company: "Acme" },
      pageSetup: { size: "A4", orientation: "portrait" },
    });
    expect(res.status).toBe(200);
    expect(body.success).toBe(true);
    data = successEnvelope(artifactSchema).strict().parse(body).data;
    usage = body.meta.usage;
  });

  it("answers signed URLs for both outputs and the share page, expiring after 86400 s, for 2 credits", () => {
    for (const url of [data.pdfUrl, data.pngUrl, data.shareUrl])
      expect(url?.startsWith(`${BASE}/v1/images/a/`)).toBe(true);
    const lifetime = (Date.parse(data.expiresAt) - Date.now()) / 1000;
    expect(lifetime).toBeGreaterThan(86_300);
    expect(lifetime).toBeLessThanOrEqual(86_400);
    expect(data.title).toBe("Quarterly report");
    expect(data.metadata).toBeUndefined();
    expect(usage).toEqual({ credits: 2, remaining: 25_000 - 2 });
  });

  it("fetches the logo once (the Worker) and loads the page once for both outputs", async () => {
    const log = await fixtureLog(run);
    expect(log.filter((r) => r.path === "/pixel.png")).toHaveLength(1);
    expect(log.filter((r) => r.path === "/img/chart.png")).toHaveLength(1);
  });

  it("PDF: A4 pages, page break honoured, running header/footer with page numbers, title and outline", async () => {
    const doc = await getDocumentProxy(await fetchBytes(data.pdfUrl ?? ""));
    expect(doc.numPages).toBe(2);
    const page1 = await doc.getPage(1);
    const { width, height } = page1.getViewport({ scale: 1 });
    // A4 portrait in points (Chromium rounds the page to whole CSS pixels: 595.3 → 596).
    expect(Math.abs(width - 595.3)).toBeLessThan(1.5);
    expect(Math.abs(height - 841.9)).toBeLessThan(1.5);
    const { text } = await extractText(doc, { mergePages: false });
    expect(text[0]).toContain("Acme & Co — Page 1 of 2");
    expect(text[1]).toContain("Acme & Co — Page 2 of 2");
    for (const pageText of text) expect(pageText).toContain("Confidential Acme");
    expect(text[0]).toContain("Quarterly report");
    expect(text[0]).not.toContain("Second page text");
    expect(text[1]).toContain("Second page text");
    const { info } = (await doc.getMetadata()) as { info: { Title?: string } };
    expect(info.Title).toBe("Quarterly report");
    const outline = (await doc.getOutline()) ?? [];
    const titles = JSON.stringify(
      outline.map(function flat(o: { title: string; items: unknown[] }): unknown {
        return [o.title, ...(o.items as Array<{ title: string; items: unknown[] }>).map(flat)];
      }),
    );
    for (const heading of ["Quarterly report", "Details", "Appendix"])
      expect(titles).toContain(heading);
    // Page 2's content has no image: an image painted there is the logo in the running header.
    const { OPS } = await getResolvedPDFJS();
    const painted = (await (await doc.getPage(2)).getOperatorList()).fnArray.filter(
      (op) => op === OPS.paintImageXObject || op === OPS.paintInlineImageXObject,
    );
    expect(painted.length).toBeGreaterThanOrEqual(1);
  });

  it("PNG: 1200×630, the accent header bar, the logo's pixels where it sits, the accent heading rule", async () => {
    const img = decodeImage(await fetchBytes(data.pngUrl ?? ""));
    expect([img.width, img.height]).toEqual([1200, 630]);
    expect(near(img.pixel(5, 5), ACCENT)).toBe(true); // header bar
    expect(img.pixel(44, 28)).toEqual([255, 0, 0]); // the (red) logo, 40px tall at x 24, y 8
    expect(img.pixel(600, 100)).not.toEqual(ACCENT);
    expect(accentRows(img, 300).length).toBeGreaterThan(0); // the h1 rule below the bar
  });

  it("share page: our HTML with title, preview, PDF link and unfurl tags, under a strict CSP", async () => {
    const res = await call(path(data.shareUrl));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy") ?? "";
    for (const directive of [
      "default-src 'none'",
      "img-src 'self' data:",
      "style-src 'unsafe-inline'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain("script-src");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await res.text();
    const attr = (s: string) => s.replaceAll("&", "&#38;");
    expect(html).toContain("<title>Quarterly report</title>");
    expect(html).toContain(`<meta property="og:title" content="Quarterly report">`);
    expect(html).toContain(`<meta property="og:image" content="${attr(data.pngUrl ?? "")}">`);
    expect(html).toContain(`<meta name="twitter:card" content="summary_large_image">`);
    expect(html).toContain(`<img src="${attr(data.pngUrl ?? "")}"`);
    expect(html).toContain(`href="${attr(data.pdfUrl ?? "")}" download`);
    // The expiry as a person reads it; the ISO form only in the machine-readable attribute.
    const expires = new Date(data.expiresAt);
    const month = expires.toLocaleString("en-US", { month: "long", timeZone: "UTC" });
    expect(html).toContain(
      `<time datetime="${data.expiresAt}">${expires.getUTCDate()} ${month} ${expires.getUTCFullYear()}, `,
    );
    expect(html).toMatch(/<time datetime="[^"]+">[^<]+ \d{2}:\d{2} UTC<\/time>/);
    expect(html).not.toMatch(/<script/i);
  });

  it("share page: tampered → 403 FORBIDDEN, deleted → 404 NOT_FOUND", async () => {
    const u = new URL(data.shareUrl);
    const sig = u.searchParams.get("sig") ?? "";
    const tampered = await call(
      `${u.pathname}?expires=${u.searchParams.get("expires")}&sig=${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}`,
    );
    expect(tampered.status).toBe(403);
    expect((await envelope(tampered)).error?.code).toBe("FORBIDDEN");
    await env.OUTPUTS.delete(u.pathname.slice("/v1/images/".length));
    const gone = await call(path(data.shareUrl));
    expect(gone.status).toBe(404);
    expect((await envelope(gone)).error?.code).toBe("NOT_FOUND");
  });
});

/** Rows (below the header bar) where the middle column is the accent colour. */
function accentRows(img: Decoded, x: number): number[] {
  const rows: number[] = [];
  for (let y = 60; y < img.height; y++) if (near(img.pixel(x, y), ACCENT)) rows.push(y);
  return rows;
}

describe("artifact PDF extras: table of contents, metadata, tagged output", () => {
  it("an embedded font family (bundled @fontsource woff2) is the one the PDF embeds", async () => {
    const cap = await Capturer.create("pro");
    for (const [font, name] of [
      ["merriweather", "Merriweather"],
      ["inter", "Inter"],
    ] as const) {
      const { res, body } = await artifact(cap, {
        content: "# Heading\n\nBody **bold** text.",
        formats: ["pdf"],
        branding: { font },
      });
      expect(res.status).toBe(200);
      const raw = new TextDecoder("latin1").decode(await fetchBytes(body.data?.pdfUrl ?? ""));
      const fonts = [...raw.matchAll(/\/BaseFont\s*\/([A-Za-z0-9+_-]+)/g)].map((m) => m[1] ?? "");
      expect(
        fonts.some((f) => f.includes(name)),
        `${font}: ${fonts.join(", ")}`,
      ).toBe(true);
    }
  });

  it("toc: true inserts linked contents after the first heading; data fills content and title; expiresIn; creation date; tagged (marked) PDF", async () => {
    const cap = await Capturer.create("pro");
    const { res, body } = await artifact(cap, {
      content:
        "# Guide\n\nIntro for {{name}}.\n\n## Install\n\nStep.\n\n### Options\n\nMore.\n\n## Use\n\nDone.",
      toc: true,
      formats: ["pdf"],
      title: "The {{name}} guide",
      data: { name: "Acme" },
      expiresIn: 3600,
    });
    expect(res.status).toBe(200);
    const lifetime = (Date.parse(body.data?.expiresAt ?? "") - Date.now()) / 1000;
    expect(lifetime).toBeGreaterThan(3500);
    expect(lifetime).toBeLessThanOrEqual(3600);
    expect(body.data?.title).toBe("The Acme guide");
    const doc = await getDocumentProxy(await fetchBytes(body.data?.pdfUrl ?? ""));
    const { text } = await extractText(doc, { mergePages: true });
    expect(text).toMatch(
      /Guide[\s\S]*Contents[\s\S]*Install[\s\S]*Options[\s\S]*Use[\s\S]*Intro for Acme\./,
    );
    const links = (await (await doc.getPage(1)).getAnnotations()) as Array<{
      subtype: string;
      dest?: unknown;
      url?: string;
    }>;
    const internal = links.filter(
      (a) => a.subtype === "Link" && a.dest !== undefined && a.url === undefined,
    );
    expect(internal.length).toBeGreaterThanOrEqual(3);
    const info = (await doc.getMetadata()).info as { Title?: string; CreationDate?: string };
    expect(info.Title).toBe("The Acme guide");
    expect(String(info.CreationDate)).toMatch(/^D:\d{14}/);
    const catalog = (await doc.getMarkInfo()) as { Marked?: boolean } | null;
    expect(catalog?.Marked).toBe(true);
    expect(body.meta.usage?.credits).toBe(1);
  });
});

const TITLE = `<script>alert(1)</script><img src=x onerror=alert(2)>`;

describe("artifact security: hostile content never escapes the guard or reaches the share page", () => {
  it("a canary <img>, fetch and a script in content, markup in title: canary silent, share page inert", async () => {
    const cap = await Capturer.create("pro");
    const run = runId();
    const hostile = `<script>fetch("${CANARY}/s?run=${run}")</script><img src="${CANARY}/i.png?run=${run}" onerror="alert(1)">`;
    const { res, body } = await artifact(cap, {
      content: `# Hi\n\n${hostile}`,
      inputFormat: "markdown",
      title: TITLE,
      formats: ["png"],
    });
    expect(res.status).toBe(200);
    expect(await canaryLog(run)).toEqual([]);
    const share = await call(path(body.data?.shareUrl ?? ""));
    const html = await share.text();
    // Parsed as a browser would: the title is text everywhere — no script element, one <img>
    // (ours, same origin), no event-handler attribute on any element.
    const { document } = parseHTML(html);
    expect(document.querySelectorAll("script")).toHaveLength(0);
    const imgs = [...document.querySelectorAll("img")];
    expect(imgs.map((i) => i.getAttribute("src"))).toEqual([body.data?.pngUrl]);
    const handlers = [...document.querySelectorAll("*")].flatMap((el) =>
      [...el.attributes].map((a) => a.name).filter((n) => n.startsWith("on")),
    );
    expect(handlers).toEqual([]);
    expect(document.querySelector("h1")?.textContent).toBe(TITLE);
    expect(document.querySelector('meta[property="og:title"]')?.getAttribute("content")).toBe(
      TITLE,
    );
    expect(body.data?.pdfUrl).toBeUndefined();
    expect(body.meta.usage?.credits).toBe(1);
  });

  it("html input is a body fragment inside the branded document (the header bar stays)", async () => {
    const cap = await Capturer.create("pro");
    const { res, body } = await artifact(cap, {
      content: `<html><body style="margin:0"><h1>Fragment</h1><p>text</p></body></html>`,
      inputFormat: "html",
      formats: ["png"],
      branding: { accentColor: "rgb(10 124 255)", header: "Branded" },
      pageSetup: { width: 400, height: 300 },
    });
    expect(res.status).toBe(200);
    const img = decodeImage(await fetchBytes(body.data?.pngUrl ?? ""));
    expect([img.width, img.height]).toEqual([400, 300]);
    expect(near(img.pixel(5, 5), ACCENT)).toBe(true);
    expect(body.data?.title).toBe("Fragment");
  });
});

describe("artifact authentication", () => {
  describeAuthCases((headers) => postJson("/v1/artifact", { content: "" }, headers));
});

describe("artifact validation: 400 naming the field, before any credit", () => {
  let cap: Capturer;
  beforeAll(async () => {
    cap = await Capturer.create("pro");
  });

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["missing content", {}, "content"],
    ["empty content", { content: "" }, "content"],
    ["unknown field", { content: "x", format: "png" }, "format"],
    ["unknown branding field", { content: "x", branding: { color: "#fff" } }, "branding.color"],
    [
      "unknown pageSetup field",
      { content: "x", pageSetup: { landscape: true } },
      "pageSetup.landscape",
    ],
    ["bad inputFormat", { content: "x", inputFormat: "rst" }, "inputFormat"],
    ["no formats", { content: "x", formats: [] }, "formats"],
    ["repeated format", { content: "x", formats: ["pdf", "pdf"] }, "formats"],
    ["unsupported format", { content: "x", formats: ["jpeg"] }, "formats[0]"],
    [
      "css injection in accentColor",
      { content: "x", branding: { accentColor: "red;} body{display:none" } },
      "branding.accentColor",
    ],
    ["unknown font", { content: "x", branding: { font: "Comic Sans" } }, "branding.font"],
    ["control chars in header", { content: "x", branding: { header: "a\nb" } }, "branding.header"],
    ["bad page size", { content: "x", pageSetup: { size: "A5" } }, "pageSetup.size"],
    [
      "bad orientation",
      { content: "x", pageSetup: { orientation: "sideways" } },
      "pageSetup.orientation",
    ],
    ["bad margin", { content: "x", pageSetup: { margin: "1 inch" } }, "pageSetup.margin"],
    [
      "margins eat the page",
      { content: "x", pageSetup: { margin: { top: "6in", bottom: "6in" } } },
      "pageSetup.margin.top",
    ],
    ["scale out of range", { content: "x", pageSetup: { scale: 3 } }, "pageSetup.scale"],
    ["width out of range", { content: "x", pageSetup: { width: 100 } }, "pageSetup.width"],
    ["height out of range", { content: "x", pageSetup: { height: 5000 } }, "pageSetup.height"],
    ["expiresIn too short", { content: "x", expiresIn: 60 }, "expiresIn"],
    ["expiresIn too long", { content: "x", expiresIn: 2_592_001 }, "expiresIn"],
    ["data not an object", { content: "x", data: [1] }, "data"],
    ["content over 4 MiB", { content: "a".repeat(4 * 1024 * 1024 + 1) }, "content"],
  ];

  it.each(cases)("%s → 400 VALIDATION_ERROR naming %s", async (_name, request, field) => {
    const { res, body } = await artifact(cap, request);
    expect(res.status).toBe(400);
    expect(body.error?.code).toBe("VALIDATION_ERROR");
    expect(body.error?.details?.map((d) => d.path)).toContain(field);
  });

  it("accepts exactly 4 MiB of content and the documented colour forms (schema)", () => {
    expect(artifactRequestSchema.safeParse({ content: "a".repeat(4 * 1024 * 1024) }).success).toBe(
      true,
    );
    for (const accentColor of [
      "#abc",
      "#abcd",
      "#aabbcc",
      "#aabbccdd",
      "rgb(1, 2, 3)",
      "rgba(1,2,3,0.5)",
      "hsl(210 100% 52%)",
      "hsl(210 100% 52% / 50%)",
    ]) {
      expect(
        artifactRequestSchema.safeParse({ content: "x", branding: { accentColor } }).success,
        accentColor,
      ).toBe(true);
    }
  });

  it("a logo at a private address → 400 INVALID_URL naming branding.logo; the canary is never reached", async () => {
    const run = runId();
    for (const logo of [
      "http://10.0.0.1/logo.png",
      "http://169.254.169.254/latest",
      `${CANARY}/logo.png?run=${run}`,
      "file:///etc/passwd",
    ]) {
      const { res, body } = await artifact(cap, { content: "x", branding: { logo } });
      expect(res.status, logo).toBe(400);
      expect(body.error?.code, logo).toBe("INVALID_URL");
      expect(body.error?.details?.[0]?.path).toBe("branding.logo");
    }
    expect(await canaryLog(run)).toEqual([]);
  });

  it("a logo that is not an image, answers 404 or redirects (even to an image) → 400 naming branding.logo; no credit taken", async () => {
    const run = runId();
    const redirect = `${FIXTURES}/redirect?run=${run}&to=${encodeURIComponent(`${CANARY}/logo.png?run=${run}`)}`;
    for (const logo of [
      `${FIXTURES}/small.html?run=${run}`,
      `${FIXTURES}/nope-404.png?run=${run}`,
      redirect,
    ]) {
      const { res, body } = await artifact(cap, { content: "x", branding: { logo } });
      expect(res.status, logo).toBe(400);
      expect(body.error?.code, logo).toBe("VALIDATION_ERROR");
      expect(body.error?.details?.[0]?.path).toBe("branding.logo");
    }
    expect(await canaryLog(run)).toEqual([]);
    const summary = await accountDo(cap.account.accountId).summary();
    expect(summary?.usage).toMatchObject({ used: 0 });
  });
});

describe("artifact credits and plans", () => {
  it("one output forced to fail: its credit is refunded, the other charged and returned", async () => {
    const { accountId, keyId } = await createAccount("pro");
    const auth = { accountId, keyId, plan: PLANS.pro, account: accountDo(accountId) };
    const real = browserEngine(env);
    // The PNG (second output) fails after the one page load; the PDF is real.
    const engine = {
      capture: async (spec: Parameters<typeof real.capture>[0], account: string) => {
        const outcome = await real.capture(spec, account);
        if (!outcome.ok) return outcome;
        const outputs = outcome.result.outputs.map((o, i) =>
          i === 1 ? { ok: false as const, failure: failures.generic() } : o,
        );
        return { ...outcome, result: { ...outcome.result, outputs } };
      },
    };
    const req = artifactRequestSchema.parse({ content: "# Partial" });
    const { data, usage } = await createArtifact(env, auth, req, { origin: BASE, engine });
    expect(usage).toEqual({ credits: 1, remaining: 25_000 - 1 });
    expect((await accountDo(accountId).summary())?.usage).toMatchObject({ used: 1 });
    expect(data.pdfUrl).toBeDefined();
    expect(data.pngUrl).toBeUndefined();
    expect(data.failed).toEqual([
      { format: "png", code: "CAPTURE_FAILED", message: "Screenshot capture failed." },
    ]);
    const share = await (await call(path(data.shareUrl))).text();
    expect(share).toContain("No image preview");
    expect(share).not.toContain("<img");
  });

  it("Free plan: the PNG carries the tiled watermark, the PDF a footer naming the service; metadata.watermarked", async () => {
    const free = await Capturer.create("free");
    const { res, body } = await artifact(free, {
      content: "# Free\n\nshort",
      pageSetup: { width: 800, height: 600 },
    });
    expect(res.status).toBe(200);
    expect(body.data?.metadata).toEqual({ watermarked: true });
    const img = decodeImage(await fetchBytes(body.data?.pngUrl ?? ""));
    // The blank lower half: gray watermark marks on Free.
    let gray = 0;
    for (let y = 350; y < 600; y++)
      for (let x = 0; x < 800; x++) {
        const [r, g, b] = img.pixel(x, y);
        if (r < 255 && Math.max(r, g, b) - Math.min(r, g, b) <= 4) gray++;
      }
    expect(gray).toBeGreaterThan(500);
    const doc = await getDocumentProxy(await fetchBytes(body.data?.pdfUrl ?? ""));
    expect((await extractText(doc, { mergePages: true })).text).toContain("edgeshot.dev");
  });
});
