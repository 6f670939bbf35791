/**
 * The scripts a recording runs in its isolated world (./animation.ts): where the scroll goes,
 * the clip played on the page's own frame clock, the frames kept, and the encoders
 * (MediaRecorder for webm and mp4, gifenc for gif) reading them in the clip's order.
 */

/** The scroll target in CSS px (null: no element matches), the page scrolled to the top. */
export const scrollTarget = `(selector) => {
  const root = document.scrollingElement || document.documentElement;
  const max = Math.max(0, (root ? root.scrollHeight : 0) - window.innerHeight);
  let target = max;
  if (selector !== null) {
    const el = document.querySelector(selector);
    if (!el) return null;
    target = Math.min(max, Math.max(0, Math.round(el.getBoundingClientRect().top + window.scrollY)));
  }
  window.scrollTo({ top: 0, left: 0, behavior: "instant" });
  return target;
}`;

/** A scroll: to `target` CSS px, eased (sine in-out) over `downS` seconds, then back if `back`. */
export interface ScrollMotion {
  target: number;
  downS: number;
  back: boolean;
}

/** Where `motion` has the page at `t` seconds (CSS px); the same as `playScript`'s. */
export function scrollAt({ target, downS, back }: ScrollMotion, t: number): number {
  const ease = (x: number) => (1 - Math.cos(Math.PI * Math.min(1, Math.max(0, x)))) / 2;
  if (downS <= 0) return t > 0 || !back ? target : 0;
  if (t <= downS || !back) return Math.round(target * ease(t / downS));
  return Math.round(target * (1 - ease((t - downS) / downS)));
}

/**
 * Plays the clip's `frames` at `fps` on the page's frame clock (requestAnimationFrame): a scroll
 * moves the page (`scrollTo`, instant) only when a clip frame's time has come, to exactly where
 * `motion` has that frame, so the compositor draws (and the screencast sends) one frame per clip
 * frame, each at the position the clip asks for, rather than one per display frame (~2.3 as
 * many at 24 fps, each read back and JPEG-encoded); a still just waits. Answers when it
 * started, in ms since the epoch on the browser's clock (the screencast's), as soon as it has;
 * `playEndScript` then answers when it started and ended, after the last position has been drawn.
 */
export const playScript = `(key, motion, frames, fps) => new Promise((started) => {
  const epoch = (t) => performance.timeOrigin + t;
  const ease = (x) => (1 - Math.cos(Math.PI * Math.min(1, Math.max(0, x)))) / 2;
  const at = (t) => {
    const { target, downS, back } = motion;
    if (downS <= 0) return t > 0 || !back ? target : 0;
    if (t <= downS || !back) return Math.round(target * ease(t / downS));
    return Math.round(target * (1 - ease((t - downS) / downS)));
  };
  let resolve;
  const ended = new Promise((r) => { resolve = r; });
  Object.defineProperty(window, key, { value: ended, enumerable: false, configurable: true });
  const finish = (start) => requestAnimationFrame(() => requestAnimationFrame(() =>
    resolve({ startMs: epoch(start), endMs: epoch(performance.now()) })));
  const lengthMs = ((frames - 1) * 1000) / fps;
  if (motion === null) {
    const start = performance.now();
    started(epoch(start));
    setTimeout(() => finish(start), lengthMs);
    return;
  }
  let start = null;
  let shown = -1;
  const tick = (now) => {
    if (start === null) {
      start = now;
      started(epoch(start));
    }
    // The newest clip frame whose time has come (a late frame clock skips to it).
    const i = Math.min(frames - 1, Math.floor(((now - start) * fps) / 1000));
    if (i > shown) {
      shown = i;
      window.scrollTo({ top: at(i / fps), left: 0, behavior: "instant" });
    }
    if (i < frames - 1) requestAnimationFrame(tick);
    else finish(start);
  };
  requestAnimationFrame(tick);
})`;

/** The clip's start and end (`playScript`), once it has played. */
export const playEndScript = `async (key) => {
  try {
    return await window[key];
  } finally {
    delete window[key];
  }
}`;

/** Keeps JPEG frames (base64) as Blobs under `key`, in order. */
export const keepFrames = `(key, frames) => {
  if (!Object.prototype.hasOwnProperty.call(window, key))
    Object.defineProperty(window, key, { value: [], enumerable: false, configurable: true });
  for (const frame of frames) {
    const bin = atob(frame);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    window[key].push(new Blob([bytes], { type: "image/jpeg" }));
  }
}`;

