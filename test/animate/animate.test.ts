/**
 * POST /v1/animate against the real browser, each recording made once (all of them side by
 * side, in beforeAll) and read by many assertions: a scroll of the bands page
 * (fixtures/pages/animate-bands.html: one 240 px band a colour) as WebM (WebCodecs, and
 * MediaRecorder for the same bands as html, no secure context), MP4 and GIF — the
 * container parsed, its size and frame count, the GIF's first frame the top band and its last
 * the band at scrollTillSelector; a CSS animation filmed `still`; a page that spins once it is
 * scrolled, stopped by the deadline with nothing charged; an async recording (a job) delivered
 * to the S3 fixture bucket with a signed job.completed webhook. Refusals need no browser.
 */
import { createHmac } from "node:crypto";
import { GifReader } from "omggif";
import { beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, creditsUsed } from "../helpers/api";
import { bearer, createAccount, type TestAccount } from "../helpers/accounts";
import { call, envelope, FIXTURES, mcpToolCall, postJson, runId } from "../helpers/http";
import { waitForJob, waitForWebhooks, webhookUrl } from "../helpers/jobs";
import { readMp4, readWebm } from "../helpers/media";
import { createDestination, newKeyPair, readObject } from "../helpers/s3";

const SMALL = { width: 320, height: 240, deviceScaleFactor: 1 };
const SCROLL = { ...SMALL, duration: 2, fps: 10, scrollTillSelector: "#band-5" };
const FRAMES = 20;

interface Recorded {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
}

async function record(account: TestAccount, body: Record<string, unknown>): Promise<Recorded> {
  const res = await postJson("/v1/animate", body, bearer(account.apiKey));
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = res.status === 200 ? "" : new TextDecoder().decode(bytes).slice(0, 300);
  return { status: res.status, headers: res.headers, bytes, text };
}

/** The MCP tool record_page (hosted): the link it answers, fetched. */
async function recordByMcp(account: TestAccount, args: Record<string, unknown>): Promise<Recorded> {
  const res = await mcpToolCall(bearer(account.apiKey), "record_page", args);
  const text = await res.text();
  const body = JSON.parse(text) as {
    result?: {
      isError?: boolean;
      content: Array<{ type: string; uri?: string; mimeType?: string }>;
    };
  };
  const link = body.result?.content.find((c) => c.type === "resource_link");
  if (res.status !== 200 || body.result?.isError || !link?.uri)
    return { status: 500, headers: res.headers, bytes: new Uint8Array(), text: text.slice(0, 300) };
  expect(link.mimeType).toBe("image/gif");
  const file = await call(new URL(link.uri).pathname + new URL(link.uri).search);
  const bytes = new Uint8Array(await file.arrayBuffer());
  return { status: file.status, headers: file.headers, bytes, text: "" };
}

function expectOk(r: Recorded, contentType: string) {
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get("content-type")).toBe(contentType);
  expect(r.headers.get("x-animation-width")).toBe("320");
  expect(r.headers.get("x-animation-height")).toBe("240");
  expect(r.headers.get("x-animation-frames")).toBe(String(FRAMES));
  expect(r.headers.get("x-service-credits-charged")).toBe("1");
}

/** RGBA of pixel (x, y) of GIF frame `index`. */
function gifPixel(gif: GifReader, index: number, x: number, y: number): number[] {
  const pixels = new Uint8Array(gif.width * gif.height * 4);
  gif.decodeAndBlitFrameRGBA(index, pixels);
  const at = (y * gif.width + x) * 4;
  return [...pixels.subarray(at, at + 3)];
}

/** The colour within 40 of each channel (JPEG frames, 256-colour palettes). */
function near(actual: number[], expected: number[]) {
  expect(
    actual.every((v, i) => Math.abs(v - (expected[i] ?? 0)) <= 40),
    `${actual} ≈ ${expected}`,
  ).toBe(true);
}

/** The bands page's colours, top to bottom (fixtures/pages/animate-bands.html). */
const BANDS = [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
  [255, 255, 0],
  [0, 255, 255],
  [255, 0, 255],
  [0, 0, 0],
  [255, 255, 255],
];

/** Which band a pixel shows (within 60 of each channel), or null: on a band's edge, blurred. */
function bandOf(rgb: number[]): number | null {
  const at = BANDS.findIndex((band) => band.every((v, i) => Math.abs(v - (rgb[i] ?? 0)) <= 60));
  return at === -1 ? null : at;
}

const bandsHtml = `<!doctype html><style>body { margin: 0; } section { height: 240px; }</style>
${BANDS.map((rgb, i) => `<section id="band-${i}" style="background: rgb(${rgb.join(",")})"></section>`).join("")}`;
const bandsUrl = () => `${FIXTURES}/animate-bands.html?run=${runId()}`;
const animated = `<!doctype html><style>
  @keyframes shift { from { background: #ff0000; } to { background: #0000ff; } }
  html, body { margin: 0; height: 100%; }
  body { animation: shift 1s linear infinite alternate; }
</style>`;
const spinOnScroll = `<!doctype html><div style="height:4000px">tall</div>
<script>addEventListener("scroll", () => { for (;;) {} });</script>`;

