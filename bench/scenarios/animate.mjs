// The animate scenario (bench/README.md, "Animate"): a 5 s scroll of the bands page at
// 1280 × 800, 24 fps, recorded by the service (POST /v1/animate, webm and mp4) against the
// raw-CDP screencast floor on the same machine: the floor loads the page in a fresh context,
// runs `Page.startScreencast` (JPEG 90, every frame acknowledged) while the page scrolls itself
// on its frame clock for the clip's length, and stops — the frames in hand, no encoding.
// Puppeteer's own recorder (`page.screencast`) pipes those frames to ffmpeg, which this machine
// does not have; its cost is that screencast plus ffmpeg's, so the floor here is the lower one.
// Wall time and CPU (floor browser, service browser, service runtime) per second of video,
// one recording at a time, the systems alternating.
import { cpuPerCapture, cpuSnapshot } from "../lib/cpu.mjs";
import { fixtureUrl } from "../lib/fixture-client.mjs";
import { checkDeadline, log, state } from "../lib/lifecycle.mjs";
import { median } from "../lib/stats.mjs";

// The container readers of the tests (TypeScript with extension-less imports).
await import("../lib/ts-register.mjs");
const { readMp4, readWebm } = await import("../../test/helpers/media.ts");

export const CLIP = { width: 1280, height: 800, duration: 5, fps: 24 };
const FRAMES = CLIP.duration * CLIP.fps;
const PATH = "/animate-bands.html";

/** The floor: one screencast of the scroll, frames acknowledged and counted. */
async function floorRecord(browser, fixtureBase) {
  const { url } = fixtureUrl(fixtureBase, PATH);
  const t0 = performance.now();
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: CLIP.width, height: CLIP.height, deviceScaleFactor: 1 });
    await page.goto(url, { waitUntil: "load" });
    const client = await page.createCDPSession();
    let frames = 0;
    client.on("Page.screencastFrame", (e) => {
      frames++;
      client.send("Page.screencastFrameAck", { sessionId: e.sessionId }).catch(() => {});
    });
    await client.send("Page.startScreencast", {
      format: "jpeg",
      quality: 90,
      maxWidth: CLIP.width,
      maxHeight: CLIP.height,
      everyNthFrame: 1,
    });
    await page.evaluate(
      (lengthMs) =>
        new Promise((resolve) => {
          const root = document.scrollingElement;
          const target = root.scrollHeight - innerHeight;
          let start = null;
          const tick = (now) => {
            start ??= now;
            const t = Math.min(1, (now - start) / lengthMs);
            scrollTo({
              top: Math.round((target * (1 - Math.cos(Math.PI * t))) / 2),
              behavior: "instant",
            });
            if (t < 1) requestAnimationFrame(tick);
            else resolve();
          };
          requestAnimationFrame(tick);
        }),
      ((FRAMES - 1) * 1000) / CLIP.fps,
    );
    await client.send("Page.stopScreencast");
    const ms = performance.now() - t0;
    if (frames < 2) throw new Error(`floor screencast: ${frames} frames`);
    return { ms, frames };
  } finally {
    await context.close();
  }
}