/**
 * Whether the page can record `mime` at all: by MediaRecorder, or by WebCodecs (secure contexts
 * only; the codec itself is checked when the clip is encoded, falling back to MediaRecorder).
 */
export const canRecord = `(mime) => (typeof MediaRecorder === "function" && MediaRecorder.isTypeSupported(mime)) ||
  (isSecureContext && typeof VideoEncoder === "function")`;

/** Bytes → base64 in the page, in slices (String.fromCharCode's argument limit). */
const toBase64Source = `(bytes) => {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}`;

/**
 * MediaRecorder over a canvas: the clip's frame `i` is the kept frame `order[i]` (decoded when it
 * differs from the one before), drawn and pushed (`requestFrame`) at its time on the clip's clock, so the
 * stream's timestamps are the clip's. Returns the file, base64, or null when it is over `cap`.
 */
export const recordScript = `async (key, order, mime, width, height, fps, bits, cap) => {
  const frames = window[key] || [];
  delete window[key];
  if (!MediaRecorder.isTypeSupported(mime)) return { data: null, unsupported: true };
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  // A canvas in memory (not on the GPU): its frames need no read back from the GPU process.
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const stream = canvas.captureStream(0);
  const track = stream.getVideoTracks()[0];
  const recorder = new MediaRecorder(stream, { mimeType: mime, videoBitsPerSecond: bits });
  const chunks = [];
  recorder.ondataavailable = (e) => { if (e.data.size > 0) chunks.push(e.data); };
  const stopped = new Promise((resolve) => { recorder.onstop = resolve; });
  // Every tick draws, the same frame again too: a canvas left unchanged sends no frame.
  let drawn = -1;
  let bitmap = null;
  const draw = async (index) => {
    if (index !== drawn) {
      if (bitmap) bitmap.close();
      bitmap = await createImageBitmap(frames[index]);
      drawn = index;
    }
    ctx.drawImage(bitmap, 0, 0, width, height);
  };
  if (order.length > 0) await draw(order[0]);
  recorder.start();
  const start = performance.now();
  for (let i = 0; i < order.length; i++) {
    await draw(order[i]);
    track.requestFrame();
    // Always a task's wait, even when late: the canvas hands its frame over between tasks.
    const wait = start + ((i + 1) * 1000) / fps - performance.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
  }
  if (bitmap) bitmap.close();
  recorder.stop();
  await stopped;
  track.stop();
  const file = new Blob(chunks, { type: mime });
  if (file.size > cap) return { data: null };
  return { data: (${toBase64Source})(new Uint8Array(await file.arrayBuffer())) };
}`;

/**
 * gifenc (its ES module's body, the `export { a as B }` clause turned into an object) and the
 * loop: the clip's frame `i` is the kept frame `order[i]`, decoded on a canvas, quantised to 256
 * colours (rgb444) and indexed once per kept frame, written with its delay; the GIF loops forever.
 */
export function gifScript(moduleSource: string): string {
  return `async (key, order, width, height, fps, cap) => {
  const lib = ${moduleObject(moduleSource, "gifenc")};
  const frames = window[key] || [];
  delete window[key];
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const gif = lib.GIFEncoder();
  const delay = Math.round(1000 / fps);
  let drawn = -1;
  let palette = null;
  let index = null;
  for (const at of order) {
    if (at !== drawn) {
      const bitmap = await createImageBitmap(frames[at]);
      ctx.drawImage(bitmap, 0, 0, width, height);
      bitmap.close();
      const { data } = ctx.getImageData(0, 0, width, height);
      palette = lib.quantize(data, 256, { format: "rgb444" });
      index = lib.applyPalette(data, palette, "rgb444");
      drawn = at;
    }
    gif.writeFrame(index, width, height, { palette, delay, repeat: 0 });
  }
  gif.finish();
  const bytes = gif.bytes();
  if (bytes.length > cap) return { data: null };
  return { data: (${toBase64Source})(bytes) };
}`;
}

/**
 * An ES module's source (one file, no imports) as an expression: its body in a function, the
 * `export { a as B }` clause (its last) turned into the object returned.
 */
