/** Decoding outputs in tests: formats by magic bytes, dimensions and pixels. */
import { decode as decodePng } from "fast-png";
import jpeg from "jpeg-js";

export type Rgb = [number, number, number];

export interface Decoded {
  width: number;
  height: number;
  pixel(x: number, y: number): Rgb;
}

export function sniff(bytes: Uint8Array): "png" | "jpeg" | "webp" | "pdf" | "unknown" {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (ascii(0, 5) === "%PDF-") return "pdf";
  return "unknown";
}

export function decodeImage(bytes: Uint8Array): Decoded {
  const kind = sniff(bytes);
  if (kind === "png") {
    const png = decodePng(bytes);
    const channels = png.channels;
    return {
      width: png.width,
      height: png.height,
      pixel: (x, y) => {
        const i = (y * png.width + x) * channels;
        return [Number(png.data[i]), Number(png.data[i + 1]), Number(png.data[i + 2])];
      },
    };
  }
  if (kind === "jpeg") {
    const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
    return {
      width: img.width,
      height: img.height,
      pixel: (x, y) => {
        const i = (y * img.width + x) * 4;
        return [img.data[i] ?? 0, img.data[i + 1] ?? 0, img.data[i + 2] ?? 0];
      },
    };
  }
  throw new Error(`cannot decode ${kind} pixels`);
}

/** Width and height of any output image (WebP parsed from its VP8/VP8L/VP8X header). */
export function imageSize(bytes: Uint8Array): { width: number; height: number } {
  if (sniff(bytes) !== "webp") {
    const d = decodeImage(bytes);
    return { width: d.width, height: d.height };
  }
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  const u16 = (o: number) => (bytes[o] ?? 0) | ((bytes[o + 1] ?? 0) << 8);
  const u24 = (o: number) => u16(o) | ((bytes[o + 2] ?? 0) << 16);
  if (chunk === "VP8X") return { width: u24(24) + 1, height: u24(27) + 1 };
  if (chunk === "VP8 ") return { width: u16(26) & 0x3fff, height: u16(28) & 0x3fff };
  if (chunk === "VP8L") {
    const b = (o: number) => bytes[21 + o] ?? 0;
    return {
      width: 1 + (((b(1) & 0x3f) << 8) | b(0)),
      height: 1 + (((b(3) & 0xf) << 10) | (b(2) << 2) | ((b(1) & 0xc0) >> 6)),
    };
  }
  throw new Error(`unknown webp chunk ${chunk}`);
}

/** True when two colors are within `tolerance` on every channel. */
export function near(actual: Rgb, expected: Rgb, tolerance = 8): boolean {
  return actual.every((v, i) => Math.abs(v - (expected[i] ?? 0)) <= tolerance);
}