let webm: Recorded;
let webmInsecure: Recorded;
let mp4: Recorded;
let gif: Recorded;
let still: Recorded;
let spin: Recorded;
let spinAccount: TestAccount;
let account: TestAccount;

beforeAll(async () => {
  [account, spinAccount] = await Promise.all([createAccount("pro"), createAccount("pro")]);
  // The spinner holds its slot until the deadline (~19 s) while the others record two at a
  // time: five at once waited past the host's line (SERVICE_BUSY).
  const spinning = record(spinAccount, {
    ...SMALL,
    html: spinOnScroll,
    format: "webm",
    duration: 1,
    fps: 5,
    timeout: 5,
  });
  [webm, gif] = await Promise.all([
    record(account, { ...SCROLL, url: bandsUrl(), format: "webm" }),
    record(account, { ...SCROLL, url: bandsUrl(), format: "gif" }),
  ]);
  // html is loaded on about:blank, not a secure context: no WebCodecs, MediaRecorder records.
  // Alone beside the spinner: a third recording at once left the GIF's scroll too few frames.
  webmInsecure = await record(account, { ...SCROLL, html: bandsHtml, format: "webm" });
  [mp4, still] = await Promise.all([
    record(account, { ...SCROLL, url: bandsUrl(), format: "mp4" }),
    recordByMcp(account, {
      width: 320,
      height: 240,
      html: animated,
      format: "gif",
      scenario: "still",
      duration: 2,
      fps: 10,
    }),
  ]);
  spin = await spinning;
}, 120_000);

describe("POST /v1/animate: scroll", () => {
  it("webm: an EBML file of the asked size, about duration × fps frames", () => {
    expectOk(webm, "video/webm");
    const facts = readWebm(webm.bytes);
    expect(facts.docType).toBe("webm");
    expect([facts.width, facts.height]).toEqual([320, 240]);
    expect(facts.frames).toBeGreaterThanOrEqual(FRAMES * 0.9);
    expect(facts.frames).toBeLessThanOrEqual(FRAMES * 1.1);
  });

  it("webm where the page is no secure context (html: about:blank): MediaRecorder's, all its frames", () => {
    expectOk(webmInsecure, "video/webm");
    const facts = readWebm(webmInsecure.bytes);
    expect([facts.docType, facts.width, facts.height]).toEqual(["webm", 320, 240]);
    expect(facts.frames).toBeGreaterThanOrEqual(FRAMES * 0.9);
    expect(facts.frames).toBeLessThanOrEqual(FRAMES * 1.1);
  });

  it("mp4: ISO boxes of the asked size, about duration × fps samples (H.264 from this Chromium)", () => {
    expectOk(mp4, "video/mp4");
    const facts = readMp4(mp4.bytes);
    expect(facts.boxes[0]).toBe("ftyp");
    expect(facts.boxes).toContain("moov");
    expect([facts.width, facts.height]).toEqual([320, 240]);
    expect(facts.frames).toBeGreaterThanOrEqual(FRAMES * 0.9);
    expect(facts.frames).toBeLessThanOrEqual(FRAMES * 1.1);
  });

  it("gif: every frame decodes; the first shows the top band, the last the band at scrollTillSelector", () => {
    expectOk(gif, "image/gif");
    const reader = new GifReader(gif.bytes);
    expect([reader.width, reader.height]).toEqual([320, 240]);
    expect(reader.numFrames()).toBe(FRAMES);
    expect(reader.loopCount()).toBe(0);
    expect(reader.frameInfo(0).delay).toBe(10); // centiseconds at 10 fps
    near(gifPixel(reader, 0, 160, 120), [255, 0, 0]);
    near(gifPixel(reader, FRAMES - 1, 10, 10), [255, 0, 255]);
    near(gifPixel(reader, FRAMES - 1, 310, 230), [255, 0, 255]);
    // The frames are the screencast's, resampled: the bands pass in order, never back (a frame
    // whose middle is on a band's edge, blurred by the JPEG, is left out), and half
    // way through (1.0 s of a 1.9 s eased scroll to 1,200 px: at 649 px, the viewport's middle
    // in the fourth band) the frame is that band or, a compositor frame late, the one before.
    const bands = Array.from({ length: FRAMES }, (_, i) => bandOf(gifPixel(reader, i, 160, 120)));
    const clear = bands.filter((b) => b !== null);
    expect(bands[0]).toBe(0);
    expect(bands[FRAMES - 1]).toBe(5);
    expect(clear.length, `${bands}`).toBeGreaterThanOrEqual(FRAMES - 4);
    expect(
      clear.every((b, i) => i === 0 || b >= (clear[i - 1] ?? 0)),
      `${bands}`,
    ).toBe(true);
    expect(new Set(clear).size, `${bands}`).toBeGreaterThanOrEqual(4);
    expect([2, 3]).toContain(bands[FRAMES / 2]);
  });
});

