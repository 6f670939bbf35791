/**
 * Reading the containers animated captures answer with, far enough for tests: a WebM's EBML tree
 * (DocType, the video track's size, its SimpleBlocks) and an MP4's boxes (brand, the track's
 * size, the samples of its fragments). No codec: frames are counted, not decoded (GIF frames are
 * decoded with omggif in the test).
 */

/** An EBML variable-length integer at `at`: its value (marker bit dropped) and length. */
function vint(bytes: Uint8Array, at: number, keepMarker = false) {
  const first = bytes[at] ?? 0;
  let length = 1;
  while (length <= 8 && (first & (0x80 >> (length - 1))) === 0) length++;
  if (length > 8) throw new Error(`bad EBML vint at ${at}`);
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const b = bytes[at + i] ?? 0;
    value = value * 256 + b;
    if (b !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

const MASTERS = new Set([
  0x1a45dfa3, // EBML
  0x18538067, // Segment
  0x1654ae6b, // Tracks
  0xae, // TrackEntry
  0xe0, // Video
  0x1f43b675, // Cluster
  0xa0, // BlockGroup
]);

export interface WebmFacts {
  docType: string;
  width: number | null;
  height: number | null;
  /** SimpleBlocks and Blocks: one per encoded frame of the one video track. */
  frames: number;
}

/** Walks a WebM (unknown-size Segment and Clusters, as MediaRecorder writes them, included). */
export function readWebm(bytes: Uint8Array): WebmFacts {
  const facts: WebmFacts = { docType: "", width: null, height: null, frames: 0 };
  let at = 0;
  while (at < bytes.length) {
    const id = vint(bytes, at, true);
    const size = vint(bytes, at + id.length);
    const body = at + id.length + size.length;
    if (MASTERS.has(id.value)) {
      at = body; // descend: children follow (an unknown size runs to its parent's end)
      continue;
    }
    const end = body + size.value;
    if (end > bytes.length) throw new Error(`EBML element 0x${id.value.toString(16)} overruns`);
    const uint = () => bytes.subarray(body, end).reduce((v, b) => v * 256 + b, 0);
    if (id.value === 0x4282) facts.docType = new TextDecoder().decode(bytes.subarray(body, end));
    else if (id.value === 0xb0) facts.width = uint();
    else if (id.value === 0xba) facts.height = uint();
    else if (id.value === 0xa3 || id.value === 0xa1) facts.frames++;
    at = end;
  }
  return facts;
}

export interface Mp4Facts {
  brand: string;
  /** Top-level box types in order. */
  boxes: string[];
  width: number | null;
  height: number | null;
  /** Samples of the video track: `stsz` of a plain file plus every fragment's `trun`. */
  frames: number;
}

const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "moof", "traf", "mvex"]);

export function readMp4(bytes: Uint8Array): Mp4Facts {
  const facts: Mp4Facts = { brand: "", boxes: [], width: null, height: null, frames: 0 };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const walk = (start: number, end: number, top: boolean) => {
    let at = start;
    while (at + 8 <= end) {
      let size = view.getUint32(at);
      const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
      let header = 8;
      if (size === 1) {
        size = Number(view.getBigUint64(at + 8));
        header = 16;
      } else if (size === 0) size = end - at;
      if (size < header || at + size > end) throw new Error(`MP4 box ${type} overruns`);
      if (top) facts.boxes.push(type);
      const body = at + header;
      if (type === "ftyp") facts.brand = String.fromCharCode(...bytes.subarray(body, body + 4));
      else if (type === "tkhd") {
        const version = bytes[body] ?? 0;
        const sizeAt = body + (version === 1 ? 88 : 76);
        const w = view.getUint32(sizeAt) / 65536;
        const h = view.getUint32(sizeAt + 4) / 65536;
        if (w > 0 && h > 0) {
          facts.width = w;
          facts.height = h;
        }
      } else if (type === "trun") facts.frames += view.getUint32(body + 4);
      else if (type === "stsz") facts.frames += view.getUint32(body + 8);
      else if (CONTAINERS.has(type)) walk(body, at + size, false);
      at += size;
    }
  };
  walk(0, bytes.length, true);
  return facts;
}