/** The service: one POST /v1/animate; the container's magic and the frame count checked. */
async function serviceRecord(base, apiKey, fixtureBase, format) {
  const { url } = fixtureUrl(fixtureBase, PATH);
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/animate`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ url, format, ...CLIP, deviceScaleFactor: 1, waitUntil: "load" }),
    signal: AbortSignal.timeout(180_000),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - t0;
  if (!res.ok)
    throw new Error(`POST /v1/animate ${format}: ${res.status} ${bytes.toString().slice(0, 300)}`);
  const frames = Number(res.headers.get("x-animation-frames"));
  if (frames !== FRAMES) throw new Error(`POST /v1/animate ${format}: ${frames} frames`);
  // The file itself: its container parsed, its frames counted; fewer than the clip's 120 − 10 %
  // (the encoder dropped frames) is a wrong output, reported (the run then exits 1).
  const file = new Uint8Array(bytes);
  const framesInFile = (format === "webm" ? readWebm(file) : readMp4(file)).frames;
  const wrong = !(framesInFile >= frames * 0.9 && framesInFile <= frames * 1.1);
  return {
    ms,
    frames,
    framesInFile,
    wrong,
    bytes: bytes.length,
    serverMs: Number(res.headers.get("x-service-load-time-ms")),
  };
}

/** Each system `reps` times, alternating; wall and CPU per second of video. */
export async function runAnimateScenario({
  browser,
  base,
  apiKey,
  fixtureBase,
  wranglerPid,
  reps,
}) {
  const systems = {
    floor: () => floorRecord(browser, fixtureBase),
    webm: () => serviceRecord(base, apiKey, fixtureBase, "webm"),
    mp4: () => serviceRecord(base, apiKey, fixtureBase, "mp4"),
  };
  const runs = { floor: [], webm: [], mp4: [] };
  const cpu = { floor: [], webm: [], mp4: [] };
  await systems.webm(); // warm: the service's browser launched, the page path compiled
  for (let r = 0; r < reps; r++) {
    for (const [name, run] of Object.entries(systems)) {
      checkDeadline();
      const pids = { floorPid: state.floorPid, wranglerPid };
      const before = cpuSnapshot(pids);
      const out = await run();
      cpu[name].push(cpuPerCapture(before, cpuSnapshot(pids), 1));
      runs[name].push(out);
      log(`animate ${name} rep ${r + 1}: ${(out.ms / 1000).toFixed(1)} s`);
    }
  }
  const perSecond = (ms) => Math.round(ms / CLIP.duration);
  const rows = Object.keys(systems).map((name) => {
    const wall = median(runs[name].map((x) => x.ms));
    const browserCpu = median(
      cpu[name].map((c) => (name === "floor" ? c.floor : c.serviceBrowser)),
    );
    const runtimeCpu = median(cpu[name].map((c) => c.serviceRuntime));
    return {
      system: name,
      wallMs: Math.round(wall),
      wallMsPerVideoSecond: perSecond(wall),
      chromiumCpuMsPerVideoSecond: perSecond(browserCpu),
      runtimeCpuMsPerVideoSecond: name === "floor" ? null : perSecond(runtimeCpu),
      samples: runs[name].map((x) => Math.round(x.ms)),
      bytes: runs[name].map((x) => x.bytes ?? null),
      framesInFile: runs[name].map((x) => x.framesInFile ?? x.frames),
      wrong: runs[name].filter((x) => x.wrong).length,
    };
  });
  const floor = rows[0];
  for (const row of rows) {
    row.wallRatio = Math.round((row.wallMs / floor.wallMs) * 100) / 100;
    row.cpuRatio =
      Math.round((row.chromiumCpuMsPerVideoSecond / floor.chromiumCpuMsPerVideoSecond) * 100) / 100;
  }
  return { clip: CLIP, reps, rows };
}

export function animateTable({ clip, reps, rows }) {
  const head = `animate: ${clip.width}×${clip.height}, ${clip.fps} fps, ${clip.duration} s scroll, median of ${reps}`;
  const lines = rows.map(
    (r) =>
      `${r.system.padEnd(6)} wall ${(r.wallMs / 1000).toFixed(1).padStart(5)} s (${r.wallRatio}×)  ` +
      `Chromium CPU ${String(r.chromiumCpuMsPerVideoSecond).padStart(5)} ms/s of video (${r.cpuRatio}×)` +
      (r.runtimeCpuMsPerVideoSecond === null
        ? ""
        : `  runtime ${r.runtimeCpuMsPerVideoSecond} ms/s`) +
      `  frames ${r.framesInFile.join("/")}${r.wrong ? `  WRONG ×${r.wrong}` : ""}`,
  );
  return [head, ...lines].join("\n");
}