describe("POST /v1/animate: still and the guard", () => {
  it("still films a CSS animation (through the MCP tool record_page, a hosted link): the frames differ", () => {
    expect(still.status, still.text).toBe(200);
    expect(still.headers.get("content-type")).toBe("image/gif");
    const reader = new GifReader(still.bytes);
    expect(reader.numFrames()).toBe(FRAMES);
    const colours = new Set(
      Array.from({ length: FRAMES }, (_, i) => gifPixel(reader, i, 160, 120).join(",")),
    );
    expect(colours.size).toBeGreaterThanOrEqual(5);
  });

  it("a page that spins while it is recorded: 408 by the deadline, nothing charged", async () => {
    expect(spin.status, spin.text).toBe(408);
    expect(JSON.parse(spin.text).error.code).toBe("TIMEOUT");
    expect(await creditsUsed(spinAccount.apiKey)).toBe(0);
  });
});

describe("POST /v1/animate: async (a job)", () => {
  it("async + storage + webhookUrl: 202, the clip lands in the bucket as WebM, a signed job.completed, 1 credit", async () => {
    const owner = await createAccount("pro");
    const auth = bearer(owner.apiKey);
    const destinationId = await createDestination(auth, await newKeyPair());
    const run = runId();
    const res = await postJson(
      "/v1/animate",
      {
        ...SCROLL,
        url: bandsUrl(),
        format: "webm",
        async: true,
        webhookUrl: webhookUrl(run),
        storage: { destinationId },
      },
      auth,
    );
    const accepted = await envelope<{ jobId: string; status: string }>(res);
    expect(res.status, JSON.stringify(accepted)).toBe(202);
    expect(accepted.data?.status).toBe("queued");
    expect(accepted.meta?.usage?.credits).toBe(1);
    const jobId = accepted.data?.jobId ?? "";
    const job = await waitForJob(owner.accountId, jobId, 90_000);
    expect(job.status, JSON.stringify(job)).toBe("completed");
    expect(job.format).toBe("webm");
    expect(job.metadata).toMatchObject({
      width: 320,
      height: 240,
      frames: FRAMES,
      durationMs: 2000,
    });
    const key = `edgeshot/${new Date().toISOString().slice(0, 10)}/${jobId}.webm`;
    expect(job.storage).toMatchObject({ destinationId, bucket: "edgeshot-test", key });

    const object = await readObject("edgeshot-test", key);
    expect(object?.contentType).toBe("video/webm");
    const facts = readWebm(object?.bytes ?? new Uint8Array());
    expect(facts.docType).toBe("webm");
    expect([facts.width, facts.height]).toEqual([320, 240]);
    expect(facts.frames).toBeGreaterThanOrEqual(FRAMES * 0.9);

    const [hook] = await waitForWebhooks(run);
    expect(hook?.headers["x-service-event"]).toBe("job.completed");
    const account = await envelope<{ webhooks: { signingSecret: string } }>(
      await call("/v1/account", { headers: auth }),
    );
    const secret = account.data?.webhooks.signingSecret ?? "";
    const ts = String(hook?.headers["x-service-timestamp"]);
    expect(hook?.headers["x-service-signature"]).toBe(
      createHmac("sha256", secret).update(`${ts}.${hook?.body}`).digest("hex"),
    );
    expect(JSON.parse(hook?.body ?? "{}")).toMatchObject({
      event: "job.completed",
      jobId,
      resultUrl: job.resultUrl,
      storage: job.storage,
      metadata: { frames: FRAMES },
    });
    expect(await creditsUsed(auth)).toBe(1);
  }, 120_000);
});

describe("POST /v1/animate: refusals name the field", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["fps out of range", { fps: 0 }, "fps"],
    ["duration over the absolute bound", { duration: 31 }, "duration"],
    ["an unknown format", { format: "avi" }, "format"],
    ["scrollSpeed with scrollDuration", { scrollSpeed: 500, scrollDuration: 1 }, "scrollDuration"],
    ["a scroll option on a still", { scenario: "still", scrollBack: true }, "scrollBack"],
    ["a gif over its fps cap", { format: "gif", fps: 20 }, "fps"],
    ["a gif over its pixel cap", { format: "gif", width: 1920, height: 1080 }, "width"],
    ["fullPage, which a recording has no use for", { fullPage: true }, "fullPage"],
    ["webhookUrl without async", { webhookUrl: "https://example.com/hook" }, "webhookUrl"],
    ["storage without async", { storage: { destinationId: "dst_x" } }, "storage"],
  ];
  it.each(cases)("400: %s", async (_, extra, field) => {
    const res = await postJson(
      "/v1/animate",
      { url: bandsUrl(), ...extra },
      bearer(account.apiKey),
    );
    await expectRefusal(res, 400, "VALIDATION_ERROR", field);
  });

  it("400 over the plan's bounds, naming each field", async () => {
    const free = await createAccount("free");
    const res = await postJson(
      "/v1/animate",
      { url: bandsUrl(), duration: 10, fps: 24 },
      bearer(free.apiKey),
    );
    const body = await expectRefusal(res, 400, "VALIDATION_ERROR", "duration");
    expect(body.error?.details?.map((d) => d.path)).toContain("fps");
    expect(await creditsUsed(free.apiKey)).toBe(0);
  });
});
