/** Decoding outputs in tests: formats by magic bytes, dimensions and pixels. */
import { decode as decodePng } from "fast-png";
import jpeg from "jpeg-js";
import { imageSize, sniff } from "../../src/capture/outputs/image-info";

export { sniff };

export type Rgb = [number, number, number];

export interface Decoded {
  width: number;
  height: number;
  pixel(x: number, y: number): Rgb;
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

/** Width and height of any output image, from its header. */
export function outputSize(bytes: Uint8Array): { width: number; height: number } {
  const size = imageSize(bytes);
  if (!size) throw new Error(`not an image: ${sniff(bytes)}`);
  return size;
}

/** True when two colors are within `tolerance` on every channel. */
export function near(actual: Rgb, expected: Rgb, tolerance = 8): boolean {
  return actual.every((v, i) => Math.abs(v - (expected[i] ?? 0)) <= tolerance);
}