function moduleObject(moduleSource: string, name: string): string {
  const exportClause = /export\s*\{([^}]*)\}\s*;?/g;
  let match: RegExpExecArray | null = null;
  for (let m = exportClause.exec(moduleSource); m; m = exportClause.exec(moduleSource)) match = m;
  if (!match?.[1]) throw new Error(`${name}: no export clause`);
  const names = match[1].split(",").map((part) => {
    const [local, exported] = part.trim().split(/\s+as\s+/);
    return `${JSON.stringify(exported ?? local)}: ${local}`;
  });
  const body =
    moduleSource.slice(0, match.index) +
    moduleSource.slice(match.index + match[0].length).replace(/\/\/# sourceMappingURL=.*$/m, "");
  return `(() => { ${body}
    return { ${names.join(", ")} }; })()`;
}

/**
 * Video by WebCodecs (VideoEncoder: VP9 for webm, H.264 for mp4) through mediabunny's muxers (a
 * static asset, inlined), encoded while the clip is filmed: this sets up the encoder under `key`
 * and starts its loop, which encodes the clip's frames as `streamFeed` hands them over (frame `i`
 * stamped `i / fps`) until `streamFinish`. The encoder queues, so no frame
 * is dropped however slow the machine, and it runs as fast as the CPU allows rather than at the
 * clip's rate. Only in a secure context (VideoEncoder exists there only) and for a codec the
 * browser can encode at this size: otherwise `{ unavailable: true }` (MediaRecorder then records).
 */
export function streamStartScript(moduleSource: string): string {
  return `async (key, format, width, height, fps, bits) => {
  if (!isSecureContext || typeof VideoEncoder !== "function") return { unavailable: true };
  const lib = ${moduleObject(moduleSource, "mediabunny")};
  // VP9 rather than VP8 in a WebM, as screen content ("text": libvpx's screen content mode): under
  // load VP8 took 52 s for 120 frames at 1280 x 800 here, VP9 19 s, VP9 as screen content 12 s.
  const codec = format === "mp4" ? "avc" : "vp9";
  const hint = { contentHint: "text" };
  if (!(await lib.canEncodeVideo(codec, { width, height, bitrate: bits, ...hint }))) return { unavailable: true };
  const output = new lib.Output({
    format: format === "mp4" ? new lib.Mp4OutputFormat({ fastStart: "in-memory" }) : new lib.WebMOutputFormat(),
    target: new lib.BufferTarget(),
  });
  const source = new lib.VideoSampleSource({ codec, bitrate: bits, latencyMode: "realtime", ...hint });
  output.addVideoTrack(source, { frameRate: fps });
  await output.start();
  const state = { frames: [], queue: [], done: false, wake: null, result: null };
  state.result = (async () => {
    // Each distinct frame decoded once, at the clip's size, into a VideoFrame; every clip frame
    // (a held one too) a view of it with its own time: no canvas, no copy per clip frame.
    let drawn = -1;
    let image = null;
    try {
      for (let i = 0; ; i++) {
        while (state.queue.length === 0 && !state.done) await new Promise((r) => { state.wake = r; });
        if (state.queue.length === 0) break;
        const at = state.queue.shift();
        if (at !== drawn) {
          const bitmap = await createImageBitmap(state.frames[at], { resizeWidth: width, resizeHeight: height });
          if (image) image.close();
          image = new VideoFrame(bitmap, { timestamp: 0 });
          bitmap.close();
          drawn = at;
        }
        const sample = new lib.VideoSample(new VideoFrame(image, { timestamp: 0 }), { timestamp: i / fps, duration: 1 / fps });
        try {
          await source.add(sample);
        } finally {
          sample.close();
        }
      }
    } finally {
      if (image) image.close();
    }
    await output.finalize();
    return new Uint8Array(output.target.buffer);
  })();
  state.result.catch(() => {});
  Object.defineProperty(window, key, { value: state, enumerable: false, configurable: true });
  return { unavailable: false };
}`;
}

/** Hands the encoder more JPEG frames (base64, kept in order) and the next clip frames' indexes. */
export const streamFeedScript = `(key, images, order) => {
  const state = window[key];
  for (const frame of images) {
    const bin = atob(frame);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    state.frames.push(new Blob([bytes], { type: "image/jpeg" }));
  }
  state.queue.push(...order);
  if (state.wake) { state.wake(); state.wake = null; }
}`;

/** Ends the clip: the file once every frame is encoded, base64, or null when it is over `cap`. */
export const streamFinishScript = `async (key, cap) => {
  const state = window[key];
  state.done = true;
  if (state.wake) { state.wake(); state.wake = null; }
  try {
    const bytes = await state.result;
    if (bytes.length > cap) return { data: null };
    return { data: (${toBase64Source})(bytes) };
  } finally {
    delete window[key];
  }
}`;
